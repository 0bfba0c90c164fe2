"""Every reader finds a job while jq_tick moves it between generations.

A job alive longer than two turns is moved whenever its generation is the
oldest (under the partition's ACCESS EXCLUSIVE lock, then TRUNCATE:
docs/storage.md). A reader whose snapshot was taken before the move committed,
but which locked the partition only after, would see the job nowhere:
jq_status returned nothing for a running job while its worker was still
heartbeating it, until the readers of jq.jobs were made VOLATILE
(tests/sql/schema/readers_of_jobs_are_volatile.sql). Here a thread ticks as
often as it can, with generations turning every tenth of a second, while
lookups, the listing and heartbeats run without pause: none may come back empty.
"""

from __future__ import annotations

import threading
import time

import psycopg
import pytest

import pyjq

# jq_tick turns every tenth of a second, however few rows a generation holds (conftest.quick_turns).
pytestmark = pytest.mark.usefixtures("quick_turns")

LOOKUP_SECONDS = 7.0  # the two jobs due now moved over and over


def _tick_until(dsn: str, stop: threading.Event, counts: dict[str, int]) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        while not stop.is_set():
            done = pyjq.tick(conn)
            if done.account.get("rotation") in ("truncated", "moving"):
                counts["moves"] += done.account.get("moved", 0)
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
    ticker = threading.Thread(target=_tick_until, args=(dsn, stop, counts))
    ticker.start()
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
        ticker.join()

    print(f"\n{counts['moves']} rows moved while {lookups} rounds of lookups ran")
    assert counts["moves"] >= 6, f"the ticks moved only {counts['moves']} rows: nothing was exercised"
    assert not misses, f"{len(misses)} misses in {lookups} rounds: {misses[:5]}"
    generations = dict(db.execute("select id, generation from jq.jobs where queue = 'moved_q'").fetchall())
    assert generations[later] == 3, "the job due in an hour waits in jobs_waiting"
    done = db.execute("select * from jq.jq_complete(array[%s]::uuid[], 'reader-w')", [running]).fetchall()
    assert [r[0] for r in done] == [running], "its worker completes the job it held through every move"
