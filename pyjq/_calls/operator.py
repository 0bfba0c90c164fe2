"""Operator calls on many jobs: the listing, queue pauses and the bulk actions
(sql/functions/operator_jobs.sql, queue_pause.sql)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from . import Many, Scalar

__all__ = [
    "BULK_ACTIONS",
    "JOBS",
    "QUEUE_PAUSE",
    "QUEUE_PAUSES",
    "QUEUE_RESUME",
    "JobRow",
    "QueuePause",
]


@dataclass(frozen=True, slots=True)
class JobRow:
    """A row of jq_jobs: a job wherever it is. ``status`` is a word of jq_status
    (queued, scheduled, failed_retrying, running, dead, succeeded, cancelled);
    ``cursor`` opens the page after this row."""

    job_id: UUID
    type: str
    queue: str
    status: str
    priority: int | None  # None for history rows (history keeps no priority)
    tenant: str | None
    attempts: int
    max_attempts: int
    run_at: datetime
    created_at: datetime
    finished_at: datetime | None  # history: when it finished; dead: when it failed
    last_error: str | None
    cursor: str


@dataclass(frozen=True, slots=True)
class QueuePause:
    queue: str
    type: str | None  # None: the whole queue
    paused_at: datetime
    paused_by: str


JOBS: Many[JobRow] = Many(
    JobRow,
    "select job_id, type, queue, status, priority, tenant, attempts, max_attempts, run_at,"
    " created_at, finished_at, last_error, cursor"
    " from jq.jq_jobs(p_filter => %(filter)s::jsonb, p_limit => %(limit)s::integer,"
    " p_cursor => %(cursor)s::text, p_oldest_first => %(oldest_first)s::boolean)",
)
QUEUE_PAUSE: Scalar[bool] = Scalar("select jq.jq_queue_pause(p_queue => %(queue)s::text, p_type => %(type)s::text)")
QUEUE_RESUME: Scalar[bool] = Scalar("select jq.jq_queue_resume(p_queue => %(queue)s::text, p_type => %(type)s::text)")
QUEUE_PAUSES: Many[QueuePause] = Many(QueuePause, "select * from jq.jq_queue_pauses()")


def _bulk(function: str) -> Scalar[int]:
    return Scalar(
        f"select jq.{function}(p_filter => %(filter)s::jsonb, p_ids => %(ids)s::uuid[], p_limit => %(limit)s::integer)"
    )


# The bulk actions share one signature: (filter | ids, limit) -> rows changed.
BULK_ACTIONS: dict[str, Scalar[int]] = {
    name: _bulk(name)
    for name in ("jq_jobs_retry", "jq_jobs_cancel", "jq_jobs_discard", "jq_dead_delete", "jq_dead_requeue")
}
