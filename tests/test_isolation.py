"""jq_claim under REPEATABLE READ (found auditing the session settings callers control, issue #14).

The caps count running jobs in a statement after their advisory lock is taken; only under READ
COMMITTED does that statement see a job another claimer has just committed. On 0.3.0 two claimers,
one of them in a REPEATABLE READ transaction whose snapshot predated the other's claim, both took a
tenant's only slot (cap 1, two jobs running). jq_claim now refuses any isolation but READ COMMITTED
(SQLSTATE 25000); the worker's connections are autocommit READ COMMITTED whatever the database's
default.
"""

from __future__ import annotations

import psycopg
import pytest
from psycopg import errors


def test_claim_under_repeatable_read_cannot_exceed_a_tenant_cap(db: psycopg.Connection, dsn: str):
    db.execute("select jq.jq_tenant_policy_set('rr_q', 'T', null, 1)")
    db.execute("select jq.jq_enqueue('x', '{}', 'rr_q', p_tenant => 'T')")
    db.execute("select jq.jq_enqueue('y', '{}', 'rr_q', p_tenant => 'T')")
    with psycopg.connect(dsn) as stale:
        stale.execute("set transaction isolation level repeatable read")
        stale.execute("select 1")  # the snapshot is taken here, before the other claim
        claimed = db.execute("select count(*) from jq.jq_claim('rr_q', 'A', 10, '5 minutes', array['x'])")
        assert claimed.fetchone() == (1,)
        with pytest.raises(errors.InvalidTransactionState) as caught:
            stale.execute("select count(*) from jq.jq_claim('rr_q', 'B', 10, '5 minutes', array['y'])")
        assert "READ COMMITTED" in str(caught.value)
    running = db.execute("select count(*) from jq.jobs where queue = 'rr_q' and status = 'processing'").fetchone()
    assert running == (1,), "the cap of 1 holds"


def test_claim_at_read_committed_in_a_transaction_works(db: psycopg.Connection, dsn: str):
    db.execute("select jq.jq_enqueue('x', '{}', 'rc_q')")
    with psycopg.connect(dsn) as conn, conn.transaction():
        assert conn.execute("select count(*) from jq.jq_claim('rc_q', 'w', 10)").fetchone() == (1,)


def test_worker_connections_claim_whatever_the_database_default(db: psycopg.Connection, dsn: str):
    """A database whose default isolation is REPEATABLE READ: pyjq's worker still claims (it sets
    READ COMMITTED on its own connections)."""
    import pyjq

    dbname = db.info.dbname
    db.execute(f"alter database \"{dbname}\" set default_transaction_isolation = 'repeatable read'")
    try:
        pyjq.enqueue(db, "iso_job", {})
        worker = pyjq.Worker(dsn, queues={"default": 2}, poll_interval=0.2)
        ran: list[str] = []

        @worker.handler("iso_job")
        async def handle(job: pyjq.Job) -> None:
            ran.append(str(job.id))

        summary = worker.run_until_empty(timeout=30)
        assert summary.succeeded == 1 and len(ran) == 1
    finally:
        db.execute(f'alter database "{dbname}" reset default_transaction_isolation')
