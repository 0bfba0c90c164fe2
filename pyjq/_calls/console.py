"""The operator console's own calls: throughput over time and a job's detail
and discarding a dead-letter group (sql/functions/throughput.sql, console.sql)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from . import Many, One, Scalar

__all__ = ["DEAD_DISCARD_GROUP", "JOB_DETAIL", "THROUGHPUT", "JobDetail", "ThroughputBucket"]


@dataclass(frozen=True, slots=True)
class ThroughputBucket:
    bucket_start: datetime
    succeeded: int
    cancelled: int
    dead: int
    failed_attempts: int


@dataclass(frozen=True, slots=True)
class JobDetail:
    job_id: UUID
    location: str  # live | dead | history
    payload: dict[str, Any] | None  # None for history (not kept)
    idempotency_key: str | None
    concurrency_key: str | None
    lease_holder: str | None  # the worker running it
    lease_until: datetime | None


THROUGHPUT: Many[ThroughputBucket] = Many(
    ThroughputBucket,
    "select * from jq.jq_throughput(p_since => %(since)s::timestamptz, p_bucket => %(bucket)s::interval)",
)
JOB_DETAIL: One[JobDetail] = One(JobDetail, "select * from jq.jq_job_detail(p_job_id => %(job_id)s::uuid)")
DEAD_DISCARD_GROUP: Scalar[int] = Scalar(
    "select jq.jq_dead_discard_group(p_type => %(type)s::text, p_error => %(error)s::text,"
    " p_since => %(since)s::timestamptz, p_limit => %(limit)s::integer)"
)
