"""The service's database access: an async connection pool and one jq_* call per operation.

Nothing here decides anything about the queue; each method calls one SQL
function (two where a route reports a final state) with named arguments and
returns its rows as dicts. Connections are autocommit, in UTC, with a
statement timeout, so each call is its own short transaction.

The pool opens in the app's lifespan; when the app is served without one
(httpx's ASGITransport, for example) it opens on the first request instead.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from .. import client

__all__ = ["Database"]


class Database:
    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 5.0,
                 statement_timeout: float = 30.0):
        kwargs: dict[str, Any] = {"autocommit": True}
        given = conninfo_to_dict(dsn)
        if "application_name" not in given and not os.environ.get("PGAPPNAME"):
            kwargs["application_name"] = "pyjq-http"
        if "connect_timeout" not in given and not os.environ.get("PGCONNECT_TIMEOUT"):
            kwargs["connect_timeout"] = max(1, int(timeout))
        self._statement_timeout_ms = int(statement_timeout * 1000)
        self._pool = AsyncConnectionPool(
            dsn, min_size=min_size, max_size=max_size, timeout=timeout, open=False, kwargs=kwargs,
            configure=self._configure, check=AsyncConnectionPool.check_connection, name="pyjq-http",
        )
        self._opened = False
        self._lock: asyncio.Lock | None = None

    async def _configure(self, conn: psycopg.AsyncConnection) -> None:
        # UTC, so every timestamp read back is within Python's range and printed with Z.
        await conn.execute("select set_config('timezone', 'UTC', false), set_config('statement_timeout', %s, false)",
                           [str(self._statement_timeout_ms)])

    async def open(self) -> None:
        if self._opened:
            return
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if not self._opened:
                # Without waiting: a service started while the database is down answers 503 until it is back.
                await self._pool.open(wait=False)
                self._opened = True

    async def close(self) -> None:
        if self._opened:
            self._opened = False
            await self._pool.close()

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        await self.open()
        async with self._pool.connection() as conn:
            async with conn.cursor(row_factory=dict_row) as cur:
                await cur.execute(sql, params)
                return await cur.fetchall()

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._rows(sql, params)
        return next(iter(rows[0].values())) if rows else None

    # -- jobs ---------------------------------------------------------------------------

    async def enqueue(self, *, type: str, payload: dict[str, Any], queue: str, priority: int,
                      run_at: datetime | None, max_attempts: int | None, idempotency_key: str | None,
                      tenant: str | None, concurrency_key: str | None = None) -> client.EnqueueResult:
        await self.open()
        async with self._pool.connection() as conn:
            return await client.enqueue_async(conn, type, payload, queue=queue, priority=priority, run_at=run_at,
                                              max_attempts=max_attempts, idempotency_key=idempotency_key,
                                              tenant=tenant, concurrency_key=concurrency_key)

    async def status(self, job_id: UUID) -> client.JobStatus | None:
        await self.open()
        async with self._pool.connection() as conn:
            return await client.status_async(conn, job_id)

    async def cancel(self, job_id: UUID) -> tuple[str, str | None]:
        """jq_cancel's answer, and for a finished job its final status."""
        await self.open()
        async with self._pool.connection() as conn:
            result = await client.cancel_async(conn, job_id)
            final = await client.status_async(conn, job_id) if result == "finished" else None
        return result, (final.status if final else None)

    # -- dead letters, stats ------------------------------------------------------------

    async def dead_groups(self, *, since: datetime | None, type: str | None) -> list[dict[str, Any]]:
        return await self._rows("select * from jq.jq_dead_groups(p_since => %s::timestamptz, p_type => %s::text)",
                                [since, type])

    async def retry_dead(self, *, type: str | None, error: str | None, since: datetime | None,
                         limit: int | None) -> int:
        return await self._scalar(
            "select jq.jq_retry_dead(p_type => %s::text, p_error => %s::text, p_since => %s::timestamptz,"
            " p_limit => %s::integer)", [type, error, since, limit])

    async def stats(self) -> list[dict[str, Any]]:
        return await self._rows("select * from jq.jq_stats()")

    async def version(self) -> str:
        return await self._scalar("select jq.jq_version()")

    # -- schedules ----------------------------------------------------------------------

    async def schedule_put(self, name: str, *, cron: str, timezone: str, type: str, payload: dict[str, Any],
                           queue: str, priority: int, jitter_seconds: int, max_attempts: int | None,
                           missed: str, next_run_at: datetime | None) -> tuple[bool, dict[str, Any]]:
        """Create or replace a schedule; (created, the schedule as jq_schedules shows it).

        One transaction: the put's row lock holds off a concurrent delete until the read-back is done.
        """
        await self.open()
        async with self._pool.connection() as conn:
            async with conn.transaction():
                cur = conn.cursor(row_factory=dict_row)
                await cur.execute(
                    "select created from jq.jq_schedule_put(p_name => %s::text, p_cron => %s::text,"
                    " p_timezone => %s::text, p_type => %s::text, p_payload => %s::jsonb, p_queue => %s::text,"
                    " p_priority => %s::integer, p_jitter_seconds => %s::integer, p_max_attempts => %s::integer,"
                    " p_missed => %s::text, p_next_run_at => %s::timestamptz)",
                    [name, cron, timezone, type, Jsonb(payload), queue, priority, jitter_seconds, max_attempts,
                     missed, next_run_at])
                created = (await cur.fetchone())["created"]
                await cur.execute("select * from jq.jq_schedules(p_name => %s::text)", [name])
                row = await cur.fetchone()
        return bool(created), row

    async def schedules(self, name: str | None = None) -> list[dict[str, Any]]:
        return await self._rows("select * from jq.jq_schedules(p_name => %s::text)", [name])

    async def schedule_delete(self, name: str) -> bool:
        return bool(await self._scalar("select jq.jq_schedule_delete(p_name => %s::text)", [name]))

    # -- fairness: tenants, tenant policies, key limits ---------------------------------

    async def tenants(self, queue: str | None = None) -> list[dict[str, Any]]:
        return await self._rows("select * from jq.jq_tenants(p_queue => %s::text)", [queue])

    async def tenant_policies(self) -> list[dict[str, Any]]:
        return await self._rows("select * from jq.jq_tenant_policies()")

    async def tenant_policy_set(self, queue: str, tenant: str | None, *, weight: int | None,
                                max_running: int | None) -> dict[str, Any]:
        rows = await self._rows(
            "select * from jq.jq_tenant_policy_set(p_queue => %s::text, p_tenant => %s::text,"
            " p_weight => %s::integer, p_max_running => %s::integer)", [queue, tenant, weight, max_running])
        return rows[0]

    async def tenant_policy_delete(self, queue: str, tenant: str | None) -> bool:
        return bool(await self._scalar(
            "select jq.jq_tenant_policy_delete(p_queue => %s::text, p_tenant => %s::text)", [queue, tenant]))

    async def key_limit_set(self, type: str, max_running: int) -> dict[str, Any]:
        rows = await self._rows("select * from jq.jq_key_limit_set(p_type => %s::text, p_max_running => %s::integer)",
                                [type, max_running])
        return rows[0]

    async def key_limit_delete(self, type: str) -> bool:
        return bool(await self._scalar("select jq.jq_key_limit_delete(p_type => %s::text)", [type]))
