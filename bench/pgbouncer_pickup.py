"""Idle pickup latency of a worker in the four connection setups (docs/operations.md, PgBouncer).

    .venv/bin/python bench/pgbouncer_pickup.py [--rounds 12]

A throwaway PostgreSQL with two PgBouncers in front (tests/harness/bouncer.py), one in session
and one in transaction pooling mode. For each setup a Worker with default settings
(poll_interval 2 s) idles on one queue; a producer enqueues one job at a random moment,
``--rounds`` times, and the time from the enqueue's commit to the handler's start is recorded.

* direct: worker and producer connect to PostgreSQL;
* session: both through PgBouncer in session mode;
* transaction + listen_dsn: both through PgBouncer in transaction mode, LISTEN direct;
* transaction, no listen: both through PgBouncer in transaction mode, ``listen=False``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from harness.bouncer import Bouncer

import pyjq
from pyjq.dev.localpg import ThrowawayPostgres


async def pickups(worker_dsn: str, producer_dsn: str, rounds: int, **opts: Any) -> list[float]:
    worker = pyjq.Worker(worker_dsn, queues={"default": 4}, schedules=False, tick=False, **opts)
    started: dict[int, float] = {}

    @worker.handler("ping")
    async def ping(job: pyjq.Job) -> None:
        started[job.payload["i"]] = time.monotonic()

    task = asyncio.create_task(worker.run_async())
    latencies = []
    try:
        async with await psycopg.AsyncConnection.connect(producer_dsn, autocommit=True) as conn:
            await asyncio.sleep(2.5)
            for i in range(rounds):
                await asyncio.sleep(random.uniform(0.3, 2.3))  # any phase of the 2 s poll
                await pyjq.enqueue_async(conn, "ping", {"i": i})
                committed = time.monotonic()
                while i not in started:
                    await asyncio.sleep(0.002)
                latencies.append(started[i] - committed)
    finally:
        await worker.stop()
        await task
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args()
    with ThrowawayPostgres({"fsync": "off", "max_connections": "100"}) as pg:
        assert pg.root is not None
        session = Bouncer(pg.root / "session", server_port=pg.port, pool_mode="session")
        transaction = Bouncer(pg.root / "transaction", server_port=pg.port)
        try:
            session.start()
            transaction.start()
            direct = pg.dsn("postgres")
            with psycopg.connect(direct, autocommit=True) as conn:
                pyjq.install(conn)
            via_session = f"host=127.0.0.1 port={session.port} user=postgres dbname=postgres"
            via_tx = f"host=127.0.0.1 port={transaction.port} user=postgres dbname=postgres"
            setups = [
                ("direct", direct, {}),
                ("PgBouncer session mode", via_session, {}),
                ("PgBouncer transaction mode + direct listen_dsn", via_tx, {"listen_dsn": direct}),
                ("PgBouncer transaction mode, listen=False", via_tx, {"listen": False}),
            ]
            print(f"idle pickup, poll_interval 2 s, {args.rounds} jobs each (ms): median p95 max")
            for name, dsn, opts in setups:
                lat = sorted(x * 1000 for x in asyncio.run(pickups(dsn, dsn, args.rounds, **opts)))
                p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))]
                print(f"  {name:48s} {statistics.median(lat):7.0f} {p95:7.0f} {lat[-1]:7.0f}")
        finally:
            session.stop()
            transaction.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
