"""A cancelled wait of the worker raises CancelledError, whenever the cancellation comes.

The worker stops by cancelling its loops (the flusher, the heartbeat, the storage
rotation ...), several of which run until cancelled. On Python 3.11
``asyncio.wait_for`` swallows a cancellation that arrives while the thing it
awaits has just finished: the loop then runs on, and the worker never exits on
SIGTERM. Each wait here is cancelled 0-5 loop iterations after what it waits
for is ready; it must either have returned before the cancellation or raise
CancelledError.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from pyjq import scheduler
from pyjq.worker import shutdown
from pyjq.worker.connections import Connections
from pyjq.worker.state import RunState
from pyjq.worker.timing import wait

pytestmark = pytest.mark.unit

PYJQ = Path(__file__).resolve().parent.parent / "pyjq"


def _cancelled_after(make: Callable[[], Awaitable[object]], ready: Callable[[], None], spins: int) -> str:
    """Start make()'s wait, make it ready, let `spins` loop iterations pass, cancel it:
    'finished' (it returned before the cancellation), 'cancelled', or 'swallowed'."""

    async def main() -> str:
        task = asyncio.ensure_future(make())
        await asyncio.sleep(0)  # the task now waits
        ready()
        for _ in range(spins):
            await asyncio.sleep(0)
        if task.done():
            task.result()
            return "finished"
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            return "cancelled"
        return "swallowed"

    return asyncio.run(main())


@pytest.mark.parametrize("spins", range(6))
def test_wait_for_an_event_passes_a_cancellation_on(spins):
    event = asyncio.Event()
    assert _cancelled_after(lambda: wait(event, 30.0), event.set, spins) != "swallowed"


@pytest.mark.parametrize("spins", range(6))
def test_the_schedulers_wait_passes_a_cancellation_on(spins):
    event = asyncio.Event()
    assert _cancelled_after(lambda: scheduler._wait(event, 30.0), event.set, spins) != "swallowed"


@pytest.mark.parametrize("spins", range(6))
def test_waiting_for_more_results_passes_a_cancellation_on(spins):
    state = RunState("w", {"q": 1}, drain=False, flush_size=10, stats=Counter())
    results = state.results
    assert _cancelled_after(lambda: results.more_within(30.0), results.hurry, spins) != "swallowed"


@pytest.mark.parametrize("spins", range(6))
def test_taking_a_connection_slot_passes_a_cancellation_on(spins):
    """The slot is free at once; a cancellation swallowed there would go on to connect
    (to a closed port here) and fail with OperationalError instead."""
    holder: dict[str, Connections] = {}

    def make() -> Awaitable[object]:
        state = RunState("w", {"q": 1}, drain=False, flush_size=10, stats=Counter())
        state.deadline = time.monotonic() + 0.5  # a swallowed cancellation fails fast
        conns = holder["c"] = Connections("host=127.0.0.1 port=1 dbname=none connect_timeout=1", "w", state)

        async def take() -> None:
            async with conns.connection():
                pass

        return take()

    assert _cancelled_after(make, lambda: None, spins) in ("cancelled", "finished")


def test_pyjq_never_uses_asyncio_wait_for():
    """The regression guard: asyncio.timeout(), never wait_for (pyjq/worker/timing.py says why)."""
    users = [str(p.relative_to(PYJQ)) for p in sorted(PYJQ.rglob("*.py")) if "asyncio.wait_for(" in p.read_text()]
    assert users == []


def _swallowing(times: int) -> Callable[[], Awaitable[None]]:
    """A loop with the bug: it ignores its first `times` cancellations."""

    async def loop() -> None:
        ignored = 0
        while True:
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                ignored += 1
                if ignored > times:
                    raise

    return loop


def test_stop_loops_cancels_a_loop_that_swallowed_its_cancellation_again(monkeypatch, caplog):
    monkeypatch.setattr(shutdown, "LOOP_STOP_TIMEOUT", 0.05)

    async def main() -> tuple[bool, bool]:
        good = asyncio.create_task(_swallowing(0)())
        bad = asyncio.create_task(_swallowing(1)())
        await asyncio.sleep(0)
        await shutdown.stop_loops({"flusher": good, "storage": bad}, "w1")
        return good.cancelled(), bad.cancelled()

    with caplog.at_level(logging.ERROR, logger="pyjq.worker"):
        assert asyncio.run(main()) == (True, True)
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1
    assert errors[0].startswith("worker w1: the storage did not stop when cancelled; cancelling it again")
    assert ", in loop" in errors[0]  # its stack


def test_stop_loops_leaves_a_loop_behind_that_never_stops(monkeypatch, caplog):
    monkeypatch.setattr(shutdown, "LOOP_STOP_TIMEOUT", 0.05)

    async def main() -> bool:
        stuck = asyncio.create_task(_swallowing(10)())
        await asyncio.sleep(0)
        await shutdown.stop_loops({"heartbeat": stuck}, "w2")
        left_running = not stuck.done()
        for _ in range(10):
            stuck.cancel()
            await asyncio.sleep(0)
        return left_running

    with caplog.at_level(logging.ERROR, logger="pyjq.worker"):
        assert asyncio.run(main()) is True
    assert sum(r.levelno == logging.ERROR for r in caplog.records) == shutdown.LOOP_STOP_ROUNDS
