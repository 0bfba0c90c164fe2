"""What a handler sees: the claimed job, and the exceptions that steer its outcome.

A handler receives one argument, a frozen :class:`Job`, and reports its
outcome by returning (the job succeeded) or raising:

* :class:`Retry` -- fail this attempt and try again after ``after``
  (``jq_fail`` with ``p_retry_in``); ``after=None`` uses the queue's backoff;
* :class:`Discard` -- give up at once: the job goes to the dead letters
  whatever attempts it has left (``jq_fail`` with ``p_discard``);
* any other exception -- a failed attempt: retried with backoff, or
  dead-lettered when its attempts are used up. The exception's type, message
  and a bounded traceback become the job's ``last_error``.

Cancellation is cooperative. When someone calls ``jq_cancel`` on a running
job, the worker learns it at its next heartbeat: a coroutine handler's task
is cancelled (``asyncio.CancelledError`` is raised at its current ``await``),
and for every handler ``job.cancelled`` becomes true, so a thread handler
can poll it (or wait on ``job.cancel_event``) and stop, e.g. with
``job.raise_if_cancelled()``. The flag is also set when the worker gives up
on the attempt for another reason: its lease was lost, its timeout passed, or
the worker is shutting down past its grace period.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

__all__ = ["Discard", "Job", "JobCancelled", "Retry"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Job:
    """One claimed job, as ``jq_claim`` returned it.

    ``attempts`` counts this attempt (1 on the first run). ``id`` is stable
    across attempts: derive idempotency keys for outside systems from it.
    """

    id: UUID
    type: str
    payload: dict[str, Any]
    queue: str
    attempts: int
    max_attempts: int
    priority: int
    tenant: str | None
    run_at: datetime
    created_at: datetime
    idempotency_key: str | None = None
    last_error: str | None = None
    locked_until: datetime | None = None
    worker: str = ""
    metadata: dict[str, str] | None = None  # headers set at enqueue, e.g. the W3C trace context
    cancel_event: threading.Event = field(default_factory=threading.Event, repr=False, compare=False)

    @property
    def cancelled(self) -> bool:
        """True once the handler should stop: cancellation was requested, the
        lease was lost, the timeout passed, or the worker is shutting down."""
        return self.cancel_event.is_set()

    @property
    def is_last_attempt(self) -> bool:
        """True when a failure of this attempt dead-letters the job."""
        return self.attempts >= self.max_attempts

    def raise_if_cancelled(self) -> None:
        """Raise :class:`JobCancelled` if the handler should stop (see ``cancelled``)."""
        if self.cancel_event.is_set():
            raise JobCancelled(f"job {self.id} was cancelled")


class Retry(Exception):
    """Raise from a handler to fail this attempt and run the job again later.

    ``after`` (a timedelta or seconds) is the delay before the next attempt;
    None leaves it to jq's backoff policy. The job is still dead-lettered when
    this was its last attempt.
    """

    def __init__(self, after: timedelta | float | int | None = None, reason: str | None = None):
        if after is not None and not isinstance(after, timedelta):
            after = timedelta(seconds=float(after))
        self.after: timedelta | None = after
        self.reason = reason
        super().__init__(reason or "retry requested")


class Discard(Exception):
    """Raise from a handler to dead-letter the job at once, whatever attempts it has left."""

    def __init__(self, reason: str = "discarded by its handler"):
        self.reason = reason
        super().__init__(reason)


class JobCancelled(Exception):
    """Raised by :meth:`Job.raise_if_cancelled`; a thread handler may let it
    propagate to end a cancelled job (the worker then reports the attempt
    with ``jq_fail``, which records it as cancelled)."""
