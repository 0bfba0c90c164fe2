"""Page-load times of the operator console (issue #17, requirement 2): p50/p95/max server time to the
full HTML of every page, and of the overview's JSON poll, with a large queue behind it. Prints one
JSON object.

    python bench/console_pages.py            # 1,000,000 live jobs, 100,000 dead, 30 days x 20,000 of history
    python bench/console_pages.py --quick    # a tenth of that
    python bench/console_pages.py --dsn "host=... dbname=..."   # an existing (empty) database

The data (not timed): bench/console_data.py's fill() when it is there (the shared generator of
the console's data: 1,000,000 live, 100,000 dead, 30 days x 20,000 finished jobs a day, the
requirement's 20 M a day scaled down 1,000 times; --quick: its quick shape), else this file's own
smaller generator, written straight into jq's tables with generate_series: --live jobs on 8
queues, --dead dead jobs in 40 groups over 7 days, --history-per-day finished jobs for each of the
last 30 days in daily partitions (jq._make_history_partitions). The output names the generator
and the scale. Either way a schedule and 8 registered workers are added.

Timing: `pyjq serve` runs in its own process; one client logs in once, then fetches each page
--rounds times in turn, timing from the request to the last byte of the body (httpx, keep-alive).
The overview's throughput figures are computed by jq_throughput at most every 15 s per process and
served from memory in between (pyjq.http.ui.pages.ThroughputCache), so the cold cost is measured on
its own: jq_throughput over the last hour and the last day, straight in SQL.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
import psycopg

import pyjq

TOKEN = "bench-console-admin-token"
PAGES = {
    "overview": "/ui/",
    "overview_poll": "/ui/api/overview",
    "chart_1h": "/ui/chart/1h.svg",
    "chart_24h": "/ui/chart/24h.svg",
    "jobs": "/ui/jobs",
    "jobs_dead": "/ui/jobs?status=dead",
    "jobs_oldest_first": "/ui/jobs?order=oldest",
    "dead_1h": "/ui/dead?window=1h",
    "dead_24h": "/ui/dead?window=24h",
    "dead_7d": "/ui/dead?window=7d",
    "queues": "/ui/queues",
    "schedules": "/ui/schedules",
    "tenants": "/ui/tenants",
    "workers": "/ui/workers",
}
QUEUES = 8
DEAD_GROUPS = 40


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def generate(dsn: str, live: int, dead: int, history_per_day: int, days: int) -> dict[str, float]:
    """Fill jq's tables; returns seconds per part."""
    took: dict[str, float] = {}
    with psycopg.connect(dsn, autocommit=True) as conn:
        t = time.monotonic()
        conn.execute(
            """
            insert into jq.jobs (id, queue, type, payload, priority, run_at, status, locked_until, locked_by,
                                 attempts, max_attempts, tenant, created_at)
            select gen_random_uuid(), 'q' || (g %% %(queues)s), 'type_' || (g %% 20),
                   jsonb_build_object('n', g, 'account', 'acct_' || (g %% 5000)), (g %% 3)::smallint,
                   case when g %% 10 = 0 then now() + interval '1 hour' else now() - (g %% 3600) * interval '1 s' end,
                   case when g %% 100 = 0 then 'processing' else 'pending' end,
                   case when g %% 100 = 0 then now() + interval '5 min' end,
                   case when g %% 100 = 0 then 'bench-worker-' || (g %% 8) end,
                   case when g %% 100 = 0 then 1 else 0 end, 5, 'tenant_' || (g %% 50),
                   now() - (g %% 3600) * interval '1 s'
              from generate_series(1, %(n)s) g
            """,
            {"n": live, "queues": QUEUES},
        )
        took["live_s"] = time.monotonic() - t
        t = time.monotonic()
        conn.execute(
            """
            insert into jq.dead_jobs (id, queue, type, payload, priority, run_at, attempts, max_attempts, tenant,
                                      last_error, error_fingerprint, created_at, failed_at)
            select gen_random_uuid(), 'q' || (g %% %(queues)s), 'type_' || (g %% %(groups)s %% 20),
                   jsonb_build_object('n', g), 0, now() - interval '8 days', 5, 5, 'tenant_' || (g %% 50),
                   'RuntimeError: HTTP 503 from host' || (g %% %(groups)s) || '.example.com for evt_' || g,
                   'RuntimeError: HTTP ? from host' || (g %% %(groups)s) || '.example.com for ?',
                   now() - interval '8 days', now() - (g %% (7 * 86400)) * interval '1 s'
              from generate_series(1, %(n)s) g
            """,
            {"n": dead, "queues": QUEUES, "groups": DEAD_GROUPS},
        )
        took["dead_s"] = time.monotonic() - t
        t = time.monotonic()
        for day in range(days, -1, -1):
            conn.execute("select jq._make_history_partitions(now() - %s * interval '1 day')", [day])
        for day in range(days - 1, -1, -1):
            conn.execute(
                """
                insert into jq.job_history (id, queue, type, tenant, status, attempts, max_attempts, run_at,
                                            created_at, finished_at)
                select gen_random_uuid(), 'q' || (g %% %(queues)s), 'type_' || (g %% 20), 'tenant_' || (g %% 50),
                       case when g %% 50 = 0 then 'cancelled' else 'succeeded' end, 1 + (g %% 7 = 0)::int, 5,
                       f - interval '2 s', f - interval '3 s', f
                  from generate_series(1, %(n)s) g,
                       lateral (select now() - %(day)s * interval '1 day'
                                       - (g::float8 / %(n)s) * interval '1 day' as f) t
                """,
                {"n": history_per_day, "queues": QUEUES, "day": day},
            )
        took["history_s"] = time.monotonic() - t
        conn.execute("analyze jq.jobs")
        conn.execute("analyze jq.dead_jobs")
        conn.execute("analyze jq.job_history")
    return {k: round(v, 1) for k, v in took.items()}


def add_schedule_and_workers(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        pyjq.schedule_put(conn, "daily-digest", cron="0 8 * * *", timezone="Asia/Kolkata", type="send_daily_digest")
        for w in range(8):
            conn.execute(
                "select * from jq.jq_worker_register(%s, %s::jsonb, 'bench-host', %s, 'bench')",
                [f"bench-worker-{w}", json.dumps({f"q{w}": 20}), 1000 + w],
            )


def fill_data(dsn: str, args: argparse.Namespace) -> dict[str, Any]:
    """The rows to measure against, from console_data.py when present; what was written, and by whom."""
    try:
        from console_data import Shape, fill
    except ImportError:
        scale = {"live_jobs": args.live, "dead_jobs": args.dead, "history_days": 30, "history_per_day": args.per_day}
        took = generate(dsn, args.live, args.dead, args.per_day, 30)
        generator = "bench/console_pages.py"
    else:
        shape = Shape.quick() if args.quick else Shape()
        with psycopg.connect(dsn, autocommit=True) as conn:
            took = fill(conn, shape, log=False)
        scale = {
            "live_jobs": shape.live,
            "dead_jobs": shape.dead,
            "history_days": shape.days,
            "history_per_day": shape.per_day,
        }
        generator = "bench/console_data.py"
    add_schedule_and_workers(dsn)
    scale["history_rows"] = scale["history_days"] * scale["history_per_day"]
    scale["of_20M_per_day"] = f"{scale['history_per_day'] / 20_000_000:.3%}"
    return {"generator": generator, "scale": scale, "generate": took}


def cold_throughput(dsn: str) -> dict[str, float]:
    """jq_throughput's own time, uncached: what the overview pays every 15 s per process."""
    out = {}
    with psycopg.connect(dsn, autocommit=True) as conn:
        for name, since, bucket in (("1h", "1 hour", "5 minutes"), ("24h", "1 day", "1 hour")):
            t = time.perf_counter()
            conn.execute(
                "select count(*) from jq.jq_throughput(now() - %s::interval, %s::interval)", [since, bucket]
            ).fetchone()
            out[f"jq_throughput_{name}_ms"] = round((time.perf_counter() - t) * 1000, 1)
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def measure(dsn: str, rounds: int) -> dict[str, Any]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        some_job = conn.execute("select id from jq.jobs where attempts > 0 limit 1").fetchone()[0]
    pages = {**PAGES, "job_detail": f"/ui/jobs/{some_job}"}
    port = _free_port()
    env = {**os.environ, "JQ_API_TOKENS": f"{TOKEN}:admin", "DATABASE_URL": dsn}
    pyjq_bin = Path(sys.executable).with_name("pyjq")
    server = subprocess.Popen(
        [str(pyjq_bin), "serve", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"], env=env
    )
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=30) as client:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("bench: pyjq serve did not come up")
                time.sleep(0.2)
            assert client.post("/ui/login", data={"token": TOKEN}).status_code == 303
            timings: dict[str, list[float]] = {name: [] for name in pages}
            for _ in range(rounds):
                for name, path in pages.items():
                    t = time.perf_counter()
                    answer = client.get(path)
                    answer.read()
                    timings[name].append((time.perf_counter() - t) * 1000)
                    if answer.status_code != 200:
                        raise SystemExit(f"bench: {path} answered {answer.status_code}")
    finally:
        server.terminate()
        server.wait(timeout=10)
    return {
        name: {
            "p50_ms": round(percentile(v, 50), 1),
            "p95_ms": round(percentile(v, 95), 1),
            "max_ms": round(max(v), 1),
        }
        for name, v in timings.items()
    }


def run(dsn: str, args: argparse.Namespace) -> dict[str, Any]:
    data = fill_data(dsn, args)
    pages = measure(dsn, args.rounds)
    worst = max(pages.items(), key=lambda kv: kv[1]["p95_ms"])
    return {
        "bench": "console_pages",
        **data,
        "rounds": args.rounds,
        "pages": pages,
        "worst_p95": {"page": worst[0], "ms": worst[1]["p95_ms"]},
        "target_p95_ms": 300,
        "cold_throughput": cold_throughput(dsn),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the data, fewer rounds")
    # The sizes of this file's own generator (console_data.py, when present, has its own shapes).
    parser.add_argument("--live", type=int, default=None, help="live jobs (default 1,000,000; quick 100,000)")
    parser.add_argument("--dead", type=int, default=None, help="dead jobs (default 100,000; quick 10,000)")
    parser.add_argument("--per-day", type=int, default=None, help="finished jobs per day (default 20,000; quick 5,000)")
    parser.add_argument("--rounds", type=int, default=None, help="fetches of each page (default 40; quick 15)")
    parser.add_argument("--dsn", default=None, help="an existing empty database with jq (default: a throwaway server)")
    args = parser.parse_args()
    tenth = 10 if args.quick else 1
    args.live = args.live or 1_000_000 // tenth
    args.dead = args.dead or 100_000 // tenth
    args.per_day = args.per_day or (5_000 if args.quick else 20_000)
    args.rounds = args.rounds or (15 if args.quick else 40)
    if args.dsn:
        result = run(args.dsn, args)
    else:
        from server import BenchServer

        with BenchServer() as server:
            server.createdb("console")
            dsn = server.dsn("console")
            with psycopg.connect(dsn, autocommit=True) as conn:
                pyjq.install(conn)
            result = run(dsn, args)
    print(json.dumps(result, indent=2, default=str))


if __name__ == "__main__":
    main()
