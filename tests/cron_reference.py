"""The reference the SQL cron slots are checked against: croniter over naive
local times, each match mapped onto the timeline with jq's DST rule. This was
pyjq's own scheduler (pyjq/cron.py) up to 0.5.0; since 0.6.0 the slots are
computed in SQL only (sql/functions/cron.sql), and tests/test_cron_slots.py
and tests/test_schedules.py hold SQL to what this computes.

The grammar is jq's (jq._cron_check): five fields (minute hour day-of-month
month day-of-week: numbers, jan-dec, sun-sat, *, ranges a-b, lists a,b, steps
/n; day-of-week 0 and 7 are Sunday) or @hourly, @daily/@midnight, @weekly,
@monthly, @yearly/@annually. :func:`parse_cron` reads it as SQL does;
:class:`CronTimes` computes slots.

Slots and DST. A schedule's slots are the local wall-clock times its cron
matches in its timezone, each fired once:

* a local time that does not exist (the spring-forward gap) fires once, at
  the first instant after the gap;
* a local time that happens twice (fall back) fires once, at its first
  occurrence.

croniter alone does the first but fires a repeated time twice, so
:class:`CronTimes` walks croniter over naive local times and maps each onto
the timeline with the rule above.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import croniter
from croniter.croniter import CroniterError

from pyjq._limits import CRON_MAX
from pyjq.errors import InvalidArgument, MissingArgument, ValueTooLong

__all__ = ["CronTimes", "cron_times", "parse_cron"]


# -- the cron grammar (the same as jq._cron_check in sql/functions/schedules.sql) -----

_ALIASES = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
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
_FULL = (
    frozenset(range(60)),
    frozenset(range(24)),
    frozenset(range(1, 32)),
    frozenset(range(1, 13)),
    frozenset(range(7)),
)
_MONTH_DAYS = {1: 31, 2: 29, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31, 11: 30, 12: 31}


def _bad(cron: str, what: str) -> InvalidArgument:
    return InvalidArgument(
        f"cron {cron!r} is invalid: {what}",
        sqlstate="22023",
        hint="Five fields: minute hour day-of-month month day-of-week, e.g. '0 8 * * *'.",
    )


def parse_cron(cron: str) -> tuple[tuple[int, ...], ...]:
    """The values of a cron's five fields (weekdays 0-6, Sunday 0), as jq's SQL reads them.

    Raises InvalidArgument (22023) naming the cron when it is malformed or can
    never fire, MissingArgument for None, ValueTooLong beyond CRON_MAX (255) characters.
    """
    if cron is None:
        raise MissingArgument("cron must not be null", sqlstate="22004")
    if len(cron) > CRON_MAX:
        raise ValueTooLong(f"cron is {len(cron)} characters long; the limit is {CRON_MAX}", sqlstate="22001")
    expr = _ALIASES.get(cron.strip().lower(), cron.strip())
    fields = expr.split()
    if len(fields) != 5:
        raise InvalidArgument(
            f"cron {cron!r} has {len(fields)} fields; jq takes 5: minute hour day-of-month month day-of-week",
            sqlstate="22023",
            hint="E.g. '0 8 * * *' is 08:00 every day; or @hourly, @daily, @weekly, ...",
        )
    out: list[tuple[int, ...]] = []
    for text, (label, lo_limit, hi_limit, names, open_max) in zip(fields, _FIELDS, strict=True):
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
    _minutes, _hours, days, months, weekdays = out
    if len(weekdays) == 7 and not any(d <= _MONTH_DAYS[m] for d in days for m in months):
        raise InvalidArgument(
            f"cron {cron!r} never fires: none of its months has day {','.join(map(str, days))}", sqlstate="22023"
        )
    return tuple(out)


def _croniter_expr(fields: tuple[tuple[int, ...], ...]) -> str:
    """The parsed fields as explicit lists for croniter ('*' where a field allows
    everything), so croniter never parses the user's text: it reads '5-5' as
    '*', for one."""
    return " ".join(
        "*" if frozenset(v) == full else ",".join(map(str, v)) for v, full in zip(fields, _FULL, strict=True)
    )


def _zone(name: str) -> ZoneInfo:
    if name is None:
        raise MissingArgument("timezone must not be null", sqlstate="22004")
    try:
        if name in ("localtime", "posixrules") or name != name.strip() or not name:
            raise ValueError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        raise InvalidArgument(
            f"timezone {name!r} is not a known IANA time zone name",
            sqlstate="22023",
            hint="e.g. Europe/Berlin, America/New_York, Asia/Kolkata, UTC",
        ) from exc


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
        return (instant - _DST_MARGIN).astimezone(self.zone).utcoffset() != (instant + _DST_MARGIN).astimezone(
            self.zone
        ).utcoffset()

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
def cron_times(cron: str, timezone: str) -> CronTimes:
    """CronTimes(cron, timezone), kept for the next tick (thousands of schedules share a few crons)."""
    return CronTimes(cron, timezone)
