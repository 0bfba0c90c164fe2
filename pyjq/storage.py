"""The storage of jq.jobs, for operators: its partitions and their rotation (docs/storage.md).

    for part in pyjq.storage(conn):
        print(part.partition_name, part.role, part.live_rows, part.dead_rows, part.bytes)
    for r in pyjq.storage_rotate(conn):
        print(r.generation, r.outcome, r.moved)

jq.jobs is partitioned by generation: jobs_g0, jobs_g1 and jobs_g2 take new
rows in turn, two seconds each (less when a generation fills: jq_storage_turn),
and jobs_waiting holds jobs due later than settings.waiting_horizon. ``storage`` lists the four partitions (jq_storage),
then the three of jq.queue_waiters, which rotate with them;
``storage_rotate`` empties and truncates the generations that no longer take
rows (jq_storage_rotate). pyjq workers rotate after every slot boundary, so an
operator calls it by hand only to see why a generation stays ``busy``.

Both need jq_worker or jq_admin.
"""

from __future__ import annotations

import psycopg
from psycopg.pq import TransactionStatus

from ._adapters import takes_async_connection, takes_connection
from ._calls.storage import STORAGE, STORAGE_ROTATE, Rotation, StoragePart
from .errors import JQError

__all__ = [
    "LOCK_HOLDERS_QUERY",
    "Rotation",
    "StoragePart",
    "blocked_hint",
    "storage",
    "storage_async",
    "storage_rotate",
    "storage_rotate_async",
]

# For the operator to run when rotation stays busy (pyjq never runs it; docs/operations.md, Long
# transactions, gives the same): the sessions holding a lock on a partition of jq.jobs, oldest
# transaction first (a pg_dump shows as application_name pg_dump). A claim or a completion holds
# one for milliseconds; what stays at the top, minute after minute, is the session to end.
LOCK_HOLDERS_QUERY = (
    "select a.pid, a.usename, a.application_name, a.state, now() - a.xact_start as in_transaction_for,"
    " l.relation::regclass as locked, l.mode, left(a.query, 80) as query"
    " from pg_locks l join pg_stat_activity a on a.pid = l.pid"
    " where l.relation in (select p.relid from pg_partition_tree('jq.jobs') p where p.isleaf)"
    " and a.pid <> pg_backend_pid()"
    " order by a.xact_start"
)
_BUSY_HINT = (
    "every generation of jq.jobs that needed truncating was busy: another session holds a lock on it,"
    " most likely a pg_dump or a transaction left open after reading jq.jobs (idle in transaction)."
    " Claims stay correct but slow down while it lasts; end the session (pg_terminate_backend(pid)) or let"
    " the dump finish (docs/operations.md, Long transactions). Find it with:\n"
)
# Outcomes of a generation that needed no lock this time.
_NOTHING_TO_DO = ("current", "empty", "small")

_IN_TRANSACTION = (
    "storage_rotate must run outside a transaction: the locks it takes on the partitions of jq.jobs"
    " would be held until that transaction ends, and every claim would wait for them"
)
_IN_TRANSACTION_HINT = "Call it on an autocommit connection, or commit (or roll back) first."


@takes_connection
def storage(conn: psycopg.Connection) -> list[StoragePart]:
    """The four partitions of jq.jobs by generation, then jq.queue_waiters' three: role, live and dead rows,
    bytes, truncations (jq_storage)."""
    return STORAGE.run(conn)


@takes_async_connection
async def storage_async(conn: psycopg.AsyncConnection) -> list[StoragePart]:
    """storage on an async connection."""
    return await STORAGE.run_async(conn)


def storage_rotate(conn: psycopg.Connection) -> list[Rotation]:
    """One rotation (jq_storage_rotate), as its own transaction: a row per generation it tried.

    ``conn`` must not be inside a transaction (JQError 25001 otherwise); an
    autocommit connection, or one idle between transactions, is committed
    right after the call, so the partitions' locks are released at once.
    """
    _check_outside_transaction(conn.info.transaction_status)
    with conn.transaction():
        return STORAGE_ROTATE.run(conn)


async def storage_rotate_async(conn: psycopg.AsyncConnection) -> list[Rotation]:
    """storage_rotate on an async connection."""
    _check_outside_transaction(conn.info.transaction_status)
    async with conn.transaction():
        return await STORAGE_ROTATE.run_async(conn)


def blocked_hint(rotations: list[Rotation]) -> str | None:
    """What to look for when every generation (0 to 2) that needed truncating was ``busy``, else None:
    the likely causes, then (on a line of its own) LOCK_HOLDERS_QUERY.

    An empty generation needs no lock, and jobs_waiting's promotion is left out: it takes the lock only
    when a job falls due, so its outcome says little about whether a session blocks the rotation.
    """
    tried = [r for r in rotations if r.generation is not None and r.generation < 3 and r.outcome not in _NOTHING_TO_DO]
    if tried and all(r.outcome == "busy" for r in tried):
        return _BUSY_HINT + LOCK_HOLDERS_QUERY
    return None


def _check_outside_transaction(status: TransactionStatus) -> None:
    if status != TransactionStatus.IDLE:
        raise JQError(_IN_TRANSACTION, sqlstate="25001", hint=_IN_TRANSACTION_HINT)
