"""The producer and admin side of jq: one SQL function call per operation.

Every function takes the caller's psycopg 3 connection and runs inside
whatever transaction the caller has open, so a job enqueued together with a
business change exists if and only if that change commits::

    with conn.transaction():
        conn.execute("insert into users (email) values (%s)", [email])
        pyjq.enqueue(conn, "send_welcome_email", {"email": email})

Each function is named like its SQL function without ``jq_`` and has an
``_async`` twin taking a psycopg ``AsyncConnection``. The SQL text of every
call lives in :mod:`pyjq._calls`; nothing here decides anything about the
queue: the jq_* functions do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from . import tracing
from ._adapters import takes_async_connection, takes_connection
from ._calls import expect_row
from ._calls.admin import DEAD_GROUPS, MAINTAIN, RETRY_DEAD, STATS, VERSION, DeadGroup, QueueStats
from ._calls.jobs import CANCEL, ENQUEUE, ENQUEUE_MANY, STATUS, EnqueueResult, JobStatus

__all__ = [
    "DeadGroup",
    "EnqueueResult",
    "JobStatus",
    "QueueStats",
    "cancel",
    "cancel_async",
    "dead_groups",
    "dead_groups_async",
    "enqueue",
    "enqueue_async",
    "enqueue_many",
    "enqueue_many_async",
    "maintain",
    "maintain_async",
    "retry_dead",
    "retry_dead_async",
    "stats",
    "stats_async",
    "status",
    "status_async",
    "version",
    "version_async",
]


# -- enqueue ------------------------------------------------------------------


def _enqueue_params(
    type: str,
    payload: Mapping[str, Any] | None,
    queue: str,
    priority: int,
    run_at: datetime | None,
    max_attempts: int | None,
    idempotency_key: str | None,
    tenant: str | None,
    concurrency_key: str | None,
    metadata: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    return {
        "type": type,
        "payload": Jsonb(dict(payload) if payload is not None else {}),
        "queue": queue,
        "priority": priority,
        "run_at": run_at,
        "max_attempts": max_attempts,
        "idempotency_key": idempotency_key,
        "tenant": tenant,
        "concurrency_key": concurrency_key,
        "metadata": Jsonb(metadata) if metadata is not None else None,
    }


def _jobs_json(jobs: Iterable[Mapping[str, Any]], send: tracing.Sending) -> Jsonb:
    """jq_enqueue_many's argument: the jobs as a JSON array, run_at as ISO text,
    the trace context of ``send`` in each job's metadata."""
    out = []
    for job in jobs:
        item = dict(job)
        run_at = item.get("run_at")
        if isinstance(run_at, datetime):
            if run_at.tzinfo is None:
                raise ValueError("run_at must be timezone-aware")
            item["run_at"] = run_at.isoformat()
        metadata = send.carrier(item.get("metadata"))
        if metadata is not None:
            item["metadata"] = metadata
        out.append(item)
    send.sent_batch((item.get("queue") or "default" for item in out), len(out))
    return Jsonb(out)


@takes_connection
def enqueue(
    conn: psycopg.Connection,
    type: str,
    payload: Mapping[str, Any] | None = None,
    *,
    queue: str = "default",
    priority: int = 0,
    run_at: datetime | None = None,
    max_attempts: int | None = None,
    idempotency_key: str | None = None,
    tenant: str | None = None,
    concurrency_key: str | None = None,
    metadata: Mapping[str, str] | None = None,
) -> EnqueueResult:
    """Enqueue one job in the connection's current transaction (jq_enqueue).

    Jobs of one type that share a ``concurrency_key`` run at most N at a time
    (N = 1 unless set with :func:`pyjq.key_limit_set`); ``tenant`` is the
    tenant jq_claim shares the queue between (see :mod:`pyjq.policies`).
    ``metadata`` is the job's headers (string values, 8 KiB at most); with
    OpenTelemetry installed the call runs in a PRODUCER span whose trace
    context is added to them (:mod:`pyjq.tracing`).
    """
    with tracing.sending(queue) as send:
        metadata = send.carrier(metadata)
        params = _enqueue_params(
            type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant, concurrency_key, metadata
        )
        result = expect_row(ENQUEUE.run(conn, **params), "jq_enqueue")
        send.sent(result.job_id)
    return result


@takes_async_connection
async def enqueue_async(
    conn: psycopg.AsyncConnection,
    type: str,
    payload: Mapping[str, Any] | None = None,
    *,
    queue: str = "default",
    priority: int = 0,
    run_at: datetime | None = None,
    max_attempts: int | None = None,
    idempotency_key: str | None = None,
    tenant: str | None = None,
    concurrency_key: str | None = None,
    metadata: Mapping[str, str] | None = None,
) -> EnqueueResult:
    """Enqueue one job in the async connection's current transaction (jq_enqueue)."""
    with tracing.sending(queue) as send:
        metadata = send.carrier(metadata)
        params = _enqueue_params(
            type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant, concurrency_key, metadata
        )
        result = expect_row(await ENQUEUE.run_async(conn, **params), "jq_enqueue")
        send.sent(result.job_id)
    return result


@takes_connection
def enqueue_many(conn: psycopg.Connection, jobs: Iterable[Mapping[str, Any]]) -> list[EnqueueResult]:
    """Enqueue many jobs in one call (jq_enqueue_many); results in input order.

    Each job is a mapping with the keys type, payload, queue, priority, run_at,
    max_attempts, idempotency_key, tenant, concurrency_key, metadata (all but
    type optional). With OpenTelemetry installed the batch is one PRODUCER
    span, whose trace context goes into every job's metadata.
    """
    with tracing.sending() as send:
        return ENQUEUE_MANY.run(conn, jobs=_jobs_json(jobs, send))


@takes_async_connection
async def enqueue_many_async(conn: psycopg.AsyncConnection, jobs: Iterable[Mapping[str, Any]]) -> list[EnqueueResult]:
    """enqueue_many on an async connection."""
    with tracing.sending() as send:
        return await ENQUEUE_MANY.run_async(conn, jobs=_jobs_json(jobs, send))


# -- status, cancel -----------------------------------------------------------


@takes_connection
def status(conn: psycopg.Connection, job_id: UUID | str) -> JobStatus | None:
    """Where a job is and how it went (jq_status); None for an unknown id."""
    return STATUS.run(conn, job_id=job_id)


@takes_async_connection
async def status_async(conn: psycopg.AsyncConnection, job_id: UUID | str) -> JobStatus | None:
    """status on an async connection."""
    return await STATUS.run_async(conn, job_id=job_id)


@takes_connection
def cancel(conn: psycopg.Connection, job_id: UUID | str) -> str:
    """Cancel a job (jq_cancel): 'cancelled', 'running' (cooperative request), 'finished' or 'not_found'."""
    return CANCEL.run(conn, job_id=job_id)


@takes_async_connection
async def cancel_async(conn: psycopg.AsyncConnection, job_id: UUID | str) -> str:
    """cancel on an async connection."""
    return await CANCEL.run_async(conn, job_id=job_id)


# -- dead letters, stats, maintenance ------------------------------------------


@takes_connection
def dead_groups(
    conn: psycopg.Connection, *, since: datetime | None = None, type: str | None = None, error: str | None = None
) -> list[DeadGroup]:
    """Dead jobs grouped by type and normalised error, largest first (jq_dead_groups).

    ``error`` keeps the groups retry_dead would take with it: the fingerprint, a raw message of the
    group, or a case-insensitive substring of the fingerprint or of the sample error's first line.
    """
    return DEAD_GROUPS.run(conn, since=since, type=type, error=error)


@takes_async_connection
async def dead_groups_async(
    conn: psycopg.AsyncConnection,
    *,
    since: datetime | None = None,
    type: str | None = None,
    error: str | None = None,
) -> list[DeadGroup]:
    """dead_groups on an async connection."""
    return await DEAD_GROUPS.run_async(conn, since=since, type=type, error=error)


@takes_connection
def retry_dead(
    conn: psycopg.Connection,
    *,
    type: str | None = None,
    error: str | None = None,
    since: datetime | None = None,
    limit: int | None = None,
) -> int:
    """Requeue the dead jobs of the groups ``type`` and ``error`` select, as dead_groups lists them
    (jq_retry_dead); returns how many, 0 when nothing matched (pyjq.dead_retry_hint lists the closest
    groups then)."""
    return RETRY_DEAD.run(conn, type=type, error=error, since=since, limit=limit)


@takes_async_connection
async def retry_dead_async(
    conn: psycopg.AsyncConnection,
    *,
    type: str | None = None,
    error: str | None = None,
    since: datetime | None = None,
    limit: int | None = None,
) -> int:
    """retry_dead on an async connection."""
    return await RETRY_DEAD.run_async(conn, type=type, error=error, since=since, limit=limit)


@takes_connection
def stats(conn: psycopg.Connection) -> list[QueueStats]:
    """Per-queue depth, running count, oldest ready age and dead count (jq_stats)."""
    return STATS.run(conn)


@takes_async_connection
async def stats_async(conn: psycopg.AsyncConnection) -> list[QueueStats]:
    """stats on an async connection."""
    return await STATS.run_async(conn)


@takes_connection
def maintain(conn: psycopg.Connection) -> dict[str, Any]:
    """Rotate history partitions, purge expired keys, reap expired leases (jq_maintain)."""
    return MAINTAIN.run(conn)


@takes_async_connection
async def maintain_async(conn: psycopg.AsyncConnection) -> dict[str, Any]:
    """maintain on an async connection."""
    return await MAINTAIN.run_async(conn)


@takes_connection
def version(conn: psycopg.Connection) -> str:
    """The installed jq schema release (jq_version)."""
    return VERSION.run(conn)


@takes_async_connection
async def version_async(conn: psycopg.AsyncConnection) -> str:
    """version on an async connection."""
    return await VERSION.run_async(conn)
