"""The worker registry, read side: which workers run, what they hold, when they last beat.

    for w in pyjq.workers(conn):
        print(w.worker, w.state, w.running, w.last_seen)

Workers register themselves (``pyjq.Worker`` does at start, see
pyjq/worker/registry.py); a worker silent for ``jq.settings.worker_gone_after``
(15 s) is declared gone by the next claim of any other worker and its jobs go
back to the queue at once. Listing needs jq_admin.

``unhandled_types`` lists the job types waiting in a queue whose live workers all
registered their types and none handles them (jq_unhandled_types; jq_worker or
jq_admin): such jobs are never claimed.
"""

from __future__ import annotations

import psycopg

from ._calls.registry import UNHANDLED_TYPES, WORKERS, UnhandledType, WorkerInfo

__all__ = ["UnhandledType", "WorkerInfo", "unhandled_types", "unhandled_types_async", "workers", "workers_async"]


def workers(conn: psycopg.Connection) -> list[WorkerInfo]:
    """The registered workers, newest first: state alive, silent or gone, and running jobs (jq_workers)."""
    return WORKERS.run(conn)


async def workers_async(conn: psycopg.AsyncConnection) -> list[WorkerInfo]:
    """workers on an async connection."""
    return await WORKERS.run_async(conn)


def unhandled_types(conn: psycopg.Connection) -> list[UnhandledType]:
    """Job types waiting that no live worker of their queue handles, by queue and type (jq_unhandled_types)."""
    return UNHANDLED_TYPES.run(conn)


async def unhandled_types_async(conn: psycopg.AsyncConnection) -> list[UnhandledType]:
    """unhandled_types on an async connection."""
    return await UNHANDLED_TYPES.run_async(conn)
