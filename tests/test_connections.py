"""Connections that die: the LISTEN connection terminated or gone silent, the server restarted
(``$JQ_TEST_PGCTL restart -m immediate``), an unreachable database at start, no DATABASE_URL.

Each measured test prints one line of figures (``-s`` shows them). In the ``processes`` group
(conftest.PROCESS_TESTS): they restart the server, stop backends, run the CLI in subprocesses.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import psycopg
import pytest
from helpers import invoke_cli

import pyjq
from pyjq.worker import DatabaseUnreachable
from pyjq.worker.listener import CHECK_INTERVAL, CHECK_TIMEOUT

HAS_PGCTL = pytest.mark.skipif("JQ_TEST_PGCTL" not in os.environ, reason="needs the test harness (JQ_TEST_PGCTL)")


def _listen_backend(dsn: str, worker: pyjq.Worker) -> int | None:
    """The pid of the worker's LISTEN backend: the one holding its waiting marks."""
    try:
        with psycopg.connect(dsn, autocommit=True, connect_timeout=2) as conn:
            row = conn.execute(
                "select w.backend_pid from jq.queue_waiters w join pg_stat_activity a on a.pid = w.backend_pid"
                " where w.worker = %s limit 1",
                [worker.name],
            ).fetchone()
    except psycopg.OperationalError:
        return None
    return row[0] if row else None


async def _until(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = await asyncio.to_thread(check)
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@asynccontextmanager
async def _running(worker: pyjq.Worker) -> AsyncIterator[dict[int, float]]:
    """The worker running (handler ``ping`` records when each job i started) until the block ends."""
    started: dict[int, float] = {}

    @worker.handler("ping")
    async def ping(job: pyjq.Job) -> None:
        started[job.payload["i"]] = time.monotonic()

    task = asyncio.create_task(worker.run_async())
    try:
        yield started
    finally:
        await worker.stop()
        await task


async def _pickup(dsn: str, started: dict[int, float], i: int, timeout: float = 10) -> float:
    """Enqueue job i on a new connection; seconds from its commit until it started."""
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await pyjq.enqueue_async(conn, "ping", {"i": i})
    committed = time.monotonic()
    await _until(lambda: i in started, timeout, f"job {i} to start")
    return started[i] - committed


def test_terminated_listen_connection_is_replaced_at_once(dsn, capsys):
    """pg_terminate_backend of the LISTEN backend: the worker listens again (a new backend holds
    its mark) within 1 s, and a job enqueued then is woken by NOTIFY, not by the 30 s poll."""

    async def scenario() -> tuple[float, float]:
        worker = pyjq.Worker(dsn, queues={"default": 2}, poll_interval=30, schedules=False)
        async with _running(worker) as started:
            await _pickup(dsn, started, 0)  # claimed once at start; now idle and marked waiting
            old = await _until(lambda: _listen_backend(dsn, worker), 10, "the waiting mark")
            with psycopg.connect(dsn, autocommit=True) as conn:
                conn.execute("select pg_terminate_backend(%s)", [old])
            killed = time.monotonic()
            new = await _until(
                lambda: (p := _listen_backend(dsn, worker)) and p != old and p, 10, "a new LISTEN backend"
            )
            recovered = time.monotonic() - killed
            assert new != old
            return recovered, await _pickup(dsn, started, 1)

    recovered, pickup = asyncio.run(scenario())
    assert recovered < 1.0, recovered
    assert pickup < 0.5, pickup
    with capsys.disabled():
        print(f"\nLISTEN backend terminated: listening again after {recovered:.2f} s, pickup {pickup * 1e3:.0f} ms")


@pytest.mark.skipif(os.geteuid() != 0, reason="stopping a backend process needs root (or the postgres user)")
def test_silent_listen_connection_is_noticed_within_ten_seconds(dsn, capsys):
    """The LISTEN backend stops answering (SIGSTOP: the socket stays open, nothing arrives): the
    session check notices within CHECK_INTERVAL + CHECK_TIMEOUT and the worker listens again."""
    bound = CHECK_INTERVAL + CHECK_TIMEOUT

    async def scenario() -> float:
        worker = pyjq.Worker(dsn, queues={"default": 2}, poll_interval=60, schedules=False)
        async with _running(worker) as started:
            await _pickup(dsn, started, 0)
            old = await _until(lambda: _listen_backend(dsn, worker), 10, "the waiting mark")
            os.kill(old, signal.SIGSTOP)
            stopped = time.monotonic()
            try:
                await _until(
                    lambda: (p := _listen_backend(dsn, worker)) and p != old, bound + 5, "a new LISTEN backend"
                )
                return time.monotonic() - stopped
            finally:
                os.kill(old, signal.SIGCONT)
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute("select pg_terminate_backend(%s)", [old])

    noticed = asyncio.run(scenario())
    assert noticed <= bound + 1.0, noticed
    with capsys.disabled():
        print(f"\nLISTEN backend silent (SIGSTOP): listening again after {noticed:.1f} s (bound {bound:g} s)")


def _restart_server() -> float:
    """$JQ_TEST_PGCTL restart -m immediate (a crash: recovery at start); how long it took. It returns
    once the server accepts connections again."""
    started = time.monotonic()
    subprocess.run(
        [*shlex.split(os.environ["JQ_TEST_PGCTL"]), "restart", "-m", "immediate", "-w", "-t", "60"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.monotonic() - started


@HAS_PGCTL
@pytest.mark.parametrize("through", ["direct", "pgbouncer"])
def test_worker_claims_within_a_second_of_a_crashed_server_accepting_connections(request, dsn, through, caplog, capsys):
    """After pg_ctl restart -m immediate the worker claims again within 1 s of the server accepting
    connections (psycopg_pool's backoff made it about 5.4 s): measured from the restart's return
    to the handler start of a job enqueued right then, with a 30 s safety poll."""
    claim_dsn = request.getfixturevalue("bouncer_dsn") if through == "pgbouncer" else dsn
    caplog.set_level(logging.INFO, logger="pyjq.worker")

    async def scenario() -> tuple[float, float]:
        worker = pyjq.Worker(claim_dsn, queues={"default": 2}, listen_dsn=dsn, poll_interval=30, schedules=False)
        async with _running(worker) as started:
            await _pickup(dsn, started, 0)
            outage = await asyncio.to_thread(_restart_server)
            back = time.monotonic()
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
                await pyjq.enqueue_async(conn, "ping", {"i": 1})
            await _until(lambda: 1 in started, 15, "the job enqueued after the restart")
            return outage, started[1] - back

    outage, claimed = asyncio.run(scenario())
    assert claimed < 1.0, (claimed, caplog.text[-3000:])
    with capsys.disabled():
        print(
            f"\nserver crash ({through}): restart took {outage:.1f} s; first job claimed {claimed:.2f} s after"
            " the server accepted connections"
        )


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_database_at_start_is_logged_with_backoff_and_connect_timeout(caplog):
    port = _closed_port()
    worker = pyjq.Worker(f"host=127.0.0.1 port={port} user=postgres dbname=app", connect_timeout=2.0, schedules=False)

    @worker.handler("ping")
    async def ping(job: pyjq.Job) -> None:
        pass

    caplog.set_level(logging.WARNING, logger="pyjq.worker")
    started = time.monotonic()
    with pytest.raises(DatabaseUnreachable, match=rf"127\.0\.0\.1:{port}/app after \d+ attempts"):
        worker.run_until_empty(timeout=30)
    took = time.monotonic() - started
    assert 1.9 <= took < 4, took
    lines = [r.getMessage() for r in caplog.records if "cannot reach the database" in r.getMessage()]
    assert len(lines) >= 2, caplog.text
    assert all(f"127.0.0.1:{port}/app" in line and "retrying in" in line for line in lines), lines
    assert "(attempt 2)" in lines[1]
    delays = [float(line.split("retrying in ")[1].split(" s")[0]) for line in lines]
    assert delays[1] > delays[0], delays  # a growing delay (the last one is cut to the timeout)


def _write_app(folder: Path) -> None:
    (folder / "conn_app.py").write_text(
        textwrap.dedent(
            """
            import os, pyjq
            worker = pyjq.Worker(os.environ["DATABASE_URL"], queues={"default": 1}, schedules=False)

            @worker.handler("ping")
            def ping(job):
                pass
            """
        )
    )


def _pyjq(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pyjq.cli", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_cli_worker_exits_1_after_connect_timeout(tmp_path):
    _write_app(tmp_path)
    port = _closed_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    started = time.monotonic()
    out = _pyjq(
        ["worker", "conn_app:worker", "--dsn", f"postgresql://postgres@127.0.0.1:{port}/app", "--connect-timeout", "1"],
        tmp_path,
        env,
    )
    assert out.returncode == 1, (out.stdout, out.stderr)
    assert time.monotonic() - started < 15
    assert f"cannot reach the database at 127.0.0.1:{port}/app" in out.stderr
    assert "retrying in" in out.stderr  # the attempts before giving up are logged
    assert "Traceback" not in out.stderr


def test_cli_worker_without_database_url_says_to_set_it(tmp_path, monkeypatch):
    _write_app(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = invoke_cli("worker", "conn_app:worker")
    assert result.exit_code == 2, result.output
    assert "DATABASE_URL is not set" in result.output and "--dsn" in result.output, result.output
    assert "KeyError" not in result.output


def test_listen_options_reach_the_worker(tmp_path, dsn):
    """--no-listen and --listen-dsn are set on the worker before it runs (a bad value fails there)."""
    _write_app(tmp_path)
    env = {**os.environ, "DATABASE_URL": dsn}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pyjq.cli", "worker", "conn_app:worker", "--no-listen", "--log-level", "debug"],
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            job = pyjq.enqueue(conn, "ping", {})
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                status = pyjq.status(conn, job.job_id)
                if status is not None and status.status == "succeeded":
                    break
                time.sleep(0.1)
            else:
                raise AssertionError("the job did not run")
            assert conn.execute("select count(*) from jq.queue_waiters").fetchone() == (0,)
    finally:
        proc.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            _, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
