"""Procrastinate beside jq: install, batch enqueue, drain, idle (one subcommand per run).

    python bench/peers/procrastinate_bench.py install  --dsn DSN
    python bench/peers/procrastinate_bench.py enqueue  --dsn DSN --jobs N --batch B   # prints jobs/s
    python bench/peers/procrastinate_bench.py worker   --dsn DSN --mode drain|run      # ready/go child

Configured as Procrastinate's documentation recommends (see SETTINGS,
recorded in the results): an async task (the recommended interface), one
worker per process with ``concurrency=30`` (the value its "Execute multiple
jobs at the same time" how-to uses for async tasks), the PsycopgConnector with
its default pool, LISTEN/NOTIFY on (default), and otherwise default worker
options (finished jobs are kept with status ``succeeded``, its default).
``mode=drain`` is ``wait=False``: the worker stops once it has caught up.
Batch enqueue is ``Task.batch_defer_async``: one call of
procrastinate_defer_jobs_v1 with an array of jobs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import resource
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import child_ready, child_result

SETTINGS = {
    "version": None,  # filled in at run time
    "connector": "PsycopgConnector (psycopg 3 async, default pool)",
    "concurrency": 30,
    "listen_notify": True,
    "delete_jobs": "never (default: finished jobs stay, status succeeded)",
    "fetch_job_polling_interval_s": 5.0,
    "task": "async no-op, queue 'bench'",
    "enqueue": "Task.batch_defer_async(*kwargs): one procrastinate_defer_jobs_v1 call per batch",
}


def _app(dsn: str):
    import procrastinate

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=dsn))

    @app.task(name="noop", queue="bench")
    async def noop(n: int = 0) -> None:
        _done[0] += 1

    return app, noop


_done = [0]


def settings() -> dict:
    import importlib.metadata

    return {**SETTINGS, "version": importlib.metadata.version("procrastinate")}


async def install(dsn: str) -> None:
    app, _ = _app(dsn)
    async with app.open_async():
        await app.schema_manager.apply_schema_async()


async def enqueue(dsn: str, jobs: int, batch: int) -> dict:
    app, noop = _app(dsn)
    async with app.open_async():
        done = 0
        t0 = time.perf_counter()
        while done < jobs:
            n = min(batch, jobs - done)
            await noop.batch_defer_async(*({"n": done + i} for i in range(n)))
            done += n
        dt = time.perf_counter() - t0
    return {"jobs": done, "seconds": dt, "jobs_per_s": done / dt}


async def worker(dsn: str, mode: str, concurrency: int) -> dict:
    app, _ = _app(dsn)
    async with app.open_async():
        await asyncio.to_thread(child_ready)
        t0 = time.time()
        ru0 = resource.getrusage(resource.RUSAGE_SELF)
        task = asyncio.create_task(
            app.run_worker_async(
                queues=["bench"], concurrency=concurrency, wait=(mode != "drain"), install_signal_handlers=False
            )
        )
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        try:
            await task
        except asyncio.CancelledError:
            pass
        t1 = time.time()
    ru = resource.getrusage(resource.RUSAGE_SELF)
    cpu = ru.ru_utime + ru.ru_stime - ru0.ru_utime - ru0.ru_stime
    return {"t0": t0, "t1": t1, "done": _done[0], "cpu_s": cpu}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("command", choices=["install", "enqueue", "worker", "settings"])
    ap.add_argument("--dsn")
    ap.add_argument("--jobs", type=int, default=10_000)
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=SETTINGS["concurrency"])
    ap.add_argument("--mode", choices=["drain", "run"], default="drain")
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    if args.command == "install":
        asyncio.run(install(args.dsn))
    elif args.command == "enqueue":
        print(json.dumps(asyncio.run(enqueue(args.dsn, args.jobs, args.batch))))
    elif args.command == "settings":
        print(json.dumps(settings()))
    else:
        child_result(asyncio.run(worker(args.dsn, args.mode, args.concurrency)))


if __name__ == "__main__":
    main()
