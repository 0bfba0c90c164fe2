"""The worker registry from Python: a pyjq.Worker registers at start, beats while it runs
(busy or idle) and deregisters on a clean stop; pyjq.workers(), ``pyjq workers`` and
GET /workers list what jq_workers() says. The process-level behaviour (SIGKILL rescue,
SIGSTOP pauses, poison containment) is in tests/test_chaos.py; the SQL in
tests/sql/jq_worker_*/ and tests/sql/jq_workers/."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import warnings
from datetime import timedelta

import psycopg
import pytest
from helpers import eventually, invoke_cli

import pyjq


def _one(rows: list[pyjq.WorkerInfo], name: str) -> pyjq.WorkerInfo | None:
    return next((r for r in rows if r.worker == name), None)


def test_worker_registers_beats_and_deregisters(db: psycopg.Connection, dsn: str) -> None:
    worker = pyjq.Worker(dsn, queues={"default": 3, "urgent": 1}, name="reg-test-1", poll_interval=0.5)
    release = threading.Event()
    worker.add_handler("hold", lambda job: release.wait(20))
    job = pyjq.enqueue(db, "hold", {}).job_id

    async def scenario() -> tuple[pyjq.WorkerInfo, pyjq.WorkerInfo]:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:

            async def listed_running() -> pyjq.WorkerInfo | None:
                row = _one(await pyjq.workers_async(conn), "reg-test-1")
                return row if row is not None and row.running == 1 else None

            first = await eventually(listed_running, 15, "the worker listed, running its job")
            await asyncio.sleep(3.5)  # more than one beat interval (3 s of the default 15 s)
            later = _one(await pyjq.workers_async(conn), "reg-test-1")
            assert later is not None
            release.set()
            return first, later

    async def main() -> tuple[tuple[pyjq.WorkerInfo, pyjq.WorkerInfo], pyjq.RunSummary]:
        run = asyncio.create_task(worker.run_async())
        try:
            seen = await asyncio.wait_for(scenario(), 30)
        finally:
            release.set()
            await worker.stop()
        return seen, await run

    (first, later), summary = asyncio.run(main())
    assert summary.succeeded == 1
    assert (first.state, first.queues, first.pid, first.host) == (
        "alive",
        {"default": 3, "urgent": 1},
        os.getpid(),
        socket.gethostname(),
    )
    assert first.version == pyjq.__version__
    assert later.last_seen > first.last_seen, "no beat within 3.5 s"
    assert pyjq.status(db, job).status == "succeeded"
    # A clean stop deregisters.
    assert _one(pyjq.workers(db), "reg-test-1") is None
    assert worker.stats.get("worker_register") == 1 and worker.stats.get("worker_beat", 0) >= 1


def test_same_process_registering_again_keeps_its_jobs_another_process_does_not(db: psycopg.Connection) -> None:
    db.execute("select * from jq.jq_worker_register('reg-test-2', '{\"default\": 2}', 'h', 100, '0.4.0')")
    [job] = pyjq.enqueue_many(db, [{"type": "x", "payload": {}}])
    db.execute("select * from jq.jq_claim('default', 'reg-test-2', 1)")
    db.execute("select * from jq.jq_worker_register('reg-test-2', '{\"default\": 2}', 'h', 100, '0.4.0')")
    assert pyjq.status(db, job.job_id).status == "running"
    db.execute("select * from jq.jq_worker_register('reg-test-2', '{\"default\": 2}', 'h', 101, '0.4.0')")
    status = pyjq.status(db, job.job_id)
    assert status.status in ("queued", "failed_retrying"), status
    assert (status.last_error or "").startswith('worker gone: worker "reg-test-2"')


def test_cli_and_http_list_the_workers(db: psycopg.Connection, dsn: str) -> None:
    db.execute("select * from jq.jq_worker_register('reg-cli', '{\"default\": 4}', 'box-1', 321, '0.4.0')")
    db.execute("update jq.workers set last_seen = last_seen - interval '1 minute' where name = 'reg-cli'")
    db.execute("select * from jq.jq_worker_register('reg-cli-2', '{\"urgent\": 1}', 'box-2', 654, '0.4.0')")

    shown = invoke_cli("workers", "--dsn", dsn)
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0].split()[:4] == ["WORKER", "STATE", "LAST", "BEAT"]
    assert any(line.split()[:2] == ["reg-cli", "silent"] and "default=4" in line for line in lines), shown.output
    assert any(line.split()[:2] == ["reg-cli-2", "alive"] and "urgent=1" in line for line in lines), shown.output
    as_json = json.loads(invoke_cli("workers", "--dsn", dsn, "--json").output)
    assert {w["worker"]: w["state"] for w in as_json} == {"reg-cli": "silent", "reg-cli-2": "alive"}

    pytest.importorskip("fastapi")
    with warnings.catch_warnings():  # starlette nudges towards httpx2; httpx works
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from pyjq.http import create_app

    tokens = {"admin-token-0123456789": "admin", "producer-token-0123456789": "producer"}
    with TestClient(create_app(dsn, tokens=tokens)) as client:
        denied = client.get("/workers", headers={"Authorization": "Bearer producer-token-0123456789"})
        listed = client.get("/workers", headers={"Authorization": "Bearer admin-token-0123456789"})
    assert denied.status_code == 403
    assert listed.status_code == 200, listed.text
    body = {w["worker"]: w for w in listed.json()["workers"]}
    assert body["reg-cli"]["state"] == "silent" and body["reg-cli"]["queues"] == {"default": 4}
    assert body["reg-cli-2"]["host"] == "box-2" and body["reg-cli-2"]["pid"] == 654
    assert {"startedAt", "lastSeen", "running", "version"} <= set(body["reg-cli-2"])


def test_gone_after_is_a_setting_with_bounds(db: psycopg.Connection) -> None:
    [(gone_after,)] = db.execute("select gone_after from jq.jq_worker_register('reg-s', '{\"q\": 1}')").fetchall()
    assert gone_after == timedelta(seconds=15)
    db.execute("update jq.settings set worker_gone_after = '30 seconds'")
    [(gone_after,)] = db.execute("select gone_after from jq.jq_worker_register('reg-s', '{\"q\": 1}')").fetchall()
    assert gone_after == timedelta(seconds=30)
    with pytest.raises(psycopg.errors.CheckViolation):
        db.execute("update jq.settings set worker_gone_after = '1 second'")
