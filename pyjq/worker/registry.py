"""The worker's entry in the registry (jq.workers): register, beat, deregister.

At start the worker registers (name, host, pid, queues and slots, version, and
the job types it has handlers for: jq_unhandled_types reads them);
then it beats every ``gone_after / 5`` seconds (3 s of the default 15 s),
one ``jq_worker_beat`` statement, busy or idle; a clean stop deregisters.
A worker silent for ``gone_after`` is declared gone by any other worker's
next claim (or ``jq_maintain``), and the jobs it held go back to the queue at
once instead of at lease expiry.

Why a thread with a connection of its own: the beat must go on while the
event loop is blocked (a handler that forgot to await, a long GC pause in
another thread's work) and while the pool is busy or being re-established.
So only a stopped process (SIGSTOP, a pause that holds the GIL) goes silent,
and one paused for less than ``gone_after`` minus one beat interval (12 s by
default) is never declared gone: its thread beats as soon as it runs again.
One paused longer is declared gone; its next beat answers ``was_gone``, and
the worker then checks its leases at once (``on_was_gone``: the lease
heartbeat), abandoning the jobs that were given back; their completions
would be refused anyway (``lease_lost``).
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from .._calls.registry import BEAT, DEREGISTER, REGISTER
from .connections import DATABASE_ERRORS
from .log import logger, oneline
from .timing import Backoff

__all__ = ["Registry"]

BEATS_PER_GONE_AFTER = 5  # beat every fifth of gone_after: 3 s of the default 15 s


class Registry:
    def __init__(
        self,
        conninfo: str,
        *,
        worker_name: str,
        queues: Mapping[str, int],
        stats: Counter[str],
        on_was_gone: Callable[[], None],
        version: str | None = None,
        types: Sequence[str] | None = None,
    ):
        self._conninfo = conninfo
        self._name = worker_name
        self._queues = dict(queues)
        self._stats = stats
        self._on_was_gone = on_was_gone
        self._version = version or _pyjq_version()
        self._types = sorted(types) if types else None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.interval = 3.0  # until jq_worker_register says gone_after

    def start(self) -> None:
        """Start beating (from the event loop: its callbacks are scheduled there)."""
        self._loop = asyncio.get_running_loop()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"pyjq-registry {self._name}", daemon=True)
        self._thread.start()

    async def stop(self, timeout: float = 5.0) -> None:
        """Stop beating and deregister (at most ``timeout`` seconds)."""
        thread = self._thread
        if thread is None:
            return
        self._stop.set()
        await asyncio.to_thread(thread.join, timeout)
        self._thread = None

    # -- the thread ------------------------------------------------------------------

    def _run(self) -> None:
        conn: psycopg.Connection[Any] | None = None
        registered = False
        backoff = Backoff()
        while True:
            try:
                if conn is None:
                    # prepare_threshold=None: no server-side prepared statements (PgBouncer transaction pooling).
                    conn = psycopg.connect(self._conninfo, autocommit=True, prepare_threshold=None)
                if self._stop.is_set():
                    break
                registered = self._register(conn) if not registered else self._beat(conn)
                backoff.reset()
                delay = self.interval if registered else 0.0
            except DATABASE_ERRORS as exc:
                # Once per outage: the pool's parts say the database is unreachable too.
                log = logger.debug if backoff.failures else logger.warning
                log("worker %s: registry beat failed (%s); retrying", self._name, oneline(exc))
                _close(conn)
                conn = None
                delay = min(self.interval, backoff.next())
            if self._stop.wait(delay):
                break
        if registered:
            self._deregister(conn)
        _close(conn)

    def _register(self, conn: psycopg.Connection[Any]) -> bool:
        reg = REGISTER.run(
            conn,
            worker=self._name,
            queues=Jsonb(self._queues),
            host=socket.gethostname()[:255] or None,
            pid=os.getpid(),
            version=self._version,
            types=self._types,
        )
        self._count("worker_register")
        if reg is not None:
            self.interval = max(0.5, reg.gone_after.total_seconds() / BEATS_PER_GONE_AFTER)
            logger.info(
                "worker %s registered; beating every %.1f s (declared gone after %.0f s of silence)",
                self._name,
                self.interval,
                reg.gone_after.total_seconds(),
            )
        return True

    def _beat(self, conn: psycopg.Connection[Any]) -> bool:
        """One beat; False when the registration is gone (register again)."""
        answer = BEAT.run(conn, worker=self._name)
        self._count("worker_beat")
        if answer == "unknown":
            logger.warning("worker %s: not registered (its entry was removed); registering again", self._name)
            return False
        if answer == "was_gone":
            logger.warning(
                "worker %s was declared gone while silent; the jobs it held were requeued, checking its leases now",
                self._name,
            )
            self._call_soon(self._on_was_gone)
        return True

    def _deregister(self, conn: psycopg.Connection[Any] | None) -> None:
        try:
            if conn is None:
                conn = psycopg.connect(self._conninfo, autocommit=True, prepare_threshold=None, connect_timeout=3)
            requeued = DEREGISTER.run(conn, worker=self._name)
            self._count("worker_deregister")
            if requeued:
                logger.warning("worker %s deregistered; %d jobs it still held were requeued", self._name, requeued)
        except DATABASE_ERRORS as exc:
            logger.warning("worker %s: could not deregister (%s)", self._name, oneline(exc))
        finally:
            _close(conn)

    def _count(self, call: str) -> None:
        """Count a call in the worker's stats, on the event loop (their one writer)."""

        def count() -> None:
            self._stats[call] += 1
            self._stats["round_trips"] += 1

        self._call_soon(count)

    def _call_soon(self, fn: Callable[[], None]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(fn)


def _pyjq_version() -> str:
    from .. import __version__  # the package imports the worker: read at run time

    return __version__


def _close(conn: psycopg.Connection[Any] | None) -> None:
    if conn is not None:
        with suppress(Exception):
            conn.close()
