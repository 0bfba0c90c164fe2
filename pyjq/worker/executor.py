"""Running handlers: one asyncio task per claimed job.

Coroutine handlers run as asyncio tasks of their own; plain functions on
daemon threads (:mod:`pyjq.worker.threads`, as many as there are slots). A
slot is freed when the handler returns; its :class:`~pyjq.worker.state.Result`
(with the return value as JSON, :mod:`pyjq.worker.returned`) then waits in
the buffer for the completer. A job whose row Python cannot
hold is dead-lettered (``jq_fail`` with discard) without running.

Timeouts: a coroutine is cancelled and the attempt fails with a TimeoutError.
A thread cannot be killed: its ``job.cancelled`` flag is set, its slot stays
busy (and its lease alive) until the function really returns, then the attempt
is recorded as failed with the TimeoutError, whatever the function returned.

Failures: ``pyjq.Retry`` and ``pyjq.Discard`` say what to ask jq_fail for; any
other exception (and a timeout) is put to the handler's retry policy
(pyjq.retry, a task's ``retry=``), which answers a delay or "discard now";
without a policy the attempt retries after jq's own delay.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Callable
from typing import Any

from .. import tracing
from ..job import Discard, Job, Retry
from ..retry import RetryDecision
from . import returned
from .errortext import clean, describe, headline
from .log import logger
from .state import Handler, Result, Run, RunState
from .threads import HandlerThreads

__all__ = ["Executor", "is_async"]


class Executor:
    """Starts the handler of each claimed job and turns how it ended into a Result."""

    def __init__(self, state: RunState, threads: HandlerThreads, worker_name: str):
        self._state = state
        self._threads = threads
        self._name = worker_name
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, run: Run) -> None:
        """Register the run (it takes a slot of its queue) and start its handler."""
        self._state.runs.add(run)
        task = asyncio.create_task(self._execute(run), name=f"pyjq job {run.job.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def cancel_leftovers(self) -> None:
        """Tear-down: stop waiting for handlers still running (their jobs were released or abandoned)."""
        leftover = list(self._tasks)
        for task in leftover:
            task.cancel()
        if leftover:
            await asyncio.wait(leftover, timeout=1.0)

    async def _execute(self, run: Run) -> None:
        try:
            # The attempt's CONSUMER span (a no-op without OpenTelemetry), current while the handler runs.
            with tracing.processing(run.job) as attempt:
                error, cancelled = await self._call(run)
                attempt.ended(error, cancelled=cancelled, timed_out=run.timed_out, unreadable=run.undecodable)
        except asyncio.CancelledError:
            # Only when the worker tears down after releasing its jobs.
            if run.inner is not None:
                run.inner.cancel()
            self._state.runs.end(run)
            raise
        duration_ms = (time.monotonic() - run.started) * 1000.0
        self._state.runs.end(run)
        if run.lost:
            self._state.outcomes.record(run.job, "lease_lost", duration_ms)
            return
        if run.released:
            return  # reported by the release
        result = _result(run, duration_ms, error, cancelled)
        self._state.results.add(result, hurry=self._state.quiescent)

    async def _call(self, run: Run) -> tuple[BaseException | None, bool]:
        """Run the handler until it returns: (its exception or None, whether its task was cancelled)."""
        job, handler = run.job, run.handler
        if run.undecodable is not None:
            return None, False
        if handler is None:
            return LookupError(f"worker {self._name} has no handler for job type {job.type!r}"), False
        if handler.is_async:
            run.inner = asyncio.create_task(_call_async(handler.fn, job), name=f"pyjq handler {job.id}")
            done, _ = await asyncio.wait({run.inner}, timeout=handler.timeout)
            if not done:
                self._time_out(run, handler)
                run.inner.cancel()
                await asyncio.wait({run.inner})  # until the handler really returns
            if run.inner.cancelled():
                return None, True
            if run.inner.exception() is None:
                run.returned = run.inner.result()
            return run.inner.exception(), False
        future = self._threads.submit(handler.fn, job)
        future.add_done_callback(_retrieve)
        returned, _ = await asyncio.wait({future}, timeout=handler.timeout)
        if not returned:
            self._time_out(run, handler)
            await asyncio.wait({future})  # a thread cannot be stopped: wait for it
        error = future.exception()
        if error is None and inspect.isawaitable(future.result()):
            if inspect.iscoroutine(future.result()):
                future.result().close()
            error = TypeError(
                f"the handler of {job.type!r} returned an awaitable from a plain function; declare it with async def"
            )
        elif error is None:
            run.returned = future.result()
        return error, False

    def _time_out(self, run: Run, handler: Handler) -> None:
        run.time_out()
        if not handler.is_async:
            logger.warning(
                "job %s (%s) exceeded its timeout of %g s; its thread cannot be stopped: "
                "job.cancelled is set and its slot stays busy until it returns",
                run.job.id,
                run.job.type,
                handler.timeout,
            )


def _result(run: Run, duration_ms: float, error: BaseException | None, cancelled: bool) -> Result:
    """How the attempt is reported: ok, or the error text and the retry/discard request for jq_fail."""
    if run.undecodable is not None:
        return Result(run, duration_ms, ok=False, error=clean(run.undecodable), discard=True)
    if run.timed_out:
        assert run.handler is not None and run.handler.timeout is not None
        retry_in, discard = _retry_decision(run, TimeoutError())
        return Result(
            run,
            duration_ms,
            ok=False,
            error=clean(
                f"TimeoutError: the handler of {run.job.type!r} exceeded its timeout of {run.handler.timeout:g} s"
            ),
            retry_in=retry_in,
            discard=discard,
        )
    if cancelled:
        if run.cancel_requested:
            return Result(run, duration_ms, ok=False, error="cancelled: cancellation was requested")
        return Result(run, duration_ms, ok=False, error="CancelledError: the handler's task was cancelled")
    if error is None:
        return _succeeded(run, duration_ms)
    if isinstance(error, Retry):
        return Result(run, duration_ms, ok=False, error=clean(headline(error)), retry_in=error.after)
    if isinstance(error, Discard):
        return Result(run, duration_ms, ok=False, error=clean(headline(error)), discard=True)
    retry_in, discard = _retry_decision(run, error)
    return Result(run, duration_ms, ok=False, error=describe(error), retry_in=retry_in, discard=discard)


def _retry_decision(run: Run, error: BaseException) -> RetryDecision:
    """The task's retry policy on this failure (pyjq.retry); without one: retry after jq's own delay."""
    policy = run.handler.retry if run.handler is not None else None
    if policy is None:
        return RetryDecision(None, False)
    return policy.decide(error, run.job.attempts)


def _succeeded(run: Run, duration_ms: float) -> Result:
    """ok, with the return value as JSON; a value jq cannot store fails the attempt."""
    try:
        value, size = returned.encode(run.returned)
    except returned.UnstorableResult as exc:
        return Result(run, duration_ms, ok=False, error=clean(str(exc)))
    finally:
        run.returned = None  # the JSON text is what waits for the completer
    return Result(run, duration_ms, ok=True, value=value, value_bytes=size)


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a thread's outcome as seen, even when nobody awaits it any more."""
    if not future.cancelled():
        future.exception()


async def _call_async(fn: Callable[[Job], Any], job: Job) -> Any:
    return await fn(job)


def is_async(fn: Callable[..., Any]) -> bool:
    """Whether fn is a coroutine function (or an object whose __call__ is one)."""
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(type(fn), "__call__", None)  # noqa: B004 - the class's __call__, not callable()
    return not inspect.isfunction(fn) and not inspect.ismethod(fn) and inspect.iscoroutinefunction(call)
