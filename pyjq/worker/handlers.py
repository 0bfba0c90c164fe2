"""Registering handlers: the checks a handler passes before the worker keeps it.

``Worker.add_handler`` (and ``@worker.handler``, ``@worker.task``,
``worker.add_tasks``, which all end there) make each :class:`~.state.Handler`
here: a job type of at most TYPE_MAX characters, a callable, a positive
timeout, a :class:`pyjq.RetryPolicy` or none.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from .._limits import TYPE_MAX
from ..job import Job
from ..retry import RetryPolicy
from .executor import is_async
from .state import Handler

__all__ = ["make_handler"]


def make_handler(
    type: str, fn: Callable[[Job], Any], *, timeout: float | timedelta | None, retry: RetryPolicy | None
) -> Handler:
    """The handler of ``type``, its arguments checked (ValueError, TypeError)."""
    if not isinstance(type, str) or not type.strip() or len(type) > TYPE_MAX:
        raise ValueError(f"job type {type!r} must be a non-empty string of at most {TYPE_MAX} characters")
    if not callable(fn):
        raise TypeError(f"handler for {type!r} is not callable")
    if isinstance(timeout, timedelta):
        timeout = timeout.total_seconds()
    if timeout is not None and timeout <= 0:
        raise ValueError("timeout must be positive")
    if retry is not None and not isinstance(retry, RetryPolicy):
        raise TypeError(f"retry for {type!r} must be a pyjq.RetryPolicy, not {retry!r}")
    return Handler(type, fn, timeout, is_async(fn), retry)
