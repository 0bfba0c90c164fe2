"""The service's database access: an async connection pool and one jq_* call per operation.

Nothing here decides anything about the queue, and nothing here holds SQL:
each method runs one call of :mod:`pyjq._calls` (two where a route reports a
final state) on a pooled connection and returns its row dataclasses.
Connections are autocommit and in UTC; each operation is one short transaction
that sets the statement timeout for itself (``set_config(..., true)``: a
session-wide setting would stay on a pooler's server connection, PgBouncer in
transaction mode, for whichever client gets it next).

The pool opens in the app's lifespan; when the app is served without one
(httpx's ASGITransport, for example) it opens on the first request instead.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from .._calls import admin, audit, console, expect_row, jobs, operator, policies, registry
from .._calls import schedules as schedule_calls
from .._calls import storage as storage_calls
from .._calls.session import CONFIGURE_SERVICE_SESSION, SET_ACTOR, SET_STATEMENT_TIMEOUT
from ..client import enqueue_async
from ..dead_letters import closest_groups
from ..errors import JQError

__all__ = ["Database"]


class Database:
    def __init__(
        self, dsn: str, *, min_size: int = 1, max_size: int = 10, timeout: float = 5.0, statement_timeout: float = 30.0
    ):
        kwargs: dict[str, Any] = {"autocommit": True}
        given = conninfo_to_dict(dsn)
        if "application_name" not in given and not os.environ.get("PGAPPNAME"):
            kwargs["application_name"] = "pyjq-http"
        if "connect_timeout" not in given and not os.environ.get("PGCONNECT_TIMEOUT"):
            kwargs["connect_timeout"] = max(1, int(timeout))
        kwargs["prepare_threshold"] = None  # never a server-side prepared statement (PgBouncer)
        self._statement_timeout_ms = int(statement_timeout * 1000)
        self._pool = AsyncConnectionPool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            open=False,
            kwargs=kwargs,
            configure=self._configure,
            check=AsyncConnectionPool.check_connection,
            name="pyjq-http",
        )
        self._opened = False
        self._lock: asyncio.Lock | None = None

    async def _configure(self, conn: psycopg.AsyncConnection) -> None:
        await CONFIGURE_SERVICE_SESSION.run_async(conn)

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

    @asynccontextmanager
    async def _connection(self, actor: str | None = None) -> AsyncIterator[psycopg.AsyncConnection]:
        """One transaction on a pooled connection; ``actor`` names who acts in jq.audit_log (jq.actor)."""
        await self.open()
        async with self._pool.connection() as conn, conn.transaction():
            await SET_STATEMENT_TIMEOUT.run_async(conn, statement_timeout_ms=str(self._statement_timeout_ms))
            if actor is not None:
                await SET_ACTOR.run_async(conn, actor=actor)
            yield conn

    # -- jobs ---------------------------------------------------------------------------

    async def enqueue(
        self,
        *,
        type: str,
        payload: dict[str, Any],
        queue: str,
        priority: int,
        run_at: datetime | None,
        max_attempts: int | None,
        idempotency_key: str | None,
        tenant: str | None,
        concurrency_key: str | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> jobs.EnqueueResult:
        """pyjq.enqueue_async: jq_enqueue in a PRODUCER span when OpenTelemetry is installed."""
        async with self._connection() as conn:
            return await enqueue_async(
                conn,
                type,
                payload,
                queue=queue,
                priority=priority,
                run_at=run_at,
                max_attempts=max_attempts,
                idempotency_key=idempotency_key,
                tenant=tenant,
                concurrency_key=concurrency_key,
                metadata=metadata,
            )

    async def status(self, job_id: UUID) -> jobs.JobStatus | None:
        async with self._connection() as conn:
            return await jobs.STATUS.run_async(conn, job_id=job_id)

    async def cancel(self, job_id: UUID, *, actor: str | None = None) -> tuple[str, str | None]:
        """jq_cancel's answer, and for a finished job its final status."""
        async with self._connection(actor) as conn:
            result = await jobs.CANCEL.run_async(conn, job_id=job_id)
            final = await jobs.STATUS.run_async(conn, job_id=job_id) if result == "finished" else None
        return result, (final.status if final else None)

    # -- dead letters, stats ------------------------------------------------------------

    async def dead_groups(
        self, *, since: datetime | None, type: str | None, error: str | None = None
    ) -> list[admin.DeadGroup]:
        async with self._connection() as conn:
            return await admin.DEAD_GROUPS.run_async(conn, since=since, type=type, error=error)

    async def retry_dead(
        self,
        *,
        type: str | None,
        error: str | None,
        since: datetime | None,
        limit: int | None,
        actor: str | None = None,
    ) -> int:
        async with self._connection(actor=actor) as conn:
            return await admin.RETRY_DEAD.run_async(conn, type=type, error=error, since=since, limit=limit)

    async def dead_retry_hint(self, *, type: str | None, since: datetime | None) -> list[admin.DeadGroup]:
        """The closest groups in the window, for a retry that matched nothing (the type's first, then the largest)."""
        async with self._connection() as conn:
            groups = await admin.DEAD_GROUPS.run_async(conn, since=since, type=None, error=None)
        return closest_groups(groups, type=type)

    # -- the audit log, a job's attempts ------------------------------------------------

    async def audit_log(
        self, *, since: datetime | None, action: str | None, actor: str | None, limit: int, before: int | None
    ) -> list[audit.AuditEntry]:
        async with self._connection() as conn:
            return await audit.AUDIT_LOG.run_async(
                conn, since=since, action=action, actor=actor, limit=limit, before_id=before
            )

    async def job_attempts(self, job_id: UUID) -> list[audit.JobAttempt]:
        async with self._connection() as conn:
            return await audit.JOB_ATTEMPTS.run_async(conn, job_id=job_id)

    async def stats(self) -> list[admin.QueueStats]:
        async with self._connection() as conn:
            return await admin.STATS.run_async(conn)

    async def version(self) -> str:
        async with self._connection() as conn:
            return await admin.VERSION.run_async(conn)

    # -- schedules ----------------------------------------------------------------------

    async def schedule_put(
        self,
        name: str,
        *,
        cron: str,
        timezone: str,
        type: str,
        payload: dict[str, Any],
        queue: str,
        priority: int,
        jitter_seconds: int,
        max_attempts: int | None,
        missed: str,
        actor: str | None = None,
    ) -> tuple[bool, schedule_calls.Schedule]:
        """Create or replace a schedule; (created, the schedule as jq_schedules shows it).

        One transaction (every operation is one): the first slot as jq computes it (jq_cron_slots, as
        pyjq.schedule_put does; a bad cron or timezone raises InvalidArgument before anything is
        written), the put, whose row lock holds off a concurrent delete until the read-back is done.
        """
        async with self._connection(actor=actor) as conn:
            [next_run_at] = await schedule_calls.CRON_SLOTS.run_async(
                conn, cron=cron, timezone=timezone, after=None, count=1
            )
            put = await schedule_calls.SCHEDULE_PUT.run_async(
                conn,
                name=name,
                cron=cron,
                timezone=timezone,
                type=type,
                payload=Jsonb(payload),
                queue=queue,
                priority=priority,
                jitter_seconds=jitter_seconds,
                max_attempts=max_attempts,
                missed=missed,
                next_run_at=next_run_at,
            )
            rows = await schedule_calls.SCHEDULES.run_async(conn, name=name)
        return expect_row(put, "jq_schedule_put").created, rows[0]

    async def schedules(self, name: str | None = None) -> list[schedule_calls.Schedule]:
        async with self._connection() as conn:
            return await schedule_calls.SCHEDULES.run_async(conn, name=name)

    async def cron_slots(
        self, pairs: Iterable[tuple[str, str]], *, after: datetime | None = None, count: int = 1
    ) -> dict[tuple[str, str], list[datetime] | JQError]:
        """The next ``count`` slots of each (cron, timezone) after ``after`` (None: jq's clock), as jq
        computes them; a pair jq refuses maps to its error. One transaction, a savepoint per pair."""
        out: dict[tuple[str, str], list[datetime] | JQError] = {}
        async with self._connection() as conn:
            for cron, timezone in pairs:
                try:
                    async with conn.transaction():
                        out[(cron, timezone)] = await schedule_calls.CRON_SLOTS.run_async(
                            conn, cron=cron, timezone=timezone, after=after, count=count
                        )
                except JQError as exc:
                    out[(cron, timezone)] = exc
        return out

    async def schedule_delete(self, name: str, *, actor: str | None = None) -> bool:
        async with self._connection(actor=actor) as conn:
            return bool(await schedule_calls.SCHEDULE_DELETE.run_async(conn, name=name))

    # -- fairness: tenants, tenant policies, key limits ---------------------------------

    async def tenants(self, queue: str | None = None) -> list[policies.TenantStats]:
        async with self._connection() as conn:
            return await policies.TENANTS.run_async(conn, queue=queue)

    async def tenant_policies(self) -> list[policies.TenantPolicyRow]:
        async with self._connection() as conn:
            return await policies.TENANT_POLICIES.run_async(conn)

    async def tenant_policy_set(
        self, queue: str, tenant: str | None, *, weight: int | None, max_running: int | None, actor: str | None = None
    ) -> policies.TenantPolicy:
        async with self._connection(actor=actor) as conn:
            row = await policies.TENANT_POLICY_SET.run_async(
                conn, queue=queue, tenant=tenant, weight=weight, max_running=max_running
            )
        return expect_row(row, "jq_tenant_policy_set")

    async def tenant_policy_delete(self, queue: str, tenant: str | None, *, actor: str | None = None) -> bool:
        async with self._connection(actor=actor) as conn:
            return bool(await policies.TENANT_POLICY_DELETE.run_async(conn, queue=queue, tenant=tenant))

    async def key_limit_set(self, type: str, max_running: int, *, actor: str | None = None) -> policies.KeyLimit:
        async with self._connection(actor=actor) as conn:
            row = await policies.KEY_LIMIT_SET.run_async(conn, type=type, max_running=max_running)
        return expect_row(row, "jq_key_limit_set")

    async def key_limit_delete(self, type: str, *, actor: str | None = None) -> bool:
        async with self._connection(actor=actor) as conn:
            return bool(await policies.KEY_LIMIT_DELETE.run_async(conn, type=type))

    async def workers(self) -> list[registry.WorkerInfo]:
        async with self._connection() as conn:
            return await registry.WORKERS.run_async(conn)

    async def unhandled_types(self) -> list[registry.UnhandledType]:
        async with self._connection() as conn:
            return await registry.UNHANDLED_TYPES.run_async(conn)

    # -- operator: listing, pauses, bulk actions (pyjq.http.routes.operator_jobs) -------

    async def operator_jobs(
        self, *, filter: dict[str, Any], limit: int, cursor: str | None, oldest_first: bool
    ) -> list[operator.JobRow]:
        async with self._connection() as conn:
            return await operator.JOBS.run_async(
                conn, filter=Jsonb(filter), limit=limit, cursor=cursor, oldest_first=oldest_first
            )

    async def operator_bulk(
        self, function: str, *, filter: dict[str, Any] | None, ids: list[str] | None, limit: int, actor: str
    ) -> int:
        async with self._connection(actor=actor) as conn:
            return await operator.BULK_ACTIONS[function].run_async(
                conn, filter=None if filter is None else Jsonb(filter), ids=ids, limit=limit
            )

    async def queue_pause(self, queue: str, type: str | None, *, actor: str) -> bool:
        async with self._connection(actor=actor) as conn:
            return bool(await operator.QUEUE_PAUSE.run_async(conn, queue=queue, type=type))

    async def queue_resume(self, queue: str, type: str | None, *, actor: str) -> bool:
        async with self._connection(actor=actor) as conn:
            return bool(await operator.QUEUE_RESUME.run_async(conn, queue=queue, type=type))

    async def queue_pauses(self) -> list[operator.QueuePause]:
        async with self._connection() as conn:
            return await operator.QUEUE_PAUSES.run_async(conn)

    # -- the operator console (pyjq.http.ui) ------------------------------------------------

    async def throughput(self, *, since: datetime | None, bucket: timedelta) -> list[console.ThroughputBucket]:
        async with self._connection() as conn:
            return await console.THROUGHPUT.run_async(conn, since=since, bucket=bucket)

    async def job_detail(self, job_id: UUID) -> console.JobDetail | None:
        async with self._connection() as conn:
            return await console.JOB_DETAIL.run_async(conn, job_id=job_id)

    async def dead_discard_group(
        self, *, type: str, error: str, since: datetime | None, limit: int, actor: str | None = None
    ) -> int:
        async with self._connection(actor) as conn:
            return await console.DEAD_DISCARD_GROUP.run_async(conn, type=type, error=error, since=since, limit=limit)

    async def schedule_pause(self, name: str, *, actor: str | None = None) -> bool:
        async with self._connection(actor) as conn:
            return bool(await schedule_calls.SCHEDULE_PAUSE.run_async(conn, name=name))

    async def schedule_resume(self, name: str, *, actor: str | None = None) -> bool:
        async with self._connection(actor) as conn:
            return bool(await schedule_calls.SCHEDULE_RESUME.run_async(conn, name=name))

    # -- the storage of jq.jobs (pyjq.http.routes.storage) ----------------------------------

    async def storage(self) -> list[storage_calls.StoragePart]:
        async with self._connection() as conn:
            return await storage_calls.STORAGE.run_async(conn)
