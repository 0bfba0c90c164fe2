"""The threads that run plain-function handlers.

Not a concurrent.futures.ThreadPoolExecutor: its threads are joined when the
interpreter exits, so one handler stuck in a blocking call would keep a
worker process alive after a second SIGTERM. These threads are daemons, and
a worker that has released its jobs may exit while they still run.

The worker never submits more calls than it has slots, so a thread is started
whenever every existing thread is busy, up to that many threads.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import queue
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["HandlerThreads"]

_ids = itertools.count(1)


class HandlerThreads:
    def __init__(self, max_threads: int, name: str = "pyjq-handler"):
        self._max = max(1, max_threads)
        self._name = name
        self._work: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        self._busy = 0

    @property
    def max_threads(self) -> int:
        return self._max

    @max_threads.setter
    def max_threads(self, value: int) -> None:
        """Start at most value threads (threads already started are kept)."""
        with self._lock:
            self._max = max(1, value)

    @property
    def busy(self) -> int:
        """Calls submitted and not yet returned (running or about to run)."""
        return self._busy

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> asyncio.Future:
        """Run fn(arg) on a handler thread; the returned future (of the running
        loop) gets its result or exception when the call really returns."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        ctx = contextvars.copy_context()
        with self._lock:
            self._busy += 1
            start = self._busy > self._threads and self._threads < self._max
            if start:
                self._threads += 1
        if start:
            threading.Thread(target=self._loop, name=f"{self._name}-{next(_ids)}", daemon=True).start()
        self._work.put((loop, fut, ctx, fn, arg))
        return fut

    def _loop(self) -> None:
        while True:
            loop, fut, ctx, fn, arg = self._work.get()
            try:
                result, error = ctx.run(fn, arg), None
            except Exception as exc:  # handed to the event loop as is
                result, error = None, exc
            except BaseException as exc:  # SystemExit and the like must not reach the loop
                error = RuntimeError(f"handler raised {type(exc).__name__}: {exc}")
                error.__cause__ = exc
                result = None
            with self._lock:
                self._busy -= 1
            try:
                loop.call_soon_threadsafe(_settle, fut, result, error)
            except RuntimeError:
                pass  # the loop is closed: nobody waits for this result any more
            del loop, fut, ctx, fn, arg, result, error


def _settle(fut: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if fut.done():
        return
    if error is not None:
        fut.set_exception(error)
    else:
        fut.set_result(result)
