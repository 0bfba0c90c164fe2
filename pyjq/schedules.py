"""Managing schedules: one jq_* call each, in the caller's transaction; each
has an ``_async`` twin taking an AsyncConnection::

    pyjq.schedule_put(conn, "digest:user-42", cron="0 8 * * *", timezone="Europe/Berlin",
                      type="send_digest", payload={"user_id": 42}, jitter_seconds=600)
    pyjq.schedules(conn)                 # or schedules(conn, "digest:user-42")
    pyjq.schedule_pause(conn, name); pyjq.schedule_resume(conn, name); pyjq.schedule_delete(conn, name)

``schedule_put`` has jq compute the first slot (jq_cron_slots, which checks
the cron and the timezone) before writing anything. The grammar, the slots
and the DST rule are jq's, in SQL (:mod:`pyjq.cron` previews them); firing
the due slots is jq_schedules_fire_due's (:class:`pyjq.scheduler.Scheduler`,
or jq_tick).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from ._adapters import takes_async_connection, takes_connection
from ._calls import expect_row
from ._calls.schedules import (
    CRON_SLOTS,
    SCHEDULE_DELETE,
    SCHEDULE_PAUSE,
    SCHEDULE_PUT,
    SCHEDULE_RESUME,
    SCHEDULES,
    Schedule,
    ScheduleResult,
)
from .errors import InvalidArgument

__all__ = [
    "MISSED",
    "Schedule",
    "ScheduleResult",
    "list_schedules",
    "pause_schedule",
    "resume_schedule",
    "schedule",
    "schedule_delete",
    "schedule_delete_async",
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

MISSED = ("latest", "all", "none")  # what a schedule does with slots that passed while no scheduler ran


def _put_params(
    name: str,
    cron: str,
    timezone: str,
    type: str,
    payload: Mapping[str, Any] | None,
    queue: str,
    priority: int,
    jitter_seconds: int,
    max_attempts: int | None,
    missed: str,
    now: datetime | None,
) -> dict[str, Any]:
    """jq_schedule_put's arguments but next_run_at, after the checks SQL cannot make earlier."""
    if missed not in MISSED:
        raise InvalidArgument(f"missed {missed!r} is not latest, all or none", sqlstate="22023")
    if now is not None and now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    return {
        "name": name,
        "cron": cron,
        "timezone": timezone,
        "type": type,
        "payload": Jsonb(dict(payload) if payload is not None else {}),
        "queue": queue,
        "priority": priority,
        "jitter_seconds": jitter_seconds,
        "max_attempts": max_attempts,
        "missed": missed,
    }


@takes_connection
def schedule_put(
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

    The cron (five fields, or @hourly/@daily/@weekly/@monthly/@yearly) and
    the timezone are checked by jq before anything is written; next_run_at is
    the first slot after ``now`` (default: jq's clock), computed by jq
    (jq_cron_slots), unless the schedule exists with the same cron and
    timezone, which keeps its pending next_run_at. ``missed`` is latest, all
    or none (see docs/schedules.md).
    """
    params = _put_params(
        name, cron, timezone, type, payload, queue, priority, jitter_seconds, max_attempts, missed, now
    )
    [params["next_run_at"]] = CRON_SLOTS.run(conn, cron=cron, timezone=timezone, after=now, count=1)
    return expect_row(SCHEDULE_PUT.run(conn, **params), "jq_schedule_put")


@takes_async_connection
async def schedule_put_async(
    conn: psycopg.AsyncConnection,
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
    """schedule_put on an async connection."""
    params = _put_params(
        name, cron, timezone, type, payload, queue, priority, jitter_seconds, max_attempts, missed, now
    )
    [params["next_run_at"]] = await CRON_SLOTS.run_async(conn, cron=cron, timezone=timezone, after=now, count=1)
    return expect_row(await SCHEDULE_PUT.run_async(conn, **params), "jq_schedule_put")


@takes_connection
def schedule_delete(conn: psycopg.Connection, name: str) -> bool:
    """Delete a schedule (jq_schedule_delete); False if there was none. Jobs it enqueued stay."""
    return SCHEDULE_DELETE.run(conn, name=name)


@takes_async_connection
async def schedule_delete_async(conn: psycopg.AsyncConnection, name: str) -> bool:
    """schedule_delete on an async connection."""
    return await SCHEDULE_DELETE.run_async(conn, name=name)


@takes_connection
def schedule_pause(conn: psycopg.Connection, name: str) -> bool:
    """Pause a schedule (jq_schedule_pause); False if there is none."""
    return SCHEDULE_PAUSE.run(conn, name=name)


@takes_async_connection
async def schedule_pause_async(conn: psycopg.AsyncConnection, name: str) -> bool:
    """schedule_pause on an async connection."""
    return await SCHEDULE_PAUSE.run_async(conn, name=name)


@takes_connection
def schedule_resume(conn: psycopg.Connection, name: str) -> bool:
    """Resume a paused schedule from now on (jq_schedule_resume); False if there is none.
    Slots that passed while it was paused do not fire."""
    return SCHEDULE_RESUME.run(conn, name=name)


@takes_async_connection
async def schedule_resume_async(conn: psycopg.AsyncConnection, name: str) -> bool:
    """schedule_resume on an async connection."""
    return await SCHEDULE_RESUME.run_async(conn, name=name)


@takes_connection
def schedules(conn: psycopg.Connection, name: str | None = None) -> list[Schedule]:
    """Every schedule by name, or only ``name`` (jq_schedules)."""
    return SCHEDULES.run(conn, name=name)


@takes_async_connection
async def schedules_async(conn: psycopg.AsyncConnection, name: str | None = None) -> list[Schedule]:
    """schedules on an async connection."""
    return await SCHEDULES.run_async(conn, name=name)


# Deprecated aliases (removed in 0.5): the names of release 0.3 (listed in __all__ too).
schedule = schedule_put
unschedule = schedule_delete
pause_schedule = schedule_pause
resume_schedule = schedule_resume
list_schedules = schedules
