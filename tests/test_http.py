"""The HTTP service (pyjq.http) against a real database.

Each test builds the app from the fresh database's dsn (``create_app(dsn,
tokens=...)``) and talks to it through Starlette's TestClient, which runs the
app's lifespan (and so its connection pool) in one event loop. The last test
lets schemathesis loose on the live app: no 5xx, every response as
documented.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from uuid import UUID, uuid4

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

pytest.importorskip("fastapi")

from hypothesis import HealthCheck, settings

with warnings.catch_warnings():  # starlette nudges towards httpx2; httpx works
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import schemathesis
from helpers import enqueue_sql
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    unsupported_method,
)

from pyjq import _limits as limits
from pyjq.http import create_app, load_tokens, parse_tokens
from pyjq.http.auth import Principal, TokenConfigError, TokenStore
from pyjq.http.errors import from_database
from pyjq.tracing import TRACE_KEYS

TOKENS = {"producer-token-0123456789": "producer", "admin-token-0123456789": "admin"}
PRODUCER = {"Authorization": "Bearer producer-token-0123456789"}
ADMIN = {"Authorization": "Bearer admin-token-0123456789"}

# The API block of REQUIREMENTS.txt, verbatim.
INVOICE_JOB = {
    "type": "generate_invoice_pdf",
    "payload": {"invoiceId": "inv_7731"},
    "runAt": "2026-11-01T00:05:00+05:30",
    "priority": 1,
    "maxAttempts": 8,
    "idempotencyKey": "invoice-pdf:inv_7731",
}
DAILY_DIGEST = {"cron": "0 8 * * *", "timezone": "Asia/Kolkata", "type": "send_daily_digest", "jitterSeconds": 600}
RETRY_WEBHOOKS = {"type": "deliver_webhook", "error": "HTTP 503", "since": "2026-10-18T06:00:00Z"}
# jq's clock for the examples: before the invoice's runAt, after the retry's since.
EXAMPLE_NOW = "2026-10-20T09:00:00Z"


# -- fixtures and helpers --------------------------------------------------------------


@pytest.fixture
def app(dsn: str):
    return create_app(dsn, tokens=TOKENS, max_body_bytes=64 * 1024)


@pytest.fixture
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="module")
def offline() -> TestClient:
    """A client for requests refused before the database is asked (validation, auth, routing, limits).

    Its database does not exist and it never connects: without ``with``, the
    lifespan (which would open the pool) does not run, and nothing here gets as
    far as a query. Shared by many tests, so they need no database of their own.
    """
    dsn = make_conninfo(host="127.0.0.1", port=_closed_port(), dbname="never", user="never")
    return TestClient(create_app(dsn, tokens=TOKENS, max_body_bytes=64 * 1024))


@pytest.fixture
def example_client(dsn: str) -> Iterator[TestClient]:
    """A client whose database sessions read jq's clock as EXAMPLE_NOW (jq._now() honours jq.now)."""
    pinned = make_conninfo(dsn, options=f"-c jq.now={EXAMPLE_NOW}")
    with TestClient(create_app(pinned, tokens=TOKENS)) as c:
        yield c


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def has_schedules(db: psycopg.Connection) -> bool:
    return db.execute("select to_regproc('jq.jq_schedule_put') is not null").fetchone()[0]


@pytest.fixture
def schedules(db: psycopg.Connection) -> None:
    if not has_schedules(db):
        pytest.skip("sql/functions/schedules.sql (jq_schedule_put, jq_schedules, jq_schedule_delete) not installed yet")


def assert_error(response, status: int, code: str, field: str | None = None) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    error = body["error"]
    assert error["code"] == code, body
    assert error["message"]
    assert error["requestId"] == response.headers["x-request-id"]
    if field is not None:
        assert error.get("field") == field, body
    return error


def claim(db: psycopg.Connection, queue: str = "default", worker: str = "w1") -> list[UUID]:
    return [r[0] for r in db.execute("select id from jq.jq_claim(%s, %s, 100)", [queue, worker])]


def fail(db: psycopg.Connection, job_id: UUID, error: str, worker: str = "w1", retry_in: str | None = None) -> str:
    return db.execute(
        "select status from jq.jq_fail(%s, %s, %s, %s::interval)", [job_id, worker, error, retry_in]
    ).fetchone()[0]


def make_dead(db: psycopg.Connection, type_: str, error: str, n: int = 1, queue: str = "default") -> list[UUID]:
    ids = [enqueue_sql(db, type_, max_attempts=1, queue=queue) for _ in range(n)]
    claimed = claim(db, queue)
    assert set(ids) <= set(claimed)
    for job_id in ids:
        assert fail(db, job_id, error) == "dead"
    return ids


# -- POST /jobs ------------------------------------------------------------------------


def test_enqueue_example_verbatim_201_then_duplicate_200(example_client: TestClient):
    first = example_client.post("/jobs", json=INVOICE_JOB, headers=PRODUCER)
    assert first.status_code == 201, first.text
    body = first.json()
    assert set(body) == {"jobId", "status"}
    assert body["status"] == "scheduled"
    UUID(body["jobId"])

    again = example_client.post("/jobs", json=INVOICE_JOB, headers=PRODUCER)
    assert again.status_code == 200, again.text
    assert again.json() == {"jobId": body["jobId"], "status": "scheduled", "duplicate": True}


def test_enqueue_run_at_offset_is_honoured_exactly(example_client: TestClient, db: psycopg.Connection):
    job_id = example_client.post("/jobs", json=INVOICE_JOB, headers=PRODUCER).json()["jobId"]
    stored = db.execute(
        "select run_at = '2026-10-31T18:35:00Z'::timestamptz from jq.jobs where id = %s", [job_id]
    ).fetchone()[0]
    assert stored is True
    got = example_client.get(f"/jobs/{job_id}", headers=PRODUCER).json()
    assert got["runAt"] == "2026-10-31T18:35:00Z"
    assert got["status"] == "scheduled"
    assert got["maxAttempts"] == 8


def test_enqueue_defaults_and_every_field(client: TestClient, db: psycopg.Connection):
    r = client.post("/jobs", json={"type": "send_welcome_email"}, headers=PRODUCER)
    assert r.status_code == 201 and r.json()["status"] == "queued"
    row = db.execute(
        "select queue, priority, payload, tenant from jq.jobs where id = %s", [r.json()["jobId"]]
    ).fetchone()
    assert row == ("default", 0, {}, None)

    full = {
        "type": "charge_card",
        "payload": {"amount": 1200, "nested": {"list": [1, "two", None, True]}},
        "priority": -3,
        "maxAttempts": 2,
        "idempotencyKey": "charge:1",
        "queue": "urgent",
        "tenant": "acme",
        "runAt": None,
    }
    r = client.post("/jobs", json=full, headers=ADMIN)  # admin may do what producers do
    assert r.status_code == 201, r.text
    row = db.execute(
        "select queue, priority, payload, tenant, max_attempts, idempotency_key from jq.jobs where id = %s",
        [r.json()["jobId"]],
    ).fetchone()
    assert row == ("urgent", -3, full["payload"], "acme", 2, "charge:1")


def test_enqueue_concurrency_key(client: TestClient, db: psycopg.Connection):
    r = client.post(
        "/jobs", json={"type": "sync_account", "tenant": "acme", "concurrencyKey": "acct-42"}, headers=PRODUCER
    )
    assert r.status_code == 201, r.text
    row = db.execute("select type, tenant, concurrency_key from jq.jobs where id = %s", [r.json()["jobId"]]).fetchone()
    assert row == ("sync_account", "acme", "acct-42")
    r = client.post("/jobs", json={"type": "sync_account", "concurrencyKey": None}, headers=PRODUCER)
    assert r.status_code == 201, r.text
    assert db.execute("select concurrency_key from jq.jobs where id = %s", [r.json()["jobId"]]).fetchone()[0] is None


def test_enqueue_metadata(client: TestClient, db: psycopg.Connection):
    def stored(job_id: str) -> dict | None:
        metadata = db.execute("select metadata from jq.jobs where id = %s", [job_id]).fetchone()[0]
        # An SDK another test configured in this process adds the PRODUCER span's context: not ours to check here.
        return {k: v for k, v in metadata.items() if k not in TRACE_KEYS} if metadata else metadata

    r = client.post("/jobs", json={"type": "x", "metadata": {"tenant-region": "eu", "k": ""}}, headers=PRODUCER)
    assert r.status_code == 201, r.text
    assert stored(r.json()["jobId"]) == {"tenant-region": "eu", "k": ""}
    r = client.post("/jobs", json={"type": "x", "metadata": None}, headers=PRODUCER)
    assert r.status_code == 201, r.text
    assert stored(r.json()["jobId"]) in (None, {})
    # Over jq_enqueue's 8 KiB: the database's 54000, as an oversized payload; nothing enqueued.
    before = db.execute("select count(*) from jq.jobs").fetchone()[0]
    big = {"k": "v" * limits.METADATA_MAX_BYTES}
    error = assert_error(
        client.post("/jobs", json={"type": "x", "metadata": big}, headers=PRODUCER), 413, "PAYLOAD_TOO_LARGE"
    )
    assert "metadata" in error["message"]
    assert db.execute("select count(*) from jq.jobs").fetchone()[0] == before


@pytest.mark.parametrize(
    "body, field",
    [
        ({"type": "x", "bogus": 1}, "bogus"),
        ({"type": "x", "max_attempts": 3}, "max_attempts"),  # snake_case is an unknown field
        ({"payload": {}}, "type"),
        ({"type": ""}, "type"),
        ({"type": "   "}, "type"),
        ({"type": "x" * 129}, "type"),
        ({"type": 5}, "type"),
        ({"type": "x", "payload": [1, 2]}, "payload"),
        ({"type": "x", "payload": "{}"}, "payload"),
        ({"type": "x", "priority": "5"}, "priority"),
        ({"type": "x", "priority": 40000}, "priority"),
        ({"type": "x", "priority": 1.5}, "priority"),
        ({"type": "x", "priority": True}, "priority"),
        ({"type": "x", "maxAttempts": 0}, "maxAttempts"),
        ({"type": "x", "maxAttempts": 1001}, "maxAttempts"),
        ({"type": "x", "queue": "no spaces"}, "queue"),
        ({"type": "x", "queue": "q" * 65}, "queue"),
        ({"type": "x", "idempotencyKey": ""}, "idempotencyKey"),
        ({"type": "x", "idempotencyKey": "k" * 256}, "idempotencyKey"),
        ({"type": "x", "tenant": " "}, "tenant"),
        ({"type": "x", "concurrencyKey": ""}, "concurrencyKey"),
        ({"type": "x", "concurrencyKey": "  "}, "concurrencyKey"),
        ({"type": "x", "concurrencyKey": "k" * 256}, "concurrencyKey"),
        ({"type": "x", "concurrency_key": "k"}, "concurrency_key"),  # snake_case is an unknown field
        ({"type": "x", "runAt": "2026-11-01T00:05:00"}, "runAt"),  # no offset: ambiguous
        ({"type": "x", "runAt": "tomorrow"}, "runAt"),
        ({"type": "x", "runAt": 1790000000}, "runAt"),
        ({"type": "x", "runAt": "0001-01-01T00:00:00+05:00"}, "runAt"),  # before year 1 in UTC
        ({"type": "x", "runAt": "9999-12-31T00:00:00Z"}, "runAt"),  # past jq_enqueue's range
        ({"type": "x", "payload": {"n": float("nan")}}, "payload"),
        ({"type": "x", "metadata": {"attempt": 1}}, "metadata.attempt"),  # values are strings, like headers
        ({"type": "x", "metadata": ["traceparent"]}, "metadata"),
        ({"type": "x", "metadata": "k=v"}, "metadata"),
    ],
)
def test_enqueue_validation_names_the_field(offline: TestClient, body: dict, field: str):
    r = offline.post("/jobs", content=json.dumps(body), headers={**PRODUCER, "content-type": "application/json"})
    error = assert_error(r, 422, "VALIDATION_ERROR", field)
    assert field in error["message"]


def test_enqueue_payload_depth_is_bounded(offline: TestClient):
    payload: dict = {}
    node = payload
    for _ in range(80):
        node["a"] = {}
        node = node["a"]
    assert_error(
        offline.post("/jobs", json={"type": "x", "payload": payload}, headers=PRODUCER),
        422,
        "VALIDATION_ERROR",
        "payload",
    )
    # Too deep for any JSON parser to bother: refused as unparsable, still not a 500.
    deep = '{"type": "x", "payload": ' + '{"a": ' * 5000 + "1" + "}" * 5001
    r = offline.post("/jobs", content=deep, headers={**PRODUCER, "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] in ("INVALID_JSON", "BAD_REQUEST")


@pytest.mark.parametrize(
    "raw, field",
    [
        ('{"type": "a\\u0000b"}', "type"),
        ('{"type": "x", "payload": {"k": "nul \\u0000 inside"}}', "payload"),
        ('{"type": "x", "payload": {"deep": [{"k\\u0000": 1}]}}', "payload"),
        ('{"type": "x", "tenant": "\\u0000"}', "tenant"),
        ('{"type": "x", "idempotencyKey": "a\\ud800b"}', "idempotencyKey"),  # unpaired surrogate
        ('{"type": "x", "payload": {"s": "\\udfff"}}', "payload"),
        ('{"type": "x", "metadata": {"k": "a\\u0000"}}', "metadata"),
        ('{"type": "x", "metadata": {"k\\u0000": "v"}}', "metadata"),
    ],
)
def test_nul_and_invalid_unicode_are_400(offline: TestClient, raw: str, field: str):
    r = offline.post("/jobs", content=raw, headers={**PRODUCER, "content-type": "application/json"})
    assert_error(r, 400, "INVALID_CHARACTER", field)


@pytest.mark.parametrize("raw", ['{"type": "x"', "not json", '{"type": "x"}}', b"\xff\xfe{}"])
def test_malformed_json_is_400(offline: TestClient, raw):
    r = offline.post("/jobs", content=raw, headers={**PRODUCER, "content-type": "application/json"})
    assert_error(r, 400, "INVALID_JSON")


def test_missing_body_is_422(offline: TestClient):
    assert_error(offline.post("/jobs", headers=PRODUCER), 422, "VALIDATION_ERROR", "body")


def test_body_over_the_limit_is_413(offline: TestClient):
    big = {"type": "x", "payload": {"blob": "x" * (64 * 1024)}}
    r = offline.post("/jobs", json=big, headers=PRODUCER)
    assert_error(r, 413, "PAYLOAD_TOO_LARGE")

    def chunks():  # no Content-Length: counted as it arrives
        yield b'{"type": "x", "payload": {"blob": "'
        for _ in range(100):
            yield b"y" * 1024
        yield b'"}}'

    r = offline.post("/jobs", content=chunks(), headers={**PRODUCER, "content-type": "application/json"})
    assert_error(r, 413, "PAYLOAD_TOO_LARGE")


def test_default_body_limit_is_one_mebibyte(dsn: str):
    with TestClient(create_app(dsn, tokens=TOKENS)) as c:
        ok = c.post("/jobs", json={"type": "x", "payload": {"b": "x" * (1024 * 1024 - 100)}}, headers=PRODUCER)
        assert ok.status_code == 201, ok.text
        big = c.post("/jobs", json={"type": "x", "payload": {"b": "x" * (1024 * 1024)}}, headers=PRODUCER)
        assert_error(big, 413, "PAYLOAD_TOO_LARGE")


# -- GET /jobs/{id} --------------------------------------------------------------------


def test_status_shape_and_failed_retrying_example(client: TestClient, db: psycopg.Connection):
    job_id = client.post("/jobs", json={"type": "generate_invoice_pdf", "maxAttempts": 8}, headers=PRODUCER).json()[
        "jobId"
    ]
    for attempt in (1, 2, 3):
        assert claim(db) == [UUID(job_id)]
        fail(db, UUID(job_id), "Timeout calling pdf-renderer after 30s", retry_in="0 seconds" if attempt < 3 else None)

    r = client.get(f"/jobs/{job_id}", headers=PRODUCER)
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {
        "jobId",
        "type",
        "queue",
        "status",
        "attempts",
        "maxAttempts",
        "runAt",
        "nextAttemptAt",
        "lastError",
        "createdAt",
        "finishedAt",
        "result",
    }
    assert body["status"] == "failed_retrying"
    assert body["attempts"] == 3
    assert body["lastError"] == "Timeout calling pdf-renderer after 30s"
    assert body["nextAttemptAt"] is not None and body["nextAttemptAt"].endswith("Z")
    assert body["finishedAt"] is None
    assert (body["jobId"], body["type"], body["queue"], body["maxAttempts"]) == (
        job_id,
        "generate_invoice_pdf",
        "default",
        8,
    )


def test_status_of_finished_jobs(client: TestClient, db: psycopg.Connection):
    done = enqueue_sql(db, "a")
    claim(db)
    db.execute("select jq.jq_complete(array[%s]::uuid[], 'w1')", [done])
    body = client.get(f"/jobs/{done}", headers=PRODUCER).json()
    assert body["status"] == "succeeded" and body["finishedAt"] is not None

    dead = make_dead(db, "b", "boom")[0]
    body = client.get(f"/jobs/{dead}", headers=PRODUCER).json()
    assert body["status"] == "dead" and body["lastError"] == "boom"


def test_status_unknown_is_404(client: TestClient):
    for job_id in (str(uuid4()), "job_01JA9", "not-a-uuid", "x" * 500):
        assert_error(client.get(f"/jobs/{job_id}", headers=PRODUCER), 404, "JOB_NOT_FOUND")


# -- POST /jobs/{id}/cancel ------------------------------------------------------------


def test_cancel_queued_and_scheduled_200(client: TestClient, db: psycopg.Connection):
    for body in ({"type": "x"}, {"type": "x", "runAt": "2099-01-01T00:00:00Z"}):
        job_id = client.post("/jobs", json=body, headers=PRODUCER).json()["jobId"]
        r = client.post(f"/jobs/{job_id}/cancel", headers=PRODUCER)
        assert r.status_code == 200, r.text
        assert r.json() == {"jobId": job_id, "status": "cancelled"}
        assert client.get(f"/jobs/{job_id}", headers=PRODUCER).json()["status"] == "cancelled"
        # Cancelling again (a client retrying after a timeout) is still 200.
        assert client.post(f"/jobs/{job_id}/cancel", headers=PRODUCER).status_code == 200
    assert claim(db) == []


def test_cancel_running_is_409_job_running(client: TestClient, db: psycopg.Connection):
    job_id = client.post("/jobs", json={"type": "x"}, headers=PRODUCER).json()["jobId"]
    claim(db)
    r = client.post(f"/jobs/{job_id}/cancel", headers={**PRODUCER, "X-Request-Id": "req_5e"})
    assert r.status_code == 409
    assert r.json() == {
        "error": {
            "code": "JOB_RUNNING",
            "message": "Job is running; cancellation is cooperative.",
            "requestId": "req_5e",
        }
    }
    assert r.headers["x-request-id"] == "req_5e"
    assert db.execute("select cancel_requested from jq.jobs where id = %s", [job_id]).fetchone()[0] is True


def test_cancel_finished_is_409_job_finished(client: TestClient, db: psycopg.Connection):
    done = enqueue_sql(db, "a")
    claim(db)
    db.execute("select jq.jq_complete(array[%s]::uuid[], 'w1')", [done])
    error = assert_error(client.post(f"/jobs/{done}/cancel", headers=PRODUCER), 409, "JOB_FINISHED")
    assert "succeeded" in error["message"]
    dead = make_dead(db, "b", "boom")[0]
    assert_error(client.post(f"/jobs/{dead}/cancel", headers=PRODUCER), 409, "JOB_FINISHED")


def test_cancel_unknown_is_404(client: TestClient):
    for job_id in (str(uuid4()), "job_01JA9"):
        assert_error(client.post(f"/jobs/{job_id}/cancel", headers=PRODUCER), 404, "JOB_NOT_FOUND")


# -- dead letters ----------------------------------------------------------------------


def test_dead_letter_groups_and_retry_example(client: TestClient, db: psycopg.Connection):
    db.execute(f"set jq.now = '{EXAMPLE_NOW}'")
    make_dead(db, "deliver_webhook", "HTTP 503", n=3)
    make_dead(db, "deliver_webhook", "Timeout after 30s for hook_123", n=2)
    make_dead(db, "send_email", "SMTP 421", n=1)

    r = client.get("/dead-letter", headers=ADMIN)
    assert r.status_code == 200
    groups = r.json()["groups"]
    assert [(g["type"], g["error"], g["count"]) for g in groups] == [
        ("deliver_webhook", "HTTP 503", 3),
        ("deliver_webhook", "Timeout after 30s for ?", 2),
        ("send_email", "SMTP 421", 1),
    ]
    assert groups[0]["firstFailedAt"] == groups[0]["lastFailedAt"] == "2026-10-20T09:00:00Z"
    assert set(groups[0]) == {"type", "error", "count", "firstFailedAt", "lastFailedAt", "sampleError"}

    only = client.get("/dead-letter", params={"type": "send_email"}, headers=ADMIN).json()["groups"]
    assert [g["type"] for g in only] == ["send_email"]
    later = client.get("/dead-letter", params={"since": "2026-10-21T00:00:00Z"}, headers=ADMIN).json()["groups"]
    assert later == []
    offset = client.get("/dead-letter", params={"since": "2026-10-20T14:30:00+05:30"}, headers=ADMIN)
    assert len(offset.json()["groups"]) == 3  # 09:00Z is exactly that instant

    r = client.post("/dead-letter/retry", json=RETRY_WEBHOOKS, headers=ADMIN)
    assert r.status_code == 202, r.text
    assert r.json() == {"requeued": 3}
    again = client.post("/dead-letter/retry", json=RETRY_WEBHOOKS, headers=ADMIN)
    assert again.status_code == 202
    assert again.json()["requeued"] == 0  # nothing matched: the closest groups, the same type first
    assert [(g["type"], g["count"]) for g in again.json()["hint"]] == [("deliver_webhook", 2), ("send_email", 1)]
    r = client.post("/dead-letter/retry", json={"type": "deliver_webhook", "limit": 1}, headers=ADMIN)
    assert r.json() == {"requeued": 1}
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 2


@pytest.mark.parametrize(
    "params, field",
    [
        ({"since": "yesterday"}, "since"),
        ({"since": "2026-10-20T00:00:00"}, "since"),
        ({"type": ""}, "type"),
        ({"tpye": "x"}, "tpye"),  # unknown query parameters are refused too
    ],
)
def test_dead_letter_query_validation(offline: TestClient, params: dict, field: str):
    assert_error(offline.get("/dead-letter", params=params, headers=ADMIN), 422, "VALIDATION_ERROR", field)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"error": "HTTP 503"}, "type"),
        ({"type": "x", "limit": 0}, "limit"),
        ({"type": "x", "since": "soon"}, "since"),
        ({"type": "x", "errors": "HTTP 503"}, "errors"),
    ],
)
def test_dead_letter_retry_validation(offline: TestClient, body: dict, field: str):
    assert_error(offline.post("/dead-letter/retry", json=body, headers=ADMIN), 422, "VALIDATION_ERROR", field)


# -- queues, metrics, health -----------------------------------------------------------


def test_queues_and_metrics(client: TestClient, db: psycopg.Connection):
    db.execute("set jq.now = '2026-10-20T09:00:00Z'")
    enqueue_sql(db, "a")
    enqueue_sql(db, "a", run_at="2026-10-20T08:59:00Z")  # ready for a minute at jq's clock
    enqueue_sql(db, "a", run_at="2099-01-01T00:00:00Z")
    enqueue_sql(db, "u", queue="urgent")
    claim(db, "urgent")
    make_dead(db, "b", "boom", queue="bulk")

    r = client.get("/queues", headers=ADMIN)
    assert r.status_code == 200
    queues = {q["queue"]: q for q in r.json()["queues"]}
    assert set(queues) == {"default", "urgent", "bulk"}
    d = queues["default"]
    assert (d["ready"], d["scheduled"], d["running"], d["dead"]) == (2, 1, 0, 0)
    assert d["oldestReadyAgeSeconds"] > 0  # the service's clock is real time, past 2026-10-20
    assert queues["urgent"]["running"] == 1 and queues["urgent"]["oldestReadyAgeSeconds"] is None
    assert queues["bulk"]["dead"] == 1

    r = client.get("/metrics", headers=ADMIN)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    text = r.text
    assert re.search(r'^jq_queue_ready_jobs\{queue="default"\} 2\.0$', text, re.M)
    assert re.search(r'^jq_queue_scheduled_jobs\{queue="default"\} 1\.0$', text, re.M)
    assert re.search(r'^jq_queue_running_jobs\{queue="urgent"\} 1\.0$', text, re.M)
    assert re.search(r'^jq_queue_dead_jobs\{queue="bulk"\} 1\.0$', text, re.M)
    age = re.search(r'^jq_queue_oldest_ready_job_age_seconds\{queue="default"\} (\S+)$', text, re.M)
    assert age and float(age.group(1)) > 0
    assert re.search(r'^jq_queue_oldest_ready_job_age_seconds\{queue="urgent"\} 0\.0$', text, re.M)
    assert "# TYPE jq_queue_oldest_ready_job_age_seconds gauge" in text


def test_metrics_parse_as_prometheus_text(client: TestClient, db: psycopg.Connection):
    from prometheus_client.parser import text_string_to_metric_families

    enqueue_sql(db, "a", queue="tenant-7:emails.v2_x")
    families = {f.name: f for f in text_string_to_metric_families(client.get("/metrics", headers=ADMIN).text)}
    assert {
        "jq_queue_ready_jobs",
        "jq_queue_scheduled_jobs",
        "jq_queue_running_jobs",
        "jq_queue_dead_jobs",
        "jq_queue_oldest_ready_job_age_seconds",
    } <= set(families)
    assert all(f.type == "gauge" for f in families.values())
    ready = families["jq_queue_ready_jobs"].samples
    assert [(s.labels, s.value) for s in ready] == [({"queue": "tenant-7:emails.v2_x"}, 1.0)]


def test_healthz_needs_no_token(client: TestClient):
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json()["status"] == "ok" and r.json()["schemaVersion"]
    assert r.headers["x-request-id"].startswith("req_")


def test_database_down_is_503_with_retry_after():
    dsn = make_conninfo(host="127.0.0.1", port=_closed_port(), dbname="nowhere", user="nobody", connect_timeout=1)
    with TestClient(create_app(dsn, tokens=TOKENS, pool_timeout=0.5)) as c:
        for r in (
            c.get("/healthz"),
            c.post("/jobs", json={"type": "x"}, headers=PRODUCER),
            c.get("/queues", headers=ADMIN),
        ):
            error = assert_error(r, 503, "DATABASE_UNAVAILABLE")
            assert int(r.headers["retry-after"]) > 0
            assert "nowhere" not in error["message"] and "nobody" not in error["message"]
        # Validation and auth do not need the database.
        assert_error(c.post("/jobs", json={}, headers=PRODUCER), 422, "VALIDATION_ERROR")
        assert_error(c.get("/queues"), 401, "UNAUTHENTICATED")


def test_database_role_without_grant_is_403_permission_denied(dsn: str, db: psycopg.Connection):
    role = "jq_http_test_producer"
    db.execute(f"drop role if exists {role}")
    db.execute(f"create role {role} login")
    db.execute(f"grant jq_producer to {role}")
    try:
        as_producer = make_conninfo(dsn, user=role)
        with TestClient(create_app(as_producer, tokens=TOKENS)) as c:
            assert c.post("/jobs", json={"type": "x"}, headers=PRODUCER).status_code == 201
            error = assert_error(c.get("/dead-letter", headers=ADMIN), 403, "PERMISSION_DENIED")
            assert "jq_dead_groups" in error["message"]
    finally:
        db.execute(f"drop role if exists {role}")


def test_not_installed_is_503(dsn: str, db: psycopg.Connection):
    db.execute("drop schema jq cascade")
    with TestClient(create_app(dsn, tokens=TOKENS)) as c:
        assert_error(c.get("/healthz"), 503, "NOT_INSTALLED")
        assert_error(c.post("/jobs", json={"type": "x"}, headers=PRODUCER), 503, "NOT_INSTALLED")


# -- schedules -------------------------------------------------------------------------


def test_schedule_put_example_201_then_200(client: TestClient, schedules):
    r = client.put("/schedules/daily-digest", json=DAILY_DIGEST, headers=ADMIN)
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["name"] == "daily-digest"
    assert (body["cron"], body["timezone"], body["type"], body["jitterSeconds"]) == (
        "0 8 * * *",
        "Asia/Kolkata",
        "send_daily_digest",
        600,
    )
    assert (body["queue"], body["priority"], body["payload"], body["paused"]) == ("default", 0, {}, False)
    assert body["nextRunAt"].endswith("T02:30:00Z")  # 08:00 in Asia/Kolkata (+05:30)

    changed = {
        **DAILY_DIGEST,
        "cron": "30 8 * * 1-5",
        "payload": {"edition": "weekday"},
        "queue": "bulk",
        "priority": 2,
        "maxAttempts": 3,
    }
    r = client.put("/schedules/daily-digest", json=changed, headers=ADMIN)
    assert r.status_code == 200, r.text
    assert (r.json()["cron"], r.json()["payload"], r.json()["maxAttempts"]) == (
        "30 8 * * 1-5",
        {"edition": "weekday"},
        3,
    )


def test_schedule_get_list_delete(client: TestClient, schedules):
    for name in ("b-sched", "a-sched"):
        assert client.put(f"/schedules/{name}", json=DAILY_DIGEST, headers=ADMIN).status_code == 201
    listed = client.get("/schedules", headers=ADMIN)
    assert listed.status_code == 200
    assert sorted(s["name"] for s in listed.json()["schedules"]) == ["a-sched", "b-sched"]
    one = client.get("/schedules/a-sched", headers=ADMIN)
    assert one.status_code == 200 and one.json()["name"] == "a-sched"
    assert set(one.json()) == {
        "name",
        "cron",
        "timezone",
        "type",
        "payload",
        "queue",
        "priority",
        "jitterSeconds",
        "maxAttempts",
        "missed",
        "paused",
        "nextRunAt",
        "lastSlotAt",
        "createdAt",
        "updatedAt",
    }

    deleted = client.delete("/schedules/a-sched", headers=ADMIN)
    assert deleted.status_code == 204 and deleted.content == b""
    assert_error(client.get("/schedules/a-sched", headers=ADMIN), 404, "SCHEDULE_NOT_FOUND")
    assert_error(client.delete("/schedules/a-sched", headers=ADMIN), 404, "SCHEDULE_NOT_FOUND")
    assert [s["name"] for s in client.get("/schedules", headers=ADMIN).json()["schedules"]] == ["b-sched"]


def test_schedule_refused_by_jq_is_422(client: TestClient, schedules):
    for change in (
        {"cron": "61 * * * *"},
        {"cron": "every morning"},
        {"cron": "0 0 31 2 *"},
        {"timezone": "Mars/Olympus_Mons"},
        {"timezone": "../etc/passwd"},
    ):
        error = assert_error(
            client.put("/schedules/bad", json={**DAILY_DIGEST, **change}, headers=ADMIN), 422, "INVALID_ARGUMENT"
        )
        assert next(iter(change)) in error["message"]
    assert_error(client.get("/schedules/bad", headers=ADMIN), 404, "SCHEDULE_NOT_FOUND")


@pytest.mark.parametrize(
    "body, field",
    [
        ({"timezone": "UTC", "type": "x"}, "cron"),
        ({**DAILY_DIGEST, "jitterSeconds": -1}, "jitterSeconds"),
        ({**DAILY_DIGEST, "jitterSeconds": 86401}, "jitterSeconds"),
        ({**DAILY_DIGEST, "jitter_seconds": 5}, "jitter_seconds"),
        ({**DAILY_DIGEST, "enabled": False}, "enabled"),
        ({**DAILY_DIGEST, "missed": "sometimes"}, "missed"),
    ],
)
def test_schedule_validation_names_the_field(offline: TestClient, body: dict, field: str):
    # Refused before the database is asked, so this holds with or without schedules.sql.
    assert_error(offline.put("/schedules/x", json=body, headers=ADMIN), 422, "VALIDATION_ERROR", field)


def test_schedule_name_rules(offline: TestClient):
    assert_error(offline.put("/schedules/has space", json=DAILY_DIGEST, headers=ADMIN), 422, "VALIDATION_ERROR", "name")
    assert_error(offline.get("/schedules/a%00b", headers=ADMIN), 400, "INVALID_CHARACTER", "name")
    assert_error(offline.delete("/schedules/" + "n" * 129, headers=ADMIN), 422, "VALIDATION_ERROR", "name")


# -- fairness: tenants, tenant policies, key limits -----------------------------------------


def test_tenant_policies_put_list_delete(client: TestClient, db: psycopg.Connection):
    r = client.put("/tenant-policies/emails/acme", json={"weight": 3, "maxRunning": 10}, headers=ADMIN)
    assert r.status_code == 200, r.text
    assert r.json() == {"queue": "emails", "tenant": "acme", "weight": 3, "maxRunning": 10}
    # '*' for every queue or tenant; '-' is jobs without a tenant; a field left out is null (inherited).
    r = client.put("/tenant-policies/*/-", json={"maxRunning": 0}, headers=ADMIN)
    assert r.status_code == 200, r.text
    assert r.json() == {"queue": "*", "tenant": None, "weight": None, "maxRunning": 0}
    r = client.put("/tenant-policies/emails/*", json={"weight": 2}, headers=ADMIN)
    assert r.json() == {"queue": "emails", "tenant": "*", "weight": 2, "maxRunning": None}
    # A PUT replaces the row.
    r = client.put("/tenant-policies/emails/acme", json={"weight": 5}, headers=ADMIN)
    assert r.json() == {"queue": "emails", "tenant": "acme", "weight": 5, "maxRunning": None}

    r = client.get("/tenant-policies", headers=ADMIN)
    assert r.status_code == 200
    policies = r.json()["policies"]
    assert [(p["queue"], p["tenant"], p["weight"], p["maxRunning"]) for p in policies] == [
        ("*", None, None, 0),
        ("emails", "*", 2, None),
        ("emails", "acme", 5, None),
    ]
    assert all(p["updatedAt"].endswith("Z") for p in policies)
    assert db.execute("select count(*) from jq.tenant_policies").fetchone()[0] == 3

    deleted = client.delete("/tenant-policies/emails/acme", headers=ADMIN)
    assert deleted.status_code == 204 and deleted.content == b""
    assert_error(client.delete("/tenant-policies/emails/acme", headers=ADMIN), 404, "POLICY_NOT_FOUND")
    assert client.delete("/tenant-policies/*/-", headers=ADMIN).status_code == 204
    assert [(p["queue"], p["tenant"]) for p in client.get("/tenant-policies", headers=ADMIN).json()["policies"]] == [
        ("emails", "*")
    ]


def test_tenant_policy_refused_by_jq_is_422(client: TestClient):
    # Within the documented schema but refused by jq: a queue name jq_tenant_policy_set rejects is caught
    # by the path pattern, so the body is what is left to check here.
    for body in ({"weight": 0}, {"weight": 1001}, {"maxRunning": -1}, {"maxRunning": 1000001}):
        assert_error(client.put("/tenant-policies/default/acme", json=body, headers=ADMIN), 422, "VALIDATION_ERROR")
    error = assert_error(
        client.put("/tenant-policies/default/acme", json={}, headers=ADMIN), 422, "VALIDATION_ERROR", "body"
    )
    assert "weight" in error["message"]
    assert_error(
        client.put("/tenant-policies/default/acme", json={"weight": None}, headers=ADMIN),
        422,
        "VALIDATION_ERROR",
        "weight",
    )
    assert_error(
        client.put("/tenant-policies/default/acme", json={"weight": 1, "max_running": 2}, headers=ADMIN),
        422,
        "VALIDATION_ERROR",
        "max_running",
    )
    assert_error(
        client.put("/tenant-policies/bad%20queue/acme", json={"weight": 1}, headers=ADMIN),
        422,
        "VALIDATION_ERROR",
        "queue",
    )
    assert_error(
        client.put("/tenant-policies/default/" + "t" * 129, json={"weight": 1}, headers=ADMIN),
        422,
        "VALIDATION_ERROR",
        "tenant",
    )
    assert_error(
        client.put("/tenant-policies/default/%20%20", json={"weight": 1}, headers=ADMIN),
        422,
        "VALIDATION_ERROR",
        "tenant",
    )


def test_tenants_lists_counts_and_policy(client: TestClient, db: psycopg.Connection):
    client.put("/tenant-policies/default/acme", json={"weight": 4, "maxRunning": 2}, headers=ADMIN)
    for body in (
        {"type": "a", "tenant": "acme"},
        {"type": "a", "tenant": "acme"},
        {"type": "a"},
        {"type": "a", "tenant": "acme", "runAt": "2099-01-01T00:00:00Z"},
        {"type": "a", "queue": "bulk"},
    ):
        assert client.post("/jobs", json=body, headers=PRODUCER).status_code == 201
    claim(db, "bulk")

    r = client.get("/tenants", headers=ADMIN)
    assert r.status_code == 200, r.text
    tenants = r.json()["tenants"]
    assert tenants == [
        {
            "queue": "bulk",
            "tenant": None,
            "ready": 0,
            "scheduled": 0,
            "running": 1,
            "weight": 1,
            "maxRunning": None,
            "served": tenants[0]["served"],
        },
        {
            "queue": "default",
            "tenant": None,
            "ready": 1,
            "scheduled": 0,
            "running": 0,
            "weight": 1,
            "maxRunning": None,
            "served": 0,
        },
        {
            "queue": "default",
            "tenant": "acme",
            "ready": 2,
            "scheduled": 1,
            "running": 0,
            "weight": 4,
            "maxRunning": 2,
            "served": 0,
        },
    ]
    only = client.get("/tenants", params={"queue": "bulk"}, headers=ADMIN).json()["tenants"]
    assert [t["queue"] for t in only] == ["bulk"]
    assert client.get("/tenants", params={"queue": "nope"}, headers=ADMIN).json() == {"tenants": []}
    assert_error(client.get("/tenants", params={"queue": "bad queue"}, headers=ADMIN), 422, "VALIDATION_ERROR", "queue")
    assert_error(client.get("/tenants", params={"tenant": "x"}, headers=ADMIN), 422, "VALIDATION_ERROR", "tenant")


def test_key_limits_put_delete(client: TestClient, db: psycopg.Connection):
    r = client.put("/key-limits/sync_account", json={"maxRunning": 2}, headers=ADMIN)
    assert r.status_code == 200, r.text
    assert r.json() == {"type": "sync_account", "maxRunning": 2}
    assert client.put("/key-limits/sync_account", json={"maxRunning": 3}, headers=ADMIN).json()["maxRunning"] == 3
    assert db.execute("select type, max_running from jq.key_limits").fetchall() == [("sync_account", 3)]

    for body, field in (
        ({"maxRunning": 0}, "maxRunning"),
        ({"maxRunning": 1000001}, "maxRunning"),
        ({}, "maxRunning"),
        ({"maxRunning": "2"}, "maxRunning"),
        ({"maxRunning": 2, "max": 2}, "max"),
    ):
        assert_error(client.put("/key-limits/sync_account", json=body, headers=ADMIN), 422, "VALIDATION_ERROR", field)

    deleted = client.delete("/key-limits/sync_account", headers=ADMIN)
    assert deleted.status_code == 204 and deleted.content == b""
    assert_error(client.delete("/key-limits/sync_account", headers=ADMIN), 404, "KEY_LIMIT_NOT_FOUND")
    assert db.execute("select count(*) from jq.key_limits").fetchone()[0] == 0


# -- auth ------------------------------------------------------------------------------

PRODUCER_ROUTES = [("POST", "/jobs"), ("GET", f"/jobs/{uuid4()}"), ("POST", f"/jobs/{uuid4()}/cancel")]
ADMIN_ROUTES = [
    ("PUT", "/schedules/daily-digest"),
    ("GET", "/schedules"),
    ("GET", "/schedules/daily-digest"),
    ("DELETE", "/schedules/daily-digest"),
    ("GET", "/dead-letter"),
    ("POST", "/dead-letter/retry"),
    ("GET", "/queues"),
    ("GET", "/metrics"),
    ("GET", "/tenants"),
    ("GET", "/tenant-policies"),
    ("PUT", "/tenant-policies/default/acme"),
    ("DELETE", "/tenant-policies/default/acme"),
    ("PUT", "/key-limits/sync_account"),
    ("DELETE", "/key-limits/sync_account"),
    ("GET", "/audit"),
    ("GET", f"/jobs/{uuid4()}/attempts"),
]
ALL_ROUTES = PRODUCER_ROUTES + ADMIN_ROUTES + [("GET", "/openapi.json")]


@pytest.mark.parametrize("method, path", ALL_ROUTES)
@pytest.mark.parametrize(
    "auth",
    [
        None,
        "Bearer wrong-token",
        "Bearer ",
        "Basic YWRtaW46YWRtaW4=",
        "bearer producer-token-012345678",
        "Bearer admin-token-0123456789x",
    ],
)
def test_without_a_valid_token_every_route_is_401(offline: TestClient, method: str, path: str, auth: str | None):
    headers = {"Authorization": auth} if auth else {}
    r = offline.request(method, path, headers=headers, json={"type": "x"} if method in ("POST", "PUT") else None)
    assert_error(r, 401, "UNAUTHENTICATED")
    assert r.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize("method, path", ADMIN_ROUTES)
def test_producer_token_on_admin_routes_is_403(offline: TestClient, method: str, path: str):
    r = offline.request(method, path, headers=PRODUCER, json=DAILY_DIGEST if method == "PUT" else None)
    error = assert_error(r, 403, "FORBIDDEN")
    assert "admin" in error["message"]


def test_producer_routes_take_either_scope(client: TestClient):
    for headers in (PRODUCER, ADMIN):
        for method, path in PRODUCER_ROUTES:
            r = client.request(method, path, headers=headers, json={"type": "x"} if method == "POST" else None)
            assert r.status_code in (201, 404), r.text  # 404: the random job id is unknown


def test_bearer_scheme_is_case_insensitive(client: TestClient):
    assert (
        client.get("/jobs/" + str(uuid4()), headers={"Authorization": "bearer producer-token-0123456789"}).status_code
        == 404
    )


def test_no_tokens_configured_means_401_everywhere_but_healthz(dsn: str, monkeypatch):
    monkeypatch.delenv("JQ_API_TOKENS", raising=False)
    monkeypatch.delenv("JQ_API_TOKENS_FILE", raising=False)
    with TestClient(create_app(dsn)) as c:
        assert c.get("/healthz").status_code == 200
        assert_error(c.get("/queues", headers=ADMIN), 401, "UNAUTHENTICATED")
        assert_error(c.post("/jobs", json={"type": "x"}, headers={"Authorization": "Bearer "}), 401, "UNAUTHENTICATED")


def test_tokens_from_environment_and_file(dsn: str, tmp_path, monkeypatch):
    token_file = tmp_path / "tokens"
    token_file.write_text("# jq API tokens\nfile-admin:admin\n\nfile-producer:producer, other:producer\n")
    monkeypatch.setenv("JQ_API_TOKENS", "env-producer:producer")
    monkeypatch.setenv("JQ_API_TOKENS_FILE", str(token_file))
    assert load_tokens() == {
        "env-producer": "producer",
        "file-admin": "admin",
        "file-producer": "producer",
        "other": "producer",
    }
    with TestClient(create_app(dsn)) as c:
        assert c.get("/queues", headers={"Authorization": "Bearer file-admin"}).status_code == 200
        assert_error(c.get("/queues", headers={"Authorization": "Bearer env-producer"}), 403, "FORBIDDEN")
        assert c.post("/jobs", json={"type": "x"}, headers={"Authorization": "Bearer env-producer"}).status_code == 201


def test_token_parsing():
    assert parse_tokens("a:producer, b:admin,,c:d:ADMIN") == {"a": "producer", "b": "admin", "c:d": "admin"}
    for bad in ("a", ":admin", "a:root", "a b:admin", "a:admin,a:producer"):
        with pytest.raises(TokenConfigError) as exc:
            parse_tokens(bad)
        assert "a b" not in str(exc.value)  # errors name entries by number, never the token
    with pytest.raises(TokenConfigError):
        load_tokens({"JQ_API_TOKENS_FILE": "/nonexistent/tokens"})
    store = TokenStore({"t1": "producer", "t2": "admin"})
    assert (store.scope_of("t1"), store.scope_of("t2"), store.scope_of("t3"), store.scope_of("")) == (
        "producer",
        "admin",
        None,
        None,
    )


# -- request ids, routing errors, error mapping ------------------------------------------


def test_request_id_is_kept_when_sane_and_made_otherwise(offline: TestClient):
    r = offline.get("/queues", headers={"X-Request-Id": "trace-4bf92f3577b34da6:01"})
    assert r.headers["x-request-id"] == r.json()["error"]["requestId"] == "trace-4bf92f3577b34da6:01"
    for insane in ("has spaces", "x" * 200, "-leading-dash", "semi;colon", "ünïcode"):
        r = offline.get("/queues", headers={"X-Request-Id": insane.encode()})
        assert r.headers["x-request-id"].startswith("req_") and r.headers["x-request-id"] != insane
        assert r.json()["error"]["requestId"] == r.headers["x-request-id"]
    ids = {offline.get("/queues").headers["x-request-id"] for _ in range(5)}
    assert len(ids) == 5
    # 413 is answered before the app runs, and still carries the id.
    r = offline.post("/jobs", content=b"x" * (65 * 1024), headers={**PRODUCER, "X-Request-Id": "big-1"})
    assert r.status_code == 413 and r.headers["x-request-id"] == "big-1"


def test_unknown_route_and_method(offline: TestClient):
    assert_error(offline.get("/nope", headers=ADMIN), 404, "NOT_FOUND")
    r = offline.delete("/jobs", headers=ADMIN)
    assert_error(r, 405, "METHOD_NOT_ALLOWED")
    assert r.headers["allow"] == "GET, POST"  # POST enqueues, GET lists (admin)
    r = offline.post("/schedules/daily", headers=ADMIN)  # three routes share the path
    assert_error(r, 405, "METHOD_NOT_ALLOWED")
    assert r.headers["allow"] == "DELETE, GET, PUT"


def test_sqlstate_table():
    import psycopg.errors as e
    from psycopg_pool import PoolTimeout

    from pyjq.errors import InvalidArgument

    cases = [
        (e.InvalidParameterValue("x"), 422, "INVALID_ARGUMENT"),
        (e.NullValueNotAllowed("x"), 422, "MISSING_ARGUMENT"),
        (e.StringDataRightTruncation("x"), 422, "VALUE_TOO_LONG"),
        (e.InvalidDatetimeFormat("x"), 422, "INVALID_TIMESTAMP"),
        (e.NumericValueOutOfRange("x"), 422, "INVALID_ARGUMENT"),  # the rest of class 22
        (e.UntranslatableCharacter("x"), 400, "INVALID_CHARACTER"),
        (e.CharacterNotInRepertoire("x"), 400, "INVALID_CHARACTER"),
        (e.CheckViolation("x"), 422, "CONSTRAINT_VIOLATION"),
        (e.UniqueViolation("x"), 409, "CONFLICT"),
        (e.InsufficientPrivilege("x"), 403, "PERMISSION_DENIED"),
        (e.UndefinedFunction("x"), 503, "NOT_INSTALLED"),
        (e.SerializationFailure("x"), 503, "RETRY"),
        (e.DeadlockDetected("x"), 503, "RETRY"),
        (e.QueryCanceled("x"), 503, "TIMEOUT"),
        (e.AdminShutdown("x"), 503, "DATABASE_UNAVAILABLE"),
        (e.ConnectionFailure("x"), 503, "DATABASE_UNAVAILABLE"),
        (e.TooManyConnections("x"), 503, "DATABASE_UNAVAILABLE"),
        (psycopg.OperationalError("connection refused"), 503, "DATABASE_UNAVAILABLE"),
        (PoolTimeout("x"), 503, "DATABASE_UNAVAILABLE"),
        (psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes"), 400, "INVALID_CHARACTER"),
        (InvalidArgument("type must not be empty", sqlstate="22023", hint="Pass a type."), 422, "INVALID_ARGUMENT"),
        (e.InternalError_("x"), 500, "INTERNAL"),
    ]
    for exc, status, code in cases:
        error = from_database(exc)
        assert (error.status, error.code) == (status, code), exc
        if status == 503:
            assert int(error.headers["Retry-After"]) > 0
    assert from_database(cases[-2][0]).message == "type must not be empty (Pass a type.)"


# -- OpenAPI ---------------------------------------------------------------------------


def test_openapi_documents_every_route_and_error(offline: TestClient):
    assert_error(offline.get("/openapi.json"), 401, "UNAUTHENTICATED")
    r = offline.get("/openapi.json", headers=PRODUCER)
    assert r.status_code == 200
    doc = r.json()
    operations = {(m.upper(), p): op for p, item in doc["paths"].items() for m, op in item.items()}
    assert set(operations) == {
        ("POST", "/jobs"),
        ("GET", "/jobs/{id}"),
        ("POST", "/jobs/{id}/cancel"),
        ("PUT", "/schedules/{name}"),
        ("GET", "/schedules"),
        ("GET", "/schedules/{name}"),
        ("DELETE", "/schedules/{name}"),
        ("GET", "/dead-letter"),
        ("POST", "/dead-letter/retry"),
        ("GET", "/queues"),
        ("GET", "/workers"),
        ("GET", "/metrics"),
        ("GET", "/healthz"),
        ("GET", "/tenants"),
        ("GET", "/tenant-policies"),
        ("PUT", "/tenant-policies/{queue}/{tenant}"),
        ("DELETE", "/tenant-policies/{queue}/{tenant}"),
        ("PUT", "/key-limits/{type}"),
        ("DELETE", "/key-limits/{type}"),
        ("GET", "/audit"),
        ("GET", "/jobs/{id}/attempts"),
        # operator routes on many jobs (routes/operator_jobs.py)
        ("GET", "/jobs"),
        ("POST", "/jobs/retry"),
        ("POST", "/jobs/cancel"),
        ("POST", "/jobs/discard"),
        ("POST", "/dead-letter/jobs/requeue"),
        ("POST", "/dead-letter/jobs/delete"),
        ("POST", "/queues/{queue}/pause"),
        ("POST", "/queues/{queue}/resume"),
        ("GET", "/queues/pauses"),
        # the storage of jq.jobs (routes/storage.py)
        ("GET", "/storage"),
    }
    error_ref = "#/components/schemas/ErrorResponse"
    for key, op in operations.items():
        responses = op["responses"]
        needed = {"500", "503"} if key == ("GET", "/healthz") else {"401", "403", "500", "503"}
        assert needed <= set(responses), key
        for status, response in responses.items():
            assert "X-Request-Id" in response["headers"]
            if status >= "400":
                assert response["content"]["application/json"]["schema"]["$ref"] == error_ref, (key, status)
        if key != ("GET", "/healthz"):
            assert op["security"] == [{"HTTPBearer": []}]
    assert set(operations[("POST", "/jobs")]["responses"]) >= {"200", "201", "400", "413", "422"}
    assert "409" in operations[("POST", "/jobs/{id}/cancel")]["responses"]
    assert "404" in operations[("GET", "/jobs/{id}")]["responses"]
    assert doc["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    assert "HTTPValidationError" not in json.dumps(doc)
    body = doc["components"]["schemas"]["EnqueueRequest"]
    assert body["additionalProperties"] is False
    assert set(body["properties"]) == {
        "type",
        "payload",
        "runAt",
        "priority",
        "maxAttempts",
        "idempotencyKey",
        "queue",
        "tenant",
        "concurrencyKey",
        "metadata",
    }
    assert doc["components"]["schemas"]["ErrorBody"]["required"] == ["code", "message", "requestId"]


def test_core_package_does_not_import_fastapi():
    code = "import sys, pyjq, pyjq.client, pyjq.cli; sys.exit('fastapi' in sys.modules or 'starlette' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


# -- README ----------------------------------------------------------------------------


def test_readme_http_section_mirrors_the_requirements(offline: TestClient):
    from pathlib import Path

    section = (Path(__file__).resolve().parent.parent / "docs" / "http.md").read_text()
    bodies = [json.loads(b) for b in re.findall(r"-d '\n(.*?)'\n", section, flags=re.S)]
    assert bodies == [INVOICE_JOB, DAILY_DIGEST, RETRY_WEBHOOKS]
    listed = set(re.findall(r"`(GET|POST|PUT|DELETE) (/[^`?]*)", section))
    documented = {(m.upper(), p) for p, item in offline.app.openapi()["paths"].items() for m in item}
    assert documented <= listed


# -- pyjq serve ------------------------------------------------------------------------


def test_pyjq_serve_refuses_to_start_without_tokens(dsn: str):
    env = {k: v for k, v in os.environ.items() if k not in ("JQ_API_TOKENS", "JQ_API_TOKENS_FILE")}
    r = subprocess.run(
        [sys.executable, "-m", "pyjq.cli", "serve", "--dsn", dsn], env=env, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2
    assert "JQ_API_TOKENS" in r.stderr
    env["JQ_API_TOKENS"] = "tok:superuser"
    r = subprocess.run(
        [sys.executable, "-m", "pyjq.cli", "serve", "--dsn", dsn], env=env, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and "scope" in r.stderr and "tok" not in r.stderr.replace("tokens", "")


def test_pyjq_serve_runs_uvicorn(dsn: str):
    httpx = pytest.importorskip("httpx")
    port = _closed_port()
    env = {**os.environ, "JQ_API_TOKENS": ",".join(f"{t}:{s}" for t, s in TOKENS.items())}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pyjq.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--dsn",
            dsn,
            "--log-level",
            "warning",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.stdout.read()
            assert time.monotonic() < deadline, "pyjq serve did not answer /healthz"
            time.sleep(0.2)
        r = httpx.post(f"{base}/jobs", json=INVOICE_JOB, headers=PRODUCER, timeout=10)
        assert r.status_code == 201 and r.headers["x-request-id"]
        assert "server" not in r.headers
        assert httpx.get(f"{base}/queues", timeout=10).status_code == 401
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()


# -- schemathesis ----------------------------------------------------------------------
# The document comes from an app that never connects (building one opens no
# connection); the fixture points the schema at the live app of the test's own
# database. schemathesis.pytest.from_fixture would be the natural loader, but
# its lazy tests break on pytest 9.2 (Function._nodeid is gone).

API = schemathesis.openapi.from_dict(create_app("dbname=unused", tokens=TOKENS).openapi())
API.config.update(base_url="http://testserver")


@pytest.fixture
def live_app(dsn: str, db: psycopg.Connection):
    """The app on a database with a little of everything, for schemathesis to poke at."""
    enqueue_sql(db, "seeded")
    enqueue_sql(db, "later", run_at="2099-01-01T00:00:00Z")
    make_dead(db, "deliver_webhook", "HTTP 503", queue="bulk")
    app = create_app(dsn, tokens=TOKENS)
    try:
        yield app
    finally:
        # schemathesis keeps the app's lifespan (its connection pool) running; stop it before the database goes.
        from schemathesis.python import asgi

        asgi.shutdown_lifespans()


@API.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
def test_schemathesis_finds_no_500_and_no_schema_violation(case, live_app, db: psycopg.Connection):
    if case.path.startswith("/schedules") and not has_schedules(db):
        pytest.skip("schedules.sql not installed yet")
    case.operation.schema.app = live_app  # every request, checks' probes included, goes to this app
    excluded = []
    if case.method == "PUT" and case.path == "/schedules/{name}":
        # Whether a cron or a time zone name is valid is jq's to say (422); JSON Schema cannot state it.
        excluded.append(positive_data_acceptance)
    if (case.method, case.path) in OPERATOR_FILTER_ROUTES:
        # Whether a filter is jq's filter language (its keys and values, exactly one of filter and ids, a
        # payload query parameter that is a JSON object) is jq._job_filter's to say (422), in one place.
        excluded.append(positive_data_acceptance)
    if case.path in ("/jobs/retry", "/jobs/cancel", "/jobs/discard"):
        # GET /jobs/{id} matches these paths too (an id is any path segment: GET /jobs/retry answers 404
        # JOB_NOT_FOUND, not 405), so the probes with undocumented methods see GET allowed.
        excluded.extend([allow_header_conformance, unsupported_method])
    if any(value == [] for value in (case.query or {}).values()):
        # A negative case that sets a query parameter to an empty list: the HTTP client drops it, so the
        # request sent is valid (seen on GET /jobs and GET /tenants; unknown parameters do answer 422).
        excluded.append(negative_data_rejection)
    if case.method == "GET":
        # A query string carries only text: schemathesis's "array instead of null" for an optional string
        # parameter arrives as a plain word (queue=false), which is a valid value. Types of query values are
        # checked by the 422 tests of each route instead.
        excluded.append(negative_data_rejection)
    case.call_and_validate(headers=ADMIN, app=live_app, excluded_checks=excluded)


OPERATOR_FILTER_ROUTES = {
    ("GET", "/jobs"),
    ("POST", "/jobs/retry"),
    ("POST", "/jobs/cancel"),
    ("POST", "/jobs/discard"),
    ("POST", "/dead-letter/jobs/requeue"),
    ("POST", "/dead-letter/jobs/delete"),
}


def test_a_principal_is_named_by_scope_and_token_fingerprint() -> None:
    # The audit log's actor: tells tokens apart without revealing them.
    store = TokenStore({"t1": "producer", "t2": "admin"})
    fingerprint = hashlib.sha256(b"t2").hexdigest()[:8]
    assert store.principal_of("t2") == Principal("admin", f"admin:{fingerprint}")
    assert store.principal_of("t3") is None
