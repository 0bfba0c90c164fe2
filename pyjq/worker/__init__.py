"""The jq worker: claims jobs, runs their handlers, reports how they went.

    worker = pyjq.Worker(dsn, queues={"urgent": 20, "default": 50, "bulk": 10})

    @worker.handler("send_welcome_email", timeout=30)
    async def send_welcome_email(job: pyjq.Job) -> None:
        await mailer.send(job.payload["email"], idempotency_key=str(job.id))

    worker.run()          # until SIGTERM/SIGINT; or: await worker.run_async()

Every queue decision is a jq_* function call; this module only dispatches
handlers, batches calls and keeps connections healthy:

* Claiming. Each queue has its own slots. One claimer task asks
  ``jq_claim(queue, worker, limit=free slots, lease, types=registered types)``
  for every queue that has free slots and may have work: a NOTIFY arrived on
  its channel (``jq_<queue>``, one dedicated LISTEN connection), its last claim
  filled every free slot, a retry of ours is due, or the safety poll
  (``poll_interval``) is due. Several queues due at once are claimed in one
  statement; idle queues are polled together. A queue without free slots is
  not claimed. Idle queues are marked waiting with ``jq_set_waiting`` (on the
  LISTEN connection) so that inserts NOTIFY them, and busy ones unmarked.
* Running. Coroutine handlers run as asyncio tasks; plain functions on
  daemon threads (as many as there are slots). A slot is freed when the
  handler returns; its result waits in a buffer. A claimed job whose row
  Python cannot hold (a JSON number of 5,000 digits, JSON nested deeper than
  the recursion limit: other clients can enqueue both) is dead-lettered
  (``jq_fail`` with discard) without running; the jobs claimed with it run.
* Reporting. Results are written in batches, as soon as ``flush_size`` are
  waiting or ``flush_interval`` after the first one: one statement calls
  ``jq_complete`` for the successes and ``jq_fail`` for each failure. Nothing
  is written before its handler returned. A queue whose last claim came back
  short is claimed once more after a batch of its results is written: the
  finished jobs may have held a tenant cap or a concurrency-key limit that kept
  pending jobs back (no NOTIFY says so). A batch the database refuses (not a
  connection problem) is written result by result, so one bad result (say, a
  ``Retry`` delay jq_fail rejects) cannot hold up the others.
* Heartbeat. Every ``heartbeat_interval`` (default ``lease / 3``) one
  ``jq_heartbeat`` for all the jobs the worker holds, results not yet written
  included; none while idle. ``lost``: the job is abandoned (a coroutine's
  task is cancelled, ``job.cancelled`` is set) and its result is never
  written. ``cancel_requested``: cooperative cancellation -- the coroutine's
  task is cancelled, ``job.cancelled`` is set for thread handlers; the attempt
  is then reported with ``jq_fail``, which records it as cancelled (a handler
  that completes anyway succeeds). A cancellation is therefore noticed within
  one heartbeat interval.
* Timeouts (``@worker.handler("x", timeout=30)``): a coroutine is cancelled
  and the attempt fails with a TimeoutError. A thread cannot be killed: its
  ``job.cancelled`` flag is set, the worker keeps its lease alive and its slot
  busy until the function really returns, then records the attempt as failed
  with the TimeoutError, whatever the function returned.
* Shutdown (``stop()``, or SIGTERM/SIGINT under ``run()``): claiming stops,
  running jobs get ``shutdown_grace`` seconds to finish, the rest are handed
  back with ``jq_release``, results are flushed. A second signal skips the
  grace period.
* Connection loss never kills the worker: every call catches
  ``psycopg.OperationalError``, backs off (up to 5 s) and tries again;
  results wait in the buffer until they can be written; the LISTEN
  connection reconnects and every queue is claimed once, in case a
  notification was missed.
* ``jq_maintain`` runs every ``maintain_interval`` seconds (with jitter).
* The cron scheduler (``pyjq.scheduler.Scheduler``) fires due schedules
  every ``poll_interval`` (at least 5 s; cron slots are minutes), on a
  connection of its own (``schedules=False`` to
  leave that to other workers).

Logging goes to the ``pyjq.worker`` logger: one line per job outcome,
``job <outcome> id=... type=... queue=... attempt=n/max duration_ms=...``,
with the same fields in ``extra`` (``jq_job_id``, ``jq_type``, ``jq_queue``,
``jq_attempt``, ``jq_max_attempts``, ``jq_outcome``, ``jq_duration_ms``) for
structured formatters. Outcomes: succeeded, failed_retrying, dead, cancelled,
lease_lost, released.

An idle worker makes one statement per ``poll_interval`` (all its idle
queues' claims in one statement) and nothing else, apart from ``jq_maintain``.

Scheduled jobs: an insert of jobs due within the minute notifies waiting
workers with ``at <epoch>``, and the worker claims that queue at that time
rather than at its next poll. Retries of this worker's own jobs are claimed
at their ``next_attempt_at``, which ``jq_fail`` returns. Other retries and
released jobs are found by the safety poll.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
import os
import random
import re
import secrets
import signal
import socket
import time
import traceback
import weakref
from collections import Counter
from collections.abc import Callable, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.adapt import Transformer
from psycopg.rows import dict_row
from psycopg.types.datetime import TimestamptzLoader
from psycopg.types.json import JsonbLoader, JsonLoader
from psycopg_pool import AsyncConnectionPool

from .threads import HandlerThreads
from ..errors import from_psycopg
from ..job import Discard, Job, Retry
from ..scheduler import Scheduler

__all__ = ["Worker", "RunSummary"]

logger = logging.getLogger("pyjq.worker")

# -- the jq_* calls a worker makes (named arguments, explicit casts) -------------

# jq_claim for one or more queues in one statement: one call per (queue, limit) pair.
_CLAIM_SQL = (
    "select c.* from unnest(%s::text[], %s::integer[]) as q(queue_name, claim_limit)"
    " cross join lateral jq.jq_claim(p_queue => q.queue_name, p_worker => %s::text, p_limit => q.claim_limit,"
    " p_lease => %s::interval, p_types => %s::text[]) as c"
)
_COMPLETE_SQL = "select t.job_id from jq.jq_complete(p_job_ids => %s::uuid[], p_worker => %s::text) as t(job_id)"
# A batch of results in one statement: jq_complete for the successes, then
# jq_fail once per failed job.
_FINISH_SQL = (
    "select t.job_id, 'succeeded' as status, null::timestamptz as next_attempt_at"
    " from jq.jq_complete(p_job_ids => %s::uuid[], p_worker => %s::text) as t(job_id)"
    " union all"
    " select f.job_id, r.status, r.next_attempt_at"
    " from unnest(%s::uuid[], %s::text[], %s::interval[], %s::boolean[]) as f(job_id, error, retry_in, discard)"
    " cross join lateral jq.jq_fail(p_job_id => f.job_id, p_worker => %s::text, p_error => f.error,"
    " p_retry_in => f.retry_in, p_discard => f.discard) as r"
)
_HEARTBEAT_SQL = (
    "select job_id, state from jq.jq_heartbeat(p_job_ids => %s::uuid[], p_worker => %s::text,"
    " p_lease => %s::interval)"
)
_RELEASE_SQL = "select job_id, status from jq.jq_release(p_job_ids => %s::uuid[], p_worker => %s::text)"
_MAINTAIN_SQL = "select jq.jq_maintain()"
_VERSION_SQL = "select jq.jq_version()"
_SET_WAITING_SQL = "select jq.jq_set_waiting(p_queues => %s::text[], p_worker => %s::text, p_waiting => %s::boolean)"

_QUEUE_NAME = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")  # the limit jq_enqueue enforces
_MAX_CLAIM = 1000  # jq_claim's upper bound for p_limit
_ERROR_BUDGET = 4000  # characters of error text (first line + traceback tail) sent to jq_fail
_BACKOFF_CAP = 5.0
_POOL_TIMEOUT = 10.0
_RELEASE_TIMEOUT = 10.0  # graceful shutdown: how long to keep trying jq_release / the last flush
_ABORT_TIMEOUT = 2.0  # the same after a second signal


@dataclass(frozen=True, slots=True)
class RunSummary:
    """How the jobs this worker ran ended, counted over one run or drain."""

    succeeded: int = 0
    failed_retrying: int = 0
    dead: int = 0
    cancelled: int = 0
    lease_lost: int = 0
    released: int = 0

    @property
    def total(self) -> int:
        return (self.succeeded + self.failed_retrying + self.dead + self.cancelled
                + self.lease_lost + self.released)


@dataclass(eq=False, slots=True)
class _Handler:
    type: str
    fn: Callable[[Job], Any]
    timeout: float | None
    is_async: bool


@dataclass(eq=False, slots=True)
class _Queue:
    name: str
    slots: int
    running: int = 0
    notified: bool = True  # a NOTIFY (or a (re)connect) says there may be work
    more: bool = False  # the last claim filled every free slot
    next_poll: float = 0.0  # monotonic time of the next safety poll
    wake_at: float = math.inf  # monotonic time a retry of ours becomes due
    waiting: bool = False  # marked waiting with jq_set_waiting on the LISTEN connection

    @property
    def free(self) -> int:
        return self.slots - self.running


@dataclass(eq=False, slots=True)
class _Run:
    """A job whose handler has not returned yet."""

    job: Job
    queue: _Queue
    handler: _Handler | None
    started: float
    inner: asyncio.Task | None = None  # a coroutine handler's own task
    cancel_requested: bool = False
    timed_out: bool = False
    lost: bool = False  # jq_heartbeat said lost: never write a result
    released: bool = False  # handed back by jq_release: never write a result
    undecodable: str | None = None  # the row could not be read: dead-letter it, run nothing


@dataclass(eq=False, slots=True)
class _Result:
    """A handler's outcome, waiting to be written."""

    run: _Run
    duration_ms: float
    ok: bool
    error: str | None = None
    retry_in: timedelta | None = None
    discard: bool = False


class _Backoff:
    """Exponential backoff with jitter: 0.1 s, 0.2 s, ... capped at 5 s."""

    def __init__(self, first: float = 0.1, cap: float = _BACKOFF_CAP):
        self.first, self.cap, self.failures = first, cap, 0

    def next(self) -> float:
        delay = min(self.cap, self.first * (2 ** min(self.failures, 16)))
        self.failures += 1
        return min(self.cap, delay * random.uniform(0.8, 1.2))

    def reset(self) -> None:
        self.failures = 0


class Worker:
    """Runs handlers for jobs of the given queues. See the module docstring.

    Args:
        dsn: libpq connection string or URL of the database holding jq.
        queues: queue name -> number of jobs of that queue run at once.
        lease: how long a claimed job is held before another worker may take
            it (timedelta or seconds); extended by the heartbeat.
        poll_interval: seconds between safety polls of an idle queue.
        name: the worker's name in ``locked_by``; default ``host:pid:random``.
        maintain_interval: seconds between ``jq_maintain`` calls (None: never).
        flush_interval: seconds a result may wait to be batched with others.
        flush_size: results written at once as soon as this many are waiting.
        shutdown_grace: seconds running jobs get to finish on shutdown.
        heartbeat_interval: seconds between heartbeats; default ``lease / 3``.
        schedules: run the cron scheduler (pyjq.scheduler.Scheduler) beside the
            claimer, so due schedules fire while any worker runs (default True).
    """

    def __init__(
        self,
        dsn: str,
        queues: Mapping[str, int] | None = None,
        *,
        lease: timedelta | float = timedelta(minutes=5),
        poll_interval: float = 2.0,
        name: str | None = None,
        maintain_interval: float | None = 60.0,
        flush_interval: float = 0.005,
        flush_size: int = 100,
        shutdown_grace: float = 30.0,
        heartbeat_interval: float | None = None,
        schedules: bool = True,
    ):
        queues = _check_queues(queues if queues is not None else {"default": 10})
        if not isinstance(lease, timedelta):
            lease = timedelta(seconds=float(lease))
        if lease < timedelta(seconds=1):
            raise ValueError("lease must be at least one second")
        if poll_interval <= 0:
            raise ValueError("poll_interval must be positive")
        if flush_size < 1:
            raise ValueError("flush_size must be at least 1")
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        if not self.name.strip() or len(self.name) > 255:
            raise ValueError("name must be 1-255 characters")
        self.dsn = dsn
        self.queues: dict[str, int] = queues
        self.lease = lease
        self.poll_interval = float(poll_interval)
        self.maintain_interval = maintain_interval if maintain_interval and maintain_interval > 0 else None
        self.schedules = bool(schedules)
        self.flush_interval = max(0.0, float(flush_interval))
        self.flush_size = int(flush_size)
        self.shutdown_grace = max(0.0, float(shutdown_grace))
        self.heartbeat_interval = (float(heartbeat_interval) if heartbeat_interval
                                   else max(0.5, lease.total_seconds() / 3))
        self._handlers: dict[str, _Handler] = {}
        self._stats: Counter[str] = Counter()
        self._active = False
        self._stop_early: bool | None = None  # stop() before the run started: abort?
        self._forced_by: int | None = None
        self._conninfo = self._make_conninfo(dsn)
        self._threads = HandlerThreads(sum(queues.values()), name="pyjq-handler")

    def set_queues(self, queues: Mapping[str, int]) -> None:
        """Replace the queues and their slots (before the worker runs)."""
        if self._active:
            raise RuntimeError("the queues of a running worker cannot be changed")
        self.queues = _check_queues(queues)

    def __repr__(self) -> str:
        return f"<pyjq.Worker {self.name!r} queues={self.queues!r} types={sorted(self._handlers)!r}>"

    # -- handlers ------------------------------------------------------------------

    def handler(self, type: str, *, timeout: float | timedelta | None = None) -> Callable:
        """Decorator registering the handler of a job type.

        The handler takes one argument, the :class:`pyjq.Job`. A coroutine
        function runs on the event loop, a plain function on a thread.
        ``timeout`` (seconds or timedelta) fails an attempt that runs longer.
        """

        def register(fn: Callable[[Job], Any]) -> Callable[[Job], Any]:
            self.add_handler(type, fn, timeout=timeout)
            return fn

        return register

    def add_handler(self, type: str, fn: Callable[[Job], Any], *, timeout: float | timedelta | None = None) -> None:
        """Register ``fn`` as the handler of ``type`` (what ``@worker.handler`` does)."""
        if not isinstance(type, str) or not type.strip() or len(type) > 128:
            raise ValueError(f"job type {type!r} must be a non-empty string of at most 128 characters")
        if type in self._handlers:
            raise ValueError(f"a handler for {type!r} is already registered")
        if not callable(fn):
            raise TypeError(f"handler for {type!r} is not callable")
        if isinstance(timeout, timedelta):
            timeout = timeout.total_seconds()
        if timeout is not None and timeout <= 0:
            raise ValueError("timeout must be positive")
        self._handlers[type] = _Handler(type, fn, timeout, _is_async(fn))

    @property
    def types(self) -> list[str]:
        """The job types this worker claims: those it has handlers for."""
        return sorted(self._handlers)

    @property
    def stats(self) -> dict[str, int]:
        """Calls made so far, by jq function, plus ``round_trips``; for measuring."""
        return dict(self._stats)

    # -- running -------------------------------------------------------------------

    def run(self) -> RunSummary:
        """Run until SIGTERM or SIGINT, then shut down gracefully (the process entry point).

        The first signal stops claiming, gives running jobs ``shutdown_grace``
        seconds, releases the rest and flushes results; run() then returns.
        A second signal releases running jobs at once, and run() raises
        ``SystemExit(128 + signal number)``.
        """
        summary = asyncio.run(self._run_with_signals())
        if self._forced_by is not None:
            raise SystemExit(128 + self._forced_by)
        return summary

    async def run_async(self) -> RunSummary:
        """Run until :meth:`stop` is called (installs no signal handlers)."""
        return await self._run(drain=False)

    async def stop(self, *, abort: bool = False, wait: bool = True) -> None:
        """Stop the running worker: stop claiming, let running jobs finish
        within ``shutdown_grace`` (``abort=True``: not at all), release the rest,
        flush results. ``wait`` waits until the worker has stopped; from inside
        a handler pass ``wait=False``."""
        if not self._active:
            self._stop_early = abort or bool(self._stop_early)
            return
        self._request_stop(abort=abort)
        if wait:
            await self._done.wait()

    async def drain(self, timeout: float | None = 60.0) -> RunSummary:
        """Run until no job is runnable in the worker's queues and none is running.

        A helper for test suites: enqueue jobs, ``await worker.drain()``, then
        assert on their effects. It claims the handled types of every queue
        until a claim finds nothing while no handler is running and every
        result is written, then stops and returns a :class:`RunSummary` of the
        outcomes. Jobs scheduled for later, including retries waiting for
        their next attempt, are not waited for; jobs that handlers enqueue
        are run too. On ``timeout`` (seconds) running jobs are released and
        TimeoutError is raised.

            async def test_welcome_email(db, dsn):
                pyjq.enqueue(db, "send_welcome_email", {"email": "a@example.com"})
                summary = await worker.drain(timeout=10)
                assert summary.succeeded == 1
        """
        task = asyncio.ensure_future(self._run(drain=True))
        try:
            return await asyncio.wait_for(asyncio.shield(task), timeout)
        except TimeoutError:
            if task.done():
                return task.result()
            await self.stop(abort=True)
            await task
            raise TimeoutError(f"drain: jobs were still runnable or running after {timeout} s") from None
        except asyncio.CancelledError:
            await self.stop(abort=True)
            raise

    def run_until_empty(self, timeout: float | None = 60.0) -> RunSummary:
        """:meth:`drain` for synchronous code (a plain pytest test): runs its own
        event loop, so it cannot be called from inside one.

            def test_welcome_email(db, dsn):
                pyjq.enqueue(db, "send_welcome_email", {"email": "a@example.com"})
                assert worker.run_until_empty(timeout=10).succeeded == 1
        """
        return asyncio.run(self.drain(timeout=timeout))

    async def _run_with_signals(self) -> RunSummary:
        loop = asyncio.get_running_loop()
        installed = []
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, self._on_signal, sig)
                installed.append(sig)
            except (NotImplementedError, RuntimeError, ValueError):
                pass  # not the main thread, or no signals on this platform
        try:
            return await self.run_async()
        finally:
            for sig in installed:
                loop.remove_signal_handler(sig)

    def _on_signal(self, sig: signal.Signals) -> None:
        if not self._stop.is_set():
            logger.info("worker %s: %s received, stopping (running jobs get %.0f s; "
                        "signal again to stop at once)", self.name, sig.name, self.shutdown_grace)
            self._request_stop(abort=False)
        elif not self._abort.is_set():
            logger.warning("worker %s: %s received again, releasing running jobs and exiting",
                           self.name, sig.name)
            self._forced_by = int(sig)
            self._request_stop(abort=True)

    def _request_stop(self, abort: bool) -> None:
        self._stop.set()
        if abort:
            self._abort.set()
        self._claim_kick.set()
        self._flush_kick.set()
        self._flush_now.set()
        self._changed.set()

    async def _run(self, drain: bool) -> RunSummary:
        if self._active:
            raise RuntimeError(f"worker {self.name} is already running")
        if not self._handlers:
            raise RuntimeError("no handlers registered: use @worker.handler(type)")
        self._setup(drain)
        self._active = True
        tasks = self._tasks
        try:
            if self._stop_early is not None:
                self._request_stop(abort=self._stop_early)
            await self._open()
            if not self._stop.is_set():
                logger.info("worker %s started: queues %s, types %s", self.name,
                            ", ".join(f"{q}={n}" for q, n in self.queues.items()), ", ".join(self.types))
            tasks["claimer"] = self._spawn("claimer", self._claim_loop)
            tasks["flusher"] = self._spawn("flusher", self._flush_loop)
            tasks["heartbeat"] = self._spawn("heartbeat", self._heartbeat_loop)
            if not drain:
                tasks["listener"] = self._spawn("listener", self._listen_loop)
                if self.maintain_interval:
                    tasks["maintenance"] = self._spawn("maintenance", self._maintain_loop)
                if self.schedules:
                    # Fires due cron schedules; safe in every worker at once. Its own
                    # connection: a large tick must not starve the claim pool.
                    scheduler = Scheduler()
                    tasks["scheduler"] = self._spawn(
                        "scheduler", lambda: scheduler.run_async(self._conninfo, self._stop,
                                                                 interval=max(5.0, self.poll_interval)))
            await self._stop.wait()
            await self._shutdown()
        except asyncio.CancelledError:
            # run_async itself was cancelled: hand back what we hold, quickly.
            self._request_stop(abort=True)
            with suppress(BaseException):
                await asyncio.shield(self._shutdown())
            raise
        finally:
            for task in tasks.values():
                task.cancel()
            for task in tasks.values():
                with suppress(BaseException):
                    await task
            # Handlers still running were released or abandoned: stop waiting for them.
            leftover = list(self._job_tasks)
            for task in leftover:
                task.cancel()
            if leftover:
                await asyncio.wait(leftover, timeout=1.0)
            await self._close()
            self._active = False
            self._stop_early = None
            self._done.set()
        summary = RunSummary(**{k: self._outcomes[k] for k in RunSummary.__dataclass_fields__})
        logger.info("worker %s stopped: %s", self.name,
                    ", ".join(f"{k} {v}" for k, v in sorted(self._outcomes.items())) or "no jobs run")
        return summary

    def _setup(self, drain: bool) -> None:
        """Fresh state for one run (asyncio primitives belong to the running loop)."""
        self._drain = drain
        self._stop = asyncio.Event()
        self._abort = asyncio.Event()
        self._done = asyncio.Event()
        self._claim_kick = asyncio.Event()
        self._flush_kick = asyncio.Event()  # results are waiting
        self._flush_now = asyncio.Event()  # ... and should be written without waiting for more
        self._changed = asyncio.Event()  # a handler returned or a flush ended
        self._forced_by = None
        self._outcomes: Counter[str] = Counter()
        self._queues = [_Queue(q, n) for q, n in _check_queues(self.queues).items()]
        self._threads.max_threads = sum(q.slots for q in self._queues)  # one per slot
        self._channels: dict[str, list[_Queue]] = {}
        for q in self._queues:
            self._channels.setdefault("jq_" + q.name[:60], []).append(q)
        self._runs: dict[UUID, _Run] = {}
        self._results: list[_Result] = []
        self._flushing: list[_Result] = []
        self._types = self.types
        self._pool: AsyncConnectionPool | None = None
        self._tasks: dict[str, asyncio.Task] = {}
        self._job_tasks: set[asyncio.Task] = set()
        self._deadline = math.inf
        self._listen_conn: psycopg.AsyncConnection | None = None
        self._marks: list[tuple[list[_Queue], bool, asyncio.Future]] = []
        self._marks_kick = asyncio.Event()
        self._last_used: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _spawn(self, what: str, loop_fn: Callable) -> asyncio.Task:
        """Run one of the worker's loops; a bug in it is logged and the loop restarted."""

        async def supervised() -> None:
            backoff = _Backoff(first=1.0)
            while True:
                try:
                    await loop_fn()
                    return
                except asyncio.CancelledError:
                    raise
                except Exception:
                    logger.exception("worker %s: the %s failed; restarting it", self.name, what)
                    await asyncio.sleep(backoff.next())

        return asyncio.create_task(supervised(), name=f"pyjq {what} {self.name}")

    # -- connections ---------------------------------------------------------------

    def _make_conninfo(self, dsn: str) -> str:
        given = conninfo_to_dict(dsn)
        extra: dict[str, Any] = {}
        if "application_name" not in given:
            # Operators (and tests) can tell whose connection is whose in pg_stat_activity.
            extra["application_name"] = f"pyjq worker {self.name}"[:63]
        if "connect_timeout" not in given:
            extra["connect_timeout"] = 10  # a black-holed host must not hang a reconnect for ever
        return make_conninfo(dsn, **extra)

    async def _open(self) -> None:
        """Open the pool and check that jq is installed; waits out an unreachable database."""
        self._pool = AsyncConnectionPool(
            self._conninfo,
            min_size=1,
            max_size=4,
            kwargs={"autocommit": True},
            check=self._check_connection,
            open=False,
            timeout=_POOL_TIMEOUT,
            name=f"pyjq-worker-{self.name}",
        )
        await self._pool.open(wait=False)
        backoff = _Backoff()
        while not self._stop.is_set():
            try:
                async with self._connection() as conn:
                    await conn.execute(_VERSION_SQL)
                self._stats["version"] += 1
                return
            except psycopg.OperationalError as exc:
                logger.warning("worker %s: database unreachable (%s); retrying", self.name, _oneline(exc))
                await _wait(self._stop, backoff.next())
            except psycopg.Error as exc:
                raise from_psycopg(exc) from exc

    async def _check_connection(self, conn: psycopg.AsyncConnection) -> None:
        """Pool check: a round trip, but only for a connection unused for a while
        (a broken connection that was used just now fails its next call instead,
        which every caller retries)."""
        if time.monotonic() - self._last_used.get(conn, 0.0) > 5.0:
            await conn.execute("")

    @asynccontextmanager
    async def _connection(self):
        """A pooled connection; while shutting down, waits no longer than the shutdown deadline."""
        assert self._pool is not None
        timeout = min(_POOL_TIMEOUT, max(0.1, self._deadline - time.monotonic()))
        async with self._pool.connection(timeout=timeout) as conn:
            try:
                yield conn
            finally:
                self._last_used[conn] = time.monotonic()

    async def _close(self) -> None:
        if self._pool is not None:
            with suppress(Exception):
                await self._pool.close(timeout=1.0)
            self._pool = None

    # -- claiming ------------------------------------------------------------------

    async def _claim_loop(self) -> None:
        backoff = _Backoff()
        while not self._stop.is_set():
            self._claim_kick.clear()
            now = time.monotonic()
            quiescent = self._drain and not self._runs
            if quiescent and (self._results or self._flushing):
                await self._claim_kick.wait()  # the flusher kicks when it is done
                continue
            due = ([(q, min(q.free, _MAX_CLAIM)) for q in self._queues] if quiescent
                   else self._due_queues(now))
            if not due:
                await _wait(self._claim_kick, self._next_wake(now))
                continue
            for q, _limit in due:
                q.notified = False
                if q.wake_at <= now:
                    q.wake_at = math.inf
            try:
                results = await self._claim(due)
            except psycopg.Error as exc:
                for q, _limit in due:
                    q.notified = True  # try these again once the database answers
                self._log_db_error("claim", exc)
                await _wait(self._stop, backoff.next())
                continue
            backoff.reset()
            now = time.monotonic()
            claimed = 0
            for (q, limit), rows in zip(due, results):
                q.more = len(rows) >= limit
                q.next_poll = now + self.poll_interval * random.uniform(0.9, 1.1)
                claimed += len(rows)
                for row in rows:
                    self._start(q, row)
            if self._stop.is_set():
                break
            if quiescent and claimed == 0:
                logger.debug("worker %s: drained", self.name)
                self._request_stop(abort=False)
                return
            await self._update_waiting([q for q, _limit in due])

    async def _update_waiting(self, claimed: list[_Queue]) -> None:
        """The jq_set_waiting protocol: a queue whose claim came back short is
        marked waiting (inserts NOTIFY it from then on) and claimed once more,
        for a job inserted before the mark committed; a queue whose claim
        filled every free slot is marked busy (it claims again as soon as a slot
        frees, so inserts need not pay for a NOTIFY). Without the LISTEN
        connection nothing is marked and the safety poll does the work."""
        if self._drain:
            return
        idle = [q for q in claimed if not q.more and not q.waiting]
        busy = [q for q in claimed if q.more and q.waiting]
        if idle and await self._set_waiting(idle, True):
            for q in idle:
                q.notified = True  # claim once more
        if busy:
            await self._set_waiting(busy, False)

    def _due_queues(self, now: float) -> list[tuple[_Queue, int]]:
        """The queues to claim now: free slots, and a reason to expect work. Queues
        whose safety poll is near are claimed together with one that is due."""
        polling = any(q.free > 0 and q.next_poll <= now for q in self._queues)
        near = now + self.poll_interval / 2
        return [
            (q, min(q.free, _MAX_CLAIM))
            for q in self._queues
            if q.free > 0 and (q.notified or q.more or q.wake_at <= now or q.next_poll <= now
                               or (polling and q.next_poll <= near))
        ]

    def _next_wake(self, now: float) -> float | None:
        times = [min(q.next_poll, q.wake_at) for q in self._queues if q.free > 0]
        return max(0.0, min(times) - now) if times else None

    async def _claim(self, due: list[tuple[_Queue, int]]) -> list[list[dict[str, Any]]]:
        """jq_claim for each due queue, in one statement; the rows of each queue."""
        self._stats["claim"] += len(due)
        self._stats["round_trips"] += 1
        async with self._connection() as conn:
            cur = conn.cursor(row_factory=dict_row)
            await cur.execute(_CLAIM_SQL, [[q.name for q, _ in due], [limit for _, limit in due],
                                           self.name, self.lease, self._types])
            try:
                rows = await cur.fetchall()  # the rows are here already: only decoding can fail
            except Exception:  # noqa: BLE001
                rows = _load_leniently(cur)
        by_queue: dict[str, list[dict[str, Any]]] = {q.name: [] for q, _ in due}
        for row in rows:
            by_queue[row["queue"]].append(row)
        return [by_queue[q.name] for q, _ in due]

    def _start(self, q: _Queue, row: Mapping[str, Any]) -> None:
        unreadable = {k: v.reason for k, v in row.items() if isinstance(v, _Undecodable)}
        if unreadable:
            row = {k: (({} if k == "payload" else None) if k in unreadable else v) for k, v in row.items()}
        job = Job(
            id=row["id"],
            type=row["type"],
            payload=row["payload"] if row["payload"] is not None else {},
            queue=row["queue"],
            attempts=row["attempts"],
            max_attempts=row["max_attempts"],
            priority=row["priority"],
            tenant=row["tenant"],
            run_at=row["run_at"],
            created_at=row["created_at"],
            idempotency_key=row.get("idempotency_key"),
            last_error=row.get("last_error"),
            locked_until=row.get("locked_until"),
            worker=self.name,
        )
        run = _Run(job, q, self._handlers.get(job.type), time.monotonic())
        if unreadable:
            run.undecodable = "pyjq cannot read this job: " + "; ".join(f"{k}: {v}" for k, v in unreadable.items())
        q.running += 1
        self._runs[job.id] = run
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("job started id=%s type=%s queue=%s attempt=%d/%d", job.id, job.type, job.queue,
                         job.attempts, job.max_attempts)
        task = asyncio.create_task(self._execute(run), name=f"pyjq job {job.id}")
        self._job_tasks.add(task)
        task.add_done_callback(self._job_tasks.discard)

    # -- running handlers ----------------------------------------------------------

    async def _execute(self, run: _Run) -> None:
        job, handler = run.job, run.handler
        error: BaseException | None = None
        cancelled = False
        try:
            if run.undecodable is not None:
                pass
            elif handler is None:
                error = LookupError(f"worker {self.name} has no handler for job type {job.type!r}")
            elif handler.is_async:
                run.inner = asyncio.create_task(_call_async(handler.fn, job), name=f"pyjq handler {job.id}")
                done, _ = await asyncio.wait({run.inner}, timeout=handler.timeout)
                if not done:
                    self._time_out(run)
                    run.inner.cancel()
                    await asyncio.wait({run.inner})  # until the handler really returns
                cancelled = run.inner.cancelled()
                error = None if cancelled else run.inner.exception()
            else:
                future = self._threads.submit(handler.fn, job)
                future.add_done_callback(_retrieve)
                done, _ = await asyncio.wait({future}, timeout=handler.timeout)
                if not done:
                    self._time_out(run)
                    await asyncio.wait({future})  # a thread cannot be stopped: wait for it
                error = future.exception()
                if error is None and inspect.isawaitable(future.result()):
                    if inspect.iscoroutine(future.result()):
                        future.result().close()
                    error = TypeError(f"the handler of {job.type!r} returned an awaitable from a plain function; "
                                      "declare it with async def")
        except asyncio.CancelledError:
            # Only when the worker tears down after releasing its jobs.
            if run.inner is not None:
                run.inner.cancel()
            self._end(run)
            raise
        duration_ms = (time.monotonic() - run.started) * 1000.0
        self._end(run)
        if run.lost:
            self._log_outcome(run, "lease_lost", duration_ms)
            return
        if run.released:
            return  # reported by the release
        if run.undecodable is not None:
            result = _Result(run, duration_ms, ok=False, error=_clean(run.undecodable), discard=True)
        elif run.timed_out:
            result = _Result(run, duration_ms, ok=False, error=_clean(
                f"TimeoutError: the handler of {job.type!r} exceeded its timeout of {handler.timeout:g} s"))
        elif cancelled:
            if run.cancel_requested:
                result = _Result(run, duration_ms, ok=False, error="cancelled: cancellation was requested")
            else:
                result = _Result(run, duration_ms, ok=False,
                                 error="CancelledError: the handler's task was cancelled")
        elif error is None:
            result = _Result(run, duration_ms, ok=True)
        elif isinstance(error, Retry):
            result = _Result(run, duration_ms, ok=False, error=_clean(_headline(error)), retry_in=error.after)
        elif isinstance(error, Discard):
            result = _Result(run, duration_ms, ok=False, error=_clean(_headline(error)), discard=True)
        else:
            result = _Result(run, duration_ms, ok=False, error=_describe(error))
        self._results.append(result)
        self._flush_kick.set()
        if len(self._results) >= self.flush_size or (self._drain and not self._runs):
            self._flush_now.set()

    def _time_out(self, run: _Run) -> None:
        run.timed_out = True
        run.job.cancel_event.set()
        if not run.handler.is_async:
            logger.warning("job %s (%s) exceeded its timeout of %g s; its thread cannot be stopped: "
                           "job.cancelled is set and its slot stays busy until it returns",
                           run.job.id, run.job.type, run.handler.timeout)

    def _end(self, run: _Run) -> None:
        """The handler returned: free its slot."""
        if self._runs.pop(run.job.id, None) is None:
            return
        run.queue.running -= 1
        if self._drain:
            run.queue.more = True
        self._claim_kick.set()
        self._changed.set()

    # -- writing results -----------------------------------------------------------

    async def _flush_loop(self) -> None:
        while True:
            await self._flush_kick.wait()
            self._flush_kick.clear()
            if not self._results:
                continue
            if (self.flush_interval and not self._stop.is_set() and len(self._results) < self.flush_size
                    and not (self._drain and not self._runs)):
                self._flush_now.clear()
                await _wait(self._flush_now, self.flush_interval)
            batch, self._results = self._results, []
            self._flushing = batch
            try:
                await self._write(batch)
            finally:
                self._flushing = []
            self._changed.set()
            if self._drain:
                self._claim_kick.set()
            elif not self._stop.is_set():
                self._reclaim_after_finish({r.run.queue for r in batch})
            if self._results:
                self._flush_kick.set()

    def _reclaim_after_finish(self, queues: set[_Queue]) -> None:
        """A job that finished may have held a tenant's cap or a concurrency key's
        limit (jq_tenant_policy_set, jq_key_limit_set), so pending jobs a claim
        skipped may be claimable now that its result is committed. A queue whose
        last claim came back short is claimed once more, rather than at its next
        safety poll (no NOTIFY says a cap freed up)."""
        kick = False
        for q in queues:
            if not q.more and q.free > 0:
                q.notified = True
                kick = True
        if kick:
            self._claim_kick.set()

    async def _write(self, batch: list[_Result]) -> None:
        """Write results, retrying while the database is unreachable. A result the
        database refuses (not a connection problem) is retried alone, then
        without its retry_in/discard, then logged and dropped: its lease
        expires and the job runs again."""
        backoff = _Backoff()
        pending = batch
        while pending:
            try:
                outcomes = await self._write_once(pending)
            except psycopg.OperationalError as exc:
                if self._abort.is_set() or (self._stop.is_set() and self._past_deadline()):
                    logger.error("worker %s: could not write the results of %d jobs (%s); they run again "
                                 "after their lease expires", self.name, len(pending), _oneline(exc))
                    return
                self._log_db_error("write results", exc)
                await asyncio.sleep(backoff.next())
                continue
            except psycopg.Error as exc:
                if len(pending) > 1:
                    for result in pending:
                        await self._write([result])
                    return
                result = pending[0]
                if not result.ok and (result.retry_in is not None or result.discard):
                    logger.error("job %s: jq_fail refused its retry/discard request (%s); recording a plain "
                                 "failure", result.run.job.id, _oneline(exc))
                    pending = [_Result(result.run, result.duration_ms, ok=False, error=_clean(
                        f"{result.error}\n(pyjq: jq_fail refused retry_in={result.retry_in} "
                        f"discard={result.discard}: {_oneline(exc)})"))]
                    continue
                logger.error("job %s: could not record its outcome (%s); it runs again after its lease "
                             "expires", result.run.job.id, _oneline(exc))
                return
            for result, status, next_at in outcomes:
                self._log_outcome(result.run, status, result.duration_ms, next_at, result.error)
                if status == "failed_retrying" and next_at is not None:
                    self._wake_for_retry(result.run.queue, next_at)
            return

    async def _write_once(self, batch: list[_Result]) -> list[tuple[_Result, str, datetime | None]]:
        """One statement: jq_complete for the successes, jq_fail for each failure."""
        done_ok = [r.run.job.id for r in batch if r.ok]
        failed = [r for r in batch if not r.ok]
        self._stats["round_trips"] += 1
        self._stats["complete"] += 1 if done_ok else 0
        self._stats["fail"] += len(failed)
        async with self._connection() as conn:
            if not failed:
                cur = await conn.execute(_COMPLETE_SQL, [done_ok, self.name])
                rows = [(row[0], "succeeded", None) for row in await cur.fetchall()]
            else:
                cur = await conn.execute(_FINISH_SQL, [
                    done_ok, self.name,
                    [r.run.job.id for r in failed], [r.error for r in failed],
                    [r.retry_in for r in failed], [r.discard for r in failed], self.name])
                rows = await cur.fetchall()
        outcome = {job_id: (status, next_at) for job_id, status, next_at in rows}
        # A success missing from jq_complete's answer: this worker no longer held the job.
        return [(r, *outcome.get(r.run.job.id, ("lease_lost", None))) for r in batch]

    def _wake_for_retry(self, q: _Queue, next_at: datetime) -> None:
        delay = (next_at - datetime.now(timezone.utc)).total_seconds()
        q.wake_at = min(q.wake_at, time.monotonic() + max(0.0, delay) + 0.05)
        self._claim_kick.set()

    # -- heartbeat -----------------------------------------------------------------

    def _held_ids(self) -> list[UUID]:
        ids = [job_id for job_id, run in self._runs.items() if not (run.lost or run.released)]
        ids.extend(r.run.job.id for r in self._results)
        ids.extend(r.run.job.id for r in self._flushing)
        return ids

    async def _heartbeat_loop(self) -> None:
        backoff = _Backoff()
        delay = self.heartbeat_interval
        while True:
            await asyncio.sleep(delay)
            delay = self.heartbeat_interval
            ids = self._held_ids()
            if not ids:
                continue
            self._stats["heartbeat"] += 1
            self._stats["round_trips"] += 1
            try:
                async with self._connection() as conn:
                    cur = await conn.execute(_HEARTBEAT_SQL, [ids, self.name, self.lease])
                    rows = await cur.fetchall()
            except psycopg.Error as exc:
                self._log_db_error("heartbeat", exc)
                delay = min(self.heartbeat_interval, backoff.next())
                continue
            backoff.reset()
            for job_id, state in rows:
                run = self._runs.get(job_id)
                if run is None or run.lost or run.released:
                    continue  # its handler has returned: the write decides
                if state == "lost":
                    logger.warning("job %s (%s) lost its lease: abandoning it, its result will not be written",
                                   job_id, run.job.type)
                    run.lost = True
                    run.job.cancel_event.set()
                    if run.inner is not None:
                        run.inner.cancel()
                elif state == "cancel_requested" and not run.cancel_requested:
                    logger.info("job %s (%s): cancellation requested, cancelling its handler", job_id, run.job.type)
                    run.cancel_requested = True
                    run.job.cancel_event.set()
                    if run.inner is not None:
                        run.inner.cancel()

    # -- LISTEN --------------------------------------------------------------------

    async def _listen_loop(self) -> None:
        """Owns the LISTEN connection: receives NOTIFYs and runs jq_set_waiting."""
        backoff = _Backoff()
        first = True
        while not self._stop.is_set():
            conn: psycopg.AsyncConnection | None = None
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True,
                    keepalives=1, keepalives_idle=30, keepalives_interval=10, keepalives_count=3)
                for channel in self._channels:
                    await conn.execute(sql.SQL("listen {}").format(sql.Identifier(channel)))
                self._listen_conn = conn
                if not first:
                    logger.info("worker %s: listening again", self.name)
                first = False
                backoff.reset()
                # Claim every queue once: a notification may have been missed while
                # disconnected, and the claims mark idle queues waiting again.
                self._wake_all()
                await self._listen_session(conn)
            except psycopg.Error as exc:
                self._log_db_error("listen", exc)
            finally:
                self._listen_conn = None
                for q in self._queues:
                    q.waiting = False  # marks belong to the connection's backend
                for _queues, _waiting, fut in self._marks:
                    if not fut.done():
                        fut.set_result(False)
                self._marks.clear()
                if conn is not None:
                    with suppress(Exception):
                        await conn.close()
            await _wait(self._stop, backoff.next())

    async def _listen_session(self, conn: psycopg.AsyncConnection) -> None:
        while True:
            while self._marks:
                queues, waiting, fut = self._marks.pop(0)
                self._stats["set_waiting"] += 1
                self._stats["round_trips"] += 1
                await conn.execute(_SET_WAITING_SQL, [[q.name for q in queues], self.name, waiting])
                for q in queues:
                    q.waiting = waiting
                if not fut.done():
                    fut.set_result(True)
            self._marks_kick.clear()
            receiver = asyncio.create_task(self._receive(conn))
            kicked = asyncio.create_task(self._marks_kick.wait())
            try:
                await asyncio.wait({receiver, kicked}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                kicked.cancel()
                if not receiver.done():
                    # Only waiting for input: cancelling leaves the connection idle and
                    # keeps notifications that arrive meanwhile for the next notifies().
                    receiver.cancel()
                    with suppress(asyncio.CancelledError):
                        await receiver
                    current = asyncio.current_task()
                    if current is not None and current.cancelling():
                        raise asyncio.CancelledError
            if receiver.done() and not receiver.cancelled():
                receiver.result()  # a connection error ends the session
                return

    async def _receive(self, conn: psycopg.AsyncConnection) -> None:
        async for note in conn.notifies():
            due = _due_time(note.payload)
            for q in self._channels.get(note.channel, ()):
                if due is not None:  # 'at <epoch>': a job becomes ready then; our mark stays
                    q.wake_at = min(q.wake_at, time.monotonic() + max(0.0, due - time.time()) + 0.05)
                else:
                    q.notified = True
                    q.waiting = False  # the notifying insert used our mark up (jq._notify_ready)
            self._claim_kick.set()

    async def _set_waiting(self, queues: list[_Queue], waiting: bool) -> bool:
        """jq_set_waiting on the LISTEN connection; False if it could not be done."""
        if self._listen_conn is None:
            return False
        fut = asyncio.get_running_loop().create_future()
        self._marks.append((queues, waiting, fut))
        self._marks_kick.set()
        try:
            return await asyncio.wait_for(asyncio.shield(fut), _POOL_TIMEOUT)
        except TimeoutError:
            return False

    def _wake_all(self) -> None:
        for q in self._queues:
            q.notified = True
        self._claim_kick.set()

    # -- maintenance ---------------------------------------------------------------

    async def _maintain_loop(self) -> None:
        assert self.maintain_interval
        delay = self.maintain_interval * random.uniform(0.5, 1.0)
        while True:
            await asyncio.sleep(delay)
            delay = self.maintain_interval * random.uniform(0.8, 1.2)
            self._stats["maintain"] += 1
            self._stats["round_trips"] += 1
            try:
                async with self._connection() as conn:
                    cur = await conn.execute(_MAINTAIN_SQL)
                    done = (await cur.fetchone())[0]
            except psycopg.Error as exc:
                self._log_db_error("jq_maintain", exc)
                delay = min(delay, _BACKOFF_CAP)
                continue
            logger.debug("worker %s: jq_maintain: %s", self.name, done)

    # -- shutdown ------------------------------------------------------------------

    def _past_deadline(self) -> bool:
        return time.monotonic() > self._deadline

    async def _shutdown(self) -> None:
        claimer = self._tasks.get("claimer")
        if claimer is not None and not claimer.done():
            # A claim in flight is let finish (cancelling it could lose the jobs it leased).
            await asyncio.wait({claimer}, timeout=_ABORT_TIMEOUT if self._abort.is_set() else _POOL_TIMEOUT + 1)
            claimer.cancel()
        waiting = [q for q in self._queues if q.waiting]
        if waiting:
            # No longer waiting: inserts stop paying for a NOTIFY to this worker.
            await asyncio.wait({asyncio.ensure_future(self._set_waiting(waiting, False))}, timeout=_ABORT_TIMEOUT)
        if self._runs and not self._abort.is_set():
            logger.info("worker %s: waiting up to %g s for %d running jobs", self.name, self.shutdown_grace,
                        len(self._runs))
            grace_end = time.monotonic() + self.shutdown_grace
            while self._runs and not self._abort.is_set():
                left = grace_end - time.monotonic()
                if left <= 0:
                    break
                self._changed.clear()
                await _wait(self._changed, left)
        self._deadline = time.monotonic() + (_ABORT_TIMEOUT if self._abort.is_set() else _RELEASE_TIMEOUT)
        if self._runs:
            await self._release_running()
        # Flush what is buffered, then let the flusher exit.
        self._flush_kick.set()
        flusher = self._tasks.get("flusher")
        while (self._results or self._flushing) and flusher is not None and not flusher.done():
            self._changed.clear()
            if not await _wait(self._changed, max(0.0, self._deadline - time.monotonic()) + 1.0):
                break
        if self._results or self._flushing:
            logger.error("worker %s: %d results were not written; those jobs run again after their lease "
                         "expires", self.name, len(self._results) + len(self._flushing))

    async def _release_running(self) -> None:
        runs = [run for run in self._runs.values() if not run.lost]
        for run in runs:
            run.released = True
            run.job.cancel_event.set()
            if run.inner is not None:
                run.inner.cancel()
        if not runs:
            return
        by_id = {run.job.id: run for run in runs}
        backoff = _Backoff()
        while True:
            self._stats["release"] += 1
            self._stats["round_trips"] += 1
            try:
                async with self._connection() as conn:
                    cur = await conn.execute(_RELEASE_SQL, [list(by_id), self.name])
                    rows = await cur.fetchall()
                break
            except psycopg.Error as exc:
                if self._past_deadline() or not isinstance(exc, psycopg.OperationalError):
                    logger.error("worker %s: could not release %d running jobs (%s); they run again after their "
                                 "lease expires", self.name, len(runs), _oneline(exc))
                    return
                self._log_db_error("release", exc)
                await asyncio.sleep(min(backoff.next(), max(0.05, self._deadline - time.monotonic())))
        now = time.monotonic()
        reported = set()
        for job_id, status in rows:
            run = by_id.get(job_id)
            if run is not None:
                reported.add(job_id)
                self._log_outcome(run, "released" if status == "released" else status,
                                  (now - run.started) * 1000.0)
        for job_id, run in by_id.items():
            if job_id not in reported:
                self._log_outcome(run, "lease_lost", (now - run.started) * 1000.0)

    # -- logging -------------------------------------------------------------------

    def _log_outcome(self, run: _Run, outcome: str, duration_ms: float,
                     next_attempt_at: datetime | None = None, error: str | None = None) -> None:
        self._outcomes[outcome] += 1
        level = _LEVELS.get(outcome, logging.INFO)
        if not logger.isEnabledFor(level):
            return
        job = run.job
        tail = ""
        if next_attempt_at is not None:
            tail += f" next_attempt_at={next_attempt_at.isoformat()}"
        if error and outcome != "succeeded":
            tail += f" error={_firstline(error)!r}"
        logger.log(
            level,
            "job %s id=%s type=%s queue=%s attempt=%d/%d duration_ms=%.1f%s",
            outcome, job.id, job.type, job.queue, job.attempts, job.max_attempts, duration_ms, tail,
            extra={"jq_job_id": str(job.id), "jq_type": job.type, "jq_queue": job.queue,
                   "jq_attempt": job.attempts, "jq_max_attempts": job.max_attempts, "jq_outcome": outcome,
                   "jq_duration_ms": round(duration_ms, 1), "jq_worker": self.name},
        )

    def _log_db_error(self, what: str, exc: psycopg.Error) -> None:
        if isinstance(exc, psycopg.OperationalError):
            logger.warning("worker %s: %s: database unreachable (%s); retrying", self.name, what, _oneline(exc))
        else:
            logger.error("worker %s: %s failed: %s", self.name, what, _oneline(from_psycopg(exc)))


_LEVELS = {
    "succeeded": logging.INFO,
    "cancelled": logging.INFO,
    "released": logging.INFO,
    "failed_retrying": logging.WARNING,
    "lease_lost": logging.WARNING,
    "dead": logging.ERROR,
}


# -- helpers ---------------------------------------------------------------------

class _Undecodable:
    """A value of a claimed row that this client cannot represent."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


def _lenient(base: type) -> type:
    """A psycopg loader that returns _Undecodable instead of raising."""

    class Lenient(base):
        def load(self, data):
            try:
                return super().load(data)
            except Exception as exc:  # noqa: BLE001 - any value the client cannot hold
                return _Undecodable(_firstline(f"{type(exc).__name__}: {exc}"))

    Lenient.__name__ = Lenient.__qualname__ = f"_Lenient{base.__name__}"
    return Lenient


_LENIENT_LOADERS = [("jsonb", _lenient(JsonbLoader)), ("json", _lenient(JsonLoader)),
                    ("timestamptz", _lenient(TimestamptzLoader))]


def _load_leniently(cur: psycopg.AsyncCursor) -> list[dict[str, Any]]:
    """The claimed rows again, when one of them could not be decoded (a JSON number of
    5,000 digits, JSON nested deeper than Python's recursion limit, a time before year 1,
    all of which PostgreSQL accepts from other clients): a value Python cannot hold
    becomes _Undecodable, so that it costs only its own job (dead-lettered by _start)
    and not every job leased in the same statement. Slower, so only after a failure."""
    for name, loader in _LENIENT_LOADERS:
        cur.adapters.register_loader(name, loader)
    tx = Transformer(cur)
    tx.set_pgresult(cur.pgresult)
    names = [d.name for d in cur.description or ()]
    return tx.load_rows(0, cur.pgresult.ntuples, lambda values: dict(zip(names, values)))


def _due_time(payload: str) -> float | None:
    """The epoch seconds of an 'at <epoch>' notification (a job due soon), else None."""
    if payload.startswith("at "):
        with suppress(ValueError):
            return float(payload[3:])
    return None


def _check_queues(queues: Mapping[str, int]) -> dict[str, int]:
    queues = dict(queues)
    if not queues:
        raise ValueError("queues must name at least one queue")
    for queue, slots in queues.items():
        if not isinstance(queue, str) or not _QUEUE_NAME.match(queue):
            raise ValueError(f"queue {queue!r} is not a valid queue name (1-64 letters, digits and _ . : -)")
        if not isinstance(slots, int) or isinstance(slots, bool) or slots < 1:
            raise ValueError(f"queue {queue!r}: slots must be a positive integer, not {slots!r}")
    return queues


async def _wait(event: asyncio.Event, timeout: float | None) -> bool:
    """Wait for event at most timeout seconds (None: for ever); True if it is set."""
    if event.is_set():
        return True
    if timeout is None:
        await event.wait()
        return True
    try:
        await asyncio.wait_for(event.wait(), timeout)
        return True
    except TimeoutError:
        return False


def _retrieve(future: asyncio.Future) -> None:
    """Mark a thread's outcome as seen, even when nobody awaits it any more."""
    if not future.cancelled():
        future.exception()


async def _call_async(fn: Callable[[Job], Any], job: Job) -> Any:
    return await fn(job)


def _is_async(fn: Callable) -> bool:
    if inspect.iscoroutinefunction(fn):
        return True
    call = getattr(type(fn), "__call__", None)
    return not inspect.isfunction(fn) and not inspect.ismethod(fn) and inspect.iscoroutinefunction(call)


def _type_name(exc: BaseException) -> str:
    t = type(exc)
    if t.__module__ in ("builtins", "__main__", "pyjq.job"):
        return t.__qualname__
    return f"{t.__module__}.{t.__qualname__}"


def _headline(exc: BaseException) -> str:
    message = str(exc)
    return f"{_type_name(exc)}: {message}" if message else _type_name(exc)


def _describe(exc: BaseException) -> str:
    """'Type: message' on the first line (what jq's dead-letter grouping reads),
    then the traceback's last frames, all within _ERROR_BUDGET characters."""
    head = _headline(exc)
    if len(head) > 1000:
        head = head[:999] + "…"
    trace = "".join(traceback.format_exception(exc))
    room = _ERROR_BUDGET - len(head) - 1
    if len(trace) > room:
        trace = "…" + trace[-(room - 1):]
    return _clean(f"{head}\n{trace.rstrip()}")


def _clean(text: str) -> str:
    return text.replace("\x00", "\\x00")


def _firstline(text: str, limit: int = 200) -> str:
    line = text.split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _oneline(exc: BaseException) -> str:
    return _firstline(str(exc).strip() or type(exc).__name__, 300)
