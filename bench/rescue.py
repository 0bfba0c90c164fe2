"""The registry-rescue figure (issue #15): how long the running jobs of a SIGKILLed worker
wait before they run again, with the default 5-minute lease.

    python bench/rescue.py --dsn postgresql://…/scratch [--jobs 50] [--rounds 3]

A database of its own, please: jq is installed (or upgraded) into it and the table
``rescue_runs`` is created there. Each round starts a "holder" worker process (queue
``rescue`` with --jobs slots, pyjq's defaults: 5-minute lease, 2 s safety poll, 3 s
registry beats, gone after 15 s), enqueues --jobs jobs that each record their start and
then sleep two minutes, waits until the holder runs all of them, starts an idle "rescuer"
worker, SIGKILLs the holder and times until the rescuer has started every job. Prints one
JSON object: seconds per round, and min / median / max. What bounds it: the holder's last
beat is at most 3 s before the kill, it is declared gone 15 s after that beat by the
rescuer's next claim (its safety poll, every 2 s), which takes the jobs back and claims
them in the same statement: about 12-17 s, never the lease's 5 minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import pyjq  # noqa: E402 - after the path is set, so the repository's pyjq is the one measured

QUEUE = "rescue"


def child(dsn: str, name: str, slots: int) -> None:
    """A worker process: record each start in rescue_runs, then sleep two minutes."""
    worker = pyjq.Worker(dsn, queues={QUEUE: slots}, name=name, schedules=False)

    @worker.handler("hold")
    async def hold(job: pyjq.Job) -> None:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await conn.execute("insert into rescue_runs (job_id, worker) values (%s, %s)", [job.id, name])
        await asyncio.sleep(120)

    worker.run()


def _count(dsn: str, sql: str, params: list[object]) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return conn.execute(sql, params).fetchone()[0]


def _wait(what: str, check, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"rescue bench: timed out waiting for {what}")
        time.sleep(0.05)


def _start(dsn: str, name: str, slots: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, __file__, "--child", name, "--dsn", dsn, "--jobs", str(slots)],
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def one_round(dsn: str, jobs: int, k: int) -> float:
    holder, rescuer = f"holder-{k}", f"rescuer-{k}"
    procs = [_start(dsn, holder, jobs)]
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            pyjq.enqueue_many(conn, [{"type": "hold", "queue": QUEUE, "payload": {"i": i}} for i in range(jobs)])
        runs = "select count(*) from rescue_runs where worker = %s"
        _wait("the holder to run every job", lambda: _count(dsn, runs, [holder]) == jobs, 60)
        procs.append(_start(dsn, rescuer, jobs))
        waiting = "select count(*) from jq.queue_waiters where worker = %s"
        _wait("the rescuer to be idle", lambda: _count(dsn, waiting, [rescuer]) == 1, 60)
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait()
        killed = time.monotonic()
        _wait("the rescuer to run every job", lambda: _count(dsn, runs, [rescuer]) == jobs, 120)
        return time.monotonic() - killed
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("delete from jq.jobs where queue = %s", [QUEUE])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dsn", default=os.environ.get("DATABASE_URL"))
    ap.add_argument("--jobs", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not args.dsn:
        raise SystemExit("rescue bench: pass --dsn or set DATABASE_URL (a scratch database)")
    if args.child:
        child(args.dsn, args.child, args.jobs)
        return
    with psycopg.connect(args.dsn, autocommit=True) as conn:
        pyjq.install(conn)
        conn.execute("create table if not exists rescue_runs (job_id uuid, worker text, at timestamptz default now())")
        gone_after = conn.execute("select worker_gone_after from jq.settings").fetchone()[0]
    seconds = [one_round(args.dsn, args.jobs, k) for k in range(args.rounds)]
    print(
        json.dumps(
            {
                "figure": "running jobs of a SIGKILLed worker running again on another worker (default lease)",
                "jobs": args.jobs,
                "lease_s": 300,
                "gone_after_s": gone_after.total_seconds(),
                "seconds": [round(s, 2) for s in seconds],
                "min_s": round(min(seconds), 2),
                "median_s": round(statistics.median(seconds), 2),
                "max_s": round(max(seconds), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
