"""Every reader finds a job while jq_storage_rotate moves it between generations.

A job alive longer than a two-second slot is moved at every rotation (under the
partition's ACCESS EXCLUSIVE lock, then TRUNCATE: docs/storage.md). A reader
whose snapshot was taken before the move committed, but which locked the
partition only after, would see the job nowhere: jq_status returned nothing for
a running job while its worker was still heartbeating it, until the readers of
jq.jobs were made VOLATILE (tests/sql/schema/readers_of_jobs_are_volatile.sql).
Here a rotation thread moves the jobs as often as it can while lookups, the
listing and heartbeats run without pause: none may come back empty.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

# Generations of a few rows here: emptied and truncated all the same (conftest.rotate_small_generations).
pytestmark = pytest.mark.usefixtures("rotate_small_generations")

LOOKUP_SECONDS = 7.0  # three to four moves of each job


def _rotate_until(dsn: str, stop: threading.Event, counts: dict[str, int]) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        while not stop.is_set():
            for _generation, outcome, moved in conn.execute("select * from jq.jq_storage_rotate()"):
                if outcome == "truncated" and moved:
                    counts["moves"] += moved
            time.sleep(0.01)


def test_lookups_listing_and_heartbeats_never_miss_a_moved_job(db, dsn):
    db.autocommit = True
    ready = db.execute("select job_id from jq.jq_enqueue('t_ready', '{}', 'moved_q')").fetchone()[0]
    later = db.execute(
        "select job_id from jq.jq_enqueue('t_later', '{}', 'moved_q', 0, now() + interval '1 hour')"
    ).fetchone()[0]
    running = db.execute("select job_id from jq.jq_enqueue('t_run', '{}', 'moved_q')").fetchone()[0]
    claimed = db.execute(
        "select id from jq.jq_claim('moved_q', 'reader-w', 1, interval '5 minutes', array['t_run'])"
    ).fetchone()[0]
    assert claimed == running

    stop, counts = threading.Event(), {"moves": 0}
    rotator = threading.Thread(target=_rotate_until, args=(dsn, stop, counts))
    rotator.start()
    misses: list[str] = []
    lookups = 0
    try:
        deadline = time.monotonic() + LOOKUP_SECONDS
        while time.monotonic() < deadline:
            misses.extend(
                f"jq_status({job})"
                for job in (ready, later, running)
                if db.execute("select status from jq.jq_status(%s)", [job]).fetchone() is None
            )
            listed = {
                r[0]
                for r in db.execute(
                    "select job_id from jq.jq_jobs(jsonb_build_object('queue', 'moved_q'), 10)"
                ).fetchall()
            }
            if listed != {ready, later, running}:
                misses.append(f"jq_jobs listed {len(listed)} of 3")
            state = db.execute(
                "select state from jq.jq_heartbeat(array[%s]::uuid[], 'reader-w', interval '5 minutes')", [running]
            ).fetchone()
            if state is None or state[0] != "ok":
                misses.append(f"heartbeat {state}")
            lookups += 1
    finally:
        stop.set()
        rotator.join()

    assert counts["moves"] >= 3, f"the rotation moved only {counts['moves']} rows: nothing was exercised"
    assert not misses, f"{len(misses)} misses in {lookups} rounds: {misses[:5]}"
    generations = dict(db.execute("select id, generation from jq.jobs where queue = 'moved_q'").fetchall())
    assert generations[later] == 3, "the job due in an hour waits in jobs_waiting"
    done = db.execute("select * from jq.jq_complete(array[%s]::uuid[], 'reader-w')", [running]).fetchall()
    assert [r[0] for r in done] == [running], "its worker completes the job it held through every move"
