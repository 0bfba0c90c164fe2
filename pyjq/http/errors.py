"""Errors of the HTTP API: one body shape, one SQLSTATE table.

Every non-2xx response is ``{"error": {"code", "message", "requestId"}}``
(plus ``field`` when a request field is at fault), and carries the request id
in the X-Request-Id header too. Database errors are mapped by SQLSTATE only,
never by message text, through ``SQLSTATE_STATUS`` below: an exact code
first, then its two-character class. Anything unmapped is a 500 whose details
go to the log, not to the client.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from psycopg_pool import PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from ..errors import JQError
from .fields import INVALID_CHARACTER

__all__ = [
    "SQLSTATE_STATUS",
    "ApiError",
    "error_body",
    "error_response",
    "from_database",
    "install_handlers",
    "request_id_of",
]

log = logging.getLogger("pyjq.http")

RETRY_SOON = 1  # seconds, Retry-After of a transient conflict (serialisation failure, deadlock, lock timeout)
RETRY_UNAVAILABLE = 5  # seconds, Retry-After while the database cannot be reached


class ApiError(Exception):
    """An error the service answers with ``status`` and the error body."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        field: str | None = None,
        headers: Mapping[str, str] | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = dict(headers or {})


# (HTTP status, error code, Retry-After seconds or None), by SQLSTATE, then by SQLSTATE class.
SQLSTATE_STATUS: dict[str, tuple[int, str, int | None]] = {
    # Text the database cannot represent: \u0000 in jsonb (22P05) or text (22021), unparsable input.
    "22P05": (400, "INVALID_CHARACTER", None),
    "22021": (400, "INVALID_CHARACTER", None),
    "22P02": (400, "INVALID_ARGUMENT", None),
    # Bad arguments, as raised by the jq_* functions (each message names the argument).
    "22004": (422, "MISSING_ARGUMENT", None),
    "22001": (422, "VALUE_TOO_LONG", None),
    "22007": (422, "INVALID_TIMESTAMP", None),
    "22008": (422, "INVALID_TIMESTAMP", None),
    "22023": (422, "INVALID_ARGUMENT", None),
    "22": (422, "INVALID_ARGUMENT", None),
    "JQ": (422, "INVALID_ARGUMENT", None),
    "23505": (409, "CONFLICT", None),
    "23": (422, "CONSTRAINT_VIOLATION", None),
    # jq.settings' bounds on what callers store: a payload too large, or nested too deep.
    "54000": (413, "PAYLOAD_TOO_LARGE", None),
    "54001": (422, "PAYLOAD_TOO_DEEP", None),
    "54": (422, "LIMIT_EXCEEDED", None),
    # The service's database role lacks a grant (see the jq_producer/jq_admin roles).
    "42501": (403, "PERMISSION_DENIED", None),
    # jq is not installed (or too old for this route) in the database the service uses.
    "3F000": (503, "NOT_INSTALLED", 30),
    "42883": (503, "NOT_INSTALLED", 30),
    "42P01": (503, "NOT_INSTALLED", 30),
    "JQ001": (503, "NOT_INSTALLED", 30),
    # Transient: try again.
    "40001": (503, "RETRY", RETRY_SOON),
    "40P01": (503, "RETRY", RETRY_SOON),
    "55P03": (503, "RETRY", RETRY_SOON),
    "57014": (503, "TIMEOUT", RETRY_SOON),
    # The database is going away, full, or unreachable.
    "08": (503, "DATABASE_UNAVAILABLE", RETRY_UNAVAILABLE),
    "53": (503, "DATABASE_UNAVAILABLE", RETRY_UNAVAILABLE),
    "57": (503, "DATABASE_UNAVAILABLE", RETRY_UNAVAILABLE),
    "3D": (503, "DATABASE_UNAVAILABLE", RETRY_UNAVAILABLE),
    "28": (503, "DATABASE_UNAVAILABLE", RETRY_UNAVAILABLE),
}


def request_id_of(request: Request) -> str:
    return getattr(request.state, "request_id", None) or "-"


def error_body(code: str, message: str, request_id: str, field: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message, "requestId": request_id}
    if field is not None:
        body["field"] = field
    return {"error": body}


def error_response(request: Request, error: ApiError) -> JSONResponse:
    headers = dict(error.headers)
    headers["X-Request-Id"] = request_id_of(request)
    return JSONResponse(
        error_body(error.code, error.message, request_id_of(request), error.field),
        status_code=error.status,
        headers=headers,
    )


def _sqlstate_entry(sqlstate: str | None) -> tuple[int, str, int | None] | None:
    if not sqlstate:
        return None
    return SQLSTATE_STATUS.get(sqlstate) or SQLSTATE_STATUS.get(sqlstate[:2])


def from_database(exc: BaseException) -> ApiError:
    """The ApiError for an error raised by psycopg, psycopg_pool or pyjq's client."""
    if isinstance(exc, PoolTimeout):
        return ApiError(
            503,
            "DATABASE_UNAVAILABLE",
            "No database connection became available in time; try again.",
            headers={"Retry-After": str(RETRY_UNAVAILABLE)},
        )
    if isinstance(exc, (UnicodeEncodeError, psycopg.DataError)) and not getattr(exc, "sqlstate", None):
        # Refused before it reached the server, e.g. a NUL character in a text argument.
        return ApiError(
            400,
            "INVALID_CHARACTER",
            "The request holds text PostgreSQL cannot store (NUL characters or invalid Unicode).",
        )
    sqlstate = getattr(exc, "sqlstate", None)
    entry = _sqlstate_entry(sqlstate)
    if entry is None and isinstance(exc, psycopg.OperationalError):
        entry = SQLSTATE_STATUS["08"]  # connection failures carry no SQLSTATE
    if entry is None:
        log.error("unmapped database error (SQLSTATE %s)", sqlstate, exc_info=exc)
        return ApiError(500, "INTERNAL", "Unexpected database error; see the service log.")
    status, code, retry_after = entry
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    if status >= 500:
        # Host names, roles and server messages stay in the log.
        log.warning("database error answered %d %s (SQLSTATE %s): %s", status, code, sqlstate, exc)
        messages = {
            "NOT_INSTALLED": "jq is not installed (or is too old) in the service's database; run `pyjq install`.",
            "RETRY": "The database asked to retry the transaction; try again.",
            "TIMEOUT": "The database statement timed out; try again.",
            "DATABASE_UNAVAILABLE": "The database is unavailable; try again later.",
        }
        return ApiError(status, code, messages.get(code, "The database is unavailable."), headers=headers)
    return ApiError(status, code, _database_message(exc), headers=headers)


def _database_message(exc: BaseException) -> str:
    if isinstance(exc, JQError):
        message, hint = str(exc), exc.hint
    elif isinstance(exc, psycopg.Error):
        message, hint = exc.diag.message_primary or str(exc), exc.diag.message_hint
    else:
        message, hint = str(exc), None
    message = " ".join(message.split())
    if hint:
        message = f"{message} ({' '.join(hint.split())})"
    return message


# -- request validation -------------------------------------------------------------------


def _field_name(loc: Sequence[Any]) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header"):
        where, parts = parts[0], parts[1:]
        if not parts:
            return "body" if where == "body" else where
    return ".".join(parts)


# Text PostgreSQL cannot store: ours (NUL, surrogates) and pydantic's own (surrogates in a str).
_CHARACTER_ERRORS = {INVALID_CHARACTER, "string_unicode"}


def from_validation(exc: RequestValidationError) -> ApiError:
    errors = list(exc.errors())
    if any(e.get("type") == "json_invalid" for e in errors):
        return ApiError(400, "INVALID_JSON", "The request body is not valid JSON.")
    if not errors:
        return ApiError(422, "VALIDATION_ERROR", "The request is invalid.")
    status, code = 422, "VALIDATION_ERROR"
    if any(e.get("type") in _CHARACTER_ERRORS for e in errors):
        errors = [e for e in errors if e.get("type") in _CHARACTER_ERRORS]
        status, code = 400, "INVALID_CHARACTER"
    parts = []
    for e in errors[:5]:
        name = _field_name(e.get("loc", ()))
        if e.get("type") == "extra_forbidden":
            parts.append(f"{name}: unknown field")
        elif e.get("type") == "missing":
            parts.append(f"{name}: required")
        else:
            parts.append(f"{name}: {e.get('msg', 'invalid')}")
    if len(errors) > 5:
        parts.append(f"and {len(errors) - 5} more")
    return ApiError(status, code, "; ".join(parts), field=_field_name(errors[0].get("loc", ())))


_HTTP_CODES = {
    400: "BAD_REQUEST",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    406: "NOT_ACCEPTABLE",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
}


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route accepts on this path (Starlette names only the first route's)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods.update(getattr(route, "methods", None) or ())
    return sorted(methods)


def install_handlers(app: Any) -> None:
    """Route every error the app can meet to the error body."""

    async def on_api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error_response(request, exc)

    async def on_validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(request, from_validation(exc))

    async def on_http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "HTTP_ERROR")
        if exc.status_code == 404:
            message = f"No route {request.method} {request.url.path}."
        elif exc.status_code == 405:
            message = f"Method {request.method} is not allowed on {request.url.path}."
            headers = dict(exc.headers or {})
            headers["Allow"] = ", ".join(_allowed_methods(request))
            exc = StarletteHTTPException(405, exc.detail, headers=headers)
        elif exc.status_code == 400:
            message = "The request body could not be parsed."
        else:
            message = str(exc.detail)
        return error_response(request, ApiError(exc.status_code, code, message, headers=exc.headers))

    async def on_database(request: Request, exc: Exception) -> JSONResponse:
        return error_response(request, from_database(exc))

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    for cls in (psycopg.Error, JQError, UnicodeEncodeError):
        app.add_exception_handler(cls, on_database)
