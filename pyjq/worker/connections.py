"""The worker's connection pool (the LISTEN connection is the listener's own).

Connection loss never kills the worker: every part catches the errors in
:data:`DATABASE_ERRORS`, backs off and tries again. While shutting down, a
connection is waited for no longer than the shutdown deadline.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import AsyncConnectionPool

from .._calls.worker import VERSION
from ..errors import JQError
from .log import logger, oneline
from .state import RunState
from .timing import Backoff, wait

__all__ = ["DATABASE_ERRORS", "POOL_TIMEOUT", "Connections", "worker_conninfo"]

# What a call can raise: psycopg's errors, and jq's (pyjq.errors, mapped by the calls).
# psycopg.OperationalError among them means the database could not be reached.
DATABASE_ERRORS = (psycopg.Error, JQError)
POOL_TIMEOUT = 10.0


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


class Connections:
    """A pool of autocommit connections for one run."""

    def __init__(self, conninfo: str, worker_name: str, state: RunState):
        self._conninfo = conninfo
        self._name = worker_name
        self._state = state
        self._pool: AsyncConnectionPool | None = None
        self._last_used: weakref.WeakKeyDictionary[psycopg.AsyncConnection[Any], float] = weakref.WeakKeyDictionary()

    async def open(self) -> None:
        """Open the pool and check that jq is installed; waits out an unreachable database."""
        self._pool = AsyncConnectionPool(
            self._conninfo,
            min_size=1,
            max_size=4,
            kwargs={"autocommit": True},
            check=self._check_connection,
            open=False,
            timeout=POOL_TIMEOUT,
            name=f"pyjq-worker-{self._name}",
        )
        await self._pool.open(wait=False)
        backoff = Backoff()
        while not self._state.stop.is_set():
            try:
                async with self.connection() as conn:
                    await VERSION.run_async(conn)
                self._state.stats["version"] += 1
                return
            except psycopg.OperationalError as exc:
                logger.warning("worker %s: database unreachable (%s); retrying", self._name, oneline(exc))
                await wait(self._state.stop, backoff.next())

    async def _check_connection(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Pool check: a round trip, but only for a connection unused for a while
        (a broken connection that was used just now fails its next call instead,
        which every caller retries)."""
        if time.monotonic() - self._last_used.get(conn, 0.0) > 5.0:
            await conn.execute("")

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A pooled connection; while shutting down, waits no longer than the shutdown deadline."""
        assert self._pool is not None
        timeout = min(POOL_TIMEOUT, max(0.1, self._state.deadline - time.monotonic()))
        async with self._pool.connection(timeout=timeout) as conn:
            try:
                yield conn
            finally:
                self._last_used[conn] = time.monotonic()

    async def close(self) -> None:
        if self._pool is not None:
            with suppress(Exception):
                await self._pool.close(timeout=1.0)
            self._pool = None
