"""Request and response bodies of the HTTP API (pydantic), in camelCase.

Requests reject unknown fields (``extra="forbid"``) and are strict about
types: a number is not a string, a string is not a number. The limits are
the jq_* functions' own, read from :mod:`pyjq._limits`, so that the OpenAPI
document states them and a bad field is named before the database is asked;
the SQL functions still enforce them and remain the authority.

Text the database cannot store (NUL characters, unpaired surrogates) fails
with the error type ``invalid_character``, which the service answers with 400.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from .. import _limits as limits

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
]

INVALID_CHARACTER = "invalid_character"  # pydantic error type the service answers with 400
MAX_PAYLOAD_DEPTH = 64  # nesting levels of a payload (deeper JSON cannot round-trip through Python's json)


# -- field types ----------------------------------------------------------------------

def _storable(value: str) -> str:
    """PostgreSQL text and jsonb cannot hold U+0000, and UTF-8 cannot encode a lone surrogate."""
    if "\x00" in value:
        raise PydanticCustomError(INVALID_CHARACTER,
                                  "must not contain NUL characters (\\u0000): PostgreSQL cannot store them")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise PydanticCustomError(INVALID_CHARACTER,
                                  "must be valid Unicode text (it holds an unpaired surrogate)") from None
    return value


def _storable_first(value: Any) -> Any:
    # Before the length and pattern checks, so that a NUL is answered as such (400), not as a pattern mismatch.
    return _storable(value) if isinstance(value, str) else value


# Patterns state "no NUL" too, so the schema says what the service accepts.
NO_NUL = r"^[^\x00]*$"
NOT_BLANK = r"^[^\x00]*[^ \x00][^\x00]*$"  # jq trims spaces (btrim) before calling a name empty


_STORABLE = BeforeValidator(_storable_first)


def _text(max_length: int, pattern: str = NOT_BLANK, min_length: int | None = 1) -> StringConstraints:
    return StringConstraints(min_length=min_length, max_length=max_length, pattern=pattern)


JobType = Annotated[StrictStr, _text(limits.TYPE_MAX), _STORABLE]
QueueName = Annotated[StrictStr, _text(limits.QUEUE_NAME_MAX, limits.QUEUE_NAME_PATTERN), _STORABLE]
IdempotencyKey = Annotated[StrictStr, _text(limits.IDEMPOTENCY_KEY_MAX), _STORABLE]
Tenant = Annotated[StrictStr, _text(limits.TENANT_MAX), _STORABLE]
ConcurrencyKey = Annotated[StrictStr, _text(limits.CONCURRENCY_KEY_MAX), _STORABLE]
ScheduleName = Annotated[StrictStr, _text(limits.SCHEDULE_NAME_MAX, NO_NUL), _STORABLE]
# A name given to a schedule over HTTP travels as one URL path segment, so it keeps to a safe alphabet.
NewScheduleName = Annotated[StrictStr, _text(limits.SCHEDULE_NAME_MAX, limits.SCHEDULE_NAME_PATTERN), _STORABLE]
CronExpression = Annotated[StrictStr, _text(limits.CRON_MAX), _STORABLE]
TimezoneName = Annotated[StrictStr, _text(limits.TIMEZONE_MAX), _STORABLE]
ErrorText = Annotated[StrictStr, _text(limits.ERROR_TEXT_MAX, NO_NUL, min_length=None), _STORABLE]


def _integral(value: Any) -> Any:
    """JSON Schema counts 8.0 as an integer; so do we. 8.5, "8" and true stay refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# The constraints sit inside the validator, so the JSON schema still says minimum/maximum.
_INTEGRAL = BeforeValidator(_integral)

Priority = Annotated[StrictInt, Field(ge=limits.PRIORITY_MIN, le=limits.PRIORITY_MAX), _INTEGRAL]
MaxAttempts = Annotated[StrictInt, Field(ge=limits.MAX_ATTEMPTS_MIN, le=limits.MAX_ATTEMPTS_MAX), _INTEGRAL]
JitterSeconds = Annotated[StrictInt, Field(ge=limits.JITTER_SECONDS_MIN, le=limits.JITTER_SECONDS_MAX), _INTEGRAL]
Limit = Annotated[StrictInt, Field(ge=limits.RETRY_DEAD_LIMIT_MIN, le=limits.INTEGER_MAX), _INTEGRAL]
Weight = Annotated[StrictInt, Field(ge=limits.WEIGHT_MIN, le=limits.WEIGHT_MAX), _INTEGRAL]
TenantMaxRunning = Annotated[
    StrictInt, Field(ge=limits.TENANT_MAX_RUNNING_MIN, le=limits.TENANT_MAX_RUNNING_MAX), _INTEGRAL]
KeyMaxRunning = Annotated[StrictInt, Field(ge=limits.KEY_MAX_RUNNING_MIN, le=limits.KEY_MAX_RUNNING_MAX), _INTEGRAL]

_RFC3339 = re.compile(
    r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"
)


def _rfc3339_text(value: Any) -> Any:
    if not isinstance(value, str):
        raise PydanticCustomError("datetime_type", "must be an RFC 3339 timestamp string")
    if not _RFC3339.match(value):
        raise PydanticCustomError(
            "datetime_format",
            "must be an RFC 3339 timestamp with a UTC offset, e.g. 2026-11-01T00:05:00+05:30 or 2026-11-01T00:05:00Z",
        )
    return value


def _in_range(value: datetime) -> datetime:
    try:
        value.astimezone(UTC)
    except OverflowError:
        raise PydanticCustomError("datetime_range", "is out of range (years 0001 to 9999 in UTC)") from None
    return value


# An instant with its offset kept, so "2026-11-01T00:05:00+05:30" is exactly 2026-10-31T18:35:00Z.
Timestamp = Annotated[AwareDatetime, BeforeValidator(_rfc3339_text), AfterValidator(_in_range)]

def _run_at_range(value: datetime) -> datetime:
    # jq_enqueue's range for run_at (beyond it Python clients could not read the job back).
    if not limits.RUN_AT_MIN <= value <= limits.RUN_AT_MAX:
        raise PydanticCustomError("datetime_range", "is out of range (0001-01-02 to 9999-12-30 UTC)")
    return value


RunAt = Annotated[Timestamp, AfterValidator(_run_at_range)]


def _check_payload(value: dict[str, Any]) -> dict[str, Any]:
    """Walk the payload without recursion: storable strings and keys, finite numbers, bounded depth."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            if depth > MAX_PAYLOAD_DEPTH:
                raise PydanticCustomError("payload_depth", f"is nested deeper than {MAX_PAYLOAD_DEPTH} levels")
            for key, item in node.items():
                if not isinstance(key, str):
                    raise PydanticCustomError("payload_key", "object keys must be strings")
                _storable(key)
                stack.append((item, depth + 1))
        elif isinstance(node, list):
            if depth > MAX_PAYLOAD_DEPTH:
                raise PydanticCustomError("payload_depth", f"is nested deeper than {MAX_PAYLOAD_DEPTH} levels")
            stack.extend((item, depth + 1) for item in node)
        elif isinstance(node, str):
            _storable(node)
        elif isinstance(node, float) and not math.isfinite(node):
            raise PydanticCustomError("payload_number", "numbers must be finite (no NaN or Infinity)")
    return value


# Any JSON value PostgreSQL's jsonb can store: strings and keys without NUL. A component of the
# OpenAPI document (added by pyjq.http.app), referred to by the payload's schema.
JSON_VALUE_SCHEMA: dict[str, Any] = {
    "description": "Any JSON value whose strings and keys hold no NUL (\\u0000).",
    "anyOf": [
        {"type": "string", "pattern": NO_NUL},
        {"type": ["number", "boolean", "null"]},
        {"type": "array", "items": {"$ref": "#/components/schemas/JsonValue"}},
        {"type": "object", "propertyNames": {"pattern": NO_NUL},
         "additionalProperties": {"$ref": "#/components/schemas/JsonValue"}},
    ],
}

Payload = Annotated[
    dict[str, Any],
    AfterValidator(_check_payload),
    WithJsonSchema({
        "type": "object",
        "description": f"A JSON object; the job's arguments. Strings and keys hold no NUL (\\u0000); "
                       f"at most {MAX_PAYLOAD_DEPTH} levels deep.",
        "propertyNames": {"pattern": NO_NUL},
        "additionalProperties": {"$ref": "#/components/schemas/JsonValue"},
        "example": {"invoiceId": "inv_7731"},
    }),
]

JobState = Literal["scheduled", "queued", "running", "failed_retrying", "succeeded", "cancelled", "dead"]


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
        default=None, description="Run no earlier than this instant (RFC 3339 with offset); default now.")
    priority: Priority = Field(default=0, description="Higher runs first within the queue.")
    max_attempts: MaxAttempts | None = Field(
        default=None, description="Attempts before the job is dead-lettered; default from jq.settings.")
    idempotency_key: IdempotencyKey | None = Field(
        default=None,
        description="The same key in the same queue within its window (default 24 h) returns the first job."
    )
    queue: QueueName = Field(default="default", description="Queue name: letters, digits and _ . : -")
    tenant: Tenant | None = Field(
        default=None, description="Tenant the job belongs to: within a priority, tenants of a queue take turns.")
    concurrency_key: ConcurrencyKey | None = Field(
        default=None, description="Jobs of this type with the same key run at most N at a time "
                                  "(N = 1 unless set with PUT /key-limits/{type}).")


class EnqueuedJob(_Response):
    model_config = ConfigDict(
        json_schema_extra={"example": {"jobId": "0f8e9d51-52a4-4c38-9c6b-3f1c1e6b5a10", "status": "scheduled"}})
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


class CancelledJob(_Response):
    model_config = ConfigDict(
        json_schema_extra={"example": {"jobId": "0f8e9d51-52a4-4c38-9c6b-3f1c1e6b5a10", "status": "cancelled"}})
    job_id: UUID
    status: Literal["cancelled"] = "cancelled"


# -- schedules -------------------------------------------------------------------------

class ScheduleRequest(_Request):
    model_config = ConfigDict(
        json_schema_extra={
            "example": {"cron": "0 8 * * *", "timezone": "Asia/Kolkata", "type": "send_daily_digest",
                        "jitterSeconds": 600}
        }
    )
    cron: CronExpression = Field(
        description="Five fields: minute hour day-of-month month day-of-week, each *, a value, a range a-b, a list "
                    "a,b and an optional /step (names jan-dec, sun-sat allowed); or @hourly, @daily, @weekly, "
                    "@monthly, @yearly. E.g. '0 8 * * *' is 08:00 every day. jq refuses others with 422.")
    timezone: TimezoneName = Field(
        description="IANA time zone the cron is read in, e.g. Asia/Kolkata; 08:00 stays 08:00 across DST. "
                    "jq refuses unknown names with 422.")
    type: JobType = Field(description="Type of the job each firing enqueues.")
    payload: Payload = Field(default_factory=dict)
    jitter_seconds: JitterSeconds = Field(
        default=0, description="Spread each firing at random over this many seconds."
    )
    queue: QueueName = "default"
    priority: Priority = 0
    max_attempts: MaxAttempts | None = None
    missed: Literal["latest", "all", "none"] = Field(
        default="latest",
        description="Slots no scheduler fired in time (all down): fire the latest only, all of them, or none.")


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

class DeadLetterQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: JobType | None = Field(default=None, description="Only dead jobs of this type.")
    since: Timestamp | None = Field(default=None, description="Only jobs that died at or after this instant.")


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
    error: ErrorText | None = Field(
        default=None,
        description="Only this error group: a fingerprint from GET /dead-letter, or any raw error message of it."
    )
    since: Timestamp | None = Field(default=None, description="Only jobs that died at or after this instant.")
    limit: Limit | None = Field(
        default=None, description="Requeue at most this many (oldest failures first)."
    )


class RetryDeadResult(_Response):
    model_config = ConfigDict(json_schema_extra={"example": {"requeued": 1840}})
    requeued: int


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


class QueueList(_Response):
    queues: list[QueueStats]


class Health(_Response):
    status: Literal["ok"] = "ok"
    schema_version: str = Field(description="The jq schema release installed in the database.")


# -- fairness: tenants, tenant policies, key limits ------------------------------------------

# Path segments (one URL segment each): no '/', and not made of dots and spaces only (a '.' or '..'
# segment is folded away by URL normalisation before it reaches the service).
_SEGMENT = r"^[^\x00/]*[^ \x00/.][^\x00/]*$"
# A queue name (not dots only, see _SEGMENT), or '*' for every queue.
_QUEUE_CHARS_BUT_DOT = limits.QUEUE_NAME_CHARS.replace(".", "")
_POLICY_QUEUE = rf"^(\*|[{limits.QUEUE_NAME_CHARS}]*[{_QUEUE_CHARS_BUT_DOT}][{limits.QUEUE_NAME_CHARS}]*)$"
PolicyQueue = Annotated[StrictStr, _text(limits.QUEUE_NAME_MAX, _POLICY_QUEUE), _STORABLE]
# A tenant, '*' for every tenant without a policy of its own, '-' for jobs without a tenant.
PolicyTenant = Annotated[StrictStr, _text(limits.TENANT_MAX, _SEGMENT), _STORABLE]
KeyLimitType = Annotated[StrictStr, _text(limits.TYPE_MAX, _SEGMENT), _STORABLE]


class TenantsQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    queue: QueueName | None = Field(default=None, description="Only this queue.")


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
        default=None, description="Shares of the queue within a priority (default 1).")
    max_running: TenantMaxRunning = Field(  # type: ignore[assignment]
        default=None, description="At most this many running jobs of the tenant in the queue; 0 pauses it.")

    @model_validator(mode="after")
    def _one_field(self) -> TenantPolicyRequest:
        if self.weight is None and self.max_running is None:
            raise PydanticCustomError("policy_empty", "give weight, maxRunning or both")
        return self


class TenantPolicy(_Response):
    model_config = ConfigDict(json_schema_extra={"example": {"queue": "emails", "tenant": "acme", "weight": 3,
                                                             "maxRunning": 10}})
    queue: str = Field(description="A queue, or * for every queue.")
    tenant: str | None = Field(description="A tenant, * for every tenant without a policy of its own, "
                                           "null for jobs without a tenant.")
    weight: int | None = Field(description="Null: left to a less specific policy (else 1).")
    max_running: int | None = Field(description="Null: left to a less specific policy (else no cap).")


class TenantPolicyRow(TenantPolicy):
    updated_at: datetime


class TenantPolicyList(_Response):
    policies: list[TenantPolicyRow]


class KeyLimitRequest(_Request):
    model_config = ConfigDict(json_schema_extra={"example": {"maxRunning": 2}})
    max_running: KeyMaxRunning = Field(
        description="At most this many jobs of the type that share a concurrencyKey run at once.")


class KeyLimit(_Response):
    type: str
    max_running: int
