"""One pyjq worker process for the benchmarks (see common.py for the ready/go protocol).

    python bench/jq_worker_proc.py --dsn DSN --queue bulk=500 [--queue urgent=10]
        --mode drain|run  [--record] [--flush-size N] [--poll-interval S]

drain: ``await worker.drain()`` -- claim until nothing is runnable and nothing
       runs, results written -- then print {t0, t1, summary, stats}.
run:   ``worker.run()`` until SIGTERM (graceful shutdown), then print the same.
--record: the handler notes (job id, time.time()) when it starts; printed as
       "starts" (the urgent-pickup figure joins them with enqueue commit times).
Handlers are no-ops: ``async def noop(job): pass`` for every --type.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg

import pyjq
from common import child_ready, child_result


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dsn", required=True)
    ap.add_argument("--queue", action="append", required=True, help="NAME=SLOTS")
    ap.add_argument("--type", action="append", default=None)
    ap.add_argument("--mode", choices=["drain", "run"], required=True)
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--flush-size", type=int, default=None)
    ap.add_argument("--flush-interval", type=float, default=None)
    ap.add_argument("--poll-interval", type=float, default=None)
    ap.add_argument("--name", default=None)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)

    queues = {}
    for spec in args.queue:
        name, _, slots = spec.partition("=")
        queues[name] = int(slots)
    kwargs = {}
    if args.flush_size:
        kwargs["flush_size"] = args.flush_size
    if args.flush_interval is not None:
        kwargs["flush_interval"] = args.flush_interval
    if args.poll_interval:
        kwargs["poll_interval"] = args.poll_interval
    if args.name:
        kwargs["name"] = args.name
    if os.environ.get("JQ_BENCH_ROTATE") == "0":  # measure the storage rotation's cost: off
        with psycopg.connect(args.dsn, autocommit=True) as conn:
            conn.execute("update jq.settings set rotate_storage = false")
    worker = pyjq.Worker(args.dsn, queues=queues, **kwargs)
    starts: list[tuple[str, float]] = []

    for job_type in args.type or ["noop"]:
        if args.record:

            async def handler(job: pyjq.Job) -> None:
                starts.append((str(job.id), time.time()))
        else:

            async def handler(job: pyjq.Job) -> None:
                pass

        worker.add_handler(job_type, handler)

    child_ready()
    t0 = time.time()
    cpu0 = _cpu()
    summary = asyncio.run(worker.drain(timeout=None)) if args.mode == "drain" else worker.run()
    t1 = time.time()
    child_result(
        {
            "t0": t0,
            "t1": t1,
            "cpu_s": _cpu() - cpu0,
            "summary": {
                k: getattr(summary, k)
                for k in ("succeeded", "failed_retrying", "dead", "cancelled", "lease_lost", "released")
            },
            "stats": worker.stats,
            "settings": {
                "queues": queues,
                "flush_size": worker.flush_size,
                "flush_interval": worker.flush_interval,
                "poll_interval": worker.poll_interval,
                "lease_s": worker.lease.total_seconds(),
            },
            "starts": starts,
        }
    )


if __name__ == "__main__":
    main()
