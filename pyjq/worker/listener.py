"""The LISTEN session: notifications wake queues; waiting marks are set on it.

One dedicated connection (the worker's ``listen_dsn``, else its dsn) LISTENs
on the channel of every queue (``jq_<queue>``). A notification wakes the
queues of its channel; ``at <epoch>`` (an insert of a job due within the
minute) has the queue claimed at that time instead. The marks of
``jq_set_waiting`` belong to this connection's backend (inserts NOTIFY only
queues marked waiting), so they are set here, between notifications, only on
the backend that ran LISTEN, and forgotten when the connection goes. After a
(re)connect every queue is claimed once, in case a notification was missed.

A connection that dies quietly: every :data:`CHECK_INTERVAL` seconds the
session is checked with one statement (same backend? still listening on
every channel?) unless something else came through it meanwhile; a statement
on it not answered within :data:`CHECK_TIMEOUT` seconds drops the connection,
which is made again. A terminated backend (``pg_terminate_backend``, a server
restart) is noticed at once, a silent one within CHECK_INTERVAL +
CHECK_TIMEOUT = 10 s (then reconnected). Reconnecting tries again every
0.25 s early in an outage (connections.probe_delay).

Not a session: behind a pooler in transaction mode (PgBouncer) a LISTEN runs
on whichever server connection the transaction got, and notifications reach
nobody. The listener detects it (a second connection lands on the backend that
ran LISTEN, or a later statement on another backend), says so in the log,
removes this worker's waiting marks and stops listening: the safety poll
(``poll_interval``) finds every job. Give the worker a direct ``listen_dsn``
for LISTEN, or ``listen=False`` to say up front that there is none.

Not used while draining: the claimer claims whenever a slot frees.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from contextlib import suppress
from typing import Any, TypeVar

import psycopg

from .._calls.worker import LISTEN_SESSION, SET_WAITING, SET_WAITING_ON_BACKEND, listen_async, notify_channel
from .connections import DATABASE_ERRORS, POOL_TIMEOUT, connect, database_address, probe_delay
from .log import log_db_error, logger
from .state import Queue, RunState
from .timing import wait

__all__ = ["CHECK_INTERVAL", "CHECK_TIMEOUT", "Listener"]

T = TypeVar("T")

CHECK_INTERVAL = 7.0  # seconds between checks of the LISTEN session (when nothing else came through)
CHECK_TIMEOUT = 3.0  # a statement not answered within this: the connection is dead


class NotASession(Exception):
    """The LISTEN connection does not keep its server session (transaction pooling)."""


class Listener:
    def __init__(self, state: RunState, conninfo: str, worker_name: str):
        self._state = state
        self._conninfo = conninfo
        self._name = worker_name
        self._channels: dict[str, list[Queue]] = {}
        for q in state.queues:
            self._channels.setdefault(notify_channel(q.name), []).append(q)
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._backend_pid = 0  # the backend that ran LISTEN
        self._last_answer = 0.0  # monotonic time the connection last answered or delivered
        self.pooled = False  # found not to be a session: listening stopped for good
        # Marks to set on the connection: (queues, waiting, whether it was done).
        self._marks: list[tuple[list[Queue], bool, asyncio.Future[bool]]] = []
        self._marks_kick = asyncio.Event()

    async def set_waiting(self, queues: list[Queue], waiting: bool) -> bool:
        """jq_set_waiting on the LISTEN connection; False if it could not be done."""
        if self._conn is None:
            return False
        fut = asyncio.get_running_loop().create_future()
        self._marks.append((queues, waiting, fut))
        self._marks_kick.set()
        try:
            async with asyncio.timeout(POOL_TIMEOUT):  # not wait_for (timing.py)
                return await asyncio.shield(fut)
        except TimeoutError:
            return False

    async def run(self) -> None:
        """Owns the LISTEN connection: connects, listens, reconnects, until the worker stops
        (or the connection turns out not to be a session)."""
        first = True
        outage_since: float | None = None
        while not self._state.stop.is_set():
            conn: psycopg.AsyncConnection[Any] | None = None
            try:
                conn = await connect(
                    self._conninfo, keepalives=1, keepalives_idle=30, keepalives_interval=10, keepalives_count=3
                )
                await self._listen(conn)
                self._conn = conn
                if not first:
                    logger.info("worker %s: listening again", self._name)
                first = False
                outage_since = None
                # Claim every queue once: a notification may have been missed while
                # disconnected, and the claims mark idle queues waiting again.
                self._state.queues.wake_all()
                await self._session(conn)
            except NotASession as exc:
                await self._give_up_listening(conn, str(exc))
                return
            except DATABASE_ERRORS as exc:
                log_db_error(self._name, "listen", exc)
            finally:
                self._conn = None
                self._forget_marks()
                if conn is not None:
                    with suppress(Exception):
                        await conn.close()
            now = time.monotonic()
            outage_since = outage_since or now
            await wait(self._state.stop, probe_delay(now - outage_since))

    async def _listen(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """LISTEN on every channel, then make sure this connection is a session of its own."""
        for channel in self._channels:
            await listen_async(conn, channel)
        # The server's pid, not conn.info.backend_pid: behind PgBouncer that is PgBouncer's own key.
        own = await LISTEN_SESSION.run_async(conn, channels=list(self._channels))
        if own is None or not own.listening:
            raise NotASession("the statement after LISTEN ran on a backend that does not listen")
        self._backend_pid = own.backend_pid
        self._last_answer = time.monotonic()
        # A second connection never lands on our backend, nor on one that listens on our
        # channels, unless a pooler hands server connections from client to client.
        async with await connect(self._conninfo) as other:
            seen = await LISTEN_SESSION.run_async(other, channels=list(self._channels))
        if seen is not None and (seen.backend_pid == self._backend_pid or seen.listening):
            raise NotASession(f"a second connection landed on backend {seen.backend_pid}, which LISTENs too")

    async def _give_up_listening(self, conn: psycopg.AsyncConnection[Any] | None, why: str) -> None:
        self.pooled = True
        logger.warning(
            "worker %s: the LISTEN connection to %s does not keep its session (%s): a pooler in transaction"
            " mode, such as PgBouncer? Not listening; the safety poll (poll_interval) finds every job. Give"
            " the worker a direct listen_dsn (--listen-dsn) for LISTEN, or listen=False (--no-listen).",
            self._name,
            database_address(self._conninfo),
            why,
        )
        if conn is not None and not conn.closed:
            # Marks are this worker's by name, on whatever backend: remove every one it may have left.
            with suppress(*DATABASE_ERRORS):
                await SET_WAITING.run_async(
                    conn, queues=[q.name for q in self._state.queues], worker=self._name, waiting=False
                )

    def _forget_marks(self) -> None:
        """The connection is gone, and with its backend the marks it held."""
        for q in self._state.queues:
            q.marked(False)
        for _queues, _waiting, fut in self._marks:
            if not fut.done():
                fut.set_result(False)
        self._marks.clear()

    async def _session(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Set the marks asked for, wait for notifications or more marks, check the session
        every CHECK_INTERVAL; returns (or raises) when the connection fails."""
        while True:
            await self._set_marks(conn)
            self._marks_kick.clear()
            receiver = asyncio.create_task(self._receive(conn))
            kicked = asyncio.create_task(self._marks_kick.wait())
            check_in = max(0.0, self._last_answer + CHECK_INTERVAL - time.monotonic())
            try:
                await asyncio.wait({receiver, kicked}, timeout=check_in, return_when=asyncio.FIRST_COMPLETED)
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
            if time.monotonic() >= self._last_answer + CHECK_INTERVAL:
                await self._check_session(conn)

    async def _check_session(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """One statement: still our backend, still listening? Else the connection is done."""
        self._state.stats["listen_check"] += 1
        self._state.stats["round_trips"] += 1
        seen = await self._answered(conn, LISTEN_SESSION.run_async(conn, channels=list(self._channels)))
        if seen is None or seen.backend_pid != self._backend_pid:
            answered = seen.backend_pid if seen else "?"
            raise NotASession(f"backend {answered} answered, LISTEN ran on {self._backend_pid}")
        if not seen.listening:
            raise psycopg.OperationalError("the LISTEN connection no longer listens on every channel")

    async def _answered(self, conn: psycopg.AsyncConnection[Any], statement: Awaitable[T]) -> T:
        """The answer of a statement on the LISTEN connection, within CHECK_TIMEOUT or the connection is closed."""
        task = asyncio.ensure_future(statement)
        done, _pending = await asyncio.wait({task}, timeout=CHECK_TIMEOUT)
        if not done:
            # Close first, then cancel: cancelling alone has psycopg ask the silent backend to
            # cancel the query and wait 5 s more for it.
            await conn.close()
            task.cancel()
            with suppress(BaseException):
                await task
            raise psycopg.OperationalError(f"the LISTEN connection did not answer within {CHECK_TIMEOUT:g} s")
        answer = task.result()
        self._last_answer = time.monotonic()
        return answer

    async def _set_marks(self, conn: psycopg.AsyncConnection[Any]) -> None:
        while self._marks:
            queues, waiting, fut = self._marks.pop(0)
            self._state.stats["set_waiting"] += 1
            self._state.stats["round_trips"] += 1
            done = await self._answered(
                conn,
                SET_WAITING_ON_BACKEND.run_async(
                    conn,
                    queues=[q.name for q in queues],
                    worker=self._name,
                    waiting=waiting,
                    backend_pid=self._backend_pid,
                ),
            )
            if done is None:  # landed on another backend: nothing was marked
                if not fut.done():
                    fut.set_result(False)
                raise NotASession(f"jq_set_waiting ran on another backend than LISTEN ({self._backend_pid})")
            for q in queues:
                q.marked(waiting)
            if not fut.done():
                fut.set_result(True)

    async def _receive(self, conn: psycopg.AsyncConnection[Any]) -> None:
        async for note in conn.notifies():
            self._last_answer = time.monotonic()
            due = _due_time(note.payload)
            for q in self._channels.get(note.channel, ()):
                if due is not None:  # 'at <epoch>': a job becomes ready then; our mark stays
                    q.wake_at_time(time.monotonic() + max(0.0, due - time.time()) + 0.05)
                else:
                    q.notified_by_insert()
            self._state.queues.kick.set()


def _due_time(payload: str) -> float | None:
    """The epoch seconds of an 'at <epoch>' notification (a job due soon), else None."""
    if payload.startswith("at "):
        with suppress(ValueError):
            return float(payload[3:])
    return None
