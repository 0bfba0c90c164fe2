"""The worker, run in this process against a real database.

No pytest-asyncio: each test drives its own event loop with asyncio.run().
``run_with`` runs a worker while a scenario coroutine pokes at the database,
then stops the worker and returns the scenario's result and the worker's
RunSummary. Nothing here asserts on speed; waits are generous deadlines.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from helpers import eventually, job_status

import pyjq

# -- helpers ------------------------------------------------------------------------


def run_with(worker: pyjq.Worker, scenario: Callable[[], Awaitable[Any]], timeout: float = 60.0):
    """Run worker.run_async() while scenario() runs; then stop the worker.
    Returns (scenario result, RunSummary). A worker that dies fails the test."""

    async def main():
        run = asyncio.create_task(worker.run_async())
        scene = asyncio.create_task(scenario())
        try:
            done, _ = await asyncio.wait({run, scene}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if run in done:
                run.result()
                raise AssertionError("the worker stopped before the scenario ended")
            if scene not in done:
                raise AssertionError(f"scenario did not finish within {timeout} s")
            result = scene.result()
        finally:
            scene.cancel()
            await worker.stop()
            summary = await run
        return result, summary

    return asyncio.run(main())


async def astatus(dsn: str, job_id) -> pyjq.JobStatus:
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        return await pyjq.status_async(conn, job_id)


async def sql(dsn: str, query: str, params: Any = ()) -> list[tuple]:
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        cur = await conn.execute(query, params)
        return await cur.fetchall() if cur.description else []


def drain(worker: pyjq.Worker, timeout: float = 30.0) -> pyjq.RunSummary:
    return worker.run_until_empty(timeout=timeout)  # asyncio.run(worker.drain(timeout=timeout))


# -- what a handler gets ----------------------------------------------------------------


def test_handler_receives_the_whole_job(db, dsn):
    run_at = datetime.now(UTC) - timedelta(seconds=5)
    queued = pyjq.enqueue(
        db,
        "whole",
        {"n": 1, "nested": {"a": [1, 2]}},
        priority=7,
        max_attempts=3,
        idempotency_key="order-1",
        tenant="acme",
        run_at=run_at,
    )
    worker = pyjq.Worker(dsn, queues={"default": 2})
    seen: list[pyjq.Job] = []

    @worker.handler("whole")
    async def whole(job: pyjq.Job) -> None:
        seen.append(job)

    summary = drain(worker)
    assert summary.succeeded == 1 and summary.total == 1
    [job] = seen
    assert job.id == queued.job_id
    assert job.type == "whole"
    assert job.payload == {"n": 1, "nested": {"a": [1, 2]}}
    assert job.queue == "default"
    assert (job.attempts, job.max_attempts) == (1, 3)
    assert job.priority == 7
    assert job.tenant == "acme"
    assert job.idempotency_key == "order-1"
    assert job.last_error is None
    assert job.run_at == run_at
    assert job.created_at.tzinfo is not None
    assert job.worker == worker.name
    assert job.cancelled is False and job.is_last_attempt is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        job.attempts = 2  # type: ignore[misc]
    assert pyjq.status(db, queued.job_id).status == "succeeded"


def test_second_attempt_sees_the_first_attempts_error(db, dsn):
    queued = pyjq.enqueue(db, "flaky", {})
    worker = pyjq.Worker(dsn)
    seen: list[pyjq.Job] = []

    @worker.handler("flaky")
    async def flaky(job: pyjq.Job) -> None:
        seen.append(job)
        if job.attempts == 1:
            raise pyjq.Retry(after=0, reason="upstream said 503")

    summary = drain(worker)
    assert [j.attempts for j in seen] == [1, 2]
    assert seen[1].last_error == "Retry: upstream said 503"
    assert (summary.failed_retrying, summary.succeeded) == (1, 1)
    assert pyjq.status(db, queued.job_id).status == "succeeded"


def test_coroutine_and_thread_handlers_both_run(db, dsn):
    pyjq.enqueue(db, "in_loop", {})
    pyjq.enqueue(db, "in_thread", {})
    worker = pyjq.Worker(dsn)
    where: dict[str, str] = {}

    @worker.handler("in_loop")
    async def in_loop(job: pyjq.Job) -> None:
        asyncio.get_running_loop()  # raises outside a loop
        where[job.type] = threading.current_thread().name

    @worker.handler("in_thread")
    def in_thread(job: pyjq.Job) -> None:
        with pytest.raises(RuntimeError):
            asyncio.get_running_loop()
        where[job.type] = threading.current_thread().name

    assert drain(worker).succeeded == 2
    assert where["in_loop"] == threading.current_thread().name
    assert where["in_thread"].startswith("pyjq-handler")


def test_each_queue_has_its_own_slots(db, dsn):
    pyjq.enqueue_many(
        db,
        [{"type": "slow", "queue": "small"} for _ in range(8)]
        + [{"type": "slow_thread", "queue": "big"} for _ in range(8)],
    )
    worker = pyjq.Worker(dsn, queues={"small": 2, "big": 4})
    lock = threading.Lock()
    now = {"small": 0, "big": 0}
    peak = {"small": 0, "big": 0}

    def enter(queue: str) -> None:
        with lock:
            now[queue] += 1
            peak[queue] = max(peak[queue], now[queue])

    def leave(queue: str) -> None:
        with lock:
            now[queue] -= 1

    @worker.handler("slow")
    async def slow(job: pyjq.Job) -> None:
        enter(job.queue)
        await asyncio.sleep(0.1)
        leave(job.queue)

    @worker.handler("slow_thread")
    def slow_thread(job: pyjq.Job) -> None:
        enter(job.queue)
        time.sleep(0.1)
        leave(job.queue)

    assert drain(worker).succeeded == 16
    assert peak["small"] == 2
    assert peak["big"] == 4


def test_only_types_with_handlers_are_claimed(db, dsn):
    mine = pyjq.enqueue(db, "mine", {})
    theirs = pyjq.enqueue(db, "theirs", {})
    worker = pyjq.Worker(dsn)
    worker.add_handler("mine", lambda job: None)
    assert worker.types == ["mine"]
    assert drain(worker).succeeded == 1
    assert pyjq.status(db, mine.job_id).status == "succeeded"
    other = pyjq.status(db, theirs.job_id)
    assert (other.status, other.attempts) == ("queued", 0)


# -- waking up ------------------------------------------------------------------------------


def test_notify_wakes_an_idle_worker_long_before_its_poll(db, dsn):
    worker = pyjq.Worker(dsn, poll_interval=5.0)

    @worker.handler("ping")
    async def ping(job: pyjq.Job) -> None:
        job.payload["started"] = time.monotonic()
        seen.append(job)

    seen: list[pyjq.Job] = []

    async def scenario():
        # Idle: the worker has claimed, found nothing and marked itself waiting.
        await eventually(
            lambda: sql(dsn, "select 1 from jq.queue_waiters where worker = %s", [worker.name]), what="the waiting mark"
        )
        await asyncio.sleep(0.3)
        enqueued = time.monotonic()
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await pyjq.enqueue_async(conn, "ping", {})
        await eventually(lambda: seen, timeout=10, what="the job to start")
        return seen[0].payload["started"] - enqueued

    latency, summary = run_with(worker, scenario)
    assert summary.succeeded == 1
    assert latency < 2.0, f"started {latency:.2f} s after the enqueue; the poll interval is 5 s"


def test_waiting_marks_follow_idle_and_busy(db, dsn):
    worker = pyjq.Worker(dsn, queues={"default": 1}, poll_interval=5.0)
    gate = asyncio.Event()

    @worker.handler("block")
    async def block(job: pyjq.Job) -> None:
        await gate.wait()

    async def marked() -> bool:
        return bool(
            await sql(dsn, "select 1 from jq.queue_waiters where worker = %s and queue = 'default'", [worker.name])
        )

    async def scenario():
        await eventually(marked, what="idle worker marked waiting")
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            job = await pyjq.enqueue_async(conn, "block", {})
        # Its only slot is taken: busy, so inserts need not notify it.
        await eventually(lambda: astatus_is(job.job_id, "running"), what="the job to run")
        await eventually(lambda: not_(marked()), what="busy worker unmarked")
        gate.set()
        await eventually(lambda: astatus_is(job.job_id, "succeeded"), what="the job to succeed")
        await eventually(marked, what="idle again")

    async def astatus_is(job_id, wanted):
        return (await astatus(dsn, job_id)).status == wanted

    async def not_(coro):
        return not await coro

    run_with(worker, scenario)
    assert db.execute("select count(*) from jq.queue_waiters").fetchone()[0] == 0


def test_safety_poll_picks_up_a_scheduled_job(db, dsn):
    # A job whose run_at is in the future sends no NOTIFY when it becomes due.
    job = pyjq.enqueue(db, "later", {}, run_at=datetime.now(UTC) + timedelta(seconds=1.5))
    worker = pyjq.Worker(dsn, poll_interval=0.5)
    worker.add_handler("later", lambda job: None)

    async def scenario():
        await eventually(lambda: job_status(dsn, job.job_id).status == "succeeded", what="the scheduled job")

    _, summary = run_with(worker, scenario)
    assert summary.succeeded == 1


def test_an_idle_worker_wakes_at_the_run_at_of_a_job_scheduled_meanwhile(db, dsn):
    # Enqueued while the worker waits, due in 1.5 s: the insert's 'at' notification
    # makes the worker claim at that time, long before its 10 s poll.
    worker = pyjq.Worker(dsn, poll_interval=10.0)
    started: list[float] = []
    worker.add_handler("later", lambda job: started.append(time.time()))

    async def scenario():
        await eventually(
            lambda: sql(dsn, "select 1 from jq.queue_waiters where worker = %s", [worker.name]), what="the waiting mark"
        )
        run_at = datetime.now(UTC) + timedelta(seconds=1.5)
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await pyjq.enqueue_async(conn, "later", {}, run_at=run_at)
        await eventually(lambda: started, timeout=12, what="the scheduled job to start")
        return started[0] - run_at.timestamp()

    lateness, summary = run_with(worker, scenario)
    assert summary.succeeded == 1
    assert -0.05 <= lateness < 1.0, f"started {lateness:.2f} s after its run_at; the poll interval is 10 s"


# -- outcomes ------------------------------------------------------------------------------------


def test_retry_after_sets_the_next_attempt(db, dsn):
    job = pyjq.enqueue(db, "later_please", {})
    worker = pyjq.Worker(dsn)

    @worker.handler("later_please")
    def later_please(job: pyjq.Job) -> None:
        raise pyjq.Retry(after=timedelta(minutes=10))

    before = datetime.now(UTC)
    assert drain(worker).failed_retrying == 1
    status = pyjq.status(db, job.job_id)
    assert status.status == "failed_retrying"
    assert before + timedelta(minutes=9) < status.next_attempt_at < before + timedelta(minutes=11)
    assert status.last_error == "Retry: retry requested"


def test_discard_dead_letters_at_once(db, dsn):
    job = pyjq.enqueue(db, "hopeless", {}, max_attempts=10)
    worker = pyjq.Worker(dsn)

    @worker.handler("hopeless")
    async def hopeless(job: pyjq.Job) -> None:
        raise pyjq.Discard("payload names no customer")

    assert drain(worker).dead == 1
    status = pyjq.status(db, job.job_id)
    assert (status.status, status.attempts) == ("dead", 1)
    assert status.last_error == "Discard: payload names no customer"


def test_exception_fails_the_attempt_with_type_message_and_traceback(db, dsn):
    job = pyjq.enqueue(db, "broken", {})
    worker = pyjq.Worker(dsn)

    def parse(value: str) -> int:
        raise ValueError(f"bad input {value!r}")

    @worker.handler("broken")
    def broken(job: pyjq.Job) -> None:
        parse("x42")

    assert drain(worker).failed_retrying == 1
    status = pyjq.status(db, job.job_id)
    assert status.status == "failed_retrying"
    first, rest = status.last_error.split("\n", 1)
    assert first == "ValueError: bad input 'x42'"
    assert "Traceback (most recent call last)" in rest
    assert "in parse" in rest and "in broken" in rest


def test_error_text_is_bounded_and_keeps_the_innermost_frames(db, dsn):
    job = pyjq.enqueue(db, "deep", {})
    worker = pyjq.Worker(dsn)

    def dive(n: int) -> None:
        if n == 0:
            raise RuntimeError("bottom " + "x" * 2000)
        dive(n - 1)

    @worker.handler("deep")
    def deep(job: pyjq.Job) -> None:
        dive(200)

    drain(worker)
    error = pyjq.status(db, job.job_id).last_error
    assert len(error) <= 4000
    assert error.startswith("RuntimeError: bottom xxx")
    assert error.rstrip().endswith("x")  # the traceback's last line, the exception itself, is kept
    assert "in dive" in error


def test_timeout_cancels_a_coroutine_and_fails_the_attempt(db, dsn):
    job = pyjq.enqueue(db, "hangs", {})
    worker = pyjq.Worker(dsn)
    cancelled = []

    @worker.handler("hangs", timeout=0.3)
    async def hangs(job: pyjq.Job) -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.append(job.cancelled)
            raise

    assert drain(worker).failed_retrying == 1
    assert cancelled == [True]
    status = pyjq.status(db, job.job_id)
    assert status.status == "failed_retrying"
    assert status.last_error.startswith("TimeoutError: ")
    assert "0.3 s" in status.last_error


def test_timeout_of_a_thread_flags_it_and_holds_its_slot_until_it_returns(db, dsn):
    first = pyjq.enqueue(db, "stubborn", {"n": 1}, priority=1)
    second = pyjq.enqueue(db, "stubborn", {"n": 2})
    worker = pyjq.Worker(dsn, queues={"default": 1})
    events: list[tuple[str, int]] = []

    @worker.handler("stubborn", timeout=0.3)
    def stubborn(job: pyjq.Job) -> str:
        n = job.payload["n"]
        events.append(("start", n))
        if n == 1:
            while not job.cancelled:
                time.sleep(0.01)
            time.sleep(0.3)  # still busy after the flag is set
        events.append(("end", n))
        return "returned normally"

    summary = drain(worker)
    assert events == [("start", 1), ("end", 1), ("start", 2), ("end", 2)]
    assert (summary.failed_retrying, summary.succeeded) == (1, 1)
    status = pyjq.status(db, first.job_id)
    assert status.status == "failed_retrying"
    assert status.last_error.startswith("TimeoutError: ")
    assert pyjq.status(db, second.job_id).status == "succeeded"


def test_results_are_written_in_batches(db, dsn):
    pyjq.enqueue_many(db, [{"type": "quick"} for _ in range(60)])
    worker = pyjq.Worker(dsn, queues={"default": 60}, flush_interval=0.2, flush_size=1000)
    worker.add_handler("quick", lambda job: None)
    assert drain(worker).succeeded == 60
    assert worker.stats["complete"] <= 5


def test_a_full_buffer_is_written_without_waiting_for_the_interval(db, dsn):
    pyjq.enqueue_many(db, [{"type": "quick"} for _ in range(40)])
    # flush_interval is far longer than the drain timeout: only flush_size can trigger the writes.
    worker = pyjq.Worker(dsn, queues={"default": 10}, flush_interval=600, flush_size=10)

    @worker.handler("quick")
    async def quick(job: pyjq.Job) -> None:
        return None

    assert drain(worker, timeout=30).succeeded == 40


def test_nothing_is_written_before_the_handler_returns(db, dsn):
    job = pyjq.enqueue(db, "waits", {})
    worker = pyjq.Worker(dsn, flush_interval=0.001, flush_size=1)
    gate = asyncio.Event()
    running = asyncio.Event()

    @worker.handler("waits")
    async def waits(job: pyjq.Job) -> None:
        running.set()
        await gate.wait()

    async def scenario():
        await running.wait()
        await asyncio.sleep(0.5)
        assert (await astatus(dsn, job.job_id)).status == "running"
        gate.set()
        await eventually(lambda: job_status(dsn, job.job_id).status == "succeeded", what="success")

    run_with(worker, scenario)


def test_a_refused_retry_request_does_not_spoil_the_batch(db, dsn):
    ok = pyjq.enqueue(db, "outcome", {"do": "ok"})
    odd = pyjq.enqueue(db, "outcome", {"do": "retry_in_400_days"})
    bad = pyjq.enqueue(db, "outcome", {"do": "raise"})
    worker = pyjq.Worker(dsn, flush_interval=0.5)  # all three results in one batch

    @worker.handler("outcome")
    async def outcome(job: pyjq.Job) -> None:
        if job.payload["do"] == "retry_in_400_days":
            raise pyjq.Retry(after=timedelta(days=400))  # beyond what jq_fail accepts
        if job.payload["do"] == "raise":
            raise KeyError("missing")

    summary = drain(worker)
    assert (summary.succeeded, summary.failed_retrying) == (1, 2)
    assert pyjq.status(db, ok.job_id).status == "succeeded"
    refused = pyjq.status(db, odd.job_id)
    assert refused.status == "failed_retrying"
    assert refused.last_error.startswith("Retry: retry requested\n(pyjq: jq_fail refused retry_in=400 days")
    assert pyjq.status(db, bad.job_id).last_error.startswith("KeyError: 'missing'")


def test_a_plain_function_returning_a_coroutine_fails(db, dsn):
    job = pyjq.enqueue(db, "sneaky", {})
    worker = pyjq.Worker(dsn)

    async def real(job: pyjq.Job) -> None:
        return None

    worker.add_handler("sneaky", lambda job: real(job))
    assert drain(worker).failed_retrying == 1
    assert pyjq.status(db, job.job_id).last_error.startswith("TypeError: the handler of 'sneaky' returned an awaitable")


def test_one_log_line_per_job_outcome(db, dsn, caplog):
    good = pyjq.enqueue(db, "logged", {"fail": False})
    bad = pyjq.enqueue(db, "logged", {"fail": True})
    worker = pyjq.Worker(dsn)

    @worker.handler("logged")
    async def logged(job: pyjq.Job) -> None:
        if job.payload["fail"]:
            raise ValueError("nope")

    with caplog.at_level(logging.INFO, logger="pyjq.worker"):
        drain(worker)
    lines = {r.jq_job_id: r for r in caplog.records if hasattr(r, "jq_outcome")}
    assert set(lines) == {str(good.job_id), str(bad.job_id)}
    ok, failed = lines[str(good.job_id)], lines[str(bad.job_id)]
    assert (ok.jq_outcome, ok.levelname, ok.jq_type, ok.jq_queue, ok.jq_attempt) == (
        "succeeded",
        "INFO",
        "logged",
        "default",
        1,
    )
    assert ok.jq_duration_ms >= 0
    assert ok.getMessage().startswith(f"job succeeded id={good.job_id} type=logged queue=default attempt=1/25 ")
    assert failed.jq_outcome == "failed_retrying" and failed.levelname == "WARNING"
    assert "error='ValueError: nope'" in failed.getMessage()


# -- cancellation and lost leases -----------------------------------------------------------------------------


def test_cancelling_a_running_coroutine_job_cancels_its_task(db, dsn):
    job = pyjq.enqueue(db, "long", {})
    worker = pyjq.Worker(dsn, heartbeat_interval=0.2)
    running = asyncio.Event()
    saw: list[str] = []

    @worker.handler("long")
    async def long(job: pyjq.Job) -> None:
        running.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            saw.append("CancelledError")
            raise

    async def scenario():
        await running.wait()
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            assert await pyjq.cancel_async(conn, job.job_id) == "running"
        await eventually(lambda: job_status(dsn, job.job_id).status == "cancelled", what="cancelled")

    _, summary = run_with(worker, scenario)
    assert saw == ["CancelledError"]
    assert summary.cancelled == 1


def test_a_thread_handler_sees_the_cancellation_flag(db, dsn):
    job = pyjq.enqueue(db, "long_thread", {})
    worker = pyjq.Worker(dsn, heartbeat_interval=0.2)
    running = threading.Event()

    @worker.handler("long_thread")
    def long_thread(job: pyjq.Job) -> None:
        running.set()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            job.raise_if_cancelled()
            time.sleep(0.01)

    async def scenario():
        await eventually(running.is_set, what="the handler to start")
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            assert await pyjq.cancel_async(conn, job.job_id) == "running"
        await eventually(lambda: job_status(dsn, job.job_id).status == "cancelled", what="cancelled")

    _, summary = run_with(worker, scenario)
    assert summary.cancelled == 1


async def steal(dsn: str, job_id, worker_name: str) -> None:
    """Take a job away from a worker: hand it back in its name, then claim it as 'thief'."""
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        cur = await conn.execute("select status from jq.jq_release(array[%s]::uuid[], %s)", [job_id, worker_name])
        assert [r[0] for r in await cur.fetchall()] == ["released"]
        cur = await conn.execute("select id from jq.jq_claim('default', 'thief', 1)")
        assert [r[0] for r in await cur.fetchall()] == [job_id]


def held_by(db, job_id) -> tuple[str, str] | None:
    return db.execute("select status, locked_by from jq.jobs where id = %s", [job_id]).fetchone()


def test_a_lost_lease_abandons_the_job_and_writes_nothing(db, dsn):
    job = pyjq.enqueue(db, "long", {})
    worker = pyjq.Worker(dsn, queues={"default": 1}, heartbeat_interval=0.2, poll_interval=30)
    running = asyncio.Event()
    saw: list[bool] = []

    @worker.handler("long")
    async def long(job: pyjq.Job) -> None:
        running.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            saw.append(job.cancelled)
            raise

    async def scenario():
        await running.wait()
        await steal(dsn, job.job_id, worker.name)
        await eventually(lambda: saw, what="the handler to be cancelled")

    _, summary = run_with(worker, scenario)
    assert saw == [True]
    assert summary.lease_lost == 1 and summary.total == 1
    assert held_by(db, job.job_id) == ("processing", "thief")


def test_a_result_for_a_lost_lease_is_not_recorded(db, dsn):
    # No heartbeat during the test: the worker only learns at write time.
    job = pyjq.enqueue(db, "long_thread", {})
    worker = pyjq.Worker(dsn, queues={"default": 1}, heartbeat_interval=3600, poll_interval=30)
    running = threading.Event()
    finish = threading.Event()
    returned = threading.Event()

    @worker.handler("long_thread")
    def long_thread(job: pyjq.Job) -> None:
        running.set()
        finish.wait(60)
        returned.set()

    async def scenario():
        await eventually(running.is_set, what="the handler to start")
        await steal(dsn, job.job_id, worker.name)
        finish.set()
        await eventually(returned.is_set, what="the handler to return")
        # run_with now stops the worker, which writes the buffered result first.

    _, summary = run_with(worker, scenario)
    assert summary.lease_lost == 1 and summary.succeeded == 0
    assert held_by(db, job.job_id) == ("processing", "thief")


# -- drain, stop ------------------------------------------------------------------------------------------


def test_drain_runs_follow_up_jobs_and_leaves_scheduled_ones(db, dsn):
    later = pyjq.enqueue(db, "parent", {"spawn": False}, run_at=datetime.now(UTC) + timedelta(hours=1))
    pyjq.enqueue(db, "parent", {"spawn": True})
    worker = pyjq.Worker(dsn)
    ran: list[str] = []

    @worker.handler("parent")
    async def parent(job: pyjq.Job) -> None:
        ran.append("parent")
        if job.payload["spawn"]:
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
                await pyjq.enqueue_async(conn, "child", {})

    @worker.handler("child")
    def child(job: pyjq.Job) -> None:
        ran.append("child")

    summary = asyncio.run(worker.drain(timeout=30))
    assert ran == ["parent", "child"]
    assert summary == pyjq.RunSummary(succeeded=2)
    assert pyjq.status(db, later.job_id).status == "scheduled"
    # Nothing left: a second drain returns at once with nothing done.
    assert drain(worker).total == 0


def test_drain_timeout_releases_running_jobs(db, dsn):
    job = pyjq.enqueue(db, "forever", {})
    worker = pyjq.Worker(dsn)

    @worker.handler("forever")
    async def forever(job: pyjq.Job) -> None:
        await asyncio.sleep(60)

    with pytest.raises(TimeoutError):
        drain(worker, timeout=1.0)
    status = pyjq.status(db, job.job_id)
    assert (status.status, status.attempts) == ("queued", 0)


def test_stop_lets_running_jobs_finish_within_the_grace_period(db, dsn):
    job = pyjq.enqueue(db, "short", {})
    worker = pyjq.Worker(dsn, shutdown_grace=30)
    running = asyncio.Event()

    @worker.handler("short")
    async def short(job: pyjq.Job) -> None:
        running.set()
        await asyncio.sleep(0.5)

    async def scenario():
        await running.wait()  # run_with stops the worker now, mid-job

    _, summary = run_with(worker, scenario)
    assert summary == pyjq.RunSummary(succeeded=1)
    assert pyjq.status(db, job.job_id).status == "succeeded"


def test_stop_releases_jobs_still_running_after_the_grace_period(db, dsn):
    job_a = pyjq.enqueue(db, "forever", {})
    job_t = pyjq.enqueue(db, "forever_thread", {})
    worker = pyjq.Worker(dsn, shutdown_grace=0.5)
    started: set[str] = set()
    flagged: list[bool] = []

    @worker.handler("forever")
    async def forever(job: pyjq.Job) -> None:
        started.add(job.type)
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            flagged.append(job.cancelled)
            raise

    @worker.handler("forever_thread")
    def forever_thread(job: pyjq.Job) -> None:
        started.add(job.type)
        while not job.cancelled:
            time.sleep(0.01)
        flagged.append(True)

    async def scenario():
        await eventually(lambda: len(started) == 2, what="both handlers to start")

    _, summary = run_with(worker, scenario)
    assert summary == pyjq.RunSummary(released=2)
    for job in (job_a, job_t):
        status = pyjq.status(db, job.job_id)
        assert (status.status, status.attempts) == ("queued", 0)
    time.sleep(0.1)
    assert flagged == [True, True]


def test_a_job_cancelled_while_the_worker_shuts_down_ends_cancelled(db, dsn):
    job = pyjq.enqueue(db, "forever", {})
    worker = pyjq.Worker(dsn, shutdown_grace=0.5, heartbeat_interval=3600)
    running = asyncio.Event()

    @worker.handler("forever")
    async def forever(job: pyjq.Job) -> None:
        running.set()
        await asyncio.sleep(60)

    async def scenario():
        await running.wait()
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            assert await pyjq.cancel_async(conn, job.job_id) == "running"

    _, summary = run_with(worker, scenario)
    assert summary.cancelled == 1
    assert pyjq.status(db, job.job_id).status == "cancelled"


def test_stop_before_run_returns_at_once(dsn):
    worker = pyjq.Worker(dsn)
    worker.add_handler("x", lambda job: None)

    async def main():
        await worker.stop()
        return await asyncio.wait_for(worker.run_async(), 10)

    assert asyncio.run(main()) == pyjq.RunSummary()


# -- housekeeping, cost ---------------------------------------------------------------------------------------


def test_the_worker_ticks(db, dsn):
    """jq_tick in a loop (tests/test_worker_tick.py): the first call runs the maintenance, which is due."""
    worker = pyjq.Worker(dsn)
    worker.add_handler("x", lambda job: None)

    async def scenario():
        await eventually(lambda: worker.stats.get("tick", 0) >= 2, what="two jq_tick calls")

    run_with(worker, scenario)
    assert db.execute("select maintained_at is not null from jq.tick_state").fetchone() == (True,)


def test_an_idle_worker_costs_about_one_query_a_second(db, dsn, capsys):
    """Measures the idle cost: the worker's own calls over 10 idle seconds, and
    the transactions the database counted for the worker's whole life
    (pg_stat_database.xact_commit, read before it starts and after its
    connections closed, since idle backends report their counters late)."""
    worker = pyjq.Worker(dsn, queues={"urgent": 5, "default": 5, "bulk": 5})
    worker.add_handler("x", lambda job: None)
    idle_seconds = 10.0

    def commits() -> int:
        with psycopg.connect(dsn, autocommit=True) as conn:
            return conn.execute(
                "select xact_commit from pg_stat_database where datname = current_database()"
            ).fetchone()[0]

    async def scenario():
        await asyncio.sleep(1.0)  # past start-up
        before = worker.stats
        await asyncio.sleep(idle_seconds)
        after = worker.stats
        return {k: v - before.get(k, 0) for k, v in after.items() if v - before.get(k, 0)}

    first = commits()
    began = time.monotonic()
    calls, _ = run_with(worker, scenario)
    lifetime = time.monotonic() - began
    time.sleep(1.5)
    transactions = commits() - first - 1  # the first commits() is itself one
    statements = sum(v for k, v in calls.items() if k != "round_trips")
    with capsys.disabled():
        print(
            f"\nidle worker, 3 queues, poll_interval {worker.poll_interval} s: "
            f"{calls.get('round_trips', 0) / idle_seconds:.2f} round trips (one statement each)/s and "
            f"{statements / idle_seconds:.2f} jq function calls/s over {idle_seconds:.0f} idle seconds {calls}; "
            f"database: {transactions} transactions in the worker's {lifetime:.1f} s life "
            f"(start-up and shutdown included) = {transactions / lifetime:.2f}/s"
        )
    # Behaviour, not speed: an idle worker only polls, one round trip per poll interval, beats in
    # the registry every 3 s (on its own connection) and ticks as often as jq_tick asks: every
    # settings.rotation_turn_after while its generation is quiet.
    turn_after = db.execute("select extract(epoch from rotation_turn_after)::float from jq.settings").fetchone()[0]
    ticks = idle_seconds / turn_after + 1
    assert calls.get("tick", 0) <= ticks
    assert calls.get("round_trips", 0) <= idle_seconds / worker.poll_interval * 1.5 + idle_seconds / 3 + ticks + 2
    # listen_check: one per 7 s
    assert set(calls) <= {"claim", "round_trips", "tick", "listen_check", "worker_beat", "worker_register"}


# -- configuration -------------------------------------------------------------------------------------------------


def test_configuration_errors_are_caught_early():
    with pytest.raises(ValueError):
        pyjq.Worker("dbname=x", queues={"bad queue": 1})
    with pytest.raises(ValueError):
        pyjq.Worker("dbname=x", queues={"default": 0})
    with pytest.raises(ValueError):
        pyjq.Worker("dbname=x", lease=0.5)
    worker = pyjq.Worker("dbname=x")
    worker.add_handler("a", lambda job: None)
    with pytest.raises(ValueError):
        worker.add_handler("a", lambda job: None)
    with pytest.raises(RuntimeError):
        asyncio.run(pyjq.Worker("dbname=x").run_async())  # no handlers


def test_a_missing_schema_is_an_error_not_a_hang(dsn, db):
    db.execute("drop schema jq cascade")
    worker = pyjq.Worker(dsn)
    worker.add_handler("a", lambda job: None)
    with pytest.raises(pyjq.NotInstalled):
        asyncio.run(asyncio.wait_for(worker.run_async(), 20))
