"""A worker process for tests/test_worker_process.py.

    JQ_APP_DSN=... JQ_APP_OPTS='{"lease": 2}' python tests/worker_app.py run|drain

``run`` runs until SIGTERM/SIGINT (Worker.run()); ``drain`` drains the queues
and writes one JSON line to stdout: {"jobs": n, "seconds": s}. Logs go to
stderr. Handlers:

* ``noop``          returns at once (coroutine)
* ``sleep``         awaits payload["seconds"] on its first attempt, 0 afterwards
* ``sleep_thread``  the same on a thread, polling job.cancelled
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time

import pyjq

logging.basicConfig(
    level=os.environ.get("JQ_APP_LOGLEVEL", "INFO"),
    stream=sys.stderr,
    format="%(asctime)s %(process)d %(name)s %(levelname)s %(message)s",
)

worker = pyjq.Worker(os.environ["JQ_APP_DSN"], **json.loads(os.environ.get("JQ_APP_OPTS", "{}")))


@worker.handler("noop")
async def noop(job: pyjq.Job) -> None:
    return None


@worker.handler("sleep")
async def sleep(job: pyjq.Job) -> None:
    await asyncio.sleep(job.payload.get("seconds", 0) if job.attempts == 1 else 0)


@worker.handler("sleep_thread")
def sleep_thread(job: pyjq.Job) -> None:
    end = time.monotonic() + (job.payload.get("seconds", 0) if job.attempts == 1 else 0)
    while time.monotonic() < end and not job.cancelled:
        time.sleep(0.01)


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "run"
    if mode == "run":
        worker.run()
    elif mode == "drain":
        started = time.perf_counter()
        summary = asyncio.run(worker.drain(timeout=float(os.environ.get("JQ_APP_DRAIN_TIMEOUT", "300"))))
        seconds = time.perf_counter() - started
        sys.stdout.write(
            json.dumps(
                {"jobs": summary.total, "succeeded": summary.succeeded, "seconds": seconds, "stats": worker.stats}
            )
            + "\n"
        )
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main()
