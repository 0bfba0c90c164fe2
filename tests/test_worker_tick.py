"""The worker's periodic call (pyjq/worker/tick.py): it calls jq_tick in a loop and sleeps what each
call answers, with a little jitter; it counts the truncations and turns in the worker's stats; it warns
once when the oldest generation has stayed busy for BUSY_WARN_AFTER seconds, and once more when it
passes; against a jq without jq_tick it calls jq_maintain instead. Worker(tick=False) makes no
periodic call, and Worker(maintain_interval=...) is deprecated."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest
from helpers import eventually, make_oldest

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


class Sleeps:
    """The ticker's asyncio.sleep: notes each delay asked for and sleeps 20 ms instead."""

    def __init__(self) -> None:
        self.delays: list[float] = []
        self._sleep = asyncio.sleep

    async def sleep(self, delay: float) -> None:
        self.delays.append(delay)
        await self._sleep(0.02)


def test_the_ticker_sleeps_what_jq_tick_answers_with_jitter(db, dsn, monkeypatch):
    # A quiet current generation (under rotation_min_bytes): jq_tick answers rotation_turn_after.
    db.execute(
        "update jq.settings set rotation_min_bytes = 1073741824, rotation_turn_bytes = 0,"
        " rotation_turn_after = interval '7 seconds'"
    )
    sleeps = Sleeps()
    monkeypatch.setattr(tick, "asyncio", SimpleNamespace(sleep=sleeps.sleep))
    worker = quiet_worker(dsn)

    async def scenario() -> tuple[list[float], list[float]]:
        await eventually(lambda: len(sleeps.delays) >= 8, what="eight ticks")
        before = list(sleeps.delays)
        db.execute("update jq.settings set rotation_turn_after = interval '3 seconds'")
        await eventually(lambda: len(sleeps.delays) >= len(before) + 9, what="nine more ticks")
        return before, sleeps.delays[len(before) + 1 :]  # the call in flight may have read the old answer

    before, after = run_with(worker, scenario)
    assert all(7 * 0.9 <= d <= 7 * 1.1 for d in before), before
    assert all(3 * 0.9 <= d <= 3 * 1.1 for d in after), after
    assert len(set(before)) > 1 and len(set(after)) > 1, "no jitter"
    assert worker.stats["tick"] >= len(before) + len(after)


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


def hold_the_oldest_generation(db: psycopg.Connection, connect) -> tuple[int, psycopg.Connection]:
    """Jobs nobody handles in the oldest generation, and a session holding ACCESS SHARE on jq.jobs
    (as pg_dump does): every tick answers busy. Returns the generation and the holding session."""
    ids = [r.job_id for r in pyjq.enqueue_many(db, [{"type": "unhandled"} for _ in range(3)])]
    [(generation,)] = db.execute("select distinct generation from jq.jobs where id = any(%s)", [ids]).fetchall()
    make_oldest(db, generation)
    holder = connect(autocommit=False)
    holder.execute("lock table jq.jobs in access share mode")
    return generation, holder


@pytest.mark.usefixtures("quick_turns")
def test_a_busy_generation_is_warned_about_once_and_once_more_when_it_passes(db, dsn, connect, caplog, monkeypatch):
    monkeypatch.setattr(tick, "BUSY_WARN_AFTER", 0.5)
    generation, holder = hold_the_oldest_generation(db, connect)
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


@pytest.mark.xfail(
    strict=True,
    reason="pyjq/worker/tick.py reads {'ran': false} (another session was ticking) as not busy: it logs"
    " 'truncated again' while the generation is still held, and restarts the busy count",
)
@pytest.mark.usefixtures("quick_turns")
def test_a_tick_that_did_not_run_leaves_the_busy_count_alone(db, dsn, connect, caplog, monkeypatch):
    """Several workers tick: while one holds jq_tick's advisory lock, the others are answered
    {"ran": false} at once. Such an answer says nothing about the generation."""
    monkeypatch.setattr(tick, "BUSY_WARN_AFTER", 0.5)
    _, holder = hold_the_oldest_generation(db, connect)
    other = connect()
    worker = quiet_worker(dsn)

    async def scenario() -> None:
        await eventually(lambda: logged(caplog, BUSY_WARNING), what="the warning")
        other.execute("select pg_advisory_lock(hashtext('jq.tick'))")  # as another worker's tick, held
        ticks = worker.stats["tick"]
        await eventually(lambda: worker.stats["tick"] >= ticks + 4, what="four ticks that did not run")
        other.execute("select pg_advisory_unlock(hashtext('jq.tick'))")

    with caplog.at_level(logging.DEBUG, logger="pyjq.worker"):
        run_with(worker, scenario)
    holder.rollback()
    assert any(r.args and r.args[-1] == {"ran": False} for r in caplog.records), "no tick was answered 'not run'"
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
