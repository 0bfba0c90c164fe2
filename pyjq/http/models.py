"""Request and response bodies of the HTTP API (pydantic), in camelCase.

Requests reject unknown fields (``extra="forbid"``) and are strict about
types: a number is not a string, a string is not a number. Their field types,
with jq's limits, are in :mod:`pyjq.http.fields`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from ..dead_letters import window_start
from .fields import (
    INVALID_CHARACTER,
    MAX_PAYLOAD_DEPTH,
    ConcurrencyKey,
    CronExpression,
    ErrorText,
    IdempotencyKey,
    JitterSeconds,
    JobState,
    JobType,
    KeyMaxRunning,
    Limit,
    MaxAttempts,
    Metadata,
    Payload,
    Priority,
    QueueName,
    RunAt,
    Tenant,
    TenantMaxRunning,
    Timestamp,
    TimezoneName,
    Weight,
)

__all__ = [
    "INVALID_CHARACTER",
    "MAX_PAYLOAD_DEPTH",
    "CancelledJob",
    "DeadGroup",
    "DeadGroupList",
    "DeadLetterQuery",
    "DuplicateJob",
    "EnqueueRequest",
    "EnqueuedJob",
    "ErrorBody",
    "ErrorResponse",
    "Health",
    "Job",
    "KeyLimit",
    "KeyLimitRequest",
    "QueueList",
    "QueueStats",
    "RetryDeadRequest",
    "RetryDeadResult",
    "Schedule",
    "ScheduleList",
    "ScheduleRequest",
    "TenantList",
    "TenantPolicy",
    "TenantPolicyList",
    "TenantPolicyRequest",
    "TenantPolicyRow",
    "TenantStats",
    "TenantsQuery",
    "WorkerEntry",
    "WorkerList",
]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=False)


class _Response(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


# -- errors ----------------------------------------------------------------------------


class ErrorBody(_Response):
    code: str = Field(description="Machine-readable reason, e.g. JOB_RUNNING, INVALID_ARGUMENT, UNAUTHENTICATED.")
    message: str = Field(description="What went wrong, for people; names the field when one is at fault.")
    request_id: str = Field(description="Also sent as the X-Request-Id response header.")
    field: str | None = Field(default=None, description="The request field at fault (validation errors only).")


class ErrorResponse(_Response):
    """The body of every non-2xx response."""

    model_config = ConfigDict(
        json_schema_extra={
            "example": {
                "error": {
                    "code": "JOB_RUNNING",
                    "message": "Job is running; cancellation is cooperative.",
                    "requestId": "req_5e",
                }
            }
        }
    )
    error: ErrorBody


# -- jobs ------------------------------------------------------------------------------


class EnqueueRequest(_Request):
    model_config = ConfigDict(
        json_schema_extra={
            "example": {
                "type": "generate_invoice_pdf",
                "payload": {"invoiceId": "inv_7731"},
                "runAt": "2026-11-01T00:05:00+05:30",
                "priority": 1,
                "maxAttempts": 8,
                "idempotencyKey": "invoice-pdf:inv_7731",
            }
        }
    )
    type: JobType = Field(description="Job type; selects the handler.")
    payload: Payload = Field(default_factory=dict)
    run_at: RunAt | None = Field(
        default=None, description="Run no earlier than this instant (RFC 3339 with offset); default now."
    )
    priority: Priority = Field(default=0, description="Higher runs first within the queue.")
    max_attempts: MaxAttempts | None = Field(
        default=None, description="Attempts before the job is dead-lettered; default from jq.settings."
    )
    idempotency_key: IdempotencyKey | None = Field(
        default=None,
        description="The same key in the same queue within its window (default 24 h) returns the first job.",
    )
    queue: QueueName = Field(default="default", description="Queue name: letters, digits and _ . : -")
    tenant: Tenant | None = Field(
        default=None, description="Tenant the job belongs to: within a priority, tenants of a queue take turns."
    )
    concurrency_key: ConcurrencyKey | None = Field(
        default=None,
        description="Jobs of this type with the same key run at most N at a time "
        "(N = 1 unless set with PUT /key-limits/{type}).",
    )
    metadata: Metadata | None = Field(
        default=None,
        description="Headers of the job, returned to its handler. Trace context: with OpenTelemetry in the "
        "service, its PRODUCER span (a child of the request's traceparent) writes traceparent and tracestate; "
        "without it, the request's traceparent and tracestate headers as they came. Either way a request's "
        "trace context headers win over these keys.",
    )


class EnqueuedJob(_Response):
    model_config = ConfigDict(
        json_schema_extra={"example": {"jobId": "0f8e9d51-52a4-4c38-9c6b-3f1c1e6b5a10", "status": "scheduled"}}
    )
    job_id: UUID
    status: Literal["queued", "scheduled"]


class DuplicateJob(_Response):
    """The same idempotency key again: the original job, in its current status."""

    model_config = ConfigDict(
        json_schema_extra={
            "example": {"jobId": "0f8e9d51-52a4-4c38-9c6b-3f1c1e6b5a10", "status": "scheduled", "duplicate": True}
        }
    )
    job_id: UUID
    status: JobState | Literal["not_found"] = Field(
        description="The original job's current status (not_found if it finished so long ago that its record is gone)."
    )
    duplicate: Literal[True] = True


class Job(_Response):
    model_config = ConfigDict(
        json_schema_extra={
            "example": {
                "jobId": "0f8e9d51-52a4-4c38-9c6b-3f1c1e6b5a10",
                "type": "generate_invoice_pdf",
                "queue": "default",
                "status": "failed_retrying",
                "attempts": 3,
                "maxAttempts": 8,
                "runAt": "2026-10-31T18:51:12Z",
                "nextAttemptAt": "2026-10-31T18:51:12Z",
                "lastError": "Timeout calling pdf-renderer after 30s",
                "createdAt": "2026-10-20T09:12:44Z",
                "finishedAt": None,
                "result": None,
            }
        }
    )
    job_id: UUID
    type: str
    queue: str
    status: JobState
    attempts: int
    max_attempts: int
    run_at: datetime
    next_attempt_at: datetime | None = Field(description="When a failed_retrying job runs again.")
    last_error: str | None
    created_at: datetime
    finished_at: datetime | None
    result: Any = Field(
        default=None,
        description="What the handler returned (any JSON value) once the job succeeded; null before, "
        "for other outcomes, or when it returned nothing. Kept as long as the job's history record.",
    )


class CancelledJob(_Response):
    model_config = ConfigDict(
        json_schema_extra={"example": {"jobId": "0f8e9d51-52a4-4c38-9c6b-3f1c1e6b5a10", "status": "cancelled"}}
    )
    job_id: UUID
    status: Literal["cancelled"] = "cancelled"


# -- schedules -------------------------------------------------------------------------


class ScheduleRequest(_Request):
    model_config = ConfigDict(
        json_schema_extra={
            "example": {
                "cron": "0 8 * * *",
                "timezone": "Asia/Kolkata",
                "type": "send_daily_digest",
                "jitterSeconds": 600,
            }
        }
    )
    cron: CronExpression = Field(
        description="Five fields: minute hour day-of-month month day-of-week, each *, a value, a range a-b, a list "
        "a,b and an optional /step (names jan-dec, sun-sat allowed); or @hourly, @daily, @weekly, "
        "@monthly, @yearly. E.g. '0 8 * * *' is 08:00 every day. jq refuses others with 422."
    )
    timezone: TimezoneName = Field(
        description="IANA time zone the cron is read in, e.g. Asia/Kolkata; 08:00 stays 08:00 across DST. "
        "jq refuses unknown names with 422."
    )
    type: JobType = Field(description="Type of the job each firing enqueues.")
    payload: Payload = Field(default_factory=dict)
    jitter_seconds: JitterSeconds = Field(default=0, description="Spread each firing at random over this many seconds.")
    queue: QueueName = "default"
    priority: Priority = 0
    max_attempts: MaxAttempts | None = None
    missed: Literal["latest", "all", "none"] = Field(
        default="latest",
        description="Slots no scheduler fired in time (all down): fire the latest only, all of them, or none.",
    )


class Schedule(_Response):
    name: str
    cron: str
    timezone: str
    type: str
    payload: dict[str, Any]
    queue: str
    priority: int
    jitter_seconds: int
    max_attempts: int | None
    missed: str
    paused: bool
    next_run_at: datetime | None
    last_slot_at: datetime | None
    created_at: datetime
    updated_at: datetime


class ScheduleList(_Response):
    schedules: list[Schedule]


# -- dead letters ----------------------------------------------------------------------


# The time windows of the dead-letter views (pyjq.dead_letters.WINDOWS), beside an explicit since.
DeadWindow = Literal["1h", "24h", "7d"]
# A dead-letter error filter: jq refuses a blank one (it would match every group), so the schema does too.
ErrorFilter = Annotated[ErrorText, Field(min_length=1, pattern="[^ ]")]
_WINDOW = "Only jobs that died in the last 1h, 24h or 7d (with since: the later start)."
_ERROR_FILTER = (
    "Only the groups this text selects: a fingerprint from GET /dead-letter, a raw error message of the group, "
    "or a case-insensitive part of the fingerprint or of the sample error's first line (e.g. HTTP 503)."
)


class DeadLetterQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: JobType | None = Field(default=None, description="Only dead jobs of this type.")
    error: ErrorFilter | None = Field(default=None, description=_ERROR_FILTER)
    since: Timestamp | None = Field(default=None, description="Only jobs that died at or after this instant.")
    window: DeadWindow | None = Field(default=None, description=_WINDOW)

    def start(self) -> datetime | None:
        """Where the window starts: since, the named window before now, or the later of the two when both."""
        return window_start(self.window, self.since)


class DeadGroup(_Response):
    type: str
    error: str = Field(description="Normalised error fingerprint; pass it to POST /dead-letter/retry.")
    count: int
    first_failed_at: datetime
    last_failed_at: datetime
    sample_error: str | None = Field(default=None, description="The latest raw error message of the group.")


class DeadGroupList(_Response):
    groups: list[DeadGroup]


class RetryDeadRequest(_Request):
    model_config = ConfigDict(
        json_schema_extra={"example": {"type": "deliver_webhook", "error": "HTTP 503", "since": "2026-10-18T06:00:00Z"}}
    )
    type: JobType = Field(description="Requeue dead jobs of this type.")
    error: ErrorFilter | None = Field(default=None, description=_ERROR_FILTER)
    since: Timestamp | None = Field(default=None, description="Only jobs that died at or after this instant.")
    window: DeadWindow | None = Field(default=None, description=_WINDOW)
    limit: Limit | None = Field(default=None, description="Requeue at most this many (oldest failures first).")

    def start(self) -> datetime | None:
        """Where the window starts: since, the named window before now, or the later of the two when both."""
        return window_start(self.window, self.since)


class RetryDeadResult(_Response):
    model_config = ConfigDict(json_schema_extra={"example": {"requeued": 1840}})
    requeued: int
    hint: list[DeadGroup] | None = Field(
        default=None,
        description="Only when requeued is 0: the closest groups in the window (the type's first, then the largest).",
    )


# -- queues, health --------------------------------------------------------------------


class QueueStats(_Response):
    queue: str
    ready: int = Field(description="Jobs ready to run now.")
    scheduled: int = Field(description="Jobs waiting for a future runAt (new or retrying).")
    running: int
    oldest_ready_age_seconds: float | None = Field(
        description="Age of the oldest ready job; scale workers on this. Null when none is ready."
    )
    dead: int


class UnhandledTypeEntry(_Response):
    queue: str
    type: str
    waiting: int = Field(description="Jobs of the type waiting (counted in a sample of at most 1,000 per queue).")
    oldest_waiting_age_seconds: float = Field(description="How long the oldest of them has been runnable.")
    workers: int = Field(description="Live workers serving the queue; none of them handles the type.")


class QueueList(_Response):
    queues: list[QueueStats]
    unhandled: list[UnhandledTypeEntry] = Field(
        default_factory=list,
        description="Job types waiting in a queue that no running worker of it handles: they are never claimed.",
    )


class Health(_Response):
    status: Literal["ok"] = "ok"
    schema_version: str = Field(description="The jq schema release installed in the database.")


# -- fairness: tenants, tenant policies, key limits ------------------------------------------


class TenantsQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    queue: QueueName | None = Field(default=None, description="Only this queue.")


class WorkerEntry(_Response):
    worker: str = Field(description="The worker's name, as in the jobs it leases (locked_by).")
    host: str
    pid: int
    queues: dict[str, int] = Field(description="Queue name -> slots.")
    version: str = Field(description="The client's version (pyjq's, for pyjq workers).")
    started_at: datetime
    last_seen: datetime = Field(description="Its last heartbeat (pyjq beats every 3 s).")
    state: str = Field(
        description="alive; silent: no beat for jq.settings.worker_gone_after (15 s), the next claim declares it "
        "gone; gone: declared gone, the jobs it held were requeued."
    )
    running: int = Field(description="Jobs it holds now.")


class WorkerList(_Response):
    workers: list[WorkerEntry]


class TenantStats(_Response):
    queue: str
    tenant: str | None = Field(description="Null: jobs without a tenant.")
    ready: int = Field(description="Jobs ready to run now.")
    scheduled: int = Field(description="Jobs waiting for a future runAt (new or retrying).")
    running: int
    weight: int = Field(description="The weight in force (shares of the queue; default 1).")
    max_running: int | None = Field(description="The cap in force on running jobs; null: no cap.")
    served: int = Field(description="Jobs given to the tenant while tenants shared the queue.")


class TenantList(_Response):
    tenants: list[TenantStats]


def _policy_schema(schema: dict[str, Any]) -> None:
    # At least one field, and neither is null: omit a field to leave it to a less specific policy.
    schema["anyOf"] = [{"required": ["weight"]}, {"required": ["maxRunning"]}]
    for prop in schema.get("properties", {}).values():
        prop.pop("default", None)


class TenantPolicyRequest(_Request):
    model_config = ConfigDict(json_schema_extra=_policy_schema)
    # Either may be omitted (None), but neither may be sent as null: the types say so in the schema.
    weight: Weight = Field(  # type: ignore[assignment]
        default=None, description="Shares of the queue within a priority (default 1)."
    )
    max_running: TenantMaxRunning = Field(  # type: ignore[assignment]
        default=None, description="At most this many running jobs of the tenant in the queue; 0 pauses it."
    )

    @model_validator(mode="after")
    def _one_field(self) -> TenantPolicyRequest:
        if self.weight is None and self.max_running is None:
            raise PydanticCustomError("policy_empty", "give weight, maxRunning or both")
        return self


class TenantPolicy(_Response):
    model_config = ConfigDict(
        json_schema_extra={"example": {"queue": "emails", "tenant": "acme", "weight": 3, "maxRunning": 10}}
    )
    queue: str = Field(description="A queue, or * for every queue.")
    tenant: str | None = Field(
        description="A tenant, * for every tenant without a policy of its own, null for jobs without a tenant."
    )
    weight: int | None = Field(description="Null: left to a less specific policy (else 1).")
    max_running: int | None = Field(description="Null: left to a less specific policy (else no cap).")


class TenantPolicyRow(TenantPolicy):
    updated_at: datetime


class TenantPolicyList(_Response):
    policies: list[TenantPolicyRow]


class KeyLimitRequest(_Request):
    model_config = ConfigDict(json_schema_extra={"example": {"maxRunning": 2}})
    max_running: KeyMaxRunning = Field(
        description="At most this many jobs of the type that share a concurrencyKey run at once."
    )


class KeyLimit(_Response):
    type: str
    max_running: int
