"""What the route modules share: the error responses of the OpenAPI document, the JSON answer, the token check."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel

from ..models import ErrorResponse

__all__ = ["AUTH_STATUSES", "ERROR_DESCRIPTIONS", "TokenCheck", "error_responses", "json_response"]

# What each error status of the API means, as the OpenAPI document says it.
ERROR_DESCRIPTIONS = {
    400: "INVALID_JSON (the body is not JSON), INVALID_CHARACTER (a NUL character or invalid Unicode, "
    "which PostgreSQL cannot store; the field is named), INVALID_ARGUMENT.",
    401: "UNAUTHENTICATED: no bearer token, or not a configured one.",
    403: "FORBIDDEN: the token's scope does not include this route; PERMISSION_DENIED: the service's "
    "database role lacks a grant.",
    404: "Not found (JOB_NOT_FOUND, SCHEDULE_NOT_FOUND, POLICY_NOT_FOUND, KEY_LIMIT_NOT_FOUND).",
    409: "JOB_RUNNING: the job is running, cancellation was requested and is cooperative; "
    "JOB_FINISHED: it already finished (succeeded or dead).",
    413: "PAYLOAD_TOO_LARGE: the body exceeds the configured limit (default 1 MiB), or the payload exceeds "
    "jq.settings.max_payload_bytes (1 MiB as stored, unless an admin changed it).",
    422: "VALIDATION_ERROR: the request does not match the schema (unknown fields included; the field is "
    "named); INVALID_ARGUMENT, MISSING_ARGUMENT, VALUE_TOO_LONG, INVALID_TIMESTAMP: jq refused an argument; "
    "PAYLOAD_TOO_DEEP: the payload nests deeper than jq.settings.max_payload_depth (64 unless changed).",
    500: "INTERNAL: an unexpected error (a bug); details are in the service log.",
    503: "DATABASE_UNAVAILABLE, RETRY, TIMEOUT (try again after Retry-After seconds), NOT_INSTALLED.",
}
# Statuses any route with a token check can answer.
AUTH_STATUSES = (401, 403, 500, 503)

# ``Depends(require(store, scope))``, built once by create_app: as the default of a route's Principal
# parameter it admits a token whose scope includes ``scope``. Typed Any, as fastapi.Depends is, so that
# it can be the default of a parameter annotated Principal.
TokenCheck = Any


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` entries for these error statuses and the token check's."""
    return {
        s: {"model": ErrorResponse, "description": ERROR_DESCRIPTIONS[s]} for s in sorted({*statuses, *AUTH_STATUSES})
    }


def json_response(model: BaseModel, status: int = 200, *, exclude_none: bool = False) -> JSONResponse:
    return JSONResponse(model.model_dump(mode="json", by_alias=True, exclude_none=exclude_none), status_code=status)
