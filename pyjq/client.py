"""The producer and admin side of jq: one SQL function call per operation.

Every function takes the caller's psycopg 3 connection and runs inside
whatever transaction the caller has open, so a job enqueued together with a
business change exists if and only if that change commits::

    with conn.transaction():
        conn.execute("insert into users (email) values (%s)", [email])
        pyjq.enqueue(conn, "send_welcome_email", {"email": email})

Functions ending in ``_async`` take a psycopg ``AsyncConnection``. Nothing
here decides anything about the queue: the jq_* functions do.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from .errors import from_psycopg

__all__ = [
    "EnqueueResult",
    "JobStatus",
    "DeadGroup",
    "QueueStats",
    "enqueue",
    "enqueue_async",
    "enqueue_many",
    "enqueue_many_async",
    "status",
    "status_async",
    "cancel",
    "cancel_async",
    "dead_groups",
    "retry_dead",
    "stats",
    "maintain",
    "version",
]


@dataclass(frozen=True, slots=True)
class EnqueueResult:
    job_id: UUID
    status: str  # queued | scheduled, or the original's status when duplicate
    duplicate: bool


@dataclass(frozen=True, slots=True)
class JobStatus:
    job_id: UUID
    type: str
    queue: str
    status: str  # scheduled | queued | running | failed_retrying | succeeded | cancelled | dead
    attempts: int
    max_attempts: int
    run_at: datetime
    next_attempt_at: datetime | None
    last_error: str | None
    created_at: datetime
    finished_at: datetime | None
    tenant: str | None = None
    priority: int | None = None
    cancel_requested: bool = False


@dataclass(frozen=True, slots=True)
class DeadGroup:
    type: str
    error: str
    count: int
    first_failed_at: datetime
    last_failed_at: datetime
    sample_error: str | None = None


@dataclass(frozen=True, slots=True)
class QueueStats:
    queue: str
    ready: int
    scheduled: int
    running: int
    oldest_ready_age: timedelta | None
    dead: int


def _from_row(cls: type, row: Mapping[str, Any]):
    """Build a result dataclass from a row, by column name, ignoring columns it does not know."""
    names = cls.__dataclass_fields__.keys()
    return cls(**{k: v for k, v in row.items() if k in names})


# -- enqueue ------------------------------------------------------------------

_ENQUEUE_SQL = (
    "select job_id, status, duplicate from jq.jq_enqueue("
    "p_type => %s::text, p_payload => %s::jsonb, p_queue => %s::text, p_priority => %s::integer,"
    " p_run_at => %s::timestamptz, p_max_attempts => %s::integer,"
    " p_idempotency_key => %s::text, p_tenant => %s::text, p_concurrency_key => %s::text)"
)
_ENQUEUE_MANY_SQL = "select job_id, status, duplicate from jq.jq_enqueue_many(p_jobs => %s::jsonb)"


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
) -> list[Any]:
    return [type, Jsonb(dict(payload) if payload is not None else {}), queue, priority, run_at,
            max_attempts, idempotency_key, tenant, concurrency_key]


def _job_json(job: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(job)
    run_at = out.get("run_at")
    if isinstance(run_at, datetime):
        if run_at.tzinfo is None:
            raise ValueError("run_at must be timezone-aware")
        out["run_at"] = run_at.isoformat()
    return out


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
) -> EnqueueResult:
    """Enqueue one job in the connection's current transaction (jq_enqueue).

    Jobs of one type that share a ``concurrency_key`` run at most N at a time
    (N = 1 unless set with :func:`pyjq.key_limit_set`); ``tenant`` is the
    tenant jq_claim shares the queue between (see :mod:`pyjq.policies`).
    """
    params = _enqueue_params(type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant,
                             concurrency_key)
    try:
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(_ENQUEUE_SQL, params)
            return _from_row(EnqueueResult, cur.fetchone())
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc


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
) -> EnqueueResult:
    """Enqueue one job in the async connection's current transaction (jq_enqueue)."""
    params = _enqueue_params(type, payload, queue, priority, run_at, max_attempts, idempotency_key, tenant,
                             concurrency_key)
    try:
        async with conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(_ENQUEUE_SQL, params)
            return _from_row(EnqueueResult, await cur.fetchone())
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc


def enqueue_many(conn: psycopg.Connection, jobs: Iterable[Mapping[str, Any]]) -> list[EnqueueResult]:
    """Enqueue many jobs in one call (jq_enqueue_many); results in input order.

    Each job is a mapping with the keys type, payload, queue, priority, run_at,
    max_attempts, idempotency_key, tenant, concurrency_key (all but type optional).
    """
    body = Jsonb([_job_json(j) for j in jobs])
    try:
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(_ENQUEUE_MANY_SQL, [body])
            return [_from_row(EnqueueResult, r) for r in cur.fetchall()]
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc


async def enqueue_many_async(
    conn: psycopg.AsyncConnection, jobs: Iterable[Mapping[str, Any]]
) -> list[EnqueueResult]:
    """Async enqueue_many."""
    body = Jsonb([_job_json(j) for j in jobs])
    try:
        async with conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(_ENQUEUE_MANY_SQL, [body])
            return [_from_row(EnqueueResult, r) for r in await cur.fetchall()]
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc


# -- status, cancel -----------------------------------------------------------

_STATUS_SQL = "select * from jq.jq_status(p_job_id => %s::uuid)"
_CANCEL_SQL = "select jq.jq_cancel(p_job_id => %s::uuid) as result"


def status(conn: psycopg.Connection, job_id: UUID | str) -> JobStatus | None:
    """Where a job is and how it went (jq_status); None for an unknown id."""
    return _one(conn, _STATUS_SQL, [job_id], JobStatus)


async def status_async(conn: psycopg.AsyncConnection, job_id: UUID | str) -> JobStatus | None:
    try:
        async with conn.cursor(row_factory=dict_row) as cur:
            await cur.execute(_STATUS_SQL, [job_id])
            row = await cur.fetchone()
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc
    return _from_row(JobStatus, row) if row else None


def cancel(conn: psycopg.Connection, job_id: UUID | str) -> str:
    """Cancel a job (jq_cancel): 'cancelled', 'running' (cooperative request), 'finished' or 'not_found'."""
    return _scalar(conn, _CANCEL_SQL, [job_id])


async def cancel_async(conn: psycopg.AsyncConnection, job_id: UUID | str) -> str:
    try:
        async with conn.cursor() as cur:
            await cur.execute(_CANCEL_SQL, [job_id])
            return (await cur.fetchone())[0]
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc


# -- dead letters, stats, maintenance ------------------------------------------

def dead_groups(
    conn: psycopg.Connection, *, since: datetime | None = None, type: str | None = None
) -> list[DeadGroup]:
    """Dead jobs grouped by type and normalised error (jq_dead_groups)."""
    return _all(conn, "select * from jq.jq_dead_groups(p_since => %s::timestamptz, p_type => %s::text)",
                [since, type], DeadGroup)


def retry_dead(
    conn: psycopg.Connection,
    *,
    type: str | None = None,
    error: str | None = None,
    since: datetime | None = None,
    limit: int | None = None,
) -> int:
    """Requeue a group of dead jobs (jq_retry_dead); returns how many."""
    return _scalar(conn, "select jq.jq_retry_dead(p_type => %s::text, p_error => %s::text,"
                         " p_since => %s::timestamptz, p_limit => %s::integer)",
                   [type, error, since, limit])


def stats(conn: psycopg.Connection) -> list[QueueStats]:
    """Per-queue depth, running count, oldest ready age and dead count (jq_stats)."""
    return _all(conn, "select * from jq.jq_stats()", [], QueueStats)


def maintain(conn: psycopg.Connection) -> dict[str, Any]:
    """Rotate history partitions, purge expired keys, reap expired leases (jq_maintain)."""
    return _scalar(conn, "select jq.jq_maintain()", [])


def version(conn: psycopg.Connection) -> str:
    """The installed jq schema release (jq_version)."""
    return _scalar(conn, "select jq.jq_version()", [])


# -- helpers --------------------------------------------------------------------

def _scalar(conn: psycopg.Connection, sql: str, params: Sequence[Any]):
    try:
        with conn.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchone()[0]
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc


def _one(conn: psycopg.Connection, sql: str, params: Sequence[Any], cls: type):
    try:
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(sql, params)
            row = cur.fetchone()
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc
    return _from_row(cls, row) if row else None


def _all(conn: psycopg.Connection, sql: str, params: Sequence[Any], cls: type):
    try:
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(sql, params)
            rows = cur.fetchall()
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc
    return [_from_row(cls, r) for r in rows]
