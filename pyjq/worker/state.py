"""What the parts of a running worker share.

Everyone reads these objects; each field is written only by the methods of
the object holding it, so "who changes a queue's reasons to claim?" is answered
by reading one class. One :class:`RunState` per run (the asyncio events belong
to the running loop); the parts get it when they are made.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from uuid import UUID

from ..job import Job
from ..retry import RetryPolicy
from .log import Outcomes
from .timing import wait

__all__ = ["Handler", "Queue", "Queues", "Result", "Results", "Run", "RunState", "Runs"]


@dataclass(eq=False, slots=True)
class Handler:
    """A registered handler of one job type."""

    type: str
    fn: Callable[[Job], Any]
    timeout: float | None
    is_async: bool
    retry: RetryPolicy | None = None  # a task's policy (pyjq.retry); None: every exception retries, jq's delay


class Queue:
    """One queue's slots and the reasons to claim it."""

    __slots__ = ("_kick", "more", "name", "next_poll", "notified", "running", "slots", "waiting", "wake_at")

    def __init__(self, name: str, slots: int, claim_kick: asyncio.Event):
        self.name = name
        self.slots = slots
        self.running = 0
        self.notified = True  # a NOTIFY (or a (re)connect) says there may be work
        self.more = False  # the last claim filled every free slot
        self.next_poll = 0.0  # monotonic time of the next safety poll
        self.wake_at = math.inf  # monotonic time a retry (or a job due soon) becomes due
        self.waiting = False  # marked waiting with jq_set_waiting on the LISTEN connection
        self._kick = claim_kick

    def __repr__(self) -> str:
        return f"<Queue {self.name} {self.running}/{self.slots}>"

    @property
    def free(self) -> int:
        return self.slots - self.running

    # -- reasons to claim ----------------------------------------------------------

    def wake(self) -> None:
        """There may be work: claim this queue at the next chance."""
        self.notified = True
        self._kick.set()

    def wake_at_time(self, when: float) -> None:
        """Claim this queue at monotonic time ``when`` (a retry or a scheduled job is due then)."""
        self.wake_at = min(self.wake_at, when)
        self._kick.set()

    def claiming(self, now: float) -> None:
        """A claim of this queue starts: the reasons it had are used up."""
        self.notified = False
        if self.wake_at <= now:
            self.wake_at = math.inf

    def claimed(self, rows: int, limit: int, next_poll: float) -> None:
        """The claim answered ``rows`` jobs of ``limit``."""
        self.more = rows >= limit
        self.next_poll = next_poll

    # -- slots ---------------------------------------------------------------------

    def run_started(self) -> None:
        self.running += 1

    def run_ended(self, drain: bool) -> None:
        self.running -= 1
        if drain:
            self.more = True  # draining: claim again whenever a slot frees

    # -- waiting marks (the listener's) --------------------------------------------

    def marked(self, waiting: bool) -> None:
        """jq_set_waiting committed this mark, or the LISTEN connection (that held it) is gone."""
        self.waiting = waiting

    def notified_by_insert(self) -> None:
        """A NOTIFY from an insert: there is work, and the insert used our waiting mark up
        (jq._notify_ready)."""
        self.wake()
        self.waiting = False


class Queues:
    """The worker's queues, and the event that wakes the claimer."""

    def __init__(self, slots: Mapping[str, int]):
        self.kick = asyncio.Event()  # set: the claimer looks at the queues again
        self._all = [Queue(name, n, self.kick) for name, n in slots.items()]

    def __iter__(self) -> Iterator[Queue]:
        return iter(self._all)

    @property
    def slots(self) -> int:
        return sum(q.slots for q in self._all)

    def wake_all(self) -> None:
        for q in self._all:
            q.wake()


@dataclass(eq=False, slots=True)
class Run:
    """A job whose handler has not returned yet. The flags are set by the methods below."""

    job: Job
    queue: Queue
    handler: Handler | None
    started: float
    undecodable: str | None = None  # the row could not be read: dead-letter it, run nothing
    inner: asyncio.Task[Any] | None = None  # a coroutine handler's own task (the executor's)
    cancel_requested: bool = False
    timed_out: bool = False
    lost: bool = False  # jq_heartbeat said lost: never write a result
    released: bool = False  # handed back by jq_release: never write a result
    returned: Any = None  # what the handler returned (the executor's), stored as the job's result

    @property
    def holds_lease(self) -> bool:
        return not (self.lost or self.released)

    def lose(self) -> None:
        """jq_heartbeat said the lease is lost: abandon the handler."""
        self.lost = True
        self._stop_handler()

    def request_cancel(self) -> None:
        """jq_heartbeat said cancellation was requested."""
        self.cancel_requested = True
        self._stop_handler()

    def release(self) -> None:
        """Shutdown hands the job back with jq_release."""
        self.released = True
        self._stop_handler()

    def time_out(self) -> None:
        """The handler exceeded its timeout (the executor cancels a coroutine itself)."""
        self.timed_out = True
        self.job.cancel_event.set()

    def _stop_handler(self) -> None:
        self.job.cancel_event.set()
        if self.inner is not None:
            self.inner.cancel()


class Runs:
    """The running jobs by id; adding and ending a run keeps its queue's slot count."""

    def __init__(self, queues: Queues, changed: asyncio.Event, drain: bool):
        self._by_id: dict[UUID, Run] = {}
        self._queues = queues
        self._changed = changed
        self._drain = drain

    def __len__(self) -> int:
        return len(self._by_id)

    def __iter__(self) -> Iterator[Run]:
        return iter(list(self._by_id.values()))

    def get(self, job_id: UUID) -> Run | None:
        return self._by_id.get(job_id)

    def add(self, run: Run) -> None:
        run.queue.run_started()
        self._by_id[run.job.id] = run

    def end(self, run: Run) -> None:
        """The handler returned: free its slot (once)."""
        if self._by_id.pop(run.job.id, None) is None:
            return
        run.queue.run_ended(self._drain)
        self._queues.kick.set()
        self._changed.set()

    def held_ids(self) -> list[UUID]:
        return [job_id for job_id, run in self._by_id.items() if run.holds_lease]


@dataclass(frozen=True, eq=False, slots=True)
class Result:
    """A handler's outcome, waiting to be written."""

    run: Run
    duration_ms: float
    ok: bool
    error: str | None = None
    retry_in: timedelta | None = None
    discard: bool = False
    value: str | None = None  # ok: the return value as JSON text (pyjq.worker.returned); None: it returned None
    value_bytes: int = 0  # its size as jq_complete measures it (UTF-8 bytes)


class Results:
    """Results waiting to be written, and the batch being written."""

    def __init__(self, changed: asyncio.Event, flush_size: int):
        self.flush_size = flush_size
        self._pending: list[Result] = []
        self._flushing: list[Result] = []
        self._arrived = asyncio.Event()  # results are waiting
        self._now = asyncio.Event()  # ... and should be written without waiting for more
        self._changed = changed

    @property
    def pending(self) -> int:
        return len(self._pending)

    @property
    def unwritten(self) -> int:
        """Results not written yet: waiting or in the batch being written."""
        return len(self._pending) + len(self._flushing)

    def add(self, result: Result, *, hurry: bool = False) -> None:
        self._pending.append(result)
        self._arrived.set()
        if hurry or len(self._pending) >= self.flush_size:
            self._now.set()

    def hurry(self) -> None:
        """Write what is waiting at once (shutting down)."""
        self._arrived.set()
        self._now.set()

    def recheck(self) -> None:
        """Have arrived() return at once: results are still pending."""
        self._arrived.set()

    async def arrived(self) -> None:
        """Until results were added (or hurry() was called)."""
        await self._arrived.wait()
        self._arrived.clear()

    async def more_within(self, seconds: float) -> None:
        """Wait up to ``seconds`` for results enough to fill a batch (or hurry())."""
        self._now.clear()
        await wait(self._now, seconds)

    def take_batch(self) -> list[Result]:
        batch, self._pending = self._pending, []
        self._flushing = batch
        return batch

    def batch_done(self) -> None:
        self._flushing = []
        self._changed.set()

    def held_ids(self) -> list[UUID]:
        return [r.run.job.id for r in (*self._pending, *self._flushing)]


class RunState:
    """The shared state of one run of a worker."""

    def __init__(
        self, worker_name: str, queues: Mapping[str, int], *, drain: bool, flush_size: int, stats: Counter[str]
    ):
        self.drain = drain
        self.stop = asyncio.Event()
        self.abort = asyncio.Event()  # stop without the grace period
        self.changed = asyncio.Event()  # a handler returned or a flush ended
        self.queues = Queues(queues)
        self.runs = Runs(self.queues, self.changed, drain)
        self.results = Results(self.changed, flush_size)
        self.outcomes = Outcomes(worker_name)
        self.stats = stats  # calls made, by jq function (the worker's, kept over runs)
        self.deadline = math.inf  # shutting down: monotonic time the last calls must end by

    def request_stop(self, abort: bool) -> None:
        self.stop.set()
        if abort:
            self.abort.set()
        self.queues.kick.set()
        self.results.hurry()
        self.changed.set()

    @property
    def quiescent(self) -> bool:
        """Draining and no handler is running."""
        return self.drain and not self.runs

    def held_ids(self) -> list[UUID]:
        """The jobs whose leases the worker holds: running, or their results not written yet."""
        return self.runs.held_ids() + self.results.held_ids()
