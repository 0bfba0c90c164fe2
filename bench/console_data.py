"""Fills a jq database with an operator console's worth of jobs (issue #17):
N live jobs, M dead jobs and D days of history, in bulk SQL (minutes, not hours).

    python bench/console_data.py --dsn "host=... dbname=..."            # 1,000,000 / 100,000 / 30 days x 20,000
    python bench/console_data.py --dsn ... --quick                      # 100,000 / 10,000 / 7 days x 5,000
    python bench/console_data.py --dsn ... --live 200000 --days 10 --per-day 50000

    from console_data import Shape, fill      # the listing and dashboard figures
    fill(conn, Shape())                        # conn: a psycopg connection, autocommit, superuser

The scale: the requirements' 20 M jobs a day comes down 1,000 times to 20,000
history rows per day (default), 30 days of them (600,000 rows, one partition a
day, as jq_maintain makes them), beside 1,000,000 live jobs and 100,000 dead
ones. The database must hold jq and nothing else yet: rows are written
straight into jq.jobs, jq.dead_jobs and jq.job_history (as the owner, the
constraints checked), not through jq_enqueue, so that a million jobs take a
minute instead of an hour. jq_stats, jq_jobs and the dashboard read them as
they would read jobs that came the normal way.

What the rows look like (deterministic: setseed(0.17)):

* queues: default, webhooks, email, reports, billing (webhooks and email the
  busiest); 12 types (deliver_webhook, send_email, ...), each tied to a queue;
* tenants t0001..t1000 on 80 % of the jobs, the rest without a tenant;
* payload {"account": 1..100000, "kind": ...};
* live: 70 % queued, 15 % scheduled (run_at up to a day ahead), 10 % waiting
  for a retry (attempts 1..5, an error), 5 % running (leased to one of 50
  workers), created over the last two days;
* dead: 8 error shapes (HTTP 503 from hooks, timeouts, ...), failed over the
  last 30 days;
* history: succeeded (97 %) and cancelled, finished D days back to now, each
  created up to ten minutes before it finished.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

import psycopg

QUEUES_OF_TYPES = {
    "deliver_webhook": "webhooks",
    "retry_webhook": "webhooks",
    "send_email": "email",
    "send_digest": "email",
    "bounce_check": "email",
    "build_report": "reports",
    "export_csv": "reports",
    "charge_card": "billing",
    "refund": "billing",
    "sync_account": "default",
    "resize_image": "default",
    "cleanup": "default",
}
ERRORS = [
    "RuntimeError: HTTP 503 from hooks.example.com for ?",
    "TimeoutError: no answer after 30 s from smtp-2.example.com",
    "ValueError: account ? has no email address",
    "HTTPError: 410 Gone for https://hooks.example.com/x",
    "KeyError: 'currency'",
    "ConnectionResetError: [Errno 104] Connection reset by peer",
    "lease expired (worker w-17 gone)",
    "discarded by operator",
]
CHUNK = 100_000  # rows per INSERT statement


@dataclass(frozen=True)
class Shape:
    live: int = 1_000_000
    dead: int = 100_000
    days: int = 30
    per_day: int = 20_000

    @classmethod
    def quick(cls) -> Shape:
        return cls(live=100_000, dead=10_000, days=7, per_day=5_000)


# Picks the i-th element of a SQL array literal by a hash of the row number
# (stable across runs, spread evenly).
_TYPES = "array[" + ", ".join(f"'{t}'" for t in QUEUES_OF_TYPES) + "]"
_QUEUE_OF = "case t " + " ".join(f"when '{t}' then '{q}'" for t, q in QUEUES_OF_TYPES.items()) + " end"
# t0001..t1000 on four jobs in five, no tenant on the fifth.
_TENANT = (
    "case when i %% 5 = 0 then null else 't' || lpad((1 + (hashint4(i * 13) & 2147483647) %% 1000)::text, 4, '0') end"
)
_ERRORS = "array[" + ", ".join("'" + e.replace("'", "''") + "'" for e in ERRORS) + "]"

LIVE_SQL = f"""
insert into jq.jobs (id, queue, type, payload, priority, run_at, status, locked_until, locked_by, attempts,
                     max_attempts, tenant, last_error, created_at, deferred)
select gen_random_uuid(), {_QUEUE_OF}, t, jsonb_build_object('account', acct, 'kind', t),
       (case when r1 < 0.05 then 10 else 0 end)::smallint,
       case when st = 'queued' or st = 'running' then created else now() + r2 * interval '1 day' end,
       case when st = 'running' then 'processing' else 'pending' end,
       case when st = 'running' then now() + interval '5 minutes' end,
       case when st = 'running' then 'w-' || (i %% 50) end,
       (case when st = 'retrying' then 1 + (i %% 5) when st = 'running' then 1 else 0 end)::smallint,
       25::smallint, tenant,
       case when st = 'retrying' then ({_ERRORS})[1 + (i %% 6)] end,
       created, st in ('scheduled', 'retrying')
  from (select i, t, acct, tenant, r1, r2, created,
               case when r1 < 0.70 then 'queued' when r1 < 0.85 then 'scheduled'
                    when r1 < 0.95 then 'retrying' else 'running' end as st
          from (select i, ({_TYPES})[1 + (hashint4(i) & 2147483647) %% 12] as t,
                       1 + (hashint4(i * 7) & 2147483647) %% 100000 as acct,
                       {_TENANT}
                           as tenant,
                       random() as r1, random() as r2,
                       now() - random() * interval '2 days' as created
                  from generate_series(%(lo)s::integer, %(hi)s::integer) i) g) s
"""

DEAD_SQL = f"""
insert into jq.dead_jobs (id, queue, type, payload, priority, run_at, attempts, max_attempts, tenant, last_error,
                          error_fingerprint, created_at, failed_at)
select gen_random_uuid(), {_QUEUE_OF}, t, jsonb_build_object('account', acct, 'kind', t), 0,
       failed - interval '1 minute', 25, 25, tenant, e, jq.error_fingerprint(e), failed - interval '1 hour', failed
  from (select i, ({_TYPES})[1 + (hashint4(i) & 2147483647) %% 12] as t,
               1 + (hashint4(i * 7) & 2147483647) %% 100000 as acct,
               {_TENANT}
                   as tenant,
               ({_ERRORS})[1 + (hashint4(i * 3) & 2147483647) %% 8] as e,
               now() - random() * %(days)s::integer * interval '1 day' as failed
          from generate_series(%(lo)s::integer, %(hi)s::integer) i) g
"""

HISTORY_SQL = f"""
insert into jq.job_history (id, queue, type, tenant, status, attempts, max_attempts, last_error, run_at, created_at,
                            finished_at)
select gen_random_uuid(), {_QUEUE_OF}, t, tenant, case when i %% 33 = 0 then 'cancelled' else 'succeeded' end,
       1, 25, null, finished - interval '1 minute', finished - random() * interval '10 minutes', finished
  from (select i, ({_TYPES})[1 + (hashint4(i) & 2147483647) %% 12] as t,
               {_TENANT}
                   as tenant,
               now() - (%(total)s::integer - i)::double precision / %(per_day)s::integer * interval '1 day' as finished
          from generate_series(%(lo)s::integer, %(hi)s::integer) i) g
"""


def _chunks(total: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + CHUNK - 1, total)) for lo in range(1, total + 1, CHUNK)]


def fill(conn: psycopg.Connection[Any], shape: Shape, log: bool = True) -> dict[str, Any]:
    """Writes the rows of ``shape`` into an installed jq (autocommit connection, the schema owner).
    Returns what it wrote and how long each part took."""

    def say(msg: str) -> None:
        if log:
            print(f"console_data: {msg}", file=sys.stderr, flush=True)

    timings: dict[str, float] = {}
    conn.execute("select setseed(0.17)")
    started = time.perf_counter()
    # One partition per day of history, as jq_maintain makes them (each call: that day and a few after).
    conn.execute(
        "select jq._make_history_partitions(now() - d * interval '1 day') from generate_series(0, %(days)s) d",
        {"days": shape.days},
    )
    for part, sql, total in (
        ("live", LIVE_SQL, shape.live),
        ("dead", DEAD_SQL, shape.dead),
        ("history", HISTORY_SQL, shape.days * shape.per_day),
    ):
        t0 = time.perf_counter()
        for lo, hi in _chunks(total):
            conn.execute(sql, {"lo": lo, "hi": hi, "total": total, "days": shape.days, "per_day": shape.per_day})
        timings[part + "_s"] = round(time.perf_counter() - t0, 1)
        say(f"{part}: {total:,} rows in {timings[part + '_s']} s")
    t0 = time.perf_counter()
    conn.execute("vacuum (analyze) jq.jobs")
    conn.execute("vacuum (analyze) jq.dead_jobs")
    conn.execute("vacuum (analyze) jq.job_history")
    timings["vacuum_s"] = round(time.perf_counter() - t0, 1)
    timings["total_s"] = round(time.perf_counter() - started, 1)
    say(f"done in {timings['total_s']} s")
    return {"shape": asdict(shape), "history_rows": shape.days * shape.per_day, **timings}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dsn", required=True, help="a database with jq installed and no jobs yet")
    ap.add_argument("--quick", action="store_true", help="100,000 live / 10,000 dead / 7 days x 5,000")
    ap.add_argument("--live", type=int)
    ap.add_argument("--dead", type=int)
    ap.add_argument("--days", type=int)
    ap.add_argument("--per-day", type=int)
    args = ap.parse_args()
    base = Shape.quick() if args.quick else Shape()
    shape = Shape(
        live=base.live if args.live is None else args.live,
        dead=base.dead if args.dead is None else args.dead,
        days=base.days if args.days is None else args.days,
        per_day=base.per_day if args.per_day is None else args.per_day,
    )
    with psycopg.connect(args.dsn, autocommit=True) as conn:
        print(json.dumps(fill(conn, shape)))


if __name__ == "__main__":
    main()
