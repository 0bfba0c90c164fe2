"""Claims, leases and idempotency under real concurrency: several real
connections, and explicit interleavings of two sessions' transactions."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

import pyjq


def _claim_all(dsn: str, worker: str, batch: int) -> list[str]:
    """Claim and complete batches until the queue is empty; return the ids claimed."""
    claimed: list[str] = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        while True:
            ids = [
                r[0]
                for r in conn.execute(
                    "select id from jq.jq_claim(%s, %s, %s, interval '5 minutes')", ["default", worker, batch]
                )
            ]
            if not ids:
                return claimed
            claimed.extend(str(i) for i in ids)
            done = conn.execute("select * from jq.jq_complete(%s::uuid[], %s)", [ids, worker]).fetchall()
            assert len(done) == len(ids), f"{worker} could not complete its own claims"


def test_eight_connections_claim_ten_thousand_jobs_exactly_once(db, dsn):
    jobs = [{"type": "noop", "payload": {"i": i}} for i in range(10_000)]
    pyjq.enqueue_many(db, jobs)

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda w: _claim_all(dsn, f"worker-{w}", 25), range(8)))

    every = [job_id for claimed in results for job_id in claimed]
    assert len(every) == 10_000
    assert len(set(every)) == 10_000, "a job was claimed twice"
    assert sum(1 for claimed in results if claimed) >= 2, "the work was not shared at all"
    assert db.execute("select count(*) from jq.jobs").fetchone()[0] == 0
    assert db.execute("select count(*) from jq.job_history where status = 'succeeded'").fetchone()[0] == 10_000


def test_expired_lease_is_reclaimed_and_the_late_completion_is_refused(db, connect):
    job = pyjq.enqueue(db, "slow", {})
    first, second = connect(), connect()
    [(claimed,)] = first.execute("select id from jq.jq_claim('default', 'first', 1, interval '30 seconds')")
    assert claimed == job.job_id

    # The second worker's clock is 31 s later: the first lease has expired.
    second.execute("select set_config('jq.now', (now() + interval '31 seconds')::text, false)")
    rows = second.execute(
        "select id, attempts from jq.jq_claim('default', 'second', 1, interval '30 seconds')"
    ).fetchall()
    assert rows == [(job.job_id, 2)], "the expired lease was not reclaimed (with the attempt counted)"

    late = first.execute("select * from jq.jq_complete(array[%s]::uuid[], 'first')", [job.job_id]).fetchall()
    assert late == [], "the first worker's late completion was accepted"
    assert first.execute("select * from jq.jq_fail(%s, 'first', 'late')", [job.job_id]).fetchone()[0] == "lease_lost"
    hb = first.execute("select state from jq.jq_heartbeat(array[%s]::uuid[], 'first')", [job.job_id]).fetchall()
    assert hb == [("lost",)]

    done = second.execute("select * from jq.jq_complete(array[%s]::uuid[], 'second')", [job.job_id]).fetchall()
    assert done == [(job.job_id,)]
    assert pyjq.status(db, job.job_id).status == "succeeded"


def test_claim_skips_rows_another_session_is_claiming(db, connect):
    """Explicit interleaving: A claims inside an open transaction; B, meanwhile,
    gets the next job without waiting; A rolls back and its job is claimable again."""
    first_job = pyjq.enqueue(db, "noop", {}, priority=10).job_id
    second_job = pyjq.enqueue(db, "noop", {}, priority=5).job_id
    a = connect(autocommit=False)
    b = connect()
    b.execute("set statement_timeout = '5s'")  # B must never wait on A's lock

    [(a_got,)] = a.execute("select id from jq.jq_claim('default', 'A', 1)").fetchall()
    assert a_got == first_job
    [(b_got,)] = b.execute("select id from jq.jq_claim('default', 'B', 1)").fetchall()
    assert b_got == second_job, "B did not skip the row A holds"
    assert b.execute("select id from jq.jq_claim('default', 'B', 1)").fetchall() == []

    a.rollback()  # A's claim never happened
    [(again,)] = b.execute("select id from jq.jq_claim('default', 'B', 1)").fetchall()
    assert again == first_job
    assert b.execute("select attempts from jq.jobs where id = %s", [first_job]).fetchone()[0] == 1


def test_two_sessions_claiming_at_once_never_share_a_job(db, connect):
    """Both sessions claim in open transactions, then both commit: disjoint sets."""
    pyjq.enqueue_many(db, [{"type": "noop"} for _ in range(10)])
    a, b = connect(autocommit=False), connect(autocommit=False)
    a_ids = {r[0] for r in a.execute("select id from jq.jq_claim('default', 'A', 6)")}
    b_ids = {r[0] for r in b.execute("select id from jq.jq_claim('default', 'B', 6)")}
    a.commit()
    b.commit()
    assert len(a_ids) == 6 and len(b_ids) == 4
    assert not a_ids & b_ids
    owners = dict(db.execute("select locked_by, count(*) from jq.jobs group by 1").fetchall())
    assert owners == {"A": 6, "B": 4}


@pytest.mark.parametrize("first_commits", [True, False])
def test_one_idempotency_key_from_two_connections_makes_one_job(db, connect, first_commits):
    a = connect(autocommit=False)
    b = connect()
    first = pyjq.enqueue(a, "charge_card", {"n": 1}, idempotency_key="order-7")
    assert not first.duplicate

    result: dict[str, pyjq.EnqueueResult] = {}
    racer = threading.Thread(
        target=lambda: result.setdefault("b", pyjq.enqueue(b, "charge_card", {"n": 2}, idempotency_key="order-7"))
    )
    racer.start()
    racer.join(0.5)
    assert racer.is_alive(), "the second enqueue did not wait for the first transaction"
    if first_commits:
        a.commit()
    else:
        a.rollback()
    racer.join(10)
    assert not racer.is_alive()

    second = result["b"]
    count = db.execute("select count(*) from jq.jobs where idempotency_key = 'order-7'").fetchone()[0]
    assert count == 1
    if first_commits:
        assert second.job_id == first.job_id and second.duplicate
    else:
        assert second.job_id != first.job_id and not second.duplicate
