"""A producer or a worker of any jq release, for tests/test_upgrade_under_load.py.

    PYTHONPATH=<a release's tree> JQ_APP_DSN=... JQ_APP_NAME=old-1 JQ_APP_CALLS=calls.jsonl \\
        python tests/upgrade_app.py producer|worker

The release is whichever ``pyjq`` PYTHONPATH finds first, so the same file
runs an old release's client and worker (extracted with ``git archive``) and
this tree's. It uses only what every release since 0.4.0 has:
``pyjq.enqueue``, ``pyjq.Worker`` and its ``handler`` decorator.

Every statement that calls a ``jq_*`` function, from any part of the
process, is timed by a wrapper around psycopg's cursors and appended to
JQ_APP_CALLS as one JSON line: ``{"p": name, "fn": "jq_claim", "t": start
(epoch seconds), "ms": duration, "rows": rows returned, "err": SQLSTATE or
exception name or null}``. The producer adds ``{"p": name, "enqueued":
id}`` for each job it enqueued. Both run until SIGTERM.

* ``producer`` enqueues a job of type ``work`` every JQ_APP_INTERVAL seconds
  (0.01) on one autocommit connection; every 20th job sleeps 1 s in its
  handler (so that leases are held across heartbeats), the others 20 ms.
* ``worker`` runs pyjq.Worker on queue ``default`` with short leases,
  heartbeats, polls and maintenance intervals (JQ_APP_OPTS: more options).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

import psycopg

import pyjq

NAME = os.environ.get("JQ_APP_NAME", "app")
_CALLS_FD = os.open(os.environ["JQ_APP_CALLS"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
_FUNCTION = re.compile(r"\bjq\.(jq_\w+)\s*\(")


def record(entry: dict[str, Any]) -> None:
    """One JSON line, written with one O_APPEND write so that threads never interleave."""
    os.write(_CALLS_FD, (json.dumps({"p": NAME, **entry}) + "\n").encode())


def _called(query: Any) -> str | None:
    text = query if isinstance(query, str) else query.decode() if isinstance(query, bytes) else str(query)
    names = _FUNCTION.findall(text)
    return ",".join(dict.fromkeys(names)) if names else None


def _error(exc: BaseException) -> str:
    return getattr(exc, "sqlstate", None) or type(exc).__name__


def _timed_sync(execute: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: psycopg.Cursor[Any], query: Any, *args: Any, **kwargs: Any) -> Any:
        fn = _called(query)
        if fn is None:
            return execute(self, query, *args, **kwargs)
        start, clock = time.time(), time.perf_counter()
        try:
            result = execute(self, query, *args, **kwargs)
        except BaseException as exc:
            record({"fn": fn, "t": start, "ms": (time.perf_counter() - clock) * 1000, "rows": 0, "err": _error(exc)})
            raise
        record({"fn": fn, "t": start, "ms": (time.perf_counter() - clock) * 1000, "rows": self.rowcount, "err": None})
        return result

    return wrapper


def _timed_async(execute: Callable[..., Any]) -> Callable[..., Any]:
    async def wrapper(self: psycopg.AsyncCursor[Any], query: Any, *args: Any, **kwargs: Any) -> Any:
        fn = _called(query)
        if fn is None:
            return await execute(self, query, *args, **kwargs)
        start, clock = time.time(), time.perf_counter()
        try:
            result = await execute(self, query, *args, **kwargs)
        except BaseException as exc:
            record({"fn": fn, "t": start, "ms": (time.perf_counter() - clock) * 1000, "rows": 0, "err": _error(exc)})
            raise
        record({"fn": fn, "t": start, "ms": (time.perf_counter() - clock) * 1000, "rows": self.rowcount, "err": None})
        return result

    return wrapper


psycopg.Cursor.execute = _timed_sync(psycopg.Cursor.execute)  # type: ignore[method-assign]
psycopg.AsyncCursor.execute = _timed_async(psycopg.AsyncCursor.execute)  # type: ignore[method-assign]


def produce(dsn: str) -> None:
    interval = float(os.environ.get("JQ_APP_INTERVAL", "0.01"))
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    conn = psycopg.connect(dsn, autocommit=True, application_name=NAME)
    n = 0
    while not stopping:
        try:
            job = pyjq.enqueue(conn, "work", {"n": n, "sleep": 1.0 if n % 20 == 0 else 0.02})
            record({"enqueued": str(job.job_id)})
        except Exception as exc:  # counted by the test from the calls file; keep producing
            print(f"{NAME}: enqueue {n} failed: {exc!r}", file=sys.stderr, flush=True)
            if conn.closed:
                conn = psycopg.connect(dsn, autocommit=True, application_name=NAME)
        n += 1
        time.sleep(interval)
    conn.close()


def work(dsn: str) -> None:
    opts: dict[str, Any] = {
        "queues": {"default": 10},
        "lease": 3,
        "heartbeat_interval": 0.3,
        "poll_interval": 0.5,
        "maintain_interval": 1.0,
        "shutdown_grace": 10,
        "name": NAME,
        **json.loads(os.environ.get("JQ_APP_OPTS", "{}")),
    }
    worker = pyjq.Worker(dsn, **opts)

    @worker.handler("work")
    async def run(job: pyjq.Job) -> None:
        await asyncio.sleep(float(job.payload.get("sleep", 0)))

    worker.run()


if __name__ == "__main__":
    import logging

    logging.basicConfig(
        level=logging.WARNING, stream=sys.stderr, format="%(asctime)s %(process)d %(name)s %(levelname)s %(message)s"
    )
    print(f"{NAME}: pyjq {pyjq.__version__} from {os.path.dirname(pyjq.__file__)}", file=sys.stderr, flush=True)
    {"producer": produce, "worker": work}[sys.argv[1]](os.environ["JQ_APP_DSN"])
