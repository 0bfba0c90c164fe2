"""Schedule calls: managing schedules and firing them (sql/functions/schedules.sql).

``SCHEDULES_DUE`` and ``SCHEDULES_FIRE`` are the scheduler's tick (see
pyjq.scheduler): both in one transaction, the first locking the due rows
until it ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from . import Many, One, Scalar

__all__ = [
    "SCHEDULES",
    "SCHEDULES_DUE",
    "SCHEDULES_FIRE",
    "SCHEDULE_DELETE",
    "SCHEDULE_PAUSE",
    "SCHEDULE_PUT",
    "SCHEDULE_RESUME",
    "DueSchedule",
    "FireResult",
    "Schedule",
    "ScheduleResult",
]


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
class DueSchedule:
    """A schedule jq_schedules_due locked for this tick; ``as_of`` is jq's clock."""

    name: str
    cron: str
    timezone: str
    missed: str
    next_run_at: datetime | None  # None: never computed (put from SQL, or resumed): start from updated_at
    updated_at: datetime
    as_of: datetime


@dataclass(frozen=True, slots=True)
class FireResult:
    schedules: int  # schedules whose next_run_at advanced
    jobs: int  # jobs enqueued


SCHEDULE_PUT: One[ScheduleResult] = One(
    ScheduleResult,
    "select name, created, next_run_at from jq.jq_schedule_put("
    "p_name => %(name)s::text, p_cron => %(cron)s::text, p_timezone => %(timezone)s::text, p_type => %(type)s::text,"
    " p_payload => %(payload)s::jsonb, p_queue => %(queue)s::text, p_priority => %(priority)s::integer,"
    " p_jitter_seconds => %(jitter_seconds)s::integer, p_max_attempts => %(max_attempts)s::integer,"
    " p_missed => %(missed)s::text, p_next_run_at => %(next_run_at)s::timestamptz)",
)
SCHEDULE_DELETE: Scalar[bool] = Scalar("select jq.jq_schedule_delete(p_name => %(name)s::text)")
SCHEDULE_PAUSE: Scalar[bool] = Scalar("select jq.jq_schedule_pause(p_name => %(name)s::text)")
SCHEDULE_RESUME: Scalar[bool] = Scalar("select jq.jq_schedule_resume(p_name => %(name)s::text)")
SCHEDULES: Many[Schedule] = Many(Schedule, "select * from jq.jq_schedules(p_name => %(name)s::text)")

SCHEDULES_DUE: Many[DueSchedule] = Many(
    DueSchedule,
    "select name, cron, timezone, missed, next_run_at, updated_at, as_of"
    " from jq.jq_schedules_due(p_limit => %(limit)s::integer)",
)
SCHEDULES_FIRE: One[FireResult] = One(
    FireResult,
    "select schedules, jobs from jq.jq_schedules_fire(p_names => %(names)s::text[],"
    " p_due_at => %(due_at)s::timestamptz[], p_slots => %(slots)s::timestamptz[],"
    " p_next_run_at => %(next_run_at)s::timestamptz[])",
)
