"""Schedule calls: managing schedules, firing them and previewing a cron's slots
(sql/functions/schedules.sql, sql/functions/cron.sql).

``SCHEDULES_FIRE_DUE`` is the scheduler's whole tick (see pyjq.scheduler):
jq claims the due schedules, computes their slots and enqueues their jobs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from . import Many, One, Scalar

__all__ = [
    "CRON_SLOTS",
    "SCHEDULES",
    "SCHEDULES_FIRE_DUE",
    "SCHEDULE_DELETE",
    "SCHEDULE_PAUSE",
    "SCHEDULE_PUT",
    "SCHEDULE_RESUME",
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

# The scheduler's tick: fire what is due, up to limit schedules; the jobs enqueued.
SCHEDULES_FIRE_DUE: Scalar[int] = Scalar("select jq.jq_schedules_fire_due(p_limit => %(limit)s::integer)")
# A cron's next slots in a time zone after a time (None: jq's clock), as a list.
CRON_SLOTS: Scalar[list[datetime]] = Scalar(
    "select array(select s.slot from jq.jq_cron_slots(p_cron => %(cron)s::text, p_timezone => %(timezone)s::text,"
    " p_after => %(after)s::timestamptz, p_count => %(count)s::integer) s)"
)
