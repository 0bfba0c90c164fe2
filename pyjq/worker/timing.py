"""Backoff between retries, and waiting for an event with a timeout.

Timeouts use ``asyncio.timeout``, never ``asyncio.wait_for``: on Python 3.11
``wait_for`` swallows a cancellation that arrives while the awaited thing has
just finished, and a loop of the worker cancelled that way would run on and
keep the worker from stopping."""

from __future__ import annotations

import asyncio
import random

__all__ = ["BACKOFF_CAP", "Backoff", "wait"]

BACKOFF_CAP = 5.0


class Backoff:
    """Exponential backoff with jitter: 0.1 s, 0.2 s, ... capped at 5 s."""

    def __init__(self, first: float = 0.1, cap: float = BACKOFF_CAP):
        self.first, self.cap, self.failures = first, cap, 0

    def next(self) -> float:
        delay = min(self.cap, self.first * (2 ** min(self.failures, 16)))
        self.failures += 1
        return min(self.cap, delay * random.uniform(0.8, 1.2))

    def reset(self) -> None:
        self.failures = 0


async def wait(event: asyncio.Event, timeout: float | None) -> bool:
    """Wait for event at most timeout seconds (None: for ever); True if it is set."""
    if event.is_set():
        return True
    if timeout is None:
        await event.wait()
        return True
    try:
        async with asyncio.timeout(timeout):
            await event.wait()
    except TimeoutError:
        return False
    return True
