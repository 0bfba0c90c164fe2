"""Issue #17 points 1d-1f end to end: the requirements' dead-letter example with a real worker, the
hint when a retry matches nothing (CLI exit 3, HTTP 202 with a hint), the audit log naming the
HTTP token, and each failed attempt listed with its worker."""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from collections.abc import Iterator
from uuid import UUID

import psycopg
import pytest
from click.testing import CliRunner
from helpers import invoke_cli

import pyjq

pytest.importorskip("fastapi")

with warnings.catch_warnings():  # starlette nudges towards httpx2; httpx works
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from pyjq.cli.app import cli
from pyjq.cli.dead import NOTHING_MATCHED
from pyjq.http import create_app

ADMIN_TOKEN = "admin-token-for-dead-letter-ops"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
ADMIN_NAME = "admin:" + hashlib.sha256(ADMIN_TOKEN.encode()).hexdigest()[:8]


@pytest.fixture
def client(dsn: str) -> Iterator[TestClient]:
    with TestClient(create_app(dsn, tokens={ADMIN_TOKEN: "admin"})) as c:
        yield c


def _webhooks_die(dsn: str, db: psycopg.Connection, n: int) -> list[UUID]:
    """n deliver_webhook jobs whose real handler raises the requirements' error; one attempt each."""
    ids = [pyjq.enqueue(db, "deliver_webhook", {"hook": i}, max_attempts=1).job_id for i in range(n)]
    worker = pyjq.Worker(dsn, name="webhook-worker")

    @worker.handler("deliver_webhook")
    async def deliver(job: pyjq.Job) -> None:
        raise RuntimeError("HTTP 503 from hooks.example.com for 123")

    assert worker.run_until_empty(timeout=30).total == n
    return ids


def test_the_requirements_retry_example_requeues_the_group(db: psycopg.Connection, dsn: str) -> None:
    ids = _webhooks_die(dsn, db, 4)
    pyjq.enqueue(db, "send_email", {}, max_attempts=1)
    mailer = pyjq.Worker(dsn, name="mail-worker")

    @mailer.handler("send_email")
    async def send(job: pyjq.Job) -> None:
        raise ConnectionError("SMTP 421 try later")

    mailer.run_until_empty(timeout=30)

    [group] = pyjq.dead_groups(db, type="deliver_webhook")
    assert group.error == "RuntimeError: HTTP 503 from hooks.example.com for 123"
    assert group.count == 4
    # What a retry would take, listed first: the same filter on dead groups.
    assert [g.count for g in pyjq.dead_groups(db, type="deliver_webhook", error="HTTP 503")] == [4]

    retry = ("dead", "retry", "--type", "deliver_webhook", "--error", "HTTP 503", "--window", "1h")
    result = invoke_cli(*retry, "--dsn", dsn)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "requeued 4 dead jobs"
    back = db.execute("select id from jq.jobs where type = 'deliver_webhook' and attempts = 0").fetchall()
    assert sorted(r[0] for r in back) == sorted(ids)
    assert [g.type for g in pyjq.dead_groups(db)] == ["send_email"]

    # The audit log records the CLI's retry under the database role.
    [entry] = pyjq.audit_log(db, action="retry_dead")
    assert entry.rows == 4
    assert entry.target["type"] == "deliver_webhook" and entry.target["error"] == "HTTP 503"


def test_a_retry_that_matches_nothing_hints_and_exits_3(db: psycopg.Connection, dsn: str) -> None:
    _webhooks_die(dsn, db, 2)

    result = invoke_cli("dead", "retry", "--type", "deliver_webhook", "--error", "HTTP 404", "--dsn", dsn)
    assert result.exit_code == NOTHING_MATCHED == 3
    assert "error: no dead job matched type 'deliver_webhook' and error 'HTTP 404'" in result.stderr
    assert "RuntimeError: HTTP 503 from hooks.example.com for 123" in result.stdout  # the closest group
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 2

    # Not invoke_cli: the hint's sample errors hold the handler's traceback, which its check forbids.
    as_json = CliRunner().invoke(cli, ["dead", "retry", "--type", "nope", "--dsn", dsn, "--json"])
    assert as_json.exit_code == 3
    body = json.loads(as_json.stdout)
    assert body["requeued"] == 0 and [g["type"] for g in body["hint"]] == ["deliver_webhook"]

    # --window with --since: both hold (the later start); an old since does not widen the window.
    both = invoke_cli("dead", "groups", "--window", "1h", "--since", "2000-01-01T00:00:00Z", "--dsn", dsn)
    assert both.exit_code == 0 and len(both.stdout.splitlines()) == 2  # the header and the one group
    later = invoke_cli("dead", "groups", "--window", "7d", "--since", "2999-01-01T00:00:00Z", "--dsn", dsn)
    assert later.stdout.strip() == "no dead jobs"


def test_http_retry_hint_window_and_audit_actor(client: TestClient, db: psycopg.Connection, dsn: str) -> None:
    _webhooks_die(dsn, db, 3)

    groups = client.get("/dead-letter", params={"window": "24h", "error": "http 503"}, headers=ADMIN)
    assert groups.status_code == 200, groups.text
    assert [g["count"] for g in groups.json()["groups"]] == [3]

    miss = client.post("/dead-letter/retry", json={"type": "deliver_webhook", "error": "HTTP 500"}, headers=ADMIN)
    assert miss.status_code == 202
    assert miss.json()["requeued"] == 0
    assert [(g["type"], g["count"]) for g in miss.json()["hint"]] == [("deliver_webhook", 3)]

    hit = client.post(
        "/dead-letter/retry", json={"type": "deliver_webhook", "error": "HTTP 503", "window": "1h"}, headers=ADMIN
    )
    assert hit.status_code == 202 and hit.json() == {"requeued": 3}

    blank = client.post("/dead-letter/retry", json={"type": "deliver_webhook", "error": " "}, headers=ADMIN)
    assert blank.status_code == 422  # a blank error would match every group

    # A policy change over HTTP is audited under the token's name too.
    assert client.put("/key-limits/deliver_webhook", json={"maxRunning": 2}, headers=ADMIN).status_code == 200

    page = client.get("/audit", params={"limit": 2}, headers=ADMIN)
    assert page.status_code == 200, page.text
    entries = page.json()["entries"]
    assert [(e["action"], e["actor"], e["rows"]) for e in entries] == [
        ("key_limit_set", ADMIN_NAME, 1),
        ("retry_dead", ADMIN_NAME, 3),
    ]
    older = client.get("/audit", params={"before": page.json()["nextBefore"]}, headers=ADMIN).json()
    assert [(e["action"], e["rows"]) for e in older["entries"]] == [("retry_dead", 0)]
    assert older["nextBefore"] is None

    cli = invoke_cli("audit", "--actor", ADMIN_NAME, "--dsn", dsn, "--json")
    assert [e["action"] for e in json.loads(cli.stdout)] == ["key_limit_set", "retry_dead", "retry_dead"]


def test_attempts_listed_with_their_workers(client: TestClient, db: psycopg.Connection, dsn: str) -> None:
    job_id = pyjq.enqueue(db, "flaky", {}, max_attempts=3).job_id
    for name in ("worker-a", "worker-b", "worker-c"):
        worker = pyjq.Worker(dsn, name=name)

        @worker.handler("flaky")
        async def flaky(job: pyjq.Job, name: str = name) -> None:
            raise pyjq.Retry(after=2, reason=f"upstream refused {name}")

        # Each worker runs one attempt: the retry is not due before its drain ends.
        assert worker.run_until_empty(timeout=30).total == 1
        time.sleep(2.1)

    attempts = pyjq.job_attempts(db, job_id)
    assert [(a.attempt, a.worker) for a in attempts] == [(1, "worker-a"), (2, "worker-b"), (3, "worker-c")]
    assert all(a.failed_at is not None for a in attempts)
    assert "upstream refused worker-b" in attempts[1].error

    r = client.get(f"/jobs/{job_id}/attempts", headers=ADMIN)
    assert r.status_code == 200, r.text
    assert [a["worker"] for a in r.json()["attempts"]] == ["worker-a", "worker-b", "worker-c"]
    assert client.get("/jobs/00000000-0000-0000-0000-000000000000/attempts", headers=ADMIN).status_code == 404

    cli = invoke_cli("attempts", str(job_id), "--dsn", dsn)
    assert cli.exit_code == 0, cli.output
    lines = cli.stdout.splitlines()
    assert len(lines) == 3 and "worker-c" in lines[2]
