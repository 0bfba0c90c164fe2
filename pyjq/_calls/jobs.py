"""Producer calls: enqueue, status, cancel (sql/functions/enqueue.sql, lookup.sql)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from . import Many, One, Scalar

__all__ = ["CANCEL", "ENQUEUE", "ENQUEUE_MANY", "STATUS", "STATUS_MANY", "EnqueueResult", "JobStatus"]


@dataclass(frozen=True, slots=True)
class EnqueueResult:
    job_id: UUID
    status: str  # queued | scheduled, or the original's status when duplicate
    duplicate: bool


@dataclass(frozen=True, slots=True)
class JobStatus:
    job_id: UUID
    type: str
    queue: str
    status: str  # scheduled | queued | running | failed_retrying | succeeded | cancelled | dead
    attempts: int
    max_attempts: int
    run_at: datetime
    next_attempt_at: datetime | None
    last_error: str | None
    created_at: datetime
    finished_at: datetime | None
    tenant: str | None = None
    priority: int | None = None
    cancel_requested: bool = False
    result: Any = None  # succeeded: what the handler returned (decoded JSON); None when it returned nothing


ENQUEUE: One[EnqueueResult] = One(
    EnqueueResult,
    "select job_id, status, duplicate from jq.jq_enqueue("
    "p_type => %(type)s::text, p_payload => %(payload)s::jsonb, p_queue => %(queue)s::text,"
    " p_priority => %(priority)s::integer, p_run_at => %(run_at)s::timestamptz,"
    " p_max_attempts => %(max_attempts)s::integer, p_idempotency_key => %(idempotency_key)s::text,"
    " p_tenant => %(tenant)s::text, p_concurrency_key => %(concurrency_key)s::text,"
    " p_metadata => %(metadata)s::jsonb)",
)
ENQUEUE_MANY: Many[EnqueueResult] = Many(
    EnqueueResult, "select job_id, status, duplicate from jq.jq_enqueue_many(p_jobs => %(jobs)s::jsonb)"
)
STATUS: One[JobStatus] = One(JobStatus, "select * from jq.jq_status(p_job_id => %(job_id)s::uuid)")
# jq_status of many jobs in one statement: a row for each known id (unknown ids have none).
STATUS_MANY: Many[JobStatus] = Many(
    JobStatus,
    "select s.* from unnest(%(job_ids)s::uuid[]) as i(id) cross join lateral jq.jq_status(p_job_id => i.id) s",
)
# 'cancelled', 'running' (a cooperative request was recorded), 'finished' or 'not_found'.
CANCEL: Scalar[str] = Scalar("select jq.jq_cancel(p_job_id => %(job_id)s::uuid)")
