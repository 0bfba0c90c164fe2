"""Recurring schedules: cron in a named IANA timezone, with jitter, fired
exactly once per slot.

Managing schedules (one jq_* call each, in the caller's transaction)::

    pyjq.schedule(conn, "digest:user-42", cron="0 8 * * *", timezone="Europe/Berlin",
                  type="send_digest", payload={"user_id": 42}, jitter_seconds=600)
    pyjq.list_schedules(conn)            # or list_schedules(conn, "digest:user-42")
    pyjq.pause_schedule(conn, name); pyjq.resume_schedule(conn, name); pyjq.unschedule(conn, name)

``schedule`` checks the cron with jq's grammar and croniter, and the
timezone with zoneinfo, before writing anything; SQL checks both again.

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
   fire and the next slot (class :class:`CronTimes`).
3. ``jq_schedules_fire`` advances next_run_at and enqueues one job per slot in
   one statement, with the idempotency key ``schedule:<name>:<slot UTC>`` and
   ``run_at = slot + a deterministic jitter`` derived from (name, slot).

A crash before commit leaves everything as it was: the next tick fires the
same slots with the same run_at. next_run_at advances only where it is still
what the tick read, so even a caller that does not hold the row locks cannot
fire a slot twice.

Slots and DST. A schedule's slots are the local wall-clock times its cron
matches in its timezone, each fired once:

* a local time that does not exist (the spring-forward gap) fires once, at
  the first instant after the gap: a daily 02:30 in America/New_York fires at
  03:00 EDT (07:00 UTC) on 2026-03-08;
* a local time that happens twice (fall back) fires once, at its first
  occurrence: a daily 01:30 in America/New_York fires at 01:30 EDT (05:30
  UTC) on 2026-11-01 and not again at 01:30 EST. An hourly or more frequent
  cron therefore does not fire during the repeated hour's second pass.

croniter alone does the first but fires a repeated time twice, so
:class:`CronTimes` walks croniter over naive local times and maps each onto
the timeline with the rule above.

Missed slots (every scheduler down for a while) follow the schedule's
``missed``: ``latest`` fires only the most recent slot that passed, ``all``
fires every one (at most ``max_slots_per_schedule`` a tick; the rest next
tick), ``none`` fires only a slot at most ``missed_grace`` old (a tick that
is merely late still fires it) and skips the others.

The clock is jq's: ``as_of`` from jq_schedules_due, which a test moves with
``set jq.now = '...'`` on the connection; ``Scheduler(clock=...)`` instead
sets ``jq.now`` inside each tick's transaction, so SQL and croniter always
agree on "now".
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone as _tz
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import psycopg
from croniter import croniter
from croniter.croniter import CroniterError
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from .errors import InvalidArgument, MissingArgument, ValueTooLong, from_psycopg

__all__ = [
    "Schedule",
    "ScheduleResult",
    "Scheduler",
    "TickResult",
    "CronTimes",
    "parse_cron",
    "schedule",
    "unschedule",
    "pause_schedule",
    "resume_schedule",
    "list_schedules",
    "schedule_key",
    "schedule_offset",
]

logger = logging.getLogger("pyjq.scheduler")

UTC = _tz.utc
MISSED = ("latest", "all", "none")

# -- results ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScheduleResult:
    name: str
    created: bool  # False: an existing schedule was updated
    next_run_at: datetime | None


@dataclass(frozen=True, slots=True)
class Schedule:
    name: str
    cron: str
    timezone: str
    type: str
    payload: dict[str, Any]
    queue: str
    priority: int
    jitter_seconds: int
    max_attempts: int | None
    missed: str  # latest | all | none
    paused: bool
    next_run_at: datetime | None
    last_slot_at: datetime | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class TickResult:
    claimed: int  # due schedules this tick locked
    advanced: int  # schedules whose next_run_at it moved
    jobs: int  # jobs enqueued
    full: bool  # more may be due now: a whole batch was claimed, or a backlog (missed = all) remains


# -- the cron grammar (the same as jq._cron_parse in sql/functions/schedules.sql) -----

_ALIASES = {
    "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}
_ITEM = re.compile(r"^(\*|([0-9]+|[a-z]+)(-([0-9]+|[a-z]+))?)(/([0-9]+))?$")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_WEEKDAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
# label, min, max, names, where * and a/step end
_FIELDS = (
    ("minute", 0, 59, None, 59),
    ("hour", 0, 23, None, 23),
    ("day-of-month", 1, 31, None, 31),
    ("month", 1, 12, _MONTHS, 12),
    ("day-of-week", 0, 7, _WEEKDAYS, 6),
)
_FULL = (frozenset(range(60)), frozenset(range(24)), frozenset(range(1, 32)), frozenset(range(1, 13)),
         frozenset(range(7)))
_MONTH_DAYS = {1: 31, 2: 29, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}


def _bad(cron: str, what: str) -> InvalidArgument:
    return InvalidArgument(f"cron {cron!r} is invalid: {what}", sqlstate="22023",
                           hint="Five fields: minute hour day-of-month month day-of-week, e.g. '0 8 * * *'.")


def parse_cron(cron: str) -> tuple[tuple[int, ...], ...]:
    """The values of a cron's five fields (weekdays 0-6, Sunday 0), as jq's SQL reads them.

    Raises InvalidArgument (22023) naming the cron when it is malformed or can
    never fire, MissingArgument for None, ValueTooLong beyond 255 characters.
    """
    if cron is None:
        raise MissingArgument("cron must not be null", sqlstate="22004")
    if len(cron) > 255:
        raise ValueTooLong(f"cron is {len(cron)} characters long; the limit is 255", sqlstate="22001")
    expr = _ALIASES.get(cron.strip().lower(), cron.strip())
    fields = expr.split()
    if len(fields) != 5:
        raise InvalidArgument(
            f"cron {cron!r} has {len(fields)} fields; jq takes 5: minute hour day-of-month month day-of-week",
            sqlstate="22023", hint="E.g. '0 8 * * *' is 08:00 every day; or @hourly, @daily, @weekly, ...")
    out: list[tuple[int, ...]] = []
    for text, (label, lo_limit, hi_limit, names, open_max) in zip(fields, _FIELDS):
        values: set[int] = set()
        for item in text.lower().split(","):
            m = _ITEM.match(item)
            if not m:
                raise _bad(cron, f"{label} field {item!r} is not *, a value, a range or a step")
            bounds = []
            for token in (m.group(2), m.group(4)):
                if token is None:
                    continue
                if token.isdigit():
                    if len(token) > 4 or not lo_limit <= int(token) <= hi_limit:
                        raise _bad(cron, f"{label} {token} is out of range {lo_limit}-{hi_limit}")
                    bounds.append(int(token))
                elif names and token in names:
                    bounds.append(names.index(token) + lo_limit)
                else:
                    raise _bad(cron, f"{label} {token!r} is not a number" + (" or a name" if names else ""))
            if m.group(1) == "*":
                lo, hi = lo_limit, open_max
            else:
                lo = bounds[0]
                hi = bounds[1] if len(bounds) > 1 else (open_max if m.group(6) else lo)
            if lo > hi:
                raise _bad(cron, f"{label} range {lo}-{hi} runs backwards")
            step = 1
            if m.group(6):
                if len(m.group(6)) > 4 or not 1 <= int(m.group(6)) <= open_max - lo_limit + 1:
                    raise _bad(cron, f"{label} step {m.group(6)} is out of range 1-{open_max - lo_limit + 1}")
                step = int(m.group(6))
            values.update(range(lo, hi + 1, step))
        if label == "day-of-week":
            values = {v % 7 for v in values}
        out.append(tuple(sorted(values)))
    minutes, hours, days, months, weekdays = out
    if len(weekdays) == 7 and not any(d <= _MONTH_DAYS[m] for d in days for m in months):
        raise InvalidArgument(f"cron {cron!r} never fires: none of its months has day "
                              f"{','.join(map(str, days))}", sqlstate="22023")
    return tuple(out)


def _croniter_expr(fields: tuple[tuple[int, ...], ...]) -> str:
    """The parsed fields as explicit lists for croniter ('*' where a field allows
    everything), so croniter never parses the user's text: it reads '5-5' as
    '*', for one."""
    return " ".join("*" if frozenset(v) == full else ",".join(map(str, v)) for v, full in zip(fields, _FULL))


def _zone(name: str) -> ZoneInfo:
    if name is None:
        raise MissingArgument("timezone must not be null", sqlstate="22004")
    try:
        if name in ("localtime", "posixrules") or name != name.strip() or not name:
            raise ValueError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        raise InvalidArgument(f"timezone {name!r} is not a known IANA time zone name", sqlstate="22023",
                              hint="e.g. Europe/Berlin, America/New_York, Asia/Kolkata, UTC") from exc


# -- slots: croniter in a timezone, with jq's DST rule ------------------------------------

_DST_MARGIN = timedelta(hours=3)  # larger than any UTC offset change (Troll: 2 h)
_SEARCH_LIMIT = 600_000  # croniter candidates per search (a year of minutes, and then some)


class CronTimes:
    """The slots of a cron in a timezone, as instants (aware UTC datetimes).

    Slots are the local wall-clock times the cron matches, each once: a time in
    a DST gap maps to the first instant after the gap, a time that happens
    twice to its first occurrence. croniter runs over naive local times (no
    DST there), and each match is mapped onto the timeline; the mapping is
    monotonic, so the instants come out sorted (equal ones merged).
    """

    def __init__(self, cron: str, timezone: str):
        self.cron = cron
        self.timezone = timezone
        self.zone = _zone(timezone)
        self.expr = _croniter_expr(parse_cron(cron))
        if not croniter.is_valid(self.expr):
            raise _bad(cron, "croniter does not accept it")

    def __repr__(self) -> str:
        return f"CronTimes({self.cron!r}, {self.timezone!r})"

    # naive local <-> instant

    def _local(self, instant: datetime) -> datetime:
        return instant.astimezone(self.zone).replace(tzinfo=None)

    def _near_transition(self, instant: datetime) -> bool:
        return (instant - _DST_MARGIN).astimezone(self.zone).utcoffset() != \
            (instant + _DST_MARGIN).astimezone(self.zone).utcoffset()

    def instant(self, local: datetime) -> datetime:
        """The instant a naive local wall-clock time fires at (jq's DST rule)."""
        early = local.replace(tzinfo=self.zone, fold=0).astimezone(UTC)
        late = local.replace(tzinfo=self.zone, fold=1).astimezone(UTC)
        if early == late:
            return early
        first, last = min(early, late), max(early, late)
        if self._local(first) == local or self._local(last) == local:
            return first  # happens twice: the first occurrence
        # In a gap: the first instant whose wall clock is past it (the transition).
        lo, hi = int(first.timestamp()), int(last.timestamp())
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self._local(datetime.fromtimestamp(mid, UTC)) > local:
                hi = mid
            else:
                lo = mid
        return datetime.fromtimestamp(hi, UTC)

    # searches

    def iter_after(self, after: datetime) -> Iterator[datetime]:
        """Slots strictly after ``after``, ascending, distinct."""
        start = self._local(after)
        if self._near_transition(after):
            start -= _DST_MARGIN
        it = croniter(self.expr, start)
        last = after
        for _ in range(_SEARCH_LIMIT):
            try:
                moment = self.instant(it.get_next(datetime))
            except CroniterError as exc:
                raise InvalidArgument(f"cron {self.cron!r} never fires", sqlstate="22023") from exc
            if moment > last:
                last = moment
                yield moment
        raise InvalidArgument(f"cron {self.cron!r}: no slot found after {after.isoformat()}", sqlstate="22023")

    def next_after(self, after: datetime) -> datetime:
        """The first slot strictly after ``after``."""
        return next(self.iter_after(after))

    def latest_at_or_before(self, at: datetime, not_before: datetime | None = None) -> datetime | None:
        """The last slot at or before ``at`` (None if none at or after ``not_before``)."""
        start = self._local(at) + timedelta(seconds=1)
        if self._near_transition(at):
            start += _DST_MARGIN
        it = croniter(self.expr, start)
        for _ in range(_SEARCH_LIMIT):
            try:
                moment = self.instant(it.get_prev(datetime))
            except CroniterError:
                return None
            if not_before is not None and moment < not_before:
                return None
            if moment <= at:
                return moment
        return None


@lru_cache(maxsize=4096)
def _cron_times(cron: str, timezone: str) -> CronTimes:
    return CronTimes(cron, timezone)


def schedule_key(name: str, slot: datetime) -> str:
    """The idempotency key of a schedule's job for a slot (as jq._schedule_key)."""
    return f"schedule:{name}:{slot.astimezone(UTC).strftime('%Y-%m-%dT%H:%M:%SZ')}"


def schedule_offset(name: str, slot: datetime, jitter_seconds: int) -> timedelta:
    """The jitter of a schedule's job for a slot (as jq._schedule_offset): a
    deterministic offset in [0, jitter_seconds), in milliseconds."""
    if jitter_seconds <= 0:
        return timedelta(0)
    digest = hashlib.md5(f"{name}@{int(slot.timestamp() // 1)}".encode(), usedforsecurity=False).hexdigest()
    return timedelta(milliseconds=int(digest[:12], 16) % (jitter_seconds * 1000))


# -- managing schedules ---------------------------------------------------------------

_PUT_SQL = (
    "select name, created, next_run_at from jq.jq_schedule_put("
    "p_name => %s::text, p_cron => %s::text, p_timezone => %s::text, p_type => %s::text,"
    " p_payload => %s::jsonb, p_queue => %s::text, p_priority => %s::integer,"
    " p_jitter_seconds => %s::integer, p_max_attempts => %s::integer, p_missed => %s::text,"
    " p_next_run_at => %s::timestamptz)"
)


def schedule(
    conn: psycopg.Connection,
    name: str,
    *,
    cron: str,
    timezone: str,
    type: str,
    payload: Mapping[str, Any] | None = None,
    queue: str = "default",
    priority: int = 0,
    jitter_seconds: int = 0,
    max_attempts: int | None = None,
    missed: str = "latest",
    now: datetime | None = None,
) -> ScheduleResult:
    """Create or update the schedule ``name`` (jq_schedule_put); returns
    ``ScheduleResult(name, created, next_run_at)``.

    The cron (five fields, or @hourly/@daily/@weekly/@monthly/@yearly) is
    checked with jq's grammar and croniter and the timezone with zoneinfo
    before anything is written; next_run_at is the first slot after ``now``
    (default: this machine's clock) unless the schedule exists with the same
    cron and timezone, which keeps its pending next_run_at. ``missed`` is
    latest, all or none (see the module docstring).
    """
    if missed not in MISSED:
        raise InvalidArgument(f"missed {missed!r} is not latest, all or none", sqlstate="22023")
    times = CronTimes(cron, timezone)
    moment = now or datetime.now(UTC)
    if moment.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    next_run_at = times.next_after(moment)
    params = [name, cron, timezone, type, Jsonb(dict(payload) if payload is not None else {}), queue, priority,
              jitter_seconds, max_attempts, missed, next_run_at]
    try:
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(_PUT_SQL, params)
            row = cur.fetchone()
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc
    return ScheduleResult(**row)


def unschedule(conn: psycopg.Connection, name: str) -> bool:
    """Delete a schedule (jq_schedule_delete); False if there was none. Jobs it enqueued stay."""
    return _scalar(conn, "select jq.jq_schedule_delete(p_name => %s::text)", [name])


def pause_schedule(conn: psycopg.Connection, name: str) -> bool:
    """Pause a schedule (jq_schedule_pause); False if there is none."""
    return _scalar(conn, "select jq.jq_schedule_pause(p_name => %s::text)", [name])


def resume_schedule(conn: psycopg.Connection, name: str) -> bool:
    """Resume a paused schedule from now on (jq_schedule_resume); False if there is none.
    Slots that passed while it was paused do not fire."""
    return _scalar(conn, "select jq.jq_schedule_resume(p_name => %s::text)", [name])


def list_schedules(conn: psycopg.Connection, name: str | None = None) -> list[Schedule]:
    """Every schedule by name, or only ``name`` (jq_schedules)."""
    try:
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute("select * from jq.jq_schedules(p_name => %s::text)", [name])
            rows = cur.fetchall()
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc
    fields = Schedule.__dataclass_fields__.keys()
    return [Schedule(**{k: v for k, v in r.items() if k in fields}) for r in rows]


def _scalar(conn: psycopg.Connection, sql: str, params: Sequence[Any]) -> Any:
    try:
        with conn.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchone()[0]
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc


# -- firing ---------------------------------------------------------------------------

_DUE_SQL = ("select name, cron, timezone, missed, next_run_at, updated_at, as_of"
            " from jq.jq_schedules_due(p_limit => %s::integer)")
_FIRE_SQL = ("select schedules, jobs from jq.jq_schedules_fire(p_names => %s::text[],"
             " p_due_at => %s::timestamptz[], p_slots => %s::timestamptz[], p_next_run_at => %s::timestamptz[])")
_CLOCK_SQL = "select set_config('jq.now', %s, true)"


@dataclass(slots=True)
class _Fire:
    names: list[str]
    due_at: list[datetime | None]
    slots: list[datetime | None]
    next_run_at: list[datetime]
    backlog: bool = False  # some schedule's next_run_at is still due (a capped missed = all)

    def add(self, names: Sequence[str], due_at: datetime | None, slots: Sequence[datetime],
            next_run_at: datetime) -> None:
        for slot in slots or (None,):
            self.names.extend(names)
            self.due_at.extend([due_at] * len(names))
            self.slots.extend([slot] * len(names))
            self.next_run_at.extend([next_run_at] * len(names))

    def params(self) -> list[Any]:
        return [self.names, self.due_at, self.slots, self.next_run_at]


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
        if not 1 <= batch_size <= 100_000:
            raise ValueError("batch_size must be between 1 and 100000")
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

    def plan(self, rows: Sequence[Mapping[str, Any]]) -> _Fire:
        """The jq_schedules_fire arguments for the rows jq_schedules_due returned.
        croniter runs once per distinct (cron, timezone, missed, next_run_at)."""
        groups: dict[tuple, list[str]] = {}
        as_of: datetime | None = None
        for r in rows:
            as_of = r["as_of"]
            base = r["updated_at"] if r["next_run_at"] is None else None
            groups.setdefault((r["cron"], r["timezone"], r["missed"], r["next_run_at"], base), []).append(r["name"])
        fire = _Fire([], [], [], [])
        budget = self.max_jobs_per_tick
        for (cron, tz, missed, due_at, base), names in groups.items():
            try:
                slots, next_run_at = self._slots(cron, tz, missed, due_at, base, as_of,
                                                 max(1, min(self.max_slots_per_schedule, budget // len(names))))
            except Exception as exc:  # a cron or zone this Python cannot evaluate: retry later
                self.stats["errors"] += 1
                logger.error("schedules %s...: cannot compute slots of cron %r in %r (%s); retrying at %s",
                             names[0], cron, tz, exc, as_of + self.retry_broken)
                slots, next_run_at = [], as_of + self.retry_broken
            budget -= len(slots) * len(names)
            fire.add(names, due_at, slots, next_run_at)
            fire.backlog = fire.backlog or next_run_at <= as_of
        return fire

    def _slots(self, cron: str, tz: str, missed: str, due_at: datetime | None, base: datetime | None,
               now: datetime, cap: int) -> tuple[list[datetime], datetime]:
        """(slots to fire, next next_run_at) for one group."""
        times = _cron_times(cron, tz)
        # The slots to consider: [due_at, now], or (base, now] for a schedule
        # whose next_run_at was never computed.
        after = base if due_at is None else due_at - timedelta(microseconds=1)
        if missed == "all":
            slots = []
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
        try:
            with conn.transaction():
                with conn.cursor(row_factory=dict_row) as cur:
                    if self.clock is not None:
                        cur.execute(_CLOCK_SQL, [self._now().isoformat()])
                    cur.execute(_DUE_SQL, [self.batch_size])
                    rows = cur.fetchall()
                    if not rows:
                        return self._count(TickResult(0, 0, 0, False))
                    fire = self.plan(rows)
                    cur.execute(_FIRE_SQL, fire.params())
                    done = cur.fetchone()
        except psycopg.Error as exc:
            raise from_psycopg(exc) from exc
        return self._count(TickResult(len(rows), done["schedules"], done["jobs"],
                                      len(rows) >= self.batch_size or (fire.backlog and done["schedules"] > 0)))

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
        try:
            if self.clock is None and conn.autocommit:
                # Idle probe: one statement, no transaction. Nothing due is the
                # common case; the row it may lock is released at once, and the
                # transaction below claims afresh (jq_schedules_fire only
                # advances rows still as it read them).
                probe = await conn.execute(_DUE_SQL, [1])
                if not await probe.fetchall():
                    return self._count(TickResult(0, 0, 0, False))
            async with conn.transaction():
                async with conn.cursor(row_factory=dict_row) as cur:
                    if self.clock is not None:
                        await cur.execute(_CLOCK_SQL, [self._now().isoformat()])
                    await cur.execute(_DUE_SQL, [self.batch_size])
                    rows = await cur.fetchall()
                    if not rows:
                        return self._count(TickResult(0, 0, 0, False))
                    fire = self.plan(rows)
                    await cur.execute(_FIRE_SQL, fire.params())
                    done = await cur.fetchone()
        except psycopg.Error as exc:
            raise from_psycopg(exc) from exc
        return self._count(TickResult(len(rows), done["schedules"], done["jobs"],
                                      len(rows) >= self.batch_size or (fire.backlog and done["schedules"] > 0)))

    async def run_async(self, pool_or_dsn: Any, stop_event: asyncio.Event, interval: float = 1.0) -> None:
        """Tick every ``interval`` seconds (at once again after a full tick) until
        ``stop_event`` is set. ``pool_or_dsn``: a psycopg_pool AsyncConnectionPool,
        or a conninfo string for a connection of its own."""
        delay_on_error = 0.1
        own: psycopg.AsyncConnection | None = None

        @asynccontextmanager
        async def connection():
            nonlocal own
            if not isinstance(pool_or_dsn, str):
                async with pool_or_dsn.connection() as conn:
                    yield conn
                return
            if own is None or own.closed or own.broken:
                own = await psycopg.AsyncConnection.connect(pool_or_dsn, autocommit=True,
                                                            application_name="pyjq scheduler")
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
                    logger.debug("scheduler: %d schedules advanced, %d jobs enqueued in %.0f ms",
                                 result.advanced, result.jobs, (time.monotonic() - started) * 1000)
                if result.full:
                    await asyncio.sleep(0)
                    continue
                await _wait(stop_event, interval * random.uniform(0.9, 1.1))
        finally:
            if own is not None:
                await own.close()

    # -- helpers -----------------------------------------------------------------------

    def _now(self) -> datetime:
        moment = self.clock()
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
    try:
        await asyncio.wait_for(event.wait(), timeout)
    except TimeoutError:
        pass
