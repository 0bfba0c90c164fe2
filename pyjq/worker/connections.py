"""The worker's connections (the LISTEN connection is the listener's own).

Connection loss never kills the worker: every part catches the errors in
:data:`DATABASE_ERRORS`, backs off and tries again. While shutting down, a
connection is waited for no longer than the shutdown deadline.

Why not psycopg_pool: after a server crash its reconnect attempts back off 1 s,
2 s, 4 s..., so workers claimed again about 5.4 s after the server came back.
Here a part that needs a connection during an outage probes the server itself,
every :data:`PROBE_INTERVAL` seconds for the first :data:`FAST_PROBING`
seconds of the outage (then every second), and goes on within one probe
interval of the server accepting connections. A connection that failed makes
every idle one suspect: each is checked with an empty statement before its
next use, so a restart costs no part a failed call on a dead connection it
did not know about.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.pq import TransactionStatus

from .._calls.worker import VERSION
from ..errors import JQError
from .log import logger, oneline
from .state import RunState
from .timing import Backoff, wait

__all__ = [
    "DATABASE_ERRORS",
    "POOL_TIMEOUT",
    "Connections",
    "DatabaseUnreachable",
    "database_address",
    "probe_delay",
    "worker_conninfo",
]

# What a call can raise: psycopg's errors, and jq's (pyjq.errors, mapped by the calls).
# psycopg.OperationalError among them means the database could not be reached.
DATABASE_ERRORS = (psycopg.Error, JQError)
POOL_TIMEOUT = 10.0  # the longest a part waits for a connection before its call fails
MAX_CONNECTIONS = 5  # claimer, completer, heartbeat, tick, unhandled-types check at once
PROBE_INTERVAL = 0.25  # seconds between connection attempts early in an outage
FAST_PROBING = 30.0  # seconds of an outage probed every PROBE_INTERVAL; then every second
CHECK_AFTER_IDLE = 5.0  # an idle connection unused this long is checked before use


class DatabaseUnreachable(psycopg.OperationalError):
    """The worker could not reach its database within ``connect_timeout`` seconds."""


def worker_conninfo(dsn: str, worker_name: str) -> str:
    """The dsn, with an application_name and a connect_timeout unless it sets them."""
    given = conninfo_to_dict(dsn)
    extra: dict[str, Any] = {}
    if "application_name" not in given:
        # Operators (and tests) can tell whose connection is whose in pg_stat_activity.
        extra["application_name"] = f"pyjq worker {worker_name}"[:63]
    if "connect_timeout" not in given:
        extra["connect_timeout"] = 10  # a black-holed host must not hang a reconnect for ever
    return make_conninfo(dsn, **extra)


def database_address(conninfo: str) -> str:
    """host:port/dbname of a conninfo, as libpq resolves the missing parts (for log lines)."""
    given = conninfo_to_dict(conninfo)
    host = given.get("host") or given.get("hostaddr") or os.environ.get("PGHOST") or "localhost (unix socket)"
    port = given.get("port") or os.environ.get("PGPORT") or "5432"
    dbname = given.get("dbname") or os.environ.get("PGDATABASE") or given.get("user") or "(default)"
    return f"{host}:{port}/{dbname}"


def probe_delay(outage: float) -> float:
    """Seconds until the next connection attempt, ``outage`` seconds into an outage."""
    return PROBE_INTERVAL if outage < FAST_PROBING else 1.0


async def connect(conninfo: str, **kwargs: Any) -> psycopg.AsyncConnection[Any]:
    """An autocommit connection that never prepares statements (PgBouncer in transaction mode)."""
    return await psycopg.AsyncConnection.connect(conninfo, autocommit=True, prepare_threshold=None, **kwargs)


class Connections:
    """Up to MAX_CONNECTIONS autocommit connections for one run, reused while healthy."""

    def __init__(self, conninfo: str, worker_name: str, state: RunState, *, connect_timeout: float | None = None):
        self._conninfo = conninfo
        self._name = worker_name
        self._state = state
        self._connect_timeout = connect_timeout
        self.address = database_address(conninfo)
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._last_used: dict[int, float] = {}  # id(conn) -> monotonic time it was given back
        self._suspect: set[int] = set()  # idle connections to check before their next use
        self._slots = asyncio.Semaphore(MAX_CONNECTIONS)
        self._outage_since: float | None = None  # monotonic start of the current outage
        self._closed = False

    async def open(self) -> None:
        """Connect and check that jq is installed. An unreachable database is retried with a
        growing delay, each attempt logged with the address and the error; after
        ``connect_timeout`` seconds (when given) :class:`DatabaseUnreachable` is raised."""
        backoff = Backoff(first=0.5)
        started = time.monotonic()
        attempt = 0
        while not self._state.stop.is_set():
            attempt += 1
            try:
                conn = await connect(self._conninfo)
            except psycopg.OperationalError as exc:
                waited = time.monotonic() - started
                if self._connect_timeout is not None and waited >= self._connect_timeout:
                    raise DatabaseUnreachable(
                        f"cannot reach the database at {self.address} after {attempt} attempts in {waited:.1f} s"
                        f" (connect timeout {self._connect_timeout:g} s): {oneline(exc)}"
                    ) from exc
                delay = backoff.next()
                if self._connect_timeout is not None:
                    delay = max(0.0, min(delay, self._connect_timeout - waited))
                logger.warning(
                    "worker %s: cannot reach the database at %s (%s); retrying in %.1f s (attempt %d)",
                    self._name,
                    self.address,
                    oneline(exc),
                    delay,
                    attempt,
                )
                await wait(self._state.stop, delay)
                continue
            try:
                await VERSION.run_async(conn)
            except BaseException:
                await conn.close()
                raise
            self._state.stats["version"] += 1
            self._give_back(conn)
            return

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A connection of the run; while shutting down, waits no longer than the shutdown deadline."""
        timeout = min(POOL_TIMEOUT, max(0.1, self._state.deadline - time.monotonic()))
        deadline = time.monotonic() + timeout
        try:
            async with asyncio.timeout(timeout):  # not wait_for: it can swallow a cancellation (timing.py)
                await self._slots.acquire()
        except TimeoutError:
            raise psycopg.OperationalError(f"no free connection to {self.address} within {timeout:.1f} s") from None
        try:
            conn = await self._take(deadline)
            try:
                yield conn
            finally:
                self._give_back(conn)
        finally:
            self._slots.release()

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            with suppress(Exception):
                await conn.close()

    async def _take(self, deadline: float) -> psycopg.AsyncConnection[Any]:
        """An idle connection that works, else a new one (probing the server until ``deadline``)."""
        while self._idle:
            conn = self._idle.pop()
            if await self._usable(conn):
                return conn
            self._last_used.pop(id(conn), None)
            with suppress(Exception):
                await conn.close()
        return await self._connect_until(deadline)

    async def _usable(self, conn: psycopg.AsyncConnection[Any]) -> bool:
        key = id(conn)
        suspect = key in self._suspect
        self._suspect.discard(key)
        if conn.closed or conn.broken:
            return False
        if not suspect and time.monotonic() - self._last_used.get(key, 0.0) <= CHECK_AFTER_IDLE:
            return True
        try:
            await conn.execute("", prepare=False)
        except psycopg.Error:
            return False
        return True

    async def _connect_until(self, deadline: float) -> psycopg.AsyncConnection[Any]:
        """Connect; during an outage try again every probe_delay() until ``deadline``."""
        while True:
            try:
                conn = await connect(self._conninfo)
            except psycopg.OperationalError as exc:
                now = time.monotonic()
                if self._outage_since is None:
                    self._outage_since = now
                    logger.warning(
                        "worker %s: cannot reach the database at %s (%s); trying again every %.2f s",
                        self._name,
                        self.address,
                        oneline(exc),
                        PROBE_INTERVAL,
                    )
                delay = probe_delay(now - self._outage_since)
                if now + delay >= deadline or self._state.stop.is_set():
                    raise
                await asyncio.sleep(delay)
                continue
            if self._outage_since is not None:
                logger.info(
                    "worker %s: the database at %s answers again (after %.1f s)",
                    self._name,
                    self.address,
                    time.monotonic() - self._outage_since,
                )
                self._outage_since = None
            return conn

    def _give_back(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Keep a healthy connection for the next call; drop a broken one (and suspect the others)."""
        healthy = not (conn.closed or conn.broken) and conn.info.transaction_status == TransactionStatus.IDLE
        if healthy and not self._closed:
            self._last_used[id(conn)] = time.monotonic()
            self._idle.append(conn)
            return
        self._last_used.pop(id(conn), None)
        if not healthy:
            self._suspect.update(id(c) for c in self._idle)
        if not conn.closed:
            asyncio.get_running_loop().create_task(conn.close())
