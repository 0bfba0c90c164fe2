"""NOTIFY delivery over real connections: an insert of ready jobs wakes a
listener that marked itself waiting, once per statement and queue, and uses
the mark up; nothing is sent when no one waits, for future jobs, or by
claim/complete/fail."""

from __future__ import annotations

import pyjq


def _drain(conn) -> list[tuple[str, str]]:
    """Notifications received so far (a cheap query lets psycopg read them)."""
    conn.execute("select 1")
    return [(n.channel, n.payload) for n in conn.notifies(timeout=0.2, stop_after=100)]


def test_waiting_listener_is_woken_once_per_statement(db, connect):
    listener = connect()
    listener.execute('listen "jq_urgent"')
    listener.execute("select jq.jq_set_waiting(array['urgent'], 'w1', true)")

    pyjq.enqueue_many(db, [{"type": "reset_password", "queue": "urgent"} for _ in range(50)])
    assert _drain(listener) == [("jq_urgent", "")], "expected exactly one NOTIFY for one statement"

    # The notification used the mark up: no more until the worker marks itself again.
    assert db.execute("select count(*) from jq.queue_waiters").fetchone()[0] == 0
    pyjq.enqueue(db, "reset_password", {}, queue="urgent")
    assert _drain(listener) == [], "notified again without a new waiting mark"

    listener.execute("select jq.jq_set_waiting(array['urgent'], 'w1', true)")
    pyjq.enqueue(db, "reset_password", {}, queue="urgent")
    assert _drain(listener) == [("jq_urgent", "")]


def test_no_notify_without_a_waiter_for_future_jobs_or_from_claims(db, connect):
    listener = connect()
    listener.execute('listen "jq_bulk"')

    pyjq.enqueue(db, "digest", {}, queue="bulk")
    assert _drain(listener) == [], "notified a queue no one waits on"

    listener.execute("select jq.jq_set_waiting(array['bulk'], 'w1', true)")
    pyjq.enqueue(db, "digest", {}, queue="bulk", run_at=db.execute("select now() + interval '1 hour'").fetchone()[0])
    assert _drain(listener) == [], "notified for a job that is not ready"

    [(job_id,)] = db.execute("select id from jq.jq_claim('bulk', 'w2', 1)").fetchall()
    db.execute("select * from jq.jq_fail(%s, 'w2', 'boom', interval '0')", [job_id])
    [(job_id,)] = db.execute("select id from jq.jq_claim('bulk', 'w2', 1)").fetchall()
    db.execute("select * from jq.jq_complete(array[%s]::uuid[], 'w2')", [job_id])
    assert _drain(listener) == [], "claim, fail or complete sent a NOTIFY"

    listener.execute("select jq.jq_set_waiting(array['bulk'], 'w1', false)")
    pyjq.enqueue(db, "digest", {}, queue="bulk")
    assert _drain(listener) == [], "notified after the worker said it was busy"


def test_maintain_forgets_waiters_whose_connection_is_gone(db, connect):
    gone = connect()
    gone.execute("select jq.jq_set_waiting(array['default'], 'crashed', true)")
    db.execute("select jq.jq_set_waiting(array['default'], 'alive', true)")
    gone.close()
    # The backend may take a moment to exit after the client disconnects.
    for _ in range(50):
        pyjq.maintain(db)
        workers = {r[0] for r in db.execute("select worker from jq.queue_waiters")}
        if workers == {"alive"}:
            break
        db.execute("select pg_sleep(0.1)")
    assert workers == {"alive"}


def test_a_job_due_within_the_minute_tells_waiting_workers_when(db, connect):
    listener = connect()
    listener.execute('listen "jq_default"')
    listener.execute("select jq.jq_set_waiting(array['default'], 'w1', true)")

    soon = db.execute("select now() + interval '20 seconds'").fetchone()[0]
    pyjq.enqueue(db, "digest", {}, run_at=soon)
    [(channel, payload)] = _drain(listener)
    assert channel == "jq_default" and payload.startswith("at ")
    assert abs(float(payload[3:]) - soon.timestamp()) < 0.001
    assert db.execute("select count(*) from jq.queue_waiters").fetchone()[0] == 1, "the mark must stay"

    later = db.execute("select now() + interval '2 minutes'").fetchone()[0]
    pyjq.enqueue(db, "digest", {}, run_at=later)
    assert _drain(listener) == [], "a job due later than a minute from now is left to the poll"
