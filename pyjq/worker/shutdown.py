"""Shutdown: the order in which a stopping worker lets go of its jobs.

Claiming stops (a claim in flight is let finish), the waiting marks are
removed, running jobs get ``shutdown_grace`` seconds to finish (none after a
second signal or ``stop(abort=True)``), the rest are handed back with
``jq_release``, and the results still buffered are flushed. Release and the
last flush are tried until a deadline (10 s, or 2 s when aborting); results
that could not be written are logged and their jobs run again after their
leases expire. Then the worker's loops are cancelled (:func:`stop_loops`).
"""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Awaitable, Callable

from .connections import POOL_TIMEOUT, Connections
from .log import logger
from .release import release_running
from .state import Queue, RunState
from .timing import wait

__all__ = ["shut_down", "stop_loops"]

RELEASE_TIMEOUT = 10.0  # graceful shutdown: how long to keep trying jq_release / the last flush
ABORT_TIMEOUT = 2.0  # the same after a second signal
LOOP_STOP_TIMEOUT = 2.0  # how long a cancelled loop may take to end, before it is cancelled again
LOOP_STOP_ROUNDS = 3


async def shut_down(
    state: RunState,
    connections: Connections,
    *,
    worker_name: str,
    grace: float,
    claimer: asyncio.Task[None] | None,
    flusher: asyncio.Task[None] | None,
    set_waiting: Callable[[list[Queue], bool], Awaitable[bool]],
) -> None:
    """Run the shutdown of a run whose ``state.stop`` is set; the loops are cancelled afterwards."""
    if claimer is not None and not claimer.done():
        # A claim in flight is let finish (cancelling it could lose the jobs it leased).
        await asyncio.wait({claimer}, timeout=ABORT_TIMEOUT if state.abort.is_set() else POOL_TIMEOUT + 1)
        claimer.cancel()
    waiting = [q for q in state.queues if q.waiting]
    if waiting:
        # No longer waiting: inserts stop paying for a NOTIFY to this worker.
        await asyncio.wait({asyncio.ensure_future(set_waiting(waiting, False))}, timeout=ABORT_TIMEOUT)
    await _grace_period(state, worker_name, grace)
    state.deadline = time.monotonic() + (ABORT_TIMEOUT if state.abort.is_set() else RELEASE_TIMEOUT)
    if state.runs:
        await release_running(state, connections, worker_name)
    await _last_flush(state, flusher)
    if state.results.unwritten:
        logger.error(
            "worker %s: %d results were not written; those jobs run again after their lease expires",
            worker_name,
            state.results.unwritten,
        )


async def _grace_period(state: RunState, worker_name: str, grace: float) -> None:
    """Until the running jobs are done, ``grace`` seconds have passed or the stop is an abort."""
    if not state.runs or state.abort.is_set():
        return
    logger.info("worker %s: waiting up to %g s for %d running jobs", worker_name, grace, len(state.runs))
    grace_end = time.monotonic() + grace
    while state.runs and not state.abort.is_set():
        left = grace_end - time.monotonic()
        if left <= 0:
            break
        state.changed.clear()
        await wait(state.changed, left)


async def _last_flush(state: RunState, flusher: asyncio.Task[None] | None) -> None:
    """Flush what is buffered (until the deadline), then let the flusher exit."""
    state.results.hurry()
    while state.results.unwritten and flusher is not None and not flusher.done():
        state.changed.clear()
        if not await wait(state.changed, max(0.0, state.deadline - time.monotonic()) + 1.0):
            break


async def stop_loops(loops: dict[str, asyncio.Task[None]], worker_name: str) -> None:
    """Cancel the worker's loops and wait until they end. A loop still running
    LOOP_STOP_TIMEOUT seconds after its cancellation swallowed it (a bug): it is
    logged as an ERROR with its stack and cancelled again, up to LOOP_STOP_ROUNDS
    times, then left behind, so that the worker still exits."""
    names = {task: name for name, task in loops.items()}
    pending = set(names)
    for task in pending:
        task.cancel()
    for _ in range(LOOP_STOP_ROUNDS):
        if not pending:
            break
        done, pending = await asyncio.wait(pending, timeout=LOOP_STOP_TIMEOUT)
        for task in done:
            if not task.cancelled():
                task.exception()  # retrieved: the supervisor logged any failure already
        for task in pending:
            stack = io.StringIO()
            task.print_stack(file=stack)
            logger.error(
                "worker %s: the %s did not stop when cancelled; cancelling it again\n%s",
                worker_name,
                names[task],
                stack.getvalue(),
            )
            task.cancel()
