"""Retry policies: how a task's failed attempt is retried, or not.

    policy = pyjq.RetryPolicy(
        backoff_base=5, backoff_cap=600,        # 5 s, 10 s, 20 s, ... at most 10 minutes
        retry_on=(ConnectionError, TimeoutError),
        discard_on=(ValueError,),               # dead-letter at once: retrying will not help
    )

    @worker.task("sync_account", max_attempts=8, retry=policy)
    def sync_account(account_id: int) -> None: ...

The worker asks the policy about an exception the handler raised (and about a
timeout, as a TimeoutError): an exception in ``discard_on`` dead-letters the job
at once; one in ``retry_on`` (every exception when ``retry_on`` is None) retries
after the policy's delay; any other dead-letters at once. ``pyjq.Retry`` and
``pyjq.Discard`` keep their meaning whatever the policy says. How many attempts a
job gets is its ``max_attempts`` (the task's, set when it is enqueued): jq_fail
dead-letters the last one. Without ``backoff_base`` and ``backoff_cap`` the delay
is jq's own (``jq.retry_delay``: about 2^n s, 1 s to 1 h).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import NamedTuple

__all__ = ["RetryDecision", "RetryPolicy"]

_MAX_DELAY = timedelta(days=365)  # jq_fail refuses a longer retry_in
_DEFAULT_BASE = 2.0  # seconds, as jq.retry_delay: 2 s after the first failed attempt
_DEFAULT_CAP = 3600.0


class RetryDecision(NamedTuple):
    """What jq_fail is asked for: ``retry_in`` (None: jq's own delay) or ``discard`` (dead-letter now)."""

    retry_in: timedelta | None
    discard: bool


ExceptionTypes = type[BaseException] | tuple[type[BaseException], ...]


@dataclass(frozen=True)
class RetryPolicy:
    """A task's retry policy. See the module docstring.

    Args:
        max_attempts: the task's default ``max_attempts`` when the task names none.
        backoff_base: delay after the first failed attempt (seconds or timedelta);
            doubled after each further one. Default 2 s once either backoff
            argument is given; both None: jq's own ``jq.retry_delay``.
        backoff_cap: the longest delay (default one hour).
        jitter: each delay is spread by up to +-this fraction (0 to 1, default
            0.25), so jobs that failed together do not retry together.
        retry_on: the exception classes that retry; None: every exception.
        discard_on: the exception classes that dead-letter the job at once
            (checked before ``retry_on``).
    """

    max_attempts: int | None = None
    backoff_base: float | timedelta | None = None
    backoff_cap: float | timedelta | None = None
    jitter: float = 0.25
    retry_on: ExceptionTypes | None = None
    discard_on: ExceptionTypes = field(default=())

    def __post_init__(self) -> None:
        if self.max_attempts is not None and not 1 <= self.max_attempts <= 1000:
            raise ValueError(f"max_attempts must be between 1 and 1000, not {self.max_attempts!r}")
        base, cap = _seconds(self.backoff_base, "backoff_base"), _seconds(self.backoff_cap, "backoff_cap")
        if base is not None and cap is not None and cap < base:
            raise ValueError("backoff_cap must not be shorter than backoff_base")
        if not 0.0 <= self.jitter <= 1.0:
            raise ValueError(f"jitter must be between 0 and 1, not {self.jitter!r}")
        object.__setattr__(self, "retry_on", None if self.retry_on is None else _classes(self.retry_on, "retry_on"))
        object.__setattr__(self, "discard_on", _classes(self.discard_on, "discard_on"))

    def delay(self, attempts: int) -> timedelta | None:
        """The delay after failed attempt number ``attempts`` (1 for the first); None: jq's own."""
        base, cap = _seconds(self.backoff_base, "backoff_base"), _seconds(self.backoff_cap, "backoff_cap")
        if base is None and cap is None:
            return None
        base = _DEFAULT_BASE if base is None else base
        cap = max(base, _DEFAULT_CAP) if cap is None else cap
        seconds = min(cap, base * 2.0 ** min(max(attempts, 1) - 1, 60))
        seconds *= 1.0 + random.uniform(-self.jitter, self.jitter)
        return min(timedelta(seconds=max(0.0, seconds)), _MAX_DELAY)

    def decide(self, error: BaseException, attempts: int) -> RetryDecision:
        """How the attempt that raised ``error`` (attempt number ``attempts``) is reported."""
        if isinstance(error, self.discard_on):
            return RetryDecision(None, True)
        if self.retry_on is not None and not isinstance(error, self.retry_on):
            return RetryDecision(None, True)
        return RetryDecision(self.delay(attempts), False)


def _seconds(value: float | timedelta | None, name: str) -> float | None:
    if value is None:
        return None
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if not 0.0 <= seconds <= _MAX_DELAY.total_seconds():
        raise ValueError(f"{name} must be between 0 and 365 days, not {value!r}")
    return seconds


def _classes(value: ExceptionTypes, name: str) -> tuple[type[BaseException], ...]:
    classes = value if isinstance(value, tuple) else (value,)
    for cls in classes:
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            raise TypeError(f"{name} must hold exception classes, not {cls!r}")
    return classes
