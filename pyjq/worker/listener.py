"""The LISTEN session: notifications wake queues; waiting marks are set on it.

One dedicated connection LISTENs on the channel of every queue
(``jq_<queue>``). A notification wakes the queues of its channel; ``at <epoch>``
(an insert of a job due within the minute) has the queue claimed at that time
instead. The marks of ``jq_set_waiting`` belong to this connection's backend
(inserts NOTIFY only queues marked waiting), so they are set here, between
notifications, and forgotten when the connection goes. After a (re)connect
every queue is claimed once, in case a notification was missed.

Not used while draining: the claimer claims whenever a slot frees.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import suppress
from typing import Any

import psycopg

from .._calls.worker import SET_WAITING, listen_async, notify_channel
from .connections import DATABASE_ERRORS, POOL_TIMEOUT
from .log import log_db_error, logger
from .state import Queue, RunState
from .timing import Backoff, wait

__all__ = ["Listener"]


class Listener:
    def __init__(self, state: RunState, conninfo: str, worker_name: str):
        self._state = state
        self._conninfo = conninfo
        self._name = worker_name
        self._channels: dict[str, list[Queue]] = {}
        for q in state.queues:
            self._channels.setdefault(notify_channel(q.name), []).append(q)
        self._conn: psycopg.AsyncConnection[Any] | None = None
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
            return await asyncio.wait_for(asyncio.shield(fut), POOL_TIMEOUT)
        except TimeoutError:
            return False

    async def run(self) -> None:
        """Owns the LISTEN connection: connects, listens, reconnects, until the worker stops."""
        backoff = Backoff()
        first = True
        while not self._state.stop.is_set():
            conn: psycopg.AsyncConnection[Any] | None = None
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self._conninfo,
                    autocommit=True,
                    keepalives=1,
                    keepalives_idle=30,
                    keepalives_interval=10,
                    keepalives_count=3,
                )
                for channel in self._channels:
                    await listen_async(conn, channel)
                self._conn = conn
                if not first:
                    logger.info("worker %s: listening again", self._name)
                first = False
                backoff.reset()
                # Claim every queue once: a notification may have been missed while
                # disconnected, and the claims mark idle queues waiting again.
                self._state.queues.wake_all()
                await self._session(conn)
            except DATABASE_ERRORS as exc:
                log_db_error(self._name, "listen", exc)
            finally:
                self._conn = None
                self._forget_marks()
                if conn is not None:
                    with suppress(Exception):
                        await conn.close()
            await wait(self._state.stop, backoff.next())

    def _forget_marks(self) -> None:
        """The connection is gone, and with its backend the marks it held."""
        for q in self._state.queues:
            q.marked(False)
        for _queues, _waiting, fut in self._marks:
            if not fut.done():
                fut.set_result(False)
        self._marks.clear()

    async def _session(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Set the marks asked for, wait for notifications or more marks; returns when the connection fails."""
        while True:
            await self._set_marks(conn)
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

    async def _set_marks(self, conn: psycopg.AsyncConnection[Any]) -> None:
        while self._marks:
            queues, waiting, fut = self._marks.pop(0)
            self._state.stats["set_waiting"] += 1
            self._state.stats["round_trips"] += 1
            await SET_WAITING.run_async(conn, queues=[q.name for q in queues], worker=self._name, waiting=waiting)
            for q in queues:
                q.marked(waiting)
            if not fut.done():
                fut.set_result(True)

    async def _receive(self, conn: psycopg.AsyncConnection[Any]) -> None:
        async for note in conn.notifies():
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
