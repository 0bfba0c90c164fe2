"""Field types of the HTTP API's bodies, queries and paths (pydantic), with jq's limits.

Lengths, ranges and patterns are the jq_* functions' own, read from
:mod:`pyjq._limits`, so the OpenAPI document states them and a bad field is
named before the database is asked; the SQL functions still enforce them.

Text the database cannot store (NUL characters, unpaired surrogates) fails
with the error type ``invalid_character``, which the service answers with 400.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BeforeValidator,
    Field,
    StrictInt,
    StrictStr,
    StringConstraints,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from .. import _limits as limits

__all__ = [
    "INVALID_CHARACTER",
    "JSON_VALUE_SCHEMA",
    "MAX_PAYLOAD_DEPTH",
    "ConcurrencyKey",
    "CronExpression",
    "ErrorText",
    "IdempotencyKey",
    "JitterSeconds",
    "JobState",
    "JobType",
    "KeyLimitType",
    "KeyMaxRunning",
    "Limit",
    "MaxAttempts",
    "Metadata",
    "NewScheduleName",
    "Payload",
    "PolicyQueue",
    "PolicyTenant",
    "Priority",
    "QueueName",
    "RunAt",
    "ScheduleName",
    "Tenant",
    "TenantMaxRunning",
    "Timestamp",
    "TimezoneName",
    "Weight",
]

INVALID_CHARACTER = "invalid_character"  # pydantic error type the service answers with 400
MAX_PAYLOAD_DEPTH = 64  # nesting levels of a payload (deeper JSON cannot round-trip through Python's json)


# -- field types ----------------------------------------------------------------------


def _storable(value: str) -> str:
    """PostgreSQL text and jsonb cannot hold U+0000, and UTF-8 cannot encode a lone surrogate."""
    if "\x00" in value:
        raise PydanticCustomError(
            INVALID_CHARACTER, "must not contain NUL characters (\\u0000): PostgreSQL cannot store them"
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise PydanticCustomError(
            INVALID_CHARACTER, "must be valid Unicode text (it holds an unpaired surrogate)"
        ) from None
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
    StrictInt, Field(ge=limits.TENANT_MAX_RUNNING_MIN, le=limits.TENANT_MAX_RUNNING_MAX), _INTEGRAL
]
KeyMaxRunning = Annotated[StrictInt, Field(ge=limits.KEY_MAX_RUNNING_MIN, le=limits.KEY_MAX_RUNNING_MAX), _INTEGRAL]

_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


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
        {
            "type": "object",
            "propertyNames": {"pattern": NO_NUL},
            "additionalProperties": {"$ref": "#/components/schemas/JsonValue"},
        },
    ],
}

Payload = Annotated[
    dict[str, Any],
    AfterValidator(_check_payload),
    WithJsonSchema(
        {
            "type": "object",
            "description": f"A JSON object; the job's arguments. Strings and keys hold no NUL (\\u0000); "
            f"at most {MAX_PAYLOAD_DEPTH} levels deep.",
            "propertyNames": {"pattern": NO_NUL},
            "additionalProperties": {"$ref": "#/components/schemas/JsonValue"},
            "example": {"invoiceId": "inv_7731"},
        }
    ),
]


def _storable_headers(value: Any) -> Any:
    # Before the types, as a whole: a NUL in a key is answered as "metadata", not echoed in the field's path.
    if isinstance(value, dict):
        for key, item in value.items():
            _storable_first(key)
            _storable_first(item)
    return value


# Headers of a job, like a message's (jq_enqueue's rule: an object of strings, at most
# METADATA_MAX_BYTES as JSON text; the size is the database's to judge).
Metadata = Annotated[
    dict[StrictStr, StrictStr],
    BeforeValidator(_storable_headers),
    WithJsonSchema(
        {
            "type": "object",
            "description": f"Headers of the job, strings only (at most {limits.METADATA_MAX_BYTES} bytes as "
            "JSON text), returned to its handler: jq's own keys are the W3C trace context, traceparent and "
            "tracestate. Strings and keys hold no NUL (\\u0000).",
            "propertyNames": {"pattern": NO_NUL},
            "additionalProperties": {"type": "string", "pattern": NO_NUL},
            "example": {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
        }
    ),
]

JobState = Literal["scheduled", "queued", "running", "failed_retrying", "succeeded", "cancelled", "dead"]


# -- path segments --------------------------------------------------------------------

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
