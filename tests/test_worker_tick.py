"""The worker's periodic call (pyjq/worker/tick.py): it calls jq_tick in a loop and sleeps what each
call answers, with a little jitter (never early); it counts the truncations and turns in the worker's stats; it warns
once when the generation it empties has stayed busy for BUSY_WARN_AFTER seconds, and once more when it
passes; against a jq without jq_tick it calls jq_maintain instead. Worker(tick=False) makes no
periodic call, and Worker(maintain_interval=...) is deprecated."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Awaitable, Callable
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest
from helpers import eventually, make_previous, stop_turning

import pyjq
from pyjq.worker import tick

BUSY_WARNING = "could not be truncated for"
AGAIN = "is truncated again"


def quiet_worker(dsn: str) -> pyjq.Worker:
    """A worker of one handler that nothing enqueues, and no periodic call but the tick."""
    worker = pyjq.Worker(dsn, poll_interval=0.5, schedules=False, check_unhandled=None)
    worker.add_handler("nothing", lambda job: None)
    return worker


def run_with(worker: pyjq.Worker, scenario: Callable[[], Awaitable[Any]], timeout: float = 60.0) -> Any:
    """Run worker.run_async() while scenario() runs; then stop the worker. Returns scenario's result."""

    async def main() -> Any:
        run = asyncio.create_task(worker.run_async())
        scene = asyncio.create_task(scenario())
        try:
            done, _ = await asyncio.wait({run, scene}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if run in done:
                run.result()
                raise AssertionError("the worker stopped before the scenario ended")
            if scene not in done:
                raise AssertionError(f"scenario did not finish within {timeout} s")
            return scene.result()
        finally:
            scene.cancel()
            await worker.stop()
            await run

    return asyncio.run(main())


def logged(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "pyjq.worker" and text in r.getMessage()]


def scalar(conn: psycopg.Connection, sql: str) -> Any:
    row = conn.execute(sql).fetchone()
    assert row is not None
    return row[0]


# -- what it sleeps ------------------------------------------------------------------------------


class Answers:
    """Beside the ticker's jq_tick call: notes each answer, then hands it on."""

    def __init__(self, call: Any) -> None:
        self.call = call
        self.answers: list[pyjq.Tick] = []

    async def run_async(self, conn: psycopg.AsyncConnection, **params: Any) -> pyjq.Tick | None:
        answer = await self.call.run_async(conn, **params)
        self.answers.append(answer)
        return answer


class Sleeps:
    """The ticker's asyncio.sleep: notes each delay asked for and sleeps 20 ms instead."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self._sleep = asyncio.sleep

    async def sleep(self, delay: float) -> None:
        self.delays.append(delay)
        await self._sleep(0.02)


def test_the_ticker_sleeps_what_jq_tick_answers_with_jitter(db, dsn, monkeypatch):
    # A quiet current generation (under rotation_min_bytes): jq_tick asks to be called again in 7 s.
    db.execute(
        "update jq.settings set rotation_min_bytes = 1073741824, rotation_turn_bytes = 0,"
        " rotation_turn_after = interval '7 seconds'"
    )
    answers, sleeps = Answers(tick.TICK), Sleeps()
    monkeypatch.setattr(tick, "TICK", answers)
    monkeypatch.setattr(tick, "asyncio", SimpleNamespace(sleep=sleeps.sleep))
    worker = quiet_worker(dsn)

    async def scenario() -> None:
        await eventually(lambda: len(sleeps.delays) >= 12, what="twelve ticks")

    run_with(worker, scenario)
    [first, *early] = answers.answers[: len(sleeps.delays)]
    # The first call runs; the next come 20 ms apart, long before the 7 s it asked for: each is answered
    # at once with the time left.
    assert first.account["ran"] is True and first.call_again_after == timedelta(seconds=7), first
    assert all(a.account == {"ran": False} for a in early), early
    left = [a.call_again_after.total_seconds() for a in early]
    assert left == sorted(left, reverse=True) and 6 < left[-1] < 7, left
    ratios = [d / a.call_again_after.total_seconds() for d, a in zip(sleeps.delays, answers.answers, strict=False)]
    assert all(1.0 <= r <= 1.1 for r in ratios), ratios  # never before the time asked for
    assert len({round(r, 6) for r in ratios}) > 1, "no jitter"


def test_a_lone_worker_calls_no_earlier_than_jq_tick_asked(db, dsn, monkeypatch):
    """A call before the time jq_tick asked for is only answered with the time left: with a jitter of
    0.9-1.1 half a lone worker's calls were such, and its idle jq_tick calls doubled."""
    # A quiet current generation: jq_tick asks to be called again in 0.3 s.
    db.execute(
        "update jq.settings set rotation_min_bytes = 1073741824, rotation_turn_bytes = 0,"
        " rotation_turn_after = interval '300 milliseconds'"
    )
    answers = Answers(tick.TICK)
    monkeypatch.setattr(tick, "TICK", answers)
    monkeypatch.setattr(tick, "random", SimpleNamespace(uniform=lambda low, high: low))  # the jitter's bottom
    worker = quiet_worker(dsn)

    def ran() -> int:
        return sum(bool(a.account.get("ran")) for a in answers.answers)

    async def scenario() -> None:
        await eventually(lambda: ran() >= 6, what="six ticks that ran")

    run_with(worker, scenario)
    early = [a for a in answers.answers if not a.account.get("ran")]
    assert not early, f"{len(early)} calls before the time asked for, beside {ran()} that ran"


# -- what it counts ------------------------------------------------------------------------------


@pytest.mark.usefixtures("quick_turns")
def test_truncations_and_turns_are_counted_in_the_worker_stats(db, dsn):
    pyjq.enqueue_many(db, [{"type": "unhandled"} for _ in range(10)])  # moved at every other turn
    truncations_sql = "select sum(truncations) from jq.storage_generations"
    turns_sql = "select pg_sequence_last_value('jq.storage_turns')"
    truncations, turns = scalar(db, truncations_sql), scalar(db, turns_sql)
    worker = quiet_worker(dsn)

    async def scenario() -> None:
        await eventually(
            lambda: worker.stats.get("storage_truncations", 0) >= 3 and worker.stats.get("storage_turns", 0) >= 3,
            what="three truncations and three turns",
        )
        # Rotation off and the maintenance due every second: the next ticks change nothing, soon.
        db.execute("update jq.settings set rotate_storage = false, maintain_interval = interval '1 second'")
        ticks = worker.stats["tick"]
        await eventually(lambda: worker.stats["tick"] >= ticks + 2, what="two ticks with the rotation off")

    run_with(worker, scenario)
    assert worker.stats["storage_truncations"] == scalar(db, truncations_sql) - truncations, worker.stats
    assert worker.stats["storage_turns"] == scalar(db, turns_sql) - turns, worker.stats


def test_a_worker_with_tick_false_makes_no_periodic_call(db, dsn):
    worker = pyjq.Worker(dsn, poll_interval=0.5, schedules=False, check_unhandled=None, tick=False)
    worker.add_handler("nothing", lambda job: None)

    async def scenario() -> None:
        await eventually(lambda: worker.stats.get("claim", 0) >= 3, what="three polls")

    run_with(worker, scenario)
    assert "tick" not in worker.stats and "maintain" not in worker.stats, worker.stats
    assert scalar(db, "select maintained_at from jq.tick_state") is None


# -- what it says --------------------------------------------------------------------------------


def hold_a_generation_to_empty(db: psycopg.Connection, connect) -> tuple[int, psycopg.Connection]:
    """Jobs nobody handles in a generation no longer current (the one the next tick empties; no more
    turns), and a session holding ACCESS SHARE on jq.jobs (as pg_dump does): every tick answers busy.
    Returns the generation and the holding session."""
    ids = [r.job_id for r in pyjq.enqueue_many(db, [{"type": "unhandled"} for _ in range(3)])]
    [(generation,)] = db.execute("select distinct generation from jq.jobs where id = any(%s)", [ids]).fetchall()
    make_previous(db, generation)
    stop_turning(db)
    holder = connect(autocommit=False)
    holder.execute("lock table jq.jobs in access share mode")
    return generation, holder


@pytest.mark.usefixtures("quick_turns")
def test_a_busy_generation_is_warned_about_once_and_once_more_when_it_passes(db, dsn, connect, caplog, monkeypatch):
    monkeypatch.setattr(tick, "BUSY_WARN_AFTER", 0.5)
    generation, holder = hold_a_generation_to_empty(db, connect)
    worker = quiet_worker(dsn)

    async def scenario() -> tuple[list[str], list[str]]:
        await eventually(lambda: logged(caplog, BUSY_WARNING), what="the warning")
        ticks = worker.stats["tick"]
        await eventually(lambda: worker.stats["tick"] >= ticks + 4, what="four more busy ticks")
        while_held = logged(caplog, BUSY_WARNING) + logged(caplog, AGAIN)
        holder.rollback()
        await eventually(lambda: logged(caplog, AGAIN), what="the truncation")
        ticks = worker.stats["tick"]
        await eventually(lambda: worker.stats["tick"] >= ticks + 4, what="four more ticks")
        return while_held, logged(caplog, BUSY_WARNING) + logged(caplog, AGAIN)

    with caplog.at_level(logging.INFO, logger="pyjq.worker"):
        while_held, at_end = run_with(worker, scenario)
    [warning] = while_held
    assert f"generation {generation} could not be truncated" in warning and "pg_dump" in warning, warning
    assert at_end == [warning, f"worker {worker.name}: jq.jobs generation {generation} is truncated again"], at_end


@pytest.mark.parametrize("why", ["another_worker_ticked", "another_session_ticking"])
@pytest.mark.usefixtures("quick_turns")
def test_a_tick_that_did_not_run_leaves_the_busy_count_alone(db, dsn, connect, caplog, monkeypatch, why):
    """With several workers, a call made before the time another worker's call asked for, or while it
    ticks, is answered {"ran": false} at once: such an answer says nothing about the generation, and
    no 'truncated again' follows while the lock is held."""
    monkeypatch.setattr(tick, "BUSY_WARN_AFTER", 0.5)
    _, holder = hold_a_generation_to_empty(db, connect)
    other = connect()
    worker = quiet_worker(dsn)

    async def scenario() -> None:
        await eventually(lambda: logged(caplog, BUSY_WARNING), what="the warning")
        if why == "another_worker_ticked":  # and asked for a call a second later
            other.execute("select setval('jq.tick_due', (extract(epoch from clock_timestamp()) * 1000)::bigint + 1000)")
        else:  # and is still at it
            other.execute("select pg_advisory_lock(hashtext('jq.tick'))")
        ticks = worker.stats["tick"]
        await eventually(lambda: worker.stats["tick"] >= ticks + 3, what="three more ticks")
        other.execute("select pg_advisory_unlock_all()")

    with caplog.at_level(logging.DEBUG, logger="pyjq.worker"):
        run_with(worker, scenario)
    holder.rollback()
    assert any(r.args and r.args[-1] == {"ran": False} for r in caplog.records), "every tick ran"
    assert logged(caplog, AGAIN) == [], "the generation was still held"


# -- against jq before 0.6.0 ---------------------------------------------------------------------


def test_without_jq_tick_the_worker_calls_jq_maintain(db, dsn, caplog, monkeypatch):
    monkeypatch.setattr(tick, "OLD_MAINTAIN_INTERVAL", 0.2)  # instead of a minute
    db.execute("drop function jq.jq_tick()")
    # A waiting mark of a session long gone: jq_maintain forgets it.
    db.execute("insert into jq.queue_waiters (queue, worker, backend_pid, since) values ('default', 'gone', 0, now())")
    worker = quiet_worker(dsn)

    def ghost_forgotten() -> bool:
        return scalar(db, "select count(*) from jq.queue_waiters where worker = 'gone'") == 0

    async def scenario() -> None:
        await eventually(lambda: worker.stats.get("maintain", 0) >= 3, what="three jq_maintain calls")
        await eventually(ghost_forgotten, what="jq_maintain to forget the gone session's mark")

    with caplog.at_level(logging.INFO, logger="pyjq.worker"):
        run_with(worker, scenario)
    assert worker.stats["tick"] == 1, worker.stats
    assert len(logged(caplog, "the database has no jq_tick")) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


# -- configuration -------------------------------------------------------------------------------


@pytest.mark.unit
def test_maintain_interval_is_deprecated_and_none_still_means_no_tick():
    with pytest.warns(DeprecationWarning, match="maintain_interval"):
        assert pyjq.Worker("dbname=x", maintain_interval=20).tick is True
    for off in (None, 0):
        with pytest.warns(DeprecationWarning, match="tick=False"):
            assert pyjq.Worker("dbname=x", maintain_interval=off).tick is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pyjq.Worker("dbname=x").tick is True
        assert pyjq.Worker("dbname=x", tick=False).tick is False
