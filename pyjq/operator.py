"""Operator functions on many jobs: list them, pause queues, act in bulk.

Each function is one call of a jq_* admin function (sql/functions/operator_jobs.sql,
queue_pause.sql) on the caller's connection, in its current transaction, and
has an ``_async`` twin:

* ``jobs(conn, filter={"type": "deliver_webhook", "status": "dead"}, limit=50)``:
  jobs wherever they are (live, dead, history), newest created first; pass
  the last row's ``cursor`` for the next page (``oldest_first=True`` for the
  other order). Filter keys: queue, type, status (a word or a list), tenant,
  payload (a dict matched with ``@>``), created_after, created_before,
  finished_after, finished_before (datetimes or ISO text), id_prefix.
* ``queue_pause(conn, "webhooks")`` / ``queue_resume(...)`` (``type=`` for one
  type only) and ``queue_pauses(conn)``.
* ``jobs_retry``, ``jobs_cancel``, ``jobs_discard``, ``dead_delete``,
  ``dead_requeue``: each takes ``filter=`` or ``ids=`` (exactly one; ``{}`` is
  every job) and ``limit=`` (1..10000, default 1000), acts on at most that
  many jobs, and returns how many it changed: call again until 0 (or use
  :func:`repeat_until_done`). The dead-letter ones accept ``error`` (a
  substring of the error) in the filter too.

Bad filters raise :class:`~pyjq.errors.InvalidArgument` naming the key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from ._adapters import takes_async_connection, takes_connection
from ._calls.operator import BULK_ACTIONS, JOBS, QUEUE_PAUSE, QUEUE_PAUSES, QUEUE_RESUME, JobRow, QueuePause

__all__ = [
    "JobRow",
    "QueuePause",
    "dead_delete",
    "dead_delete_async",
    "dead_requeue",
    "dead_requeue_async",
    "jobs",
    "jobs_async",
    "jobs_cancel",
    "jobs_cancel_async",
    "jobs_discard",
    "jobs_discard_async",
    "jobs_retry",
    "jobs_retry_async",
    "queue_pause",
    "queue_pause_async",
    "queue_pauses",
    "queue_pauses_async",
    "queue_resume",
    "queue_resume_async",
    "repeat_until_done",
]


def _filter_json(filter: Mapping[str, Any] | None) -> Jsonb | None:
    """The filter as jsonb; datetimes become ISO text, any other value is passed as given (SQL checks it)."""
    if filter is None:
        return None
    return Jsonb({k: v.isoformat() if isinstance(v, datetime) else v for k, v in filter.items()})


def _ids(ids: Iterable[UUID | str] | None) -> list[str] | None:
    return None if ids is None else [str(i) for i in ids]


def _list_params(
    filter: Mapping[str, Any] | None, limit: int, cursor: str | None, oldest_first: bool
) -> dict[str, Any]:
    return {"filter": _filter_json(filter or {}), "limit": limit, "cursor": cursor, "oldest_first": oldest_first}


def _bulk_params(filter: Mapping[str, Any] | None, ids: Iterable[UUID | str] | None, limit: int) -> dict[str, Any]:
    return {"filter": _filter_json(filter), "ids": _ids(ids), "limit": limit}


# -- listing ------------------------------------------------------------------------


@takes_connection
def jobs(
    conn: psycopg.Connection,
    filter: Mapping[str, Any] | None = None,
    limit: int = 50,
    cursor: str | None = None,
    oldest_first: bool = False,
) -> list[JobRow]:
    """One page of jobs wherever they are (jq_jobs), newest created first unless ``oldest_first``."""
    return JOBS.run(conn, **_list_params(filter, limit, cursor, oldest_first))


@takes_async_connection
async def jobs_async(
    conn: psycopg.AsyncConnection,
    filter: Mapping[str, Any] | None = None,
    limit: int = 50,
    cursor: str | None = None,
    oldest_first: bool = False,
) -> list[JobRow]:
    """jobs on an async connection."""
    return await JOBS.run_async(conn, **_list_params(filter, limit, cursor, oldest_first))


# -- pauses -------------------------------------------------------------------------


@takes_connection
def queue_pause(conn: psycopg.Connection, queue: str, type: str | None = None) -> bool:
    """Pause a queue, or one type in it (jq_queue_pause); True when newly paused."""
    return bool(QUEUE_PAUSE.run(conn, queue=queue, type=type))


@takes_async_connection
async def queue_pause_async(conn: psycopg.AsyncConnection, queue: str, type: str | None = None) -> bool:
    """queue_pause on an async connection."""
    return bool(await QUEUE_PAUSE.run_async(conn, queue=queue, type=type))


@takes_connection
def queue_resume(conn: psycopg.Connection, queue: str, type: str | None = None) -> bool:
    """Resume a paused queue or (queue, type) (jq_queue_resume); True when it was paused."""
    return bool(QUEUE_RESUME.run(conn, queue=queue, type=type))


@takes_async_connection
async def queue_resume_async(conn: psycopg.AsyncConnection, queue: str, type: str | None = None) -> bool:
    """queue_resume on an async connection."""
    return bool(await QUEUE_RESUME.run_async(conn, queue=queue, type=type))


@takes_connection
def queue_pauses(conn: psycopg.Connection) -> list[QueuePause]:
    """Every pause (jq_queue_pauses); ``type`` None pauses the whole queue."""
    return QUEUE_PAUSES.run(conn)


@takes_async_connection
async def queue_pauses_async(conn: psycopg.AsyncConnection) -> list[QueuePause]:
    """queue_pauses on an async connection."""
    return await QUEUE_PAUSES.run_async(conn)


# -- bulk actions -------------------------------------------------------------------


def _bulk(function: str, summary: str) -> tuple[Callable[..., int], Callable[..., Any]]:
    """The sync and async Python functions of one bulk action (all five share a signature)."""
    call = BULK_ACTIONS[function]

    @takes_connection
    def run(
        conn: psycopg.Connection,
        filter: Mapping[str, Any] | None = None,
        ids: Iterable[UUID | str] | None = None,
        limit: int = 1000,
    ) -> int:
        return int(call.run(conn, **_bulk_params(filter, ids, limit)))

    @takes_async_connection
    async def run_async(
        conn: psycopg.AsyncConnection,
        filter: Mapping[str, Any] | None = None,
        ids: Iterable[UUID | str] | None = None,
        limit: int = 1000,
    ) -> int:
        return int(await call.run_async(conn, **_bulk_params(filter, ids, limit)))

    name = function.removeprefix("jq_")
    run.__name__, run.__qualname__ = name, name
    run.__doc__ = f"{summary} ({function}): exactly one of filter or ids; at most limit per call; returns how many."
    run_async.__name__, run_async.__qualname__ = name + "_async", name + "_async"
    run_async.__doc__ = f"{name} on an async connection."
    return run, run_async


jobs_retry, jobs_retry_async = _bulk("jq_jobs_retry", "Make scheduled and failed_retrying jobs ready now")
jobs_cancel, jobs_cancel_async = _bulk("jq_jobs_cancel", "Cancel pending jobs and ask running ones to cancel")
jobs_discard, jobs_discard_async = _bulk("jq_jobs_discard", "Move pending jobs to the dead letters")
dead_delete, dead_delete_async = _bulk("jq_dead_delete", "Delete dead jobs")
dead_requeue, dead_requeue_async = _bulk("jq_dead_requeue", "Requeue dead jobs with fresh attempts")


def repeat_until_done(action: Callable[[], int], max_calls: int | None = None) -> int:
    """Call a bounded action (e.g. ``lambda: jobs_retry(conn, filter=f)``, each call its own
    transaction) until it returns 0; returns the total. Stops after ``max_calls`` when given."""
    total, calls = 0, 0
    while max_calls is None or calls < max_calls:
        n = action()
        calls += 1
        if n == 0:
            break
        total += n
    return total
