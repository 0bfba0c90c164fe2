"""Recurring schedules: cron in a named IANA timezone, with jitter, fired
exactly once per slot.

Managing schedules (``schedule_put``, ``schedules``, ``schedule_pause``, ...)
is :mod:`pyjq.schedules`, re-exported here; previews of a cron's slots are
:func:`pyjq.cron.cron_slots`.

Firing is jq's, in SQL: one call of ``jq_schedules_fire_due`` claims the due
schedules (FOR UPDATE SKIP LOCKED, so callers running at once take different
rows), computes their slots (the cron read in the schedule's time zone, jq's
DST rule, the schedule's ``missed``) and enqueues one job per slot, with the
idempotency key ``schedule:<name>:<slot UTC>`` and ``run_at = slot + a
deterministic jitter``. ``jq_tick``, the periodic call every deployment
makes, calls it; so does the :class:`Scheduler`, which every worker runs, and
which any number of processes may run at once. Its whole API::

    scheduler = Scheduler()                      # batch_size, clock
    scheduler.tick(conn) -> int                  # one jq_schedules_fire_due call; jobs enqueued
    scheduler.run_pending(conn) -> int           # tick until a tick enqueues nothing
    await scheduler.tick_async(aconn) -> int
    await scheduler.run_async(pool_or_dsn, stop_event, interval=1.0)

A Worker runs it as a background task with its own connections::

    stop = asyncio.Event()
    task = asyncio.create_task(Scheduler().run_async(pool, stop))   # pool: AsyncConnectionPool
    ...
    stop.set(); await task

``run_async`` takes an ``AsyncConnectionPool`` (a connection per tick) or a
conninfo string (one connection of its own, reopened after a failure). It
ticks every ``interval`` seconds (+-10 %), at once again while ticks enqueue
jobs, never raises for database trouble (logs to ``pyjq.scheduler`` and backs
off), and returns when ``stop_event`` is set.

What a tick fires is set in jq, for every caller alike: a slot at most
``jq.settings.schedule_missed_grace`` late still fires under ``missed =
none``; a ``missed = all`` backlog fires at most 1,000 slots per schedule and
50,000 in all per call; a schedule whose cron or time zone cannot be read is
tried again after 10 minutes, with a WARNING that the scheduler logs to
``pyjq.scheduler``. The constructor's ``missed_grace``,
``max_slots_per_schedule``, ``max_jobs_per_tick`` and ``retry_broken`` (up to
0.5.0) are accepted and ignored, with a DeprecationWarning.

The clock is jq's (``jq._now()``), which a test moves with ``set jq.now =
'...'`` on the connection; ``Scheduler(clock=...)`` instead sets ``jq.now``
inside each tick's transaction. Both need the test clock turned on in that
database (``update jq.settings set allow_test_clock = true``, by its owner): a
production install ignores ``jq.now``, so a moved clock cannot fire a slot
early there.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import warnings
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import psycopg
from psycopg.errors import Diagnostic
from psycopg_pool import AsyncConnectionPool

from ._calls.schedules import SCHEDULES_FIRE_DUE, Schedule, ScheduleResult
from ._calls.session import SET_CLOCK
from ._limits import SCHEDULES_DUE_LIMIT_MAX
from .cron import schedule_key, schedule_offset
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
    "Schedule",
    "ScheduleResult",
    "Scheduler",
    "TickResult",
    "list_schedules",
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

# The constructor's arguments of 0.5.0 that jq now decides, and where.
_DECIDED_IN_JQ = {
    "max_jobs_per_tick": "jq_schedules_fire_due fires at most 50,000 slots per call",
    "max_slots_per_schedule": "jq_schedules_fire_due fires at most 1,000 slots of a schedule per call",
    "missed_grace": "set jq.settings.schedule_missed_grace instead",
    "retry_broken": "jq_schedules_fire_due tries a schedule it cannot read again after 10 minutes",
}


@dataclass(frozen=True, slots=True)
class TickResult:
    claimed: int | None  # not reported since 0.6.0 (jq_schedules_fire_due answers the jobs only): None
    advanced: int | None  # not reported since 0.6.0: None
    jobs: int  # jobs enqueued
    full: bool  # more may be due now: the tick enqueued jobs


class Scheduler:
    """Fires due schedules with jq_schedules_fire_due; see the module docstring.
    Safe to run in any number of processes at once, and beside jq_tick.

    batch_size  schedules claimed per tick (jq_schedules_fire_due's limit)
    clock       callable returning an aware datetime: sets jq.now in each
                tick's transaction (tests, benchmarks); default jq's clock
    """

    def __init__(
        self,
        *,
        batch_size: int = 5000,
        max_jobs_per_tick: int | None = None,
        max_slots_per_schedule: int | None = None,
        missed_grace: timedelta | None = None,
        clock: Callable[[], datetime] | None = None,
        retry_broken: timedelta | None = None,
    ):
        if not 1 <= batch_size <= SCHEDULES_DUE_LIMIT_MAX:  # jq_schedules_fire_due's limit
            raise ValueError(f"batch_size must be between 1 and {SCHEDULES_DUE_LIMIT_MAX}")
        given = {
            "max_jobs_per_tick": max_jobs_per_tick,
            "max_slots_per_schedule": max_slots_per_schedule,
            "missed_grace": missed_grace,
            "retry_broken": retry_broken,
        }
        for name, value in given.items():
            if value is not None:
                warnings.warn(
                    f"Scheduler({name}=...) has no effect since pyjq 0.6.0: {_DECIDED_IN_JQ[name]}",
                    DeprecationWarning,
                    stacklevel=2,
                )
        self.batch_size = batch_size
        self.clock = clock
        self.stats = {"ticks": 0, "jobs": 0, "errors": 0}

    def __repr__(self) -> str:
        return f"Scheduler(batch_size={self.batch_size})"

    # -- ticks -------------------------------------------------------------------------

    def tick(self, conn: psycopg.Connection) -> int:
        """Fire one batch of due schedules (one jq_schedules_fire_due call); returns the jobs enqueued.

        Inside a transaction the caller opened, this is a savepoint, and the row
        locks last until the caller commits.
        """
        return self.tick_result(conn).jobs

    def tick_result(self, conn: psycopg.Connection) -> TickResult:
        """tick(), as a TickResult."""
        conn.add_notice_handler(self._log_notice)
        try:
            if self.clock is None and conn.autocommit:
                jobs = SCHEDULES_FIRE_DUE.run(conn, limit=self.batch_size)
            else:
                with conn.transaction():
                    if self.clock is not None:
                        SET_CLOCK.run(conn, now=self._now().isoformat())
                    jobs = SCHEDULES_FIRE_DUE.run(conn, limit=self.batch_size)
        finally:
            conn.remove_notice_handler(self._log_notice)
        return self._count(jobs)

    def run_pending(self, conn: psycopg.Connection) -> int:
        """Tick until a tick enqueues nothing (rows another caller holds are
        skipped); returns the jobs enqueued."""
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
        conn.add_notice_handler(self._log_notice)
        try:
            if self.clock is None and conn.autocommit:
                jobs = await SCHEDULES_FIRE_DUE.run_async(conn, limit=self.batch_size)
            else:
                async with conn.transaction():
                    if self.clock is not None:
                        await SET_CLOCK.run_async(conn, now=self._now().isoformat())
                    jobs = await SCHEDULES_FIRE_DUE.run_async(conn, limit=self.batch_size)
        finally:
            conn.remove_notice_handler(self._log_notice)
        return self._count(jobs)

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
                if result.jobs:
                    logger.debug(
                        "scheduler: %d jobs enqueued in %.0f ms", result.jobs, (time.monotonic() - started) * 1000
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

    def _log_notice(self, diag: Diagnostic) -> None:
        # jq_schedules_fire_due warns of a schedule whose slots it cannot compute.
        if diag.severity_nonlocalized == "WARNING":
            self.stats["errors"] += 1
            logger.error("scheduler: %s", diag.message_primary)

    def _count(self, jobs: int) -> TickResult:
        self.stats["ticks"] += 1
        self.stats["jobs"] += jobs
        return TickResult(None, None, jobs, jobs > 0)


async def _wait(event: asyncio.Event, timeout: float) -> None:
    # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation.
    with suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            await event.wait()
