"""The daily digest (issue #5, point 6): N schedules sharing "0 8 * * *" in one
timezone with jitter_seconds 600, fired by schedulers running side by side,
while urgent jobs keep being enqueued and claimed. Prints one JSON object.

    python bench/schedules_bench.py                      # 500,000 schedules, own throwaway server
    python bench/schedules_bench.py --size 100000        # smaller
    python bench/schedules_bench.py --dsn "host=... dbname=..."   # an existing (empty) database

Figures:

* enqueue.seconds_after_slot: from the slot to the commit of the last digest
  job (max created_at - slot; created_at is jq's clock at the tick), and the
  throughput; the target is all N within 60 s;
* run_at: how the jobs' run_at spread over [slot, slot + jitter): per minute
  (min/max against the mean) and per second (mean ~ N / 600, max, p99);
* urgent: latency from enqueue to claim of urgent jobs enqueued at
  --urgent-rate per second while the burst lasts (p50/p95/p99/max); the
  target is p95 under 2 s. The urgent claimer is a simple loop, what a
  worker's claimer does: jq_claim up to 100 and complete them; when a claim
  comes back empty, jq_set_waiting, claim once more, then wait for a NOTIFY
  on jq_urgent or the 1 s safety poll;
* exactly once: jobs, distinct keys and schedules advanced must all be N.

The slot is real: the schedulers run with a shifted clock (real time + the
distance to the next 08:00 in the timezone, less --lead seconds), so the
slot arrives --lead seconds after they start, and jq_schedules_fire_due sees
that clock (Scheduler(clock=...) sets jq.now in each tick). Urgent jobs use
the real clock. The digest jobs are not consumed: their run_at lies in the
shifted future.

Setup (not timed): the schedules are written with jq_schedule_put, in
statements of 10,000 over two connections, each with the next_run_at that
jq computes (jq_cron_slots).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing as mp
import os
import platform
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

import pyjq
from pyjq.cron import cron_slots
from pyjq.scheduler import Scheduler

CRON = "0 8 * * *"


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * p / 100.0
    lo, hi = math.floor(k), math.ceil(k)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def r(x: float | None, nd: int = 1) -> float | None:
    return None if x is None else round(x, nd)


# -- setup --------------------------------------------------------------------------------


def create_schedules(dsn: str, size: int, tz: str, jitter: int, next_run_at: datetime) -> float:
    """jq_schedule_put for every schedule, 10,000 per statement over two connections; seconds taken."""
    chunks = [(a, min(a + 9_999, size)) for a in range(1, size + 1, 10_000)]
    started = time.monotonic()
    errors: list[BaseException] = []

    def work(mine: list[tuple[int, int]]) -> None:
        try:
            with psycopg.connect(dsn, autocommit=True) as conn:
                for a, b in mine:
                    conn.execute(
                        "select count(*) from generate_series(%s::int, %s::int) g,"
                        " jq.jq_schedule_put('digest:user-' || g, %s, %s, 'send_digest',"
                        " jsonb_build_object('user_id', g), 'digest', 0, %s, null, 'latest', %s)",
                        [a, b, CRON, tz, jitter, next_run_at],
                    )
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(chunks[i::2],)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("vacuum analyze jq.schedules")
    return time.monotonic() - started


# -- the processes ------------------------------------------------------------------------


def scheduler_proc(
    dsn: str, shift: float, batch: int, interval: float, run_for: float, done: Any, out: mp.Queue
) -> None:
    scheduler = Scheduler(batch_size=batch, clock=lambda: datetime.now(UTC) + timedelta(seconds=shift))

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.call_later(run_for, stop.set)

        async def watch() -> None:
            while not done.is_set():
                await asyncio.sleep(0.2)
            stop.set()

        watcher = asyncio.create_task(watch())
        await scheduler.run_async(dsn, stop, interval=interval)
        watcher.cancel()

    asyncio.run(main())
    out.put({"scheduler": dict(scheduler.stats)})


def urgent_producer_proc(dsn: str, rate: float, run_for: float, done: Any, out: mp.Queue) -> None:
    sent = 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        start = time.monotonic()
        while time.monotonic() - start < run_for and not done.is_set():
            conn.execute(
                "select jq.jq_enqueue('urgent_task', jsonb_build_object('t', %s::float8), 'urgent')", [time.time()]
            )
            sent += 1
            next_at = start + sent / rate
            time.sleep(max(0.0, next_at - time.monotonic()))
    out.put({"urgent_sent": sent})


def urgent_claimer_proc(dsn: str, run_for: float, done: Any, out: mp.Queue) -> None:
    """A worker's claim loop for one queue: claim; when the claim comes back
    empty, mark the queue waiting (jq_set_waiting, on the LISTEN connection),
    claim once more, then sleep until a NOTIFY or the 1 s safety poll."""
    latencies: list[tuple[float, float]] = []  # (enqueued at, latency s)
    worker = f"urgent-claimer-{os.getpid()}"
    with psycopg.connect(dsn, autocommit=True) as listen, psycopg.connect(dsn, autocommit=True) as conn:
        listen.execute("listen jq_urgent")

        def claim() -> bool:
            rows = conn.execute("select id, payload from jq.jq_claim('urgent', %s, 100)", [worker]).fetchall()
            now = time.time()
            for _, payload in rows:
                latencies.append((payload["t"], now - payload["t"]))
            if rows:
                conn.execute("select count(*) from jq.jq_complete(%s::uuid[], %s)", [[i for i, _ in rows], worker])
            return bool(rows)

        start = time.monotonic()
        finish_by = start + run_for
        while time.monotonic() < finish_by:
            if done.is_set():
                finish_by = min(finish_by, time.monotonic() + 2.0)  # the last urgent jobs in flight
            if claim():
                continue
            listen.execute("select jq.jq_set_waiting(array['urgent'], %s, true)", [worker])
            if claim():
                continue
            for _ in listen.notifies(timeout=1.0, stop_after=1):
                pass
    out.put({"urgent_latencies": latencies})


# -- the run ------------------------------------------------------------------------------


def run(dsn: str, args: argparse.Namespace) -> dict[str, Any]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        pyjq.install(conn)
        # The schedulers run on a shifted clock (Scheduler(clock=...) sets jq.now): a benchmark database.
        conn.execute("update jq.settings set allow_test_clock = true")
        # The slot the schedulers will meet: the next 08:00 far enough ahead for the setup.
        [slot] = cron_slots(conn, CRON, args.timezone, after=datetime.now(UTC) + timedelta(hours=1))
    lead = args.lead
    print(f"==> creating {args.size} schedules ({CRON} {args.timezone}, jitter {args.jitter} s)", file=sys.stderr)
    setup_seconds = create_schedules(dsn, args.size, args.timezone, args.jitter, slot)
    print(f"==> created in {setup_seconds:.1f} s; slot {slot.isoformat()}", file=sys.stderr)

    ctx = mp.get_context("fork")
    out: mp.Queue = ctx.Queue()
    done = ctx.Event()
    run_for = lead + args.window
    shift = (slot - datetime.now(UTC)).total_seconds() - lead  # fake now = real now + shift
    real_slot = time.time() + lead  # when, in real time, the slot arrives
    procs = [
        ctx.Process(target=scheduler_proc, args=(dsn, shift, args.batch, args.interval, run_for, done, out))
        for _ in range(args.schedulers)
    ]
    procs.append(ctx.Process(target=urgent_claimer_proc, args=(dsn, run_for + 2, done, out)))
    procs.append(ctx.Process(target=urgent_producer_proc, args=(dsn, args.urgent_rate, run_for, done, out)))
    for p in procs:
        p.start()

    # Progress, in real time after the slot.
    progress: list[tuple[float, int]] = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        done_at = None
        while time.time() < real_slot + args.window:
            time.sleep(1.0)
            count = conn.execute("select count(*) from jq.jobs where queue = 'digest'").fetchone()[0]
            progress.append((round(time.time() - real_slot, 1), count))
            if count >= args.size and done_at is None:
                done_at = time.time()
            if done_at and time.time() - done_at > 3:
                break
    done.set()

    results: list[dict[str, Any]] = []
    for _ in procs:  # read before joining: a child cannot exit while its result sits in the pipe
        try:
            results.append(out.get(timeout=run_for + 60))
        except Exception:  # a child died; report what came back
            break
    for p in procs:
        p.join(timeout=10)
        if p.is_alive():
            p.kill()

    with psycopg.connect(dsn, autocommit=True) as conn:
        q = conn.execute
        jobs, keys, first_created, last_created = q(
            "select count(*), count(distinct idempotency_key), min(created_at), max(created_at)"
            " from jq.jobs where queue = 'digest'"
        ).fetchone()
        advanced = q("select count(*) from jq.schedules where next_run_at > %s", [slot]).fetchone()[0]
        per_minute = [
            n
            for (n,) in q(
                "select count(*) from jq.jobs where queue = 'digest'"
                " group by floor(extract(epoch from run_at - %s) / 60) order by 1",
                [slot],
            ).fetchall()
        ]
        per_second = [
            n
            for (n,) in q(
                "select count(*) from jq.jobs where queue = 'digest'"
                " group by floor(extract(epoch from run_at - %s)) order by 1",
                [slot],
            ).fetchall()
        ]
        bounds = q(
            "select min(run_at) - %s, max(run_at) - %s from jq.jobs where queue = 'digest'", [slot, slot]
        ).fetchone()
        on_slot = q(
            "select count(*) from jq.jobs where queue = 'digest' and run_at <> %s + jq._schedule_offset("
            "substr(idempotency_key, 10, char_length(idempotency_key) - 30), %s, %s)",
            [slot, slot, args.jitter],
        ).fetchone()[0]

    enqueue_seconds = (last_created - slot).total_seconds() if last_created else None
    burst_end = real_slot + (enqueue_seconds if enqueue_seconds is not None else args.window)
    latencies = [lat for res in results for (t, lat) in res.get("urgent_latencies", []) if real_slot <= t <= burst_end]
    all_latencies = [lat for res in results for (_, lat) in res.get("urgent_latencies", [])]
    schedulers = [res["scheduler"] for res in results if "scheduler" in res]
    mean_minute = sum(per_minute) / len(per_minute) if per_minute else 0
    seconds = args.jitter
    return {
        "figure": "daily digest: N schedules sharing one cron and timezone, jitter 600 s",
        "size": args.size,
        "cron": CRON,
        "timezone": args.timezone,
        "jitter_seconds": args.jitter,
        "slot": slot.isoformat(),
        "schedulers": args.schedulers,
        "batch_size": args.batch,
        "setup_seconds": r(setup_seconds),
        "enqueue": {
            "jobs": jobs,
            "distinct_keys": keys,
            "schedules_advanced": advanced,
            "run_at_off_formula": on_slot,
            "first_enqueued_after_slot_s": r((first_created - slot).total_seconds(), 2) if first_created else None,
            "seconds_after_slot": r(enqueue_seconds, 2),
            "jobs_per_second": r(jobs / enqueue_seconds) if enqueue_seconds else None,
            "within_60s": bool(enqueue_seconds is not None and enqueue_seconds <= 60 and jobs == args.size),
            "progress_real_s_after_slot": progress[:: max(1, len(progress) // 30)],
        },
        "run_at": {
            "min_offset_s": r(bounds[0].total_seconds(), 3) if bounds[0] is not None else None,
            "max_offset_s": r(bounds[1].total_seconds(), 3) if bounds[1] is not None else None,
            "per_minute": per_minute,
            "per_minute_min_vs_mean_pct": r(100 * (min(per_minute) / mean_minute - 1)) if per_minute else None,
            "per_minute_max_vs_mean_pct": r(100 * (max(per_minute) / mean_minute - 1)) if per_minute else None,
            "per_second_mean": r(jobs / seconds),
            "per_second_min": min(per_second) if per_second else None,
            "per_second_p99": r(percentile(per_second, 99)),
            "per_second_max": max(per_second) if per_second else None,
        },
        "urgent": {
            "rate_per_s": args.urgent_rate,
            "during_burst": {
                "count": len(latencies),
                "p50_ms": r(1000 * percentile(latencies, 50)) if latencies else None,
                "p95_ms": r(1000 * percentile(latencies, 95)) if latencies else None,
                "p99_ms": r(1000 * percentile(latencies, 99)) if latencies else None,
                "max_ms": r(1000 * max(latencies)) if latencies else None,
            },
            "whole_run": {
                "count": len(all_latencies),
                "p95_ms": r(1000 * percentile(all_latencies, 95)) if all_latencies else None,
            },
            "p95_under_2s": bool(latencies and percentile(latencies, 95) < 2.0),
            "claimer": "jq_claim(limit 100) + jq_complete; when empty: jq_set_waiting, claim again,"
            " LISTEN jq_urgent with a 1 s safety poll",
        },
        "scheduler_stats": schedulers,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=500_000, help="schedules (default 500000)")
    parser.add_argument("--timezone", default="America/New_York")
    parser.add_argument("--jitter", type=int, default=600)
    parser.add_argument("--schedulers", type=int, default=2, help="scheduler processes (default 2, one per worker)")
    parser.add_argument("--batch", type=int, default=5000, help="Scheduler batch_size")
    parser.add_argument("--interval", type=float, default=1.0, help="Scheduler tick interval, seconds")
    parser.add_argument("--urgent-rate", type=float, default=20.0, help="urgent jobs enqueued per second")
    parser.add_argument("--lead", type=float, default=3.0, help="seconds from start to the slot")
    parser.add_argument("--window", type=float, default=300.0, help="seconds after the slot to wait at most")
    parser.add_argument("--dsn", default=None, help="an existing empty database (default: a throwaway server)")
    args = parser.parse_args()
    if args.dsn:
        result = run(args.dsn, args)
    else:
        from server import BenchServer

        with BenchServer() as server:
            server.createdb("schedules")
            result = run(server.dsn("schedules"), args)
    print(json.dumps(result, indent=2, default=str))


if __name__ == "__main__":
    main()
