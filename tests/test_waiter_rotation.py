"""The waiting marks of jq.queue_waiters in generations (docs/storage.md): once a generation that is no
longer current has no jobs left, jq_tick moves its marks into the current one and truncates its partition;
it leaves them ('busy') while another session holds a lock on that partition, and a worker whose mark
was moved is still woken at once by the next insert."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime

import psycopg
import pytest
from helpers import current_generation, eventually, make_previous, stop_turning, tick_now, tick_until

import pyjq

# jq_tick turns every tenth of a second, however few rows a generation holds (conftest.quick_turns).
pytestmark = pytest.mark.usefixtures("quick_turns")


def marks(conn: psycopg.Connection, worker: str) -> list[tuple[str, int, int, datetime]]:
    """(queue, generation, backend_pid, since) of the worker's marks."""
    return conn.execute(
        "select queue, generation, backend_pid, since from jq.queue_waiters where worker = %s order by queue", [worker]
    ).fetchall()


def marks_truncations(conn: psycopg.Connection, generation: int) -> int:
    row = conn.execute(
        "select marks_truncations from jq.storage_generations where generation = %s", [generation]
    ).fetchone()
    assert row is not None
    return row[0]


def test_a_locked_marks_partition_is_left_busy_then_moved_with_its_marks_intact(db, connect):
    listener = connect()
    listener.execute("select jq.jq_set_waiting(array['mq_a', 'mq_b'], 'w1', true)")
    [(_, generation, pid, since), _] = before = marks(db, "w1")
    make_previous(db, generation)  # the next tick empties its generation: no jobs, two marks
    stop_turning(db)
    truncations = marks_truncations(db, generation)

    holder = connect(autocommit=False)
    holder.execute(f"select 1 from jq.queue_waiters_g{generation}")  # ACCESS SHARE, held until rollback
    busy = tick_now(db)
    assert (busy.account["rotation"], busy.account.get("marks_moved")) == ("busy", None), busy
    assert busy.account["generation"] == generation, busy
    assert marks(db, "w1") == before, "a refused lock moves nothing"
    holder.rollback()

    moved = tick_now(db)
    assert (moved.account["rotation"], moved.account["marks_moved"]) == ("idle", 2), moved
    after = marks(db, "w1")
    assert [(q, p, s) for q, _, p, s in after] == [("mq_a", pid, since), ("mq_b", pid, since)]
    assert {g for _, g, _, _ in after} == {current_generation(db)} != {generation}
    size = db.execute("select pg_relation_size(%s::regclass)", [f"jq.queue_waiters_g{generation}"]).fetchone()
    assert size == (0,), "the marks partition was truncated"
    assert marks_truncations(db, generation) == truncations + 1


def test_a_worker_whose_mark_was_moved_is_still_woken_at_once(db, dsn):
    worker = pyjq.Worker(dsn, poll_interval=5.0, tick=False)  # the test ticks
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

            def move_the_mark() -> None:
                with psycopg.connect(dsn, autocommit=True) as ticking:
                    tick_until(
                        ticking,
                        lambda done: done.account.get("marks_moved"),
                        timeout=10,
                        what="the tick to move the mark",
                    )

            await asyncio.to_thread(move_the_mark)
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
