"""The storage of jq.jobs and the periodic call, for operators (docs/storage.md, docs/worker.md).

    for part in pyjq.storage(conn):
        print(part.partition_name, part.role, part.live_rows, part.dead_rows, part.bytes)
    done = pyjq.tick(conn)
    print(done.call_again_after, done.account)

jq.jobs is partitioned by generation: jobs_g0, jobs_g1 and jobs_g2 take new
rows in turn, and jobs_waiting holds jobs due later than
settings.waiting_horizon. ``storage`` lists the four partitions (jq_storage),
then the three of jq.queue_waiters, which rotate with them. ``tick`` makes
one jq_tick call: a step of the rotation and of every other periodic duty.
pyjq workers call it in a loop, so an operator calls it by hand only to see
why a generation stays ``busy``.

Both need jq_worker or jq_admin.
"""

from __future__ import annotations

import psycopg
from psycopg.pq import TransactionStatus

from ._adapters import takes_async_connection, takes_connection
from ._calls import expect_row
from ._calls.admin import TICK, Tick
from ._calls.storage import STORAGE, StoragePart
from .errors import JQError

__all__ = [
    "LOCK_HOLDERS_QUERY",
    "StoragePart",
    "Tick",
    "blocked_hint",
    "storage",
    "storage_async",
    "tick",
    "tick_async",
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
    "the oldest generation of jq.jobs could not be locked: another session holds a lock on it, most likely"
    " a pg_dump or a transaction left open after reading jq.jobs (idle in transaction). Claims stay correct"
    " but slow down while it lasts; end the session (pg_terminate_backend(pid)) or let the dump finish"
    " (docs/operations.md, Long transactions). Find it with:\n"
)
_IN_TRANSACTION = (
    "tick must run outside a transaction: the locks it takes on the partitions of jq.jobs"
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


def tick(conn: psycopg.Connection) -> Tick:
    """One jq_tick call, as its own transaction: what it did and how soon to call it again.

    ``conn`` must not be inside a transaction (JQError 25001 otherwise); an
    autocommit connection, or one idle between transactions, is committed
    right after the call, so the partitions' locks are released at once.
    """
    _check_outside_transaction(conn.info.transaction_status)
    with conn.transaction():
        return expect_row(TICK.run(conn), "jq_tick")


async def tick_async(conn: psycopg.AsyncConnection) -> Tick:
    """tick on an async connection."""
    _check_outside_transaction(conn.info.transaction_status)
    async with conn.transaction():
        return expect_row(await TICK.run_async(conn), "jq_tick")


def blocked_hint(done: Tick) -> str | None:
    """What to look for when the tick found the oldest generation busy, else None: the likely causes,
    then (on a line of its own) LOCK_HOLDERS_QUERY."""
    if done.account.get("rotation") == "busy":
        return _BUSY_HINT + LOCK_HOLDERS_QUERY
    return None


def _check_outside_transaction(status: TransactionStatus) -> None:
    if status != TransactionStatus.IDLE:
        raise JQError(_IN_TRANSACTION, sqlstate="25001", hint=_IN_TRANSACTION_HINT)
