"""PgQueuer beside jq: install, batch enqueue, drain, idle (one subcommand per run).

    python bench/peers/pgqueuer_bench.py install  --dsn DSN
    python bench/peers/pgqueuer_bench.py enqueue  --dsn DSN --jobs N --batch B   # prints jobs/s
    python bench/peers/pgqueuer_bench.py worker   --dsn DSN --mode drain|run      # ready/go child

Configured as PgQueuer's documentation recommends for throughput (see
SETTINGS, recorded in the results): the asyncpg driver ("asyncpg achieves
roughly 1.7x the throughput of psycopg"), a batch size raised for short jobs
(the performance-tuning guide: "increase batch_size when jobs are short-lived";
its examples use 20-25, its benchmark tool 10; we use 100, the best of 10, 25
and 100 on the drain here: about 1.8k, 5.1k and 5.3k jobs/s with 2 processes), the default durable install (all
tables logged, like jq) and otherwise default settings. Each worker process
runs one PgQueuer (one QueueManager) on one asyncpg connection, with an async
no-op entrypoint; ``mode=drain`` exits once the queue is empty.
Batch enqueue is ``Queries.enqueue`` with lists: one INSERT ... UNNEST per call.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import resource
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import child_ready, child_result

SETTINGS = {
    "version": None,  # filled in at run time
    "driver": "asyncpg (AsyncpgDriver, one connection per worker process)",
    "durability": "durable (default: every table logged)",
    "batch_size": 100,
    "max_concurrent_tasks": None,
    "dequeue_timeout_s": 30.0,
    "heartbeat_timeout_s": 30.0,
    "entrypoint": "async no-op, concurrency_limit 0 (unlimited)",
    "enqueue": "Queries.enqueue(list of entrypoints, payloads, priorities): one INSERT ... UNNEST per call",
}


def settings(batch_size: int) -> dict:
    import pgqueuer

    return {**SETTINGS, "version": pgqueuer.__version__, "batch_size": batch_size}


async def _queries(dsn: str):
    import asyncpg
    from pgqueuer.db import AsyncpgDriver
    from pgqueuer.queries import Queries

    conn = await asyncpg.connect(dsn=dsn)
    return conn, Queries(AsyncpgDriver(conn))


async def install(dsn: str) -> None:
    conn, q = await _queries(dsn)
    await q.install()
    await conn.close()


async def enqueue(dsn: str, jobs: int, batch: int) -> dict:
    conn, q = await _queries(dsn)
    done = 0
    t0 = time.perf_counter()
    while done < jobs:
        n = min(batch, jobs - done)
        await q.enqueue(["noop"] * n, [json.dumps({"n": done + i}).encode() for i in range(n)], [0] * n)
        done += n
    dt = time.perf_counter() - t0
    await conn.close()
    return {"jobs": done, "seconds": dt, "jobs_per_s": done / dt}


def worker(dsn: str, mode: str, batch_size: int) -> None:
    import asyncpg
    import uvloop
    from pgqueuer import PgQueuer
    from pgqueuer.db import AsyncpgDriver
    from pgqueuer.types import QueueExecutionMode

    count = 0

    async def main() -> dict:
        nonlocal count
        conn = await asyncpg.connect(dsn=dsn)
        pgq = PgQueuer(AsyncpgDriver(conn))

        @pgq.entrypoint("noop")
        async def noop(job) -> None:
            nonlocal count
            count += 1

        loop = asyncio.get_running_loop()
        import signal

        loop.add_signal_handler(signal.SIGTERM, pgq.shutdown.set)
        await asyncio.to_thread(child_ready)
        t0 = time.time()
        ru0 = resource.getrusage(resource.RUSAGE_SELF)
        await pgq.run(
            batch_size=batch_size,
            dequeue_timeout=timedelta(seconds=SETTINGS["dequeue_timeout_s"]),
            mode=QueueExecutionMode.drain if mode == "drain" else QueueExecutionMode.continuous,
        )
        t1 = time.time()
        ru = resource.getrusage(resource.RUSAGE_SELF)
        cpu = ru.ru_utime + ru.ru_stime - ru0.ru_utime - ru0.ru_stime
        return {"t0": t0, "t1": t1, "done": count, "cpu_s": cpu}

    result = uvloop.run(main())
    child_result(result)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["install", "enqueue", "worker", "settings"])
    ap.add_argument("--dsn")
    ap.add_argument("--jobs", type=int, default=100_000)
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--batch-size", type=int, default=SETTINGS["batch_size"])
    ap.add_argument("--mode", choices=["drain", "run"], default="drain")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    logging.getLogger("pgqueuer").setLevel(logging.WARNING)
    if args.command == "install":
        asyncio.run(install(args.dsn))
    elif args.command == "enqueue":
        print(json.dumps(asyncio.run(enqueue(args.dsn, args.jobs, args.batch))))
    elif args.command == "settings":
        print(json.dumps(settings(args.batch_size)))
    else:
        worker(args.dsn, args.mode, args.batch_size)


if __name__ == "__main__":
    main()
