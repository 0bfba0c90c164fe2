"""Request and response bodies of the operator routes on many jobs (pyjq.http.routes.operator_jobs).

The filter is jq's filter language as it is (snake_case keys, the same in the
query string of GET /jobs, in the ``filter`` of the bulk bodies, in pyjq.jobs
and in SQL): it is checked in one place, jq._job_filter, so a key or value the
database refuses answers 422 INVALID_ARGUMENT naming the key.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from .fields import JobState, JobType, QueueName, Tenant, Timestamp
from .models import _Request, _Response

__all__ = [
    "BulkRequest",
    "BulkResult",
    "JobList",
    "JobListRow",
    "JobsQuery",
    "PauseRequest",
    "PauseResult",
    "QueuePause",
    "QueuePauseList",
]

PAGE_MAX = 1000
BULK_MAX = 10000


class JobsQuery(BaseModel):
    """GET /jobs: the filter keys as query parameters, and the page."""

    model_config = ConfigDict(extra="forbid")
    queue: QueueName | None = None
    type: JobType | None = None
    status: list[JobState] | None = Field(default=None, description="One or more statuses (repeat the parameter).")
    tenant: Tenant | None = None
    payload: StrictStr | None = Field(default=None, description='A JSON object the payload contains (@>): {"a":1}.')
    created_after: Timestamp | None = None
    created_before: Timestamp | None = None
    finished_after: Timestamp | None = None
    finished_before: Timestamp | None = None
    id_prefix: StrictStr | None = Field(default=None, max_length=36, description="Leading hex digits of the job id.")
    cursor: StrictStr | None = Field(default=None, max_length=80, description="nextCursor of the previous page.")
    limit: int = Field(default=50, ge=1, le=PAGE_MAX)
    order: Literal["newest", "oldest"] = "newest"


class JobListRow(_Response):
    job_id: UUID
    type: str
    queue: str
    status: JobState
    priority: int | None = Field(description="Null for finished jobs (history keeps no priority).")
    tenant: str | None
    attempts: int
    max_attempts: int
    run_at: datetime
    created_at: datetime
    finished_at: datetime | None = Field(description="When it finished (history) or died (dead).")
    last_error: str | None
    cursor: str


class JobList(_Response):
    jobs: list[JobListRow]
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null when this page was the last.")


class BulkRequest(_Request):
    model_config = ConfigDict(
        json_schema_extra={
            "example": {"filter": {"type": "deliver_webhook", "status": "failed_retrying"}, "limit": 1000}
        }
    )
    filter: dict[str, Any] | None = Field(
        default=None, description="jq's filter (the keys of GET /jobs; {} is every job); exactly one of filter and ids."
    )
    ids: list[UUID] | None = Field(
        default=None, max_length=BULK_MAX, description="Job ids; exactly one of filter and ids."
    )
    limit: StrictInt = Field(
        default=1000, ge=1, le=BULK_MAX, description="At most this many per call; call again until 0."
    )


class BulkResult(_Response):
    model_config = ConfigDict(json_schema_extra={"example": {"changed": 1000}})
    changed: int = Field(description="Jobs changed by this call; 0 when nothing (more) matched.")


class PauseRequest(_Request):
    type: JobType | None = Field(default=None, description="Only this type in the queue; null pauses the whole queue.")


class PauseResult(_Response):
    queue: str
    type: str | None
    changed: bool = Field(description="True when this call paused (or resumed) it; false when it already was.")


class QueuePause(_Response):
    queue: str
    type: str | None = Field(description="Null: the whole queue is paused.")
    paused_at: datetime
    paused_by: str


class QueuePauseList(_Response):
    pauses: list[QueuePause]
