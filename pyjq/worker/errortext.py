"""The error text a failed attempt records with jq_fail.

The first line is 'Type: message' (what jq's dead-letter grouping reads), then
the traceback's last frames, within ERROR_BUDGET characters.
"""

from __future__ import annotations

import traceback

__all__ = ["ERROR_BUDGET", "clean", "describe", "headline"]

ERROR_BUDGET = 4000  # characters of error text (first line + traceback tail) sent to jq_fail


def describe(exc: BaseException) -> str:
    """'Type: message' on the first line, then the traceback's tail."""
    head = headline(exc)
    if len(head) > 1000:
        head = head[:999] + "…"
    trace = "".join(traceback.format_exception(exc))
    room = ERROR_BUDGET - len(head) - 1
    if len(trace) > room:
        trace = "…" + trace[-(room - 1) :]
    return clean(f"{head}\n{trace.rstrip()}")


def headline(exc: BaseException) -> str:
    message = str(exc)
    return f"{_type_name(exc)}: {message}" if message else _type_name(exc)


def clean(text: str) -> str:
    """Text PostgreSQL accepts: NUL characters escaped."""
    return text.replace("\x00", "\\x00")


def _type_name(exc: BaseException) -> str:
    t = type(exc)
    if t.__module__ in ("builtins", "__main__", "pyjq.job"):
        return t.__qualname__
    return f"{t.__module__}.{t.__qualname__}"
