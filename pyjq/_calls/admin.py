"""Operator calls: dead letters, queue figures, the periodic call and maintenance, the
installed release (sql/functions/dead_letters.sql, lookup.sql, tick.sql, maintenance.sql)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from . import Many, One, Scalar

__all__ = [
    "DEAD_GROUPS",
    "IS_INSTALLED",
    "MAINTAIN",
    "RETRY_DEAD",
    "STATS",
    "TICK",
    "VERSION",
    "DeadGroup",
    "QueueStats",
    "Tick",
]


@dataclass(frozen=True, slots=True)
class DeadGroup:
    type: str
    error: str  # the group's error fingerprint (jq.error_fingerprint)
    count: int
    first_failed_at: datetime
    last_failed_at: datetime
    sample_error: str | None = None  # the latest raw error message of the group


@dataclass(frozen=True, slots=True)
class QueueStats:
    queue: str
    ready: int
    scheduled: int
    running: int
    oldest_ready_age: timedelta | None  # None when no job is ready
    dead: int
    paused: bool = False  # the whole queue is paused (jq_queue_pause)


@dataclass(frozen=True, slots=True)
class Tick:
    """What one jq_tick call did, and how soon to call it again."""

    call_again_after: timedelta
    account: dict[str, Any]  # {"ran": bool, "rotation": outcome, "generation", "moved", "maintenance", ...}


# error selects groups as jq_retry_dead does: fingerprint, raw message, or case-insensitive substring.
DEAD_GROUPS: Many[DeadGroup] = Many(
    DeadGroup,
    "select * from jq.jq_dead_groups(p_since => %(since)s::timestamptz, p_type => %(type)s::text,"
    " p_error => %(error)s::text)",
)
RETRY_DEAD: Scalar[int] = Scalar(
    "select jq.jq_retry_dead(p_type => %(type)s::text, p_error => %(error)s::text,"
    " p_since => %(since)s::timestamptz, p_limit => %(limit)s::integer)"
)
STATS: Many[QueueStats] = Many(QueueStats, "select * from jq.jq_stats()")
MAINTAIN: Scalar[dict[str, Any]] = Scalar("select jq.jq_maintain()")
TICK: One[Tick] = One(Tick, "select call_again_after, account from jq.jq_tick()")
VERSION: Scalar[str] = Scalar("select jq.jq_version()")
# Whether jq_version exists at all: calling it in a database without jq fails (3F000/42883).
IS_INSTALLED: Scalar[bool] = Scalar("select to_regprocedure('jq.jq_version()') is not null")
