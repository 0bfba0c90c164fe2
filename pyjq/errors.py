"""Exceptions: jq's SQLSTATEs mapped to Python classes.

The SQL functions raise errors with their own SQLSTATE; clients map the code,
never the message text. Every class keeps the original psycopg error as
``__cause__`` and exposes ``sqlstate``.
"""

from __future__ import annotations

import psycopg

__all__ = [
    "InvalidArgument",
    "InvalidTimestamp",
    "JQError",
    "MissingArgument",
    "NotInstalled",
    "PayloadTooDeep",
    "PayloadTooLarge",
    "PermissionDenied",
    "SchemaTooNew",
    "TaskPayloadError",
    "TimestampOutOfRange",
    "ValueTooLong",
    "from_psycopg",
]


class JQError(Exception):
    """Base class of every error pyjq raises on behalf of the queue."""

    sqlstate: str | None = None

    def __init__(self, message: str, *, sqlstate: str | None = None, hint: str | None = None):
        super().__init__(message)
        if sqlstate is not None:
            self.sqlstate = sqlstate
        self.hint = hint


class InvalidArgument(JQError, ValueError):
    """22023: an argument is out of range or malformed."""

    sqlstate = "22023"


class MissingArgument(InvalidArgument):
    """22004: a required argument was null."""

    sqlstate = "22004"


class ValueTooLong(InvalidArgument):
    """22001: a text argument exceeds its limit."""

    sqlstate = "22001"


class InvalidTimestamp(InvalidArgument):
    """22007: a timestamp could not be parsed."""

    sqlstate = "22007"


class SchemaTooNew(JQError):
    """JQ001: the database holds a newer jq schema than this installer."""

    sqlstate = "JQ001"


class NotInstalled(JQError):
    """3F000/42883: schema jq or its functions are missing; run `pyjq install`."""


class PermissionDenied(JQError):
    """42501: the role may not call this function (see the jq_producer/jq_worker/jq_admin roles)."""

    sqlstate = "42501"


class TimestampOutOfRange(InvalidTimestamp):
    """22008: a time in jq's answer lies outside what Python holds (years 1 to 9999).

    jq keeps the times it writes inside that range; another client may not have.
    """

    sqlstate = "22008"


class PayloadTooLarge(JQError, ValueError):
    """54000: a payload over jq.settings.max_payload_bytes (1 MiB unless an admin changed it)."""

    sqlstate = "54000"


class PayloadTooDeep(JQError, ValueError):
    """54001: a payload nested deeper than jq.settings.max_payload_depth (64 levels unless changed)."""

    sqlstate = "54001"


class TaskPayloadError(InvalidArgument):
    """A task's payload does not fit its handler (pyjq.tasks): raised before anything is written.

    ``task`` is the job type, ``field`` the payload field at fault (None when the
    problem is not one field's, e.g. a model's own check failed).
    """

    def __init__(self, task: str, field: str | None, problem: str):
        where = f"task {task!r}, field {field!r}" if field is not None else f"task {task!r}"
        super().__init__(f"{where}: {problem}")
        self.task = task
        self.field = field
        self.problem = problem


_BY_SQLSTATE: dict[str, type[JQError]] = {
    "22023": InvalidArgument,
    "22004": MissingArgument,
    "22001": ValueTooLong,
    "22007": InvalidTimestamp,
    "22008": InvalidTimestamp,
    "54000": PayloadTooLarge,
    "54001": PayloadTooDeep,
    "JQ001": SchemaTooNew,
    "3F000": NotInstalled,
    "42883": NotInstalled,
    "42501": PermissionDenied,
}


def from_psycopg(exc: psycopg.Error) -> Exception:
    """The pyjq exception for a database error, or the error itself if jq has no class for it."""
    code = exc.sqlstate
    cls = _BY_SQLSTATE.get(code or "")
    if cls is None:
        return exc
    diag = exc.diag
    err = cls(diag.message_primary or str(exc), sqlstate=code, hint=diag.message_hint)
    err.__cause__ = exc
    return err
