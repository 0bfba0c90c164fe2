"""A cron's slots in a named IANA timezone, as jq computes them, and a slot's job.

jq computes slots in SQL only (sql/functions/cron.sql), so a preview shows
exactly what ``jq_schedules_fire_due`` will fire, by the database server's
time zone data rather than this machine's::

    pyjq.cron.cron_slots(conn, "0 8 * * *", "Europe/Berlin", count=3)   # the next three, from jq's clock
    await pyjq.cron.cron_slots_async(aconn, "30 2 * * *", "America/New_York", after=some_time)

The grammar: five fields (minute hour day-of-month month day-of-week:
numbers, jan-dec, sun-sat, *, ranges a-b, lists a,b, steps /n; day-of-week 0
and 7 are Sunday; when both day fields are restricted either may match) or
@hourly, @daily/@midnight, @weekly, @monthly, @yearly/@annually. A bad cron or
time zone raises InvalidArgument (22023) naming it. Slots and DST: a local
time that does not exist (spring forward) fires once, at the first instant
after the gap; one that happens twice (fall back) fires once, at its first
occurrence (docs/schedules.md).

Each slot's job has the idempotency key :func:`schedule_key` and runs
:func:`schedule_offset` after the slot (the same as jq._schedule_key and
jq._schedule_offset in SQL, which enqueue it).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import psycopg

from ._adapters import takes_async_connection, takes_connection
from ._calls.schedules import CRON_SLOTS

__all__ = ["cron_slots", "cron_slots_async", "schedule_key", "schedule_offset"]


@takes_connection
def cron_slots(
    conn: psycopg.Connection, cron: str, timezone: str, *, after: datetime | None = None, count: int = 1
) -> list[datetime]:
    """The next ``count`` (1 to 1000) slots of ``cron`` in ``timezone`` strictly after
    ``after`` (default: jq's clock), as aware datetimes (jq_cron_slots)."""
    return CRON_SLOTS.run(conn, cron=cron, timezone=timezone, after=after, count=count)


@takes_async_connection
async def cron_slots_async(
    conn: psycopg.AsyncConnection, cron: str, timezone: str, *, after: datetime | None = None, count: int = 1
) -> list[datetime]:
    """cron_slots on an async connection."""
    return await CRON_SLOTS.run_async(conn, cron=cron, timezone=timezone, after=after, count=count)


# -- a slot's job: its idempotency key and its jitter -------------------------------


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
