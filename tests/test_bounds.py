"""Bounds on what callers may store (jq.settings max_payload_bytes, max_payload_depth,
max_error_length), and timestamps Python cannot hold, through the Python client and
the HTTP service.

Over-limit input gets its own error and writes nothing: 54000 (PayloadTooLarge, HTTP
413 PAYLOAD_TOO_LARGE), 54001 (PayloadTooDeep, HTTP 422 PAYLOAD_TOO_DEEP). Error text
is cut, never refused. The pgTAP files under tests/sql/jq_enqueue, jq_enqueue_many and
jq_fail cover the SQL side at the edges of each limit.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import psycopg
import pytest

import pyjq

pytest.importorskip("fastapi")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from pyjq.http import create_app

TOKENS = {"producer-token-0123456789": "producer", "admin-token-0123456789": "admin"}
PRODUCER = {"Authorization": "Bearer producer-token-0123456789"}


def nested(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


def live_jobs(db: psycopg.Connection) -> int:
    return db.execute("select count(*) from jq.jobs").fetchone()[0]


@pytest.fixture
def client(dsn: str) -> Iterator[TestClient]:
    with TestClient(create_app(dsn, tokens=TOKENS)) as c:
        yield c


def test_enqueue_refuses_a_payload_over_the_size_limit(db: psycopg.Connection):
    db.execute("update jq.settings set max_payload_bytes = 4096")
    with pytest.raises(pyjq.PayloadTooLarge) as caught:
        pyjq.enqueue(db, "big", {"blob": "x" * 5000})
    assert caught.value.sqlstate == "54000"
    assert "payload is" in str(caught.value) and "4096" in str(caught.value)
    assert live_jobs(db) == 0
    pyjq.enqueue(db, "small", {"blob": "x" * 3000})
    assert live_jobs(db) == 1


def test_enqueue_many_refuses_a_payload_nested_too_deep(db: psycopg.Connection):
    with pytest.raises(pyjq.PayloadTooDeep) as caught:
        pyjq.enqueue_many(db, [{"type": "ok"}, {"type": "deep", "payload": nested(65)}])
    assert caught.value.sqlstate == "54001"
    assert "jobs[1].payload" in str(caught.value)
    assert live_jobs(db) == 0


def test_http_answers_413_for_a_payload_over_the_stored_limit(client: TestClient, db: psycopg.Connection):
    db.execute("update jq.settings set max_payload_bytes = 2048")
    r = client.post("/jobs", json={"type": "big", "payload": {"blob": "x" * 3000}}, headers=PRODUCER)
    assert r.status_code == 413, r.text
    assert r.json()["error"]["code"] == "PAYLOAD_TOO_LARGE"
    assert live_jobs(db) == 0


def test_http_answers_422_for_a_payload_over_the_depth_limit(client: TestClient, db: psycopg.Connection):
    db.execute("update jq.settings set max_payload_depth = 3")
    r = client.post("/jobs", json={"type": "deep", "payload": nested(5)}, headers=PRODUCER)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "PAYLOAD_TOO_DEEP"
    assert live_jobs(db) == 0


def test_a_long_error_is_cut_and_recorded(db: psycopg.Connection):
    job_id = pyjq.enqueue(db, "fails").job_id
    db.execute("select jq.jq_claim('default', 'w1', 1)")
    status = db.execute("select status from jq.jq_fail(%s, 'w1', %s)", [job_id, "Boom " + "x" * 100_000]).fetchone()[0]
    assert status == "failed_retrying"
    got = pyjq.status(db, job_id)
    assert got is not None and got.last_error is not None
    assert len(got.last_error) == 8000
    assert got.last_error.endswith("[cut: 100005 characters in all]")


def test_get_job_whose_next_attempt_lies_past_year_9999(client: TestClient, db: psycopg.Connection):
    """A row another client wrote with a time Python cannot hold: the README's answer for an
    out-of-range timestamp (422 INVALID_TIMESTAMP), not 400 INVALID_CHARACTER."""
    job_id = pyjq.enqueue(db, "far").job_id
    db.execute("update jq.jobs set run_at = '10000-06-01 00:00Z' where id = %s", [job_id])
    r = client.get(f"/jobs/{job_id}", headers=PRODUCER)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "INVALID_TIMESTAMP"
    assert "9999" in r.json()["error"]["message"]


def test_jq_fail_keeps_the_next_attempt_within_year_9999(db: psycopg.Connection):
    """Under a test clock near the end of year 9999, a retry lands at 9999-12-30 at the latest."""
    db.execute("set jq.now = '9999-12-29 00:00Z'")
    job_id = pyjq.enqueue(db, "late").job_id
    db.execute("select jq.jq_claim('default', 'w1', 1)")
    db.execute("select jq.jq_fail(%s, 'w1', 'boom', '300 days')", [job_id])
    db.execute("reset jq.now")
    got = pyjq.status(db, job_id)
    assert got is not None and got.next_attempt_at is not None
    assert got.next_attempt_at.year == 9999
