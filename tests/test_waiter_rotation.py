"""The waiting marks of jq.queue_waiters in generations (migration 14, docs/storage.md "Hot rows"):
jq_storage_rotate moves a generation's marks into the current one and truncates its partition, leaves
it ('marks busy') while another session holds a lock on it, and a worker whose mark was moved is still
woken at once by the next insert."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime

import psycopg
import pytest
from helpers import eventually, wait_until

import pyjq
from pyjq._calls.storage import STORAGE_ROTATE

# Generations of a few rows here: emptied and truncated all the same (conftest.rotate_small_generations).
pytestmark = pytest.mark.usefixtures("rotate_small_generations")


def current_slot(conn: psycopg.Connection) -> int:
    row = conn.execute("select jq._storage_current()").fetchone()
    assert row is not None
    return row[0]


def marks(conn: psycopg.Connection, worker: str) -> list[tuple[str, int, int, datetime]]:
    """(queue, generation, backend_pid, since) of the worker's marks."""
    return conn.execute(
        "select queue, generation, backend_pid, since from jq.queue_waiters where worker = %s order by queue", [worker]
    ).fetchall()


def marks_outcome(conn: psycopg.Connection, generation: int) -> tuple[str, int] | None:
    """One jq_storage_rotate call: the marks row of that generation, if any."""
    rows = [r for r in STORAGE_ROTATE.run(conn) if r.generation == generation and r.outcome.startswith("marks")]
    assert len(rows) <= 1, rows
    return (rows[0].outcome, rows[0].moved) if rows else None


def test_a_locked_marks_partition_is_left_busy_then_moved_with_its_marks_intact(db, connect):
    listener = connect()
    listener.execute("select jq.jq_set_waiting(array['mq_a', 'mq_b'], 'w1', true)")
    [(_, generation, pid, since), _] = before = marks(db, "w1")
    wait_until(lambda: current_slot(db) != generation, what="the marks' generation to stop taking rows")

    holder = connect(autocommit=False)
    holder.execute(f"select 1 from jq.queue_waiters_g{generation}")  # ACCESS SHARE, held until rollback
    assert marks_outcome(db, generation) == ("marks busy", 0)
    assert marks(db, "w1") == before, "a refused lock moves nothing"
    holder.rollback()

    assert marks_outcome(db, generation) == ("marks truncated", 2)
    after = marks(db, "w1")
    assert [(q, p, s) for q, _, p, s in after] == [("mq_a", pid, since), ("mq_b", pid, since)]
    assert {g for _, g, _, _ in after} == {current_slot(db)} != {generation}
    size = db.execute("select pg_relation_size(%s::regclass)", [f"jq.queue_waiters_g{generation}"]).fetchone()
    assert size == (0,), "the marks partition was truncated"


def test_a_worker_whose_mark_was_moved_is_still_woken_at_once(db, dsn):
    worker = pyjq.Worker(dsn, poll_interval=5.0)
    started: list[float] = []

    @worker.handler("ping")
    async def ping(job: pyjq.Job) -> None:
        started.append(time.monotonic())

    async def scenario() -> tuple[float, list, list]:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:

            async def mark() -> list:
                cur = await conn.execute(
                    "select generation, backend_pid, since from jq.queue_waiters where worker = %s", [worker.name]
                )
                return await cur.fetchall()

            [first] = await eventually(mark, what="the waiting mark")

            async def moved() -> bool:  # the test rotates: an idle pyjq worker calls it only every 30 s
                if first[0] == (await (await conn.execute("select jq._storage_current()")).fetchone())[0]:
                    return False
                rows = await (await conn.execute("select * from jq.jq_storage_rotate()")).fetchall()
                return any(g == first[0] and o == "marks truncated" for g, o, _ in rows)

            await eventually(moved, timeout=10, what="the rotation to move the mark")
            [after] = await mark()
            await asyncio.sleep(0.3)
            enqueued = time.monotonic()
            await pyjq.enqueue_async(conn, "ping", {})
            await eventually(lambda: started, timeout=10, what="the job to start")
            return started[0] - enqueued, first, after

    async def main():
        run = asyncio.create_task(worker.run_async())
        try:
            return await asyncio.wait_for(scenario(), timeout=40)
        finally:
            await worker.stop()
            await run

    latency, first, after = asyncio.run(main())
    assert after[0] != first[0] and after[1:] == first[1:], (first, after)
    assert latency < 2.0, f"started {latency:.2f} s after the enqueue; the poll interval is 5 s"
