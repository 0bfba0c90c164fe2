"""The worker as a separate process (tests/worker_app.py): signals, a crash,
a database restart, and a quick throughput figure (printed, never asserted)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from helpers import job_status as status_of
from helpers import wait_until

import pyjq

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


class WorkerProcess:
    def __init__(self, dsn: str, log: Path, mode: str, opts: dict[str, Any], loglevel: str):
        paths = [str(REPO), str(TESTS)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])
        env = dict(
            os.environ,
            JQ_APP_DSN=dsn,
            JQ_APP_OPTS=json.dumps(opts),
            JQ_APP_LOGLEVEL=loglevel,
            PYTHONPATH=os.pathsep.join(paths),
        )
        self.log = log
        self._log_file = open(log, "w")  # noqa: SIM115 - the child's stderr until close()
        self.proc = subprocess.Popen(
            [sys.executable, str(TESTS / "worker_app.py"), mode],
            env=env,
            stdout=subprocess.PIPE,
            stderr=self._log_file,
            text=True,
        )

    def signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"worker did not exit within {timeout} s; log:\n{self.logs()}") from None

    def logs(self) -> str:
        self._log_file.flush()
        return self.log.read_text()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        if self.proc.stdout:
            self.proc.stdout.close()
        self._log_file.close()


@pytest.fixture
def worker_process(dsn: str, tmp_path: Path) -> Iterator[Callable[..., WorkerProcess]]:
    """Starts tests/worker_app.py against the test database: worker_process(mode="run", **Worker options)."""
    started: list[WorkerProcess] = []

    def start(mode: str = "run", loglevel: str = "INFO", **opts: Any) -> WorkerProcess:
        proc = WorkerProcess(dsn, tmp_path / f"worker-{len(started)}.log", mode, opts, loglevel)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        proc.close()


def is_(dsn: str, job_id, wanted: str) -> Callable[[], bool]:
    return lambda: status_of(dsn, job_id).status == wanted


# -- signals ---------------------------------------------------------------------------------------


def test_sigterm_lets_the_running_job_finish_and_exits_0(db, dsn, worker_process):
    job = pyjq.enqueue(db, "sleep", {"seconds": 1.5})
    worker = worker_process(shutdown_grace=30)
    wait_until(is_(dsn, job.job_id, "running"), what="the job to start", proc=worker)
    worker.signal(signal.SIGTERM)
    assert worker.wait(30) == 0, worker.logs()
    assert status_of(dsn, job.job_id).status == "succeeded"
    assert "SIGTERM received" in worker.logs()


def test_sigterm_releases_jobs_that_outlast_the_grace_period(db, dsn, worker_process):
    coro = pyjq.enqueue(db, "sleep", {"seconds": 120})
    thread = pyjq.enqueue(db, "sleep_thread", {"seconds": 120})
    worker = worker_process(shutdown_grace=0.5)
    for job in (coro, thread):
        wait_until(is_(dsn, job.job_id, "running"), what="the jobs to start", proc=worker)
    worker.signal(signal.SIGTERM)
    assert worker.wait(30) == 0, worker.logs()
    for job in (coro, thread):
        status = status_of(dsn, job.job_id)
        assert (status.status, status.attempts) == ("queued", 0), worker.logs()
    assert worker.logs().count("job released") == 2


def test_a_second_signal_exits_at_once_releasing_running_jobs(db, dsn, worker_process):
    job = pyjq.enqueue(db, "sleep_thread", {"seconds": 120})
    worker = worker_process(shutdown_grace=300)
    wait_until(is_(dsn, job.job_id, "running"), what="the job to start", proc=worker)
    worker.signal(signal.SIGTERM)
    wait_until(lambda: "SIGTERM received" in worker.logs(), what="the first signal", proc=worker)
    worker.signal(signal.SIGINT)
    assert worker.wait(15) == 128 + signal.SIGINT, worker.logs()
    status = status_of(dsn, job.job_id)
    assert (status.status, status.attempts) == ("queued", 0)


# -- crash ---------------------------------------------------------------------------------------------


def test_sigkill_mid_job_runs_it_again_after_its_lease_expires(db, dsn, worker_process):
    job = pyjq.enqueue(db, "sleep", {"seconds": 120})  # sleeps on its first attempt only
    first = worker_process(lease=2)
    wait_until(is_(dsn, job.job_id, "running"), what="the job to start", proc=first)
    first.signal(signal.SIGKILL)
    assert first.wait(10) == -signal.SIGKILL
    second = worker_process(lease=2, poll_interval=0.5)
    wait_until(is_(dsn, job.job_id, "succeeded"), what="the job to run again", proc=second)
    status = status_of(dsn, job.job_id)
    assert status.attempts == 2
    assert "lease expired" in status.last_error
    second.signal(signal.SIGTERM)
    assert second.wait(30) == 0


# -- database restart -------------------------------------------------------------------------------------


@pytest.mark.skipif("JQ_TEST_PGCTL" not in os.environ, reason="needs the make test harness (JQ_TEST_PGCTL)")
def test_the_worker_carries_on_after_a_server_restart(db, dsn, worker_process):
    before = [pyjq.enqueue(db, "noop", {}).job_id for _ in range(10)]
    worker = worker_process(poll_interval=1.0)
    for job_id in before:
        wait_until(is_(dsn, job_id, "succeeded"), what="the first jobs", proc=worker)
    across = pyjq.enqueue(db, "sleep", {"seconds": 3}).job_id  # finishes while the server is down or just back
    wait_until(is_(dsn, across, "running"), what="the long job to start", proc=worker)

    subprocess.run(
        [*shlex.split(os.environ["JQ_TEST_PGCTL"]), "restart", "-m", "fast"],
        check=True,
        capture_output=True,
        timeout=120,
    )

    with psycopg.connect(dsn, autocommit=True) as conn:
        after = [pyjq.enqueue(conn, "noop", {}).job_id for _ in range(10)]
    for job_id in after:
        wait_until(is_(dsn, job_id, "succeeded"), timeout=60, what="jobs enqueued after the restart", proc=worker)
    wait_until(is_(dsn, across, "succeeded"), timeout=60, what="the job that ran across the restart", proc=worker)
    assert status_of(dsn, across).attempts == 1  # its result was kept and written after the reconnect
    assert worker.proc.poll() is None, worker.logs()
    worker.signal(signal.SIGTERM)
    assert worker.wait(30) == 0, worker.logs()


# -- a quick figure ----------------------------------------------------------------------------------------------


def test_drain_throughput_of_one_worker_process(db, dsn, worker_process, capsys):
    n = 5000
    pyjq.enqueue_many(db, [{"type": "noop"} for _ in range(n)])
    worker = worker_process("drain", loglevel="WARNING", queues={"default": 100})
    assert worker.wait(300) == 0, worker.logs()
    out = json.loads(worker.proc.stdout.read().strip().splitlines()[-1])
    assert out["succeeded"] == n
    ready = sum(s.ready + s.running for s in pyjq.stats(db))
    assert ready == 0
    with capsys.disabled():
        print(
            f"\none worker process drained {n} no-op jobs in {out['seconds']:.2f} s = "
            f"{n / out['seconds']:.0f} jobs/s (100 slots; calls {out['stats']})"
        )
