"""jq through a real PgBouncer in transaction pooling mode (tests/harness/bouncer.py).

Transaction pooling gives a client a server connection for one transaction
only, so what a session keeps (prepared statements, LISTEN, session settings)
is not kept. These tests run the client, the worker, the scheduler, the CLI,
the HTTP service and the installer through it (``bouncer_dsn``), with
several clients at once so that transactions really move between server
connections. Each prints one line of figures (``-s`` shows them).
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from harness.bouncer import Bouncer
from helpers import invoke_cli, wait_until
from psycopg.conninfo import make_conninfo

import pyjq
from pyjq.scheduler import Scheduler

N_JOBS = 300


def _backends(dsn: str) -> int:
    """How many server connections PgBouncer holds to the test database (seen from the server)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            "select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
        ).fetchone()
    assert row is not None
    return int(row[0])


def _enqueue_interleaved(bouncer_dsn: str, n: int, clients: int = 4) -> list[str]:
    """n jobs by pyjq.enqueue (and pyjq.status) from ``clients`` application connections with
    psycopg's default prepare_threshold (5), one transaction each, overlapping and committed in a
    rotating order so that they land on different server connections; half the clients call
    status before enqueue, so a client that prepared statements would give the same name to
    different statements on different server connections."""
    conns = [psycopg.connect(bouncer_dsn) for _ in range(clients)]
    ids: list[str] = []
    try:
        assert all(c.prepare_threshold == 5 for c in conns)
        for i in range(0, n, clients):
            for k, conn in enumerate(conns[: n - i]):  # a transaction open on each before any commits
                if k % 2 and ids:
                    pyjq.status(conn, ids[-1])
                ids.append(str(pyjq.enqueue(conn, "work", {"i": i + k}).job_id))
                if not k % 2:
                    pyjq.status(conn, ids[-1])
            shift = (i // clients) % clients
            for conn in conns[shift:] + conns[:shift]:
                conn.commit()
    finally:
        for conn in conns:
            conn.close()
    return ids


def test_enqueue_and_drain_through_transaction_pooling(dsn, bouncer_dsn, capsys):
    """Enqueue N jobs from application connections through PgBouncer (prepare_threshold 5), drain
    them with a Worker through PgBouncer: no error anywhere, every job succeeded."""
    started = time.monotonic()
    ids = _enqueue_interleaved(bouncer_dsn, N_JOBS)
    enqueue_s = time.monotonic() - started
    assert len(set(ids)) == N_JOBS
    assert _backends(dsn) >= 2, "the enqueues did not spread over several server connections"

    worker = pyjq.Worker(bouncer_dsn, queues={"default": 20}, schedules=False, listen=False)
    ran: list[int] = []

    @worker.handler("work")
    async def work(job: pyjq.Job) -> None:
        ran.append(job.payload["i"])

    started = time.monotonic()
    summary = worker.run_until_empty(timeout=60)
    drain_s = time.monotonic() - started
    assert summary.succeeded == N_JOBS and summary.total == N_JOBS
    assert sorted(ran) == list(range(N_JOBS))
    with psycopg.connect(bouncer_dsn, autocommit=True) as conn:
        assert {s.queue: s.ready for s in pyjq.stats(conn)}.get("default", 0) == 0
    with capsys.disabled():
        print(
            f"\npgbouncer transaction mode: {N_JOBS} jobs enqueued in {enqueue_s:.2f} s, drained in"
            f" {drain_s:.2f} s, errors 0"
        )


async def _idle_pickup(worker: pyjq.Worker, producer_dsn: str, rounds: int = 4) -> list[float]:
    """Seconds from an enqueue's commit to its handler starting, on an idle worker, ``rounds`` times."""
    started: dict[int, float] = {}

    @worker.handler("ping")
    async def ping(job: pyjq.Job) -> None:
        started[job.payload["i"]] = time.monotonic()

    task = asyncio.create_task(worker.run_async())
    latencies = []
    try:
        async with await psycopg.AsyncConnection.connect(producer_dsn, autocommit=True) as conn:
            await asyncio.sleep(1.0)  # started, claimed once, idle
            for i in range(rounds):
                committed = time.monotonic()
                await pyjq.enqueue_async(conn, "ping", {"i": i})
                deadline = committed + 10
                while i not in started and time.monotonic() < deadline:
                    await asyncio.sleep(0.005)
                assert i in started, f"job {i} did not start within 10 s"
                latencies.append(started[i] - committed)
                await asyncio.sleep(0.2 + 0.17 * i)  # idle again, at a different phase of the poll
    finally:
        await worker.stop()
        await task
    return latencies


def _waiters(dsn: str, worker: pyjq.Worker) -> list[tuple[str, int]]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute(
            "select queue, backend_pid from jq.queue_waiters where worker = %s", [worker.name]
        ).fetchall()


@pytest.fixture(scope="module")
def session_bouncer_port() -> Iterator[int]:
    """A second PgBouncer, in session pooling mode, in front of the test server."""
    root = Path(tempfile.mkdtemp(prefix="jq-bouncer.", dir="/tmp"))
    root.chmod(0o755)  # as root, PgBouncer runs as the postgres user
    bouncer = Bouncer(root, server_port=int(os.environ["PGPORT"]), pool_mode="session")
    try:
        bouncer.start()
        assert bouncer.port is not None
        yield bouncer.port
    finally:
        bouncer.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("setup", ["session_mode", "listen_dsn", "no_listen", "undeclared"])
def test_idle_pickup_through_pgbouncer(request, dsn, bouncer_dsn, setup, caplog, capsys):
    """Session mode: LISTEN works through PgBouncer as it does directly. Transaction mode: the
    worker claims through PgBouncer; LISTEN goes to a direct listen_dsn (a notification wakes it:
    fast pickup), or nowhere (listen=False, or not declared and detected): the safety poll finds
    the job within poll_interval and no waiting mark is ever left behind."""
    poll = 0.5
    kwargs: dict = {"listen_dsn": dsn} if setup == "listen_dsn" else {"listen": False} if setup == "no_listen" else {}
    if setup == "session_mode":
        port = request.getfixturevalue("session_bouncer_port")
        bouncer_dsn = make_conninfo(bouncer_dsn, port=port)
    worker = pyjq.Worker(bouncer_dsn, queues={"default": 4}, poll_interval=poll, schedules=False, **kwargs)
    caplog.set_level(logging.INFO, logger="pyjq.worker")
    latencies = asyncio.run(_idle_pickup(worker, bouncer_dsn))
    if setup == "session_mode":
        assert max(latencies) < 0.25, latencies
        assert "does not keep its session" not in caplog.text
        assert worker.stats.get("set_waiting", 0) > 0
    elif setup == "listen_dsn":
        assert max(latencies) < 0.25, latencies
        assert worker.stats.get("set_waiting", 0) > 0
    else:
        assert max(latencies) < poll * 1.1 + 0.3, latencies
        assert _waiters(dsn, worker) == []
    if setup == "no_listen":
        assert worker.stats.get("set_waiting", 0) == 0
    if setup == "undeclared":
        assert "does not keep its session" in caplog.text
    with capsys.disabled():
        print(
            f"\nidle pickup through pgbouncer ({setup}, poll {poll} s):"
            f" median {statistics.median(latencies) * 1e3:.0f} ms, max {max(latencies) * 1e3:.0f} ms"
        )


def test_listen_dsn_marks_sit_on_the_direct_listen_backend(dsn, bouncer_dsn):
    """With a direct listen_dsn, the waiting marks carry the backend that LISTENs (and only it)."""
    asyncio.run(_marks_on_the_listen_backend(dsn, bouncer_dsn))


async def _marks_on_the_listen_backend(dsn: str, bouncer_dsn: str) -> None:
    worker = pyjq.Worker(bouncer_dsn, queues={"default": 2}, listen_dsn=dsn, poll_interval=5, schedules=False)

    @worker.handler("work")
    async def work(job: pyjq.Job) -> None:
        pass

    task = asyncio.create_task(worker.run_async())
    try:
        marks = await asyncio.to_thread(wait_until, lambda: _waiters(dsn, worker), 10, "the waiting mark")
        with psycopg.connect(dsn, autocommit=True) as conn:
            (pid,) = {p for _q, p in marks}
            row = conn.execute(
                "select application_name from pg_stat_activity where pid = %s and state is not null", [pid]
            ).fetchone()
        assert row is not None and row[0].startswith("pyjq worker"), row
        assert _backends(dsn) >= 1
    finally:
        await worker.stop()
        await task


def test_scheduler_fires_through_transaction_pooling(bouncer_dsn):
    with psycopg.connect(bouncer_dsn, autocommit=True) as conn:
        pyjq.schedule_put(conn, "minutely", cron="* * * * *", timezone="UTC", type="tick")
        scheduler = Scheduler(clock=lambda: datetime.now(UTC) + timedelta(minutes=2))
        fired = scheduler.run_pending(conn)
        assert fired >= 1
        rows = conn.execute("select count(*) from jq.jobs where type = 'tick'").fetchone()
        assert rows is not None and rows[0] == fired


def test_cli_through_transaction_pooling(bouncer_dsn):
    """pyjq install (upgrade in place), enqueue, status, stats and dead groups, all through PgBouncer."""
    out = invoke_cli("install", "--dsn", bouncer_dsn)
    assert out.exit_code == 0, out.output
    for i in range(8):  # past psycopg's prepare threshold
        enq = invoke_cli("enqueue", "send_welcome_email", "--payload", f'{{"i": {i}}}', "--dsn", bouncer_dsn)
        assert enq.exit_code == 0, enq.output
    job_id = enq.output.split()[0]
    status = invoke_cli("status", job_id, "--dsn", bouncer_dsn)
    assert status.exit_code == 0 and "queued" in status.output, status.output
    for args in (("stats",), ("dead", "groups")):
        res = invoke_cli(*args, "--dsn", bouncer_dsn)
        assert res.exit_code == 0, res.output


def test_http_service_through_transaction_pooling(bouncer_dsn, dsn):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from pyjq.http import create_app

    tokens = {"producer-token-0123456789": "producer"}
    auth = {"Authorization": "Bearer producer-token-0123456789"}
    with TestClient(create_app(bouncer_dsn, tokens=tokens)) as client:
        ids = []
        for i in range(12):
            res = client.post("/jobs", json={"type": "send_welcome_email", "payload": {"i": i}}, headers=auth)
            assert res.status_code == 201, res.text
            ids.append(res.json()["jobId"])
        for job_id in ids:
            res = client.get(f"/jobs/{job_id}", headers=auth)
            assert res.status_code == 200 and res.json()["status"] == "queued", res.text
            assert res.json()["createdAt"].endswith("Z")
    # The service's session settings did not leak onto server connections other clients get.
    with psycopg.connect(bouncer_dsn, autocommit=True) as conn:
        for _ in range(5):
            row = conn.execute("show statement_timeout").fetchone()
            assert row is not None and row[0] == "0", row
