"""Recurring schedules: cron in a named IANA timezone, with jitter, fired
exactly once per slot.

Managing schedules (``schedule_put``, ``schedules``, ``schedule_pause``, ...)
is :mod:`pyjq.schedules`, re-exported here; the grammar, the slots and the DST
rule are in :mod:`pyjq.cron`.

Firing: the :class:`Scheduler`. Any number run at once (one inside every
worker); each slot fires once. Its whole API::

    scheduler = Scheduler()                      # batch_size, missed_grace, clock, ...
    scheduler.tick(conn) -> int                  # one batch in one transaction; jobs enqueued
    scheduler.run_pending(conn) -> int           # tick until nothing is due
    await scheduler.tick_async(aconn) -> int
    await scheduler.run_async(pool_or_dsn, stop_event, interval=1.0)

A Worker runs it as a background task with its own connections::

    stop = asyncio.Event()
    task = asyncio.create_task(Scheduler().run_async(pool, stop))   # pool: AsyncConnectionPool
    ...
    stop.set(); await task

``run_async`` takes an ``AsyncConnectionPool`` (a connection per tick) or a
conninfo string (one connection of its own, reopened after a failure). It
ticks every ``interval`` seconds (+-10 %), at once again while ticks come back
full, never raises for database trouble (logs to ``pyjq.scheduler`` and backs
off), and returns when ``stop_event`` is set.

One tick, in one transaction:

1. ``jq_schedules_due(limit)`` claims up to ``batch_size`` due schedules
   FOR UPDATE SKIP LOCKED (concurrent schedulers take different rows) and
   returns jq's clock (``as_of``).
2. For each distinct (cron, timezone, missed, next_run_at) -- 500,000 digests
   sharing "0 8 * * *" are one group -- croniter computes, once, the slots to
   fire and the next slot (:class:`pyjq.cron.CronTimes`).
3. ``jq_schedules_fire`` advances next_run_at and enqueues one job per slot in
   one statement, with the idempotency key ``schedule:<name>:<slot UTC>`` and
   ``run_at = slot + a deterministic jitter`` derived from (name, slot).

A crash before commit leaves everything as it was: the next tick fires the
same slots with the same run_at. next_run_at advances only where it is still
what the tick read, so even a caller that does not hold the row locks cannot
fire a slot twice.

Missed slots (every scheduler down for a while) follow the schedule's
``missed``: ``latest`` fires only the most recent slot that passed, ``all``
fires every one (at most ``max_slots_per_schedule`` a tick; the rest next
tick), ``none`` fires only a slot at most ``missed_grace`` old (a tick that
is merely late still fires it) and skips the others.

The clock is jq's: ``as_of`` from jq_schedules_due, which a test moves with
``set jq.now = '...'`` on the connection; ``Scheduler(clock=...)`` instead
sets ``jq.now`` inside each tick's transaction, so SQL and croniter always
agree on "now". Both need the test clock turned on in that database (``update
jq.settings set allow_test_clock = true``, by its owner): a production install
ignores ``jq.now``, so a moved clock cannot fire a slot early there.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool

from ._calls import expect_row
from ._calls.schedules import (
    SCHEDULES_DUE,
    SCHEDULES_FIRE,
    DueSchedule,
    FireResult,
    Schedule,
    ScheduleResult,
)
from ._calls.session import SET_CLOCK
from ._limits import SCHEDULES_DUE_LIMIT_MAX
from .cron import CronTimes, cron_times, parse_cron, schedule_key, schedule_offset
from .schedules import (  # re-exported: pyjq.scheduler.schedule_put etc. keep working
    list_schedules,
    pause_schedule,
    resume_schedule,
    schedule,
    schedule_delete,
    schedule_delete_async,
    schedule_pause,
    schedule_pause_async,
    schedule_put,
    schedule_put_async,
    schedule_resume,
    schedule_resume_async,
    schedules,
    schedules_async,
    unschedule,
)

__all__ = [
    "CronTimes",
    "Schedule",
    "ScheduleResult",
    "Scheduler",
    "TickResult",
    "list_schedules",
    "parse_cron",
    "pause_schedule",
    "resume_schedule",
    "schedule",
    "schedule_delete",
    "schedule_delete_async",
    "schedule_key",
    "schedule_offset",
    "schedule_pause",
    "schedule_pause_async",
    "schedule_put",
    "schedule_put_async",
    "schedule_resume",
    "schedule_resume_async",
    "schedules",
    "schedules_async",
    "unschedule",
]

logger = logging.getLogger("pyjq.scheduler")


@dataclass(frozen=True, slots=True)
class TickResult:
    claimed: int  # due schedules this tick locked
    advanced: int  # schedules whose next_run_at it moved
    jobs: int  # jobs enqueued
    full: bool  # more may be due now: a whole batch was claimed, or a backlog (missed = all) remains


# -- firing ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Fire:
    """jq_schedules_fire's arguments: one element per (schedule, slot); slot None only advances."""

    names: list[str]
    due_at: list[datetime | None]
    slots: list[datetime | None]
    next_run_at: list[datetime]
    backlog: bool = False  # some schedule's next_run_at is still due (a capped missed = all)

    def add(
        self, names: Sequence[str], due_at: datetime | None, slots: Sequence[datetime], next_run_at: datetime
    ) -> None:
        for slot in slots or (None,):
            self.names.extend(names)
            self.due_at.extend([due_at] * len(names))
            self.slots.extend([slot] * len(names))
            self.next_run_at.extend([next_run_at] * len(names))

    def params(self) -> dict[str, Any]:
        return {"names": self.names, "due_at": self.due_at, "slots": self.slots, "next_run_at": self.next_run_at}


class Scheduler:
    """Fires due schedules; see the module docstring. Safe to run in any
    number of processes at once.

    batch_size               schedules claimed per tick (one transaction)
    max_jobs_per_tick        cap on jobs one tick enqueues (missed = all backlogs)
    max_slots_per_schedule   cap on slots one schedule fires per tick
    missed_grace             how late a slot may be and still fire under missed = none
    clock                    callable returning an aware datetime: sets jq.now in each
                             tick's transaction (tests, benchmarks); default jq's clock
    retry_broken             how long a schedule croniter cannot evaluate waits before
                             it is tried again
    """

    def __init__(
        self,
        *,
        batch_size: int = 5000,
        max_jobs_per_tick: int = 50_000,
        max_slots_per_schedule: int = 1000,
        missed_grace: timedelta = timedelta(minutes=5),
        clock: Callable[[], datetime] | None = None,
        retry_broken: timedelta = timedelta(minutes=10),
    ):
        if not 1 <= batch_size <= SCHEDULES_DUE_LIMIT_MAX:  # jq_schedules_due's limit
            raise ValueError(f"batch_size must be between 1 and {SCHEDULES_DUE_LIMIT_MAX}")
        self.batch_size = batch_size
        self.max_jobs_per_tick = max_jobs_per_tick
        self.max_slots_per_schedule = max_slots_per_schedule
        self.missed_grace = missed_grace
        self.clock = clock
        self.retry_broken = retry_broken
        self.stats = {"ticks": 0, "claimed": 0, "advanced": 0, "jobs": 0, "errors": 0}

    def __repr__(self) -> str:
        return f"Scheduler(batch_size={self.batch_size})"

    # -- planning (no I/O) -------------------------------------------------------------

    def plan(self, rows: Sequence[DueSchedule]) -> _Fire:
        """The jq_schedules_fire arguments for the rows jq_schedules_due returned.
        croniter runs once per distinct (cron, timezone, missed, next_run_at)."""
        fire = _Fire([], [], [], [])
        if not rows:
            return fire
        as_of = rows[0].as_of  # jq's clock, the same in every row
        groups: dict[tuple[str, str, str, datetime | None, datetime | None], list[str]] = {}
        for r in rows:
            base = r.updated_at if r.next_run_at is None else None
            groups.setdefault((r.cron, r.timezone, r.missed, r.next_run_at, base), []).append(r.name)
        budget = self.max_jobs_per_tick
        for (cron, tz, missed, due_at, base), names in groups.items():
            try:
                slots, next_run_at = self._slots(
                    cron,
                    tz,
                    missed,
                    due_at,
                    base,
                    as_of,
                    max(1, min(self.max_slots_per_schedule, budget // len(names))),
                )
            except Exception as exc:  # a cron or zone this Python cannot evaluate: retry later
                self.stats["errors"] += 1
                logger.error(
                    "schedules %s...: cannot compute slots of cron %r in %r (%s); retrying at %s",
                    names[0],
                    cron,
                    tz,
                    exc,
                    as_of + self.retry_broken,
                )
                slots, next_run_at = [], as_of + self.retry_broken
            budget -= len(slots) * len(names)
            fire.add(names, due_at, slots, next_run_at)
            fire.backlog = fire.backlog or next_run_at <= as_of
        return fire

    def _slots(
        self, cron: str, tz: str, missed: str, due_at: datetime | None, base: datetime | None, now: datetime, cap: int
    ) -> tuple[list[datetime], datetime]:
        """(slots to fire, next next_run_at) for one group."""
        times = cron_times(cron, tz)
        # The slots to consider: [due_at, now], or (base, now] for a schedule
        # whose next_run_at was never computed (jq_schedules_due then gives updated_at).
        after = due_at - timedelta(microseconds=1) if due_at is not None else base
        assert after is not None, "a due schedule has next_run_at or updated_at"
        if missed == "all":
            slots: list[datetime] = []
            it = times.iter_after(after)
            for slot in it:
                if slot > now:
                    return slots, slot
                if len(slots) == cap:
                    return slots, slot  # the rest next tick
                slots.append(slot)
        latest = times.latest_at_or_before(now, not_before=after + timedelta(microseconds=1))
        next_run_at = times.next_after(max(now, after))
        if latest is None:
            return [], next_run_at
        if missed == "none" and now - latest > self.missed_grace:
            return [], next_run_at
        return [latest], next_run_at

    # -- ticks -------------------------------------------------------------------------

    def tick(self, conn: psycopg.Connection) -> int:
        """Fire one batch of due schedules in one transaction; returns the jobs enqueued.

        Inside a transaction the caller opened, this is a savepoint, and the row
        locks last until the caller commits.
        """
        return self.tick_result(conn).jobs

    def tick_result(self, conn: psycopg.Connection) -> TickResult:
        """tick(), with the counts."""
        with conn.transaction():
            if self.clock is not None:
                SET_CLOCK.run(conn, now=self._now().isoformat())
            rows = SCHEDULES_DUE.run(conn, limit=self.batch_size)
            if not rows:
                return self._count(TickResult(0, 0, 0, False))
            fire = self.plan(rows)
            done = expect_row(SCHEDULES_FIRE.run(conn, **fire.params()), "jq_schedules_fire")
        return self._result(rows, fire, done)

    def run_pending(self, conn: psycopg.Connection) -> int:
        """Tick until nothing more is due (as far as this scheduler can tell:
        rows another scheduler holds are skipped); returns the jobs enqueued."""
        jobs = 0
        while True:
            result = self.tick_result(conn)
            jobs += result.jobs
            if not result.full:
                return jobs

    async def tick_async(self, conn: psycopg.AsyncConnection) -> int:
        """tick() on an async connection."""
        return (await self.tick_result_async(conn)).jobs

    async def tick_result_async(self, conn: psycopg.AsyncConnection) -> TickResult:
        """tick_result() on an async connection."""
        # Idle probe: one statement, no transaction. Nothing due is the common
        # case; the row it may lock is released at once, and the transaction
        # below claims afresh (jq_schedules_fire only advances rows still as it read them).
        if self.clock is None and conn.autocommit and not await SCHEDULES_DUE.run_async(conn, limit=1):
            return self._count(TickResult(0, 0, 0, False))
        async with conn.transaction():
            if self.clock is not None:
                await SET_CLOCK.run_async(conn, now=self._now().isoformat())
            rows = await SCHEDULES_DUE.run_async(conn, limit=self.batch_size)
            if not rows:
                return self._count(TickResult(0, 0, 0, False))
            fire = self.plan(rows)
            done = expect_row(await SCHEDULES_FIRE.run_async(conn, **fire.params()), "jq_schedules_fire")
        return self._result(rows, fire, done)

    def _result(self, rows: Sequence[DueSchedule], fire: _Fire, done: FireResult) -> TickResult:
        full = len(rows) >= self.batch_size or (fire.backlog and done.schedules > 0)
        return self._count(TickResult(len(rows), done.schedules, done.jobs, full))

    async def run_async(
        self, pool_or_dsn: AsyncConnectionPool | str, stop_event: asyncio.Event, interval: float = 1.0
    ) -> None:
        """Tick every ``interval`` seconds (at once again after a full tick) until
        ``stop_event`` is set. ``pool_or_dsn``: a psycopg_pool AsyncConnectionPool,
        or a conninfo string for a connection of its own."""
        delay_on_error = 0.1
        own: psycopg.AsyncConnection | None = None

        @asynccontextmanager
        async def connection() -> AsyncIterator[psycopg.AsyncConnection]:
            nonlocal own
            if not isinstance(pool_or_dsn, str):
                async with pool_or_dsn.connection() as conn:
                    yield conn
                return
            if own is None or own.closed or own.broken:
                own = await psycopg.AsyncConnection.connect(
                    pool_or_dsn, autocommit=True, application_name="pyjq scheduler", prepare_threshold=None
                )
            yield own

        try:
            while not stop_event.is_set():
                started = time.monotonic()
                try:
                    async with connection() as conn:
                        result = await self.tick_result_async(conn)
                    delay_on_error = 0.1
                except (psycopg.OperationalError, OSError) as exc:
                    logger.warning("scheduler: database unreachable (%s); retrying", " ".join(str(exc).split()))
                    await _wait(stop_event, delay_on_error)
                    delay_on_error = min(5.0, delay_on_error * 2)
                    continue
                except asyncio.CancelledError:
                    raise
                except Exception:
                    self.stats["errors"] += 1
                    logger.exception("scheduler: tick failed")
                    await _wait(stop_event, max(interval, delay_on_error))
                    delay_on_error = min(5.0, delay_on_error * 2)
                    continue
                if result.jobs or result.advanced:
                    logger.debug(
                        "scheduler: %d schedules advanced, %d jobs enqueued in %.0f ms",
                        result.advanced,
                        result.jobs,
                        (time.monotonic() - started) * 1000,
                    )
                if result.full:
                    await asyncio.sleep(0)
                    continue
                await _wait(stop_event, interval * random.uniform(0.9, 1.1))
        finally:
            if own is not None:
                await own.close()

    # -- helpers -----------------------------------------------------------------------

    def _now(self) -> datetime:
        moment = self.clock() if self.clock is not None else datetime.now(UTC)
        if moment.tzinfo is None:
            raise ValueError("Scheduler clock must return an aware datetime")
        return moment

    def _count(self, result: TickResult) -> TickResult:
        self.stats["ticks"] += 1
        self.stats["claimed"] += result.claimed
        self.stats["advanced"] += result.advanced
        self.stats["jobs"] += result.jobs
        return result


async def _wait(event: asyncio.Event, timeout: float) -> None:
    # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation.
    with suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            await event.wait()
