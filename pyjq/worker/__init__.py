"""The jq worker: claims jobs, runs their handlers, reports how they went.

    worker = pyjq.Worker(dsn, queues={"urgent": 20, "default": 50, "bulk": 10})

    @worker.handler("send_welcome_email", timeout=30)
    async def send_welcome_email(job: pyjq.Job) -> None:
        await mailer.send(job.payload["email"], idempotency_key=str(job.id))

    worker.run()          # until SIGTERM/SIGINT; or: await worker.run_async()

Every queue decision is a jq_* function call; this module only dispatches
handlers, batches calls and keeps connections healthy:

* claiming (``claimer``): per-queue slots, only registered types, woken by
  NOTIFY (``jq_set_waiting`` marks), by ``at`` notifications, by a retry of
  ours falling due, or by the ``poll_interval`` safety poll;
* running (``executor``): coroutines as tasks, plain functions on threads,
  timeouts, cooperative cancellation; an unreadable row is dead-lettered alone;
* reporting (``completer``): ``jq_complete``/``jq_fail`` in batches, never
  before the handler returned; a refused batch is split;
* leases (``heartbeat``): one ``jq_heartbeat`` per ``lease / 3`` for all held jobs;
* registry (``registry``): registers in jq.workers, beats every 3 s on a thread and
  connection of its own; a worker silent 15 s is declared gone and its jobs requeued;
* shutdown (``shutdown``, ``release``): a grace period, ``jq_release``, a last flush;
* connections (``connections``, ``listener``): never fatal; a fast reconnect
  probe, a checked LISTEN session, ``listen_dsn`` behind PgBouncer, nothing prepared;
* the periodic call (``tick``): ``jq_tick`` in a loop, sleeping what it answers
  (storage rotation, maintenance: the policy is SQL's); the check for job types
  nobody handles (``unhandled``: one WARNING per such queue and type) and the cron
  ``Scheduler``, each on a timer.

Task objects (pyjq.tasks): ``@worker.task(...)`` or ``worker.add_tasks(registry)``
registers a task's handler with its timeout and retry policy.

What each does, with its figures: docs/worker.md, "What it does".

Logging goes to the ``pyjq.worker`` logger: one line per job outcome,
``job <outcome> id=... type=... queue=... attempt=n/max duration_ms=...``,
with the same fields in ``extra`` (``jq_job_id``, ``jq_type``, ``jq_queue``,
``jq_attempt``, ``jq_max_attempts``, ``jq_outcome``, ``jq_duration_ms``) for
structured formatters. Outcomes: succeeded, failed_retrying, dead, cancelled,
lease_lost, released.

An idle worker costs about 1.5 statements a second: one per ``poll_interval``
(all its idle queues' claims in one statement), ``jq_tick`` every 2 s (it
fires the schedules too), a check of its LISTEN session every 7 s and its
registry beat every 3 s, apart from ``jq_unhandled_types`` (every 30 s).

Scheduled jobs: an insert of jobs due within the minute notifies waiting
workers with ``at <epoch>``, and the worker claims that queue at that time
rather than at its next poll. Retries of this worker's own jobs are claimed
at their ``next_attempt_at``, which ``jq_fail`` returns. Other retries and
released jobs are found by the safety poll.

Layout: ``Worker`` (this module) holds the configuration and the handler
registry, starts the parts of a run and supervises them; the parts share one
:class:`~pyjq.worker.state.RunState`. Which part does what and how they may
import each other: docs/design.md, "The worker's parts".
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import warnings
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, ParamSpec, TypeVar

from .._limits import QUEUE_NAME, QUEUE_NAME_MAX, WORKER_NAME_MAX
from ..job import Job
from ..retry import RetryPolicy
from ..scheduler import Scheduler
from ..tasks import Task
from .claimer import Claimer
from .completer import Completer
from .connections import Connections, DatabaseUnreachable, worker_conninfo
from .executor import Executor
from .handlers import make_handler
from .heartbeat import Heartbeat
from .listener import Listener
from .log import logger
from .registry import Registry
from .shutdown import shut_down, stop_loops
from .state import Handler, RunState
from .threads import HandlerThreads
from .tick import Ticker
from .timing import Backoff
from .unhandled import UnhandledTypes

__all__ = ["DatabaseUnreachable", "RunSummary", "Worker"]

F = TypeVar("F", bound=Callable[[Job], Any])
P = ParamSpec("P")
R = TypeVar("R")


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
        return self.succeeded + self.failed_retrying + self.dead + self.cancelled + self.lease_lost + self.released


_UNSET: Any = object()  # maintain_interval not passed


@dataclass(eq=False)
class _Parts:
    """The parts of one run, and their tasks."""

    state: RunState
    connections: Connections
    listener: Listener
    executor: Executor
    claimer: Claimer
    completer: Completer
    heartbeat: Heartbeat
    ticker: Ticker | None
    unhandled: UnhandledTypes | None
    registry: Registry
    done: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)


class Worker:
    """Runs handlers for jobs of the given queues. See the module docstring.

    Args:
        dsn: libpq connection string or URL of the database holding jq.
        queues: queue name -> number of jobs of that queue run at once.
        lease: how long a claimed job is held before another worker may take
            it (timedelta or seconds); extended by the heartbeat.
        poll_interval: seconds between safety polls of an idle queue.
        name: the worker's name in ``locked_by``; default ``host:pid:random``.
        maintain_interval: deprecated and ignored: jq.settings.maintain_interval says how often
            jq_tick runs the maintenance. ``None`` still means ``tick=False``.
        flush_interval: seconds a result may wait to be batched with others.
        flush_size: results written at once as soon as this many are waiting.
        shutdown_grace: seconds running jobs get to finish on shutdown.
        heartbeat_interval: seconds between heartbeats; default ``lease / 3``.
        schedules: fire due cron schedules (default True): jq_tick fires them, so
            this matters only with ``tick=False``, when the worker runs the
            cron scheduler (pyjq.scheduler.Scheduler) every 5 s instead.
        listen_dsn: a direct connection (not through a pooler in transaction
            mode) for the LISTEN connection; default ``dsn``.
        listen: False: no LISTEN connection and no waiting marks at all (``dsn``
            goes through a transaction pooler and there is no ``listen_dsn``);
            jobs are found by the safety poll, every ``poll_interval``.
        connect_timeout: seconds to keep trying to reach the database when the
            worker starts; then :class:`DatabaseUnreachable` is raised. Default
            None: keep trying (each attempt logged, with a growing delay).
        check_unhandled: seconds between checks for job types waiting in the
            worker's queues that no running worker handles (jq_unhandled_types;
            one WARNING per queue and type). None: never.
        tick: call ``jq_tick`` in a loop, as often as it asks (default True): the
            storage rotation, the maintenance and every other periodic duty
            (docs/worker.md). False: some other session must (another worker,
            pg_cron), or jq.jobs grows under long transactions.
    """

    def __init__(
        self,
        dsn: str,
        queues: Mapping[str, int] | None = None,
        *,
        lease: timedelta | float = timedelta(minutes=5),
        poll_interval: float = 2.0,
        name: str | None = None,
        maintain_interval: float | None = _UNSET,
        flush_interval: float = 0.005,
        flush_size: int = 100,
        shutdown_grace: float = 30.0,
        heartbeat_interval: float | None = None,
        schedules: bool = True,
        listen_dsn: str | None = None,
        listen: bool = True,
        connect_timeout: float | None = None,
        check_unhandled: float | None = 30.0,
        tick: bool = True,
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
        if not self.name.strip() or len(self.name) > WORKER_NAME_MAX:
            raise ValueError(f"name must be 1-{WORKER_NAME_MAX} characters")
        self.dsn = dsn
        self.listen_dsn = listen_dsn or None
        self.listen = bool(listen)
        if connect_timeout is not None and connect_timeout <= 0:
            raise ValueError("connect_timeout must be positive")
        self.connect_timeout = connect_timeout
        self.queues: dict[str, int] = queues
        self.lease = lease
        self.poll_interval = float(poll_interval)
        if maintain_interval is not _UNSET:
            warnings.warn(
                "Worker(maintain_interval=...) is ignored: jq_tick runs the maintenance every"
                " jq.settings.maintain_interval; pass tick=False for a worker that makes no periodic call",
                DeprecationWarning,
                stacklevel=2,
            )
            if not maintain_interval:
                tick = False
        self.tick = bool(tick)
        self.schedules = bool(schedules)
        self.check_unhandled = check_unhandled if check_unhandled and check_unhandled > 0 else None
        self.flush_interval = max(0.0, float(flush_interval))
        self.flush_size = int(flush_size)
        self.shutdown_grace = max(0.0, float(shutdown_grace))
        self.heartbeat_interval = (
            float(heartbeat_interval) if heartbeat_interval else max(0.5, lease.total_seconds() / 3)
        )
        self._handlers: dict[str, Handler] = {}
        self._stats: Counter[str] = Counter()
        self._parts: _Parts | None = None  # while running
        self._stop_early: bool | None = None  # stop() before the run started: abort?
        self._forced_by: int | None = None
        self._conninfo = worker_conninfo(dsn, self.name)
        self._threads = HandlerThreads(sum(queues.values()), name="pyjq-handler")

    def set_queues(self, queues: Mapping[str, int]) -> None:
        """Replace the queues and their slots (before the worker runs)."""
        if self._parts is not None:
            raise RuntimeError("the queues of a running worker cannot be changed")
        self.queues = _check_queues(queues)

    def __repr__(self) -> str:
        return f"<pyjq.Worker {self.name!r} queues={self.queues!r} types={sorted(self._handlers)!r}>"

    # -- handlers ------------------------------------------------------------------

    def handler(
        self, type: str, *, timeout: float | timedelta | None = None, retry: RetryPolicy | None = None
    ) -> Callable[[F], F]:
        """Decorator registering the handler of a job type.

        The handler takes one argument, the :class:`pyjq.Job`. A coroutine
        function runs on the event loop, a plain function on a thread.
        ``timeout`` (seconds or timedelta) fails an attempt that runs longer;
        ``retry`` (pyjq.RetryPolicy) decides how failed attempts retry.
        """

        def register(fn: F) -> F:
            self.add_handler(type, fn, timeout=timeout, retry=retry)
            return fn

        return register

    def task(
        self,
        name: str | None = None,
        *,
        queue: str = "default",
        priority: int = 0,
        max_attempts: int | None = None,
        timeout: float | timedelta | None = None,
        retry: RetryPolicy | None = None,
    ) -> Callable[[Callable[P, R]], Task[P, R]]:
        """Decorator making a function a :class:`pyjq.Task` this worker runs (see pyjq.tasks)."""

        def make(fn: Callable[P, R]) -> Task[P, R]:
            task = Task(
                fn, name, queue=queue, priority=priority, max_attempts=max_attempts, timeout=timeout, retry=retry
            )
            self.add_tasks([task])
            return task

        return make

    def add_tasks(self, tasks: Iterable[Task[Any, Any]]) -> None:
        """Run these tasks (a pyjq.TaskRegistry, or any iterable of tasks): each one's handler, timeout and retry."""
        for task in tasks:
            self.add_handler(task.name, task.handler, timeout=task.timeout, retry=task.retry)

    def add_handler(
        self,
        type: str,
        fn: Callable[[Job], Any],
        *,
        timeout: float | timedelta | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        """Register ``fn`` as the handler of ``type`` (what ``@worker.handler`` does)."""
        handler = make_handler(type, fn, timeout=timeout, retry=retry)
        if type in self._handlers:
            raise ValueError(f"a handler for {type!r} is already registered")
        self._handlers[type] = handler

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
        parts = self._parts
        if parts is None:
            self._stop_early = abort or bool(self._stop_early)
            return
        parts.state.request_stop(abort=abort)
        if wait:
            await parts.done.wait()

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
            async with asyncio.timeout(timeout):  # not wait_for (timing.py)
                return await asyncio.shield(task)
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
        if self._parts is None:
            return
        state = self._parts.state
        if not state.stop.is_set():
            logger.info(
                "worker %s: %s received, stopping (running jobs get %.0f s; signal again to stop at once)",
                self.name,
                sig.name,
                self.shutdown_grace,
            )
            state.request_stop(abort=False)
        elif not state.abort.is_set():
            logger.warning("worker %s: %s received again, releasing running jobs and exiting", self.name, sig.name)
            self._forced_by = int(sig)
            state.request_stop(abort=True)

    async def _run(self, drain: bool) -> RunSummary:
        if self._parts is not None:
            raise RuntimeError(f"worker {self.name} is already running")
        if not self._handlers:
            raise RuntimeError("no handlers registered: use @worker.handler(type)")
        parts = self._parts = self._setup(drain)
        state = parts.state
        try:
            if self._stop_early is not None:
                state.request_stop(abort=self._stop_early)
            await parts.connections.open()
            if not state.stop.is_set():
                logger.info(
                    "worker %s started: queues %s, types %s",
                    self.name,
                    ", ".join(f"{q}={n}" for q, n in self.queues.items()),
                    ", ".join(self.types),
                )
            self._start_parts(parts)
            await state.stop.wait()
            await self._shutdown(parts)
        except asyncio.CancelledError:
            # run_async itself was cancelled: hand back what we hold, quickly.
            state.request_stop(abort=True)
            with suppress(BaseException):
                await asyncio.shield(self._shutdown(parts))
            raise
        finally:
            await self._tear_down(parts)
        counts = state.outcomes.counts
        summary = RunSummary(**{k: counts[k] for k in RunSummary.__dataclass_fields__})
        logger.info(
            "worker %s stopped: %s",
            self.name,
            ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no jobs run",
        )
        return summary

    def _setup(self, drain: bool) -> _Parts:
        """The parts of one run, with fresh state (asyncio primitives belong to the running loop)."""
        self._forced_by = None
        state = RunState(
            self.name, _check_queues(self.queues), drain=drain, flush_size=self.flush_size, stats=self._stats
        )
        self._threads.max_threads = state.queues.slots  # one per slot
        connections = Connections(self._conninfo, self.name, state, connect_timeout=self.connect_timeout)
        listener = Listener(state, worker_conninfo(self.listen_dsn or self.dsn, self.name), self.name)
        executor = Executor(state, self._threads, self.name)
        heartbeat = Heartbeat(
            state, connections, worker_name=self.name, lease=self.lease, interval=self.heartbeat_interval
        )
        return _Parts(
            state=state,
            connections=connections,
            listener=listener,
            executor=executor,
            claimer=Claimer(
                state,
                connections,
                worker_name=self.name,
                lease=self.lease,
                poll_interval=self.poll_interval,
                handlers=self._handlers,
                start=executor.start,
                set_waiting=listener.set_waiting,
            ),
            completer=Completer(state, connections, worker_name=self.name, flush_interval=self.flush_interval),
            heartbeat=heartbeat,
            ticker=Ticker(state, connections, worker_name=self.name) if self.tick else None,
            unhandled=(
                UnhandledTypes(
                    worker_name=self.name, queues=list(self.queues), types=self.types, interval=self.check_unhandled
                )
                if self.check_unhandled
                else None
            ),
            registry=Registry(
                self._conninfo,
                worker_name=self.name,
                queues=self.queues,
                stats=self._stats,
                on_was_gone=heartbeat.beat_now,
                types=self.types,
            ),
        )

    def _start_parts(self, parts: _Parts) -> None:
        tasks = parts.tasks
        parts.registry.start()  # its own thread and connection (registry.py)
        tasks["claimer"] = self._spawn("claimer", parts.claimer.run)
        tasks["flusher"] = self._spawn("flusher", parts.completer.run)
        tasks["heartbeat"] = self._spawn("heartbeat", parts.heartbeat.run)
        if parts.state.drain:
            return
        if self.listen:
            tasks["listener"] = self._spawn("listener", parts.listener.run)
        if parts.ticker is not None:
            tasks["tick"] = self._spawn("tick", parts.ticker.run)
        if parts.unhandled is not None:
            unhandled = parts.unhandled
            tasks["unhandled"] = self._spawn("unhandled", lambda: unhandled.run(parts.state, parts.connections))
        if self.schedules and not self.tick:
            # Fires due cron schedules (jq_tick does otherwise); safe in every worker at once. Its own
            # connection: a large tick must not starve the claim pool.
            scheduler = Scheduler()
            stop = parts.state.stop
            tasks["scheduler"] = self._spawn(
                "scheduler", lambda: scheduler.run_async(self._conninfo, stop, interval=max(5.0, self.poll_interval))
            )

    def _spawn(self, what: str, loop_fn: Callable[[], Awaitable[Any]]) -> asyncio.Task[None]:
        """Run one of the worker's loops; a bug in it is logged and the loop restarted."""

        async def supervised() -> None:
            backoff = Backoff(first=1.0)
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

    async def _tear_down(self, parts: _Parts) -> None:
        await stop_loops(parts.tasks, self.name)
        # Handlers still running were released or abandoned: stop waiting for them.
        await parts.executor.cancel_leftovers()
        await parts.registry.stop()  # deregisters
        await parts.connections.close()
        self._parts = None
        self._stop_early = None
        parts.done.set()

    async def _shutdown(self, parts: _Parts) -> None:
        await shut_down(
            parts.state,
            parts.connections,
            worker_name=self.name,
            grace=self.shutdown_grace,
            claimer=parts.tasks.get("claimer"),
            flusher=parts.tasks.get("flusher"),
            set_waiting=parts.listener.set_waiting,
        )


def _check_queues(queues: Mapping[str, int]) -> dict[str, int]:
    queues = dict(queues)
    if not queues:
        raise ValueError("queues must name at least one queue")
    for queue, slots in queues.items():
        if not isinstance(queue, str) or not QUEUE_NAME.match(queue):
            raise ValueError(
                f"queue {queue!r} is not a valid queue name (1-{QUEUE_NAME_MAX} letters, digits and _ . : -)"
            )
        if not isinstance(slots, int) or isinstance(slots, bool) or slots < 1:
            raise ValueError(f"queue {queue!r}: slots must be a positive integer, not {slots!r}")
    return queues
