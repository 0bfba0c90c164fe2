"""A worker process for the chaos tests (tests/test_chaos.py).

    JQ_APP_DSN=... JQ_APP_OPTS='{"name": "bulk-1", "queues": {"bulk": 8}, "lease": 5}' \\
        python tests/chaos_app.py

Runs ``pyjq.Worker.run()`` until SIGTERM (or until it is killed). Its one
handler, ``chaos``, first records the execution in the plain table
``chaos_runs`` (created by the test in the test database) through its own
connection, committed before the handler goes on, so that a worker killed
after that point shows up as a second execution of the same job::

    chaos_runs(run uuid primary key, job_id uuid, worker text, attempt int, at timestamptz)

``run`` is a fresh uuid per execution: when the database goes away mid-insert
the insert is retried, and the retry cannot count one execution twice. ``at``
is the moment the handler started (this host's clock, like the producers').
Then, by payload:

* ``{"ms": n}``            sleeps n milliseconds and succeeds
* ``{"sleep_first": s}``   sleeps s seconds on the first attempt only, then succeeds
* ``{"poison": "raise"}``  raises on every attempt
* ``{"poison": "exit"}``   ``os._exit(1)`` on every attempt: the whole worker process dies

Logs go to stderr. For a worker that does not stop: SIGUSR1 writes every
thread's stack to stderr (faulthandler, works even when the event loop is
blocked), SIGUSR2 the stack of every asyncio task (from the loop).
"""

from __future__ import annotations

import asyncio
import faulthandler
import io
import json
import logging
import os
import signal
import sys
import time
import uuid
from datetime import UTC, datetime

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

import pyjq

logging.basicConfig(
    level=os.environ.get("JQ_APP_LOGLEVEL", "INFO"),
    stream=sys.stderr,
    format="%(asctime)s %(process)d %(name)s %(levelname)s %(message)s",
)
log = logging.getLogger("chaos_app")

DSN = os.environ["JQ_APP_DSN"]
worker = pyjq.Worker(DSN, **json.loads(os.environ.get("JQ_APP_OPTS", "{}")))

_RECORD_SQL = (
    "insert into chaos_runs (run, job_id, worker, attempt, at) values (%s, %s, %s, %s, %s) on conflict (run) do nothing"
)
_pool: AsyncConnectionPool | None = None


async def _record(job: pyjq.Job, started: float) -> None:
    """Insert one chaos_runs row and wait for its commit; retried while the
    database is unreachable (a server restart), for at most two minutes."""
    global _pool
    if _pool is None:
        _pool = AsyncConnectionPool(
            DSN,
            min_size=1,
            max_size=sum(worker.queues.values()),
            kwargs={"autocommit": True, "prepare_threshold": None},  # PgBouncer in transaction mode
            open=False,
            timeout=5.0,
        )
        await _pool.open(wait=False)
    row = (uuid.uuid4(), job.id, job.worker, job.attempts, datetime.fromtimestamp(started, UTC))
    deadline = time.monotonic() + 120.0
    delay = 0.05
    while True:
        try:
            async with _pool.connection() as conn:
                await conn.execute(_RECORD_SQL, row)
            return
        except (psycopg.OperationalError, PoolTimeout) as exc:
            if time.monotonic() > deadline:
                raise
            log.warning("recording job %s: %s; retrying", job.id, str(exc).strip().splitlines()[0])
            await asyncio.sleep(delay)
            delay = min(1.0, delay * 2)


@worker.handler("chaos")
async def chaos(job: pyjq.Job) -> None:
    started = time.time()
    await _record(job, started)
    poison = job.payload.get("poison")
    if poison == "exit":
        os._exit(1)
    if poison == "raise":
        raise RuntimeError(f"poison job {job.payload.get('i')} fails on every attempt")
    seconds = job.payload.get("ms", 0) / 1000.0
    if job.attempts == 1:
        seconds += job.payload.get("sleep_first", 0)
    if seconds > 0:
        await asyncio.sleep(seconds)


def _dump_tasks(_signum: int, _frame: object) -> None:
    loop = asyncio._get_running_loop()
    tasks = asyncio.all_tasks(loop) if loop is not None else set()
    out = io.StringIO()
    for task in tasks:
        task.print_stack(file=out)
    log.warning("SIGUSR2: %d asyncio tasks\n%s", len(tasks), out.getvalue())


if __name__ == "__main__":
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    signal.signal(signal.SIGUSR2, _dump_tasks)
    worker.run()
