"""How fast jq_jobs lists a console's worth of jobs, and what the operator
features cost the hot path (issue #17, points 1a and 1b). Prints one JSON object.

    python bench/jobs_listing.py               # 1,000,000 live / 100,000 dead / 30 days x 20,000; own throwaway server
    python bench/jobs_listing.py --quick       # 100,000 / 10,000 / 7 days x 5,000, fewer samples
    python bench/jobs_listing.py --dsn "host=... dbname=..."   # an existing database with jq and no jobs
    python bench/jobs_listing.py --no-listing  # only the hot-path costs

Listing (`listing`): the database is filled by bench/console_data.py, then
for each typical filter (none, by type, by status, by tenant, payload
containment, id prefix, dead jobs, a history window, history by type) `--samples`
calls of `jq_jobs(filter, 50)` (the first page) and as many of the next page
(the cursor of the first page's last row), each its own transaction: p50 and
p95 in ms, the rows of a page, and `seq_scans`: how many sequential scans of
jq.jobs, jq.dead_jobs or a jq.job_history partition holding rows one call of
each made (pg_stat_xact_user_tables; 0 for all but a payload filter on live
jobs, which reads jq.jobs: live jobs have no payload index).

Hot path (`hot_path`), on a database of its own holding 100,000 ready jobs,
alternating the variants three rounds so that drift hits both alike:

* `listing_indexes`: with and without the listing indexes of migration 8 on
  jq.jobs and jq.job_history ((created_at, id) and (tenant, created_at, id);
  dropped and made again between rounds): the rate of single-row `jq_enqueue` calls (autocommit, one
  connection) and the time of a `jq_complete` of a batch of 100 claimed jobs;
* `pause_check`: `jq_claim(queue, worker, 10)` latency (p50/p95 of
  `--claims`, complete and refill untimed after each, as
  bench/explain_claim.py does) with the claim of this tree and with the claim
  as it was before the pause check (claim.sql and claim_steps.sql from git,
  the commit before the check came in), swapped in place between rounds.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

from common import REPO, latency_summary, rnd
from console_data import Shape, fill

SQL_DIR = REPO / "sql"
PAGE = 50
ROUNDS = 3
# Sequential scans of the sources that hold rows (an empty partition, made ahead for days to come, is
# read by a sequential scan at no cost and is not counted).
SCANS = """
select coalesce(sum(x.seq_scan), 0)::int from pg_stat_xact_user_tables x
  join pg_stat_user_tables t on t.relid = x.relid
 where x.schemaname = 'jq' and (x.relname in ('jobs', 'dead_jobs') or x.relname like 'job\\_history%%')
   and t.n_live_tup > 0
"""


def _filters(conn: psycopg.Connection[Any]) -> dict[str, dict[str, Any]]:
    """The typical filters, with values taken from the data (an existing tenant, a live job's id)."""
    some_id = conn.execute("select id::text from jq.jobs order by created_at desc limit 1 offset 1000").fetchone()[0]
    return {
        "none": {},
        "type": {"type": "deliver_webhook"},
        "status": {"status": "failed_retrying"},
        "status_running": {"status": "running"},
        "tenant": {"tenant": "t0042"},
        "payload": {"payload": {"account": 4242}},
        "id_prefix": {"id_prefix": some_id[:6]},
        "dead": {"status": "dead"},
        "dead_type": {"status": "dead", "type": "send_email"},
        "history_window": {
            "finished_after": _ago(conn, "2 days"),
            "finished_before": _ago(conn, "1 day"),
        },
        "history_type": {"status": ["succeeded", "cancelled"], "type": "build_report"},
    }


def _ago(conn: psycopg.Connection[Any], interval: str) -> str:
    return conn.execute("select (now() - %s::interval)::text", [interval]).fetchone()[0]


def _page(conn: psycopg.Connection[Any], flt: dict[str, Any], cursor: str | None) -> tuple[float, list[Any], int]:
    """One call in its own transaction: (ms, rows, sequential scans it made)."""
    with conn.transaction():
        before = conn.execute(SCANS).fetchone()[0]
        t0 = time.perf_counter()
        rows = conn.execute(
            "select job_id, cursor from jq.jq_jobs(%s::jsonb, %s, %s::text)", [json.dumps(flt), PAGE, cursor]
        ).fetchall()
        ms = (time.perf_counter() - t0) * 1000
        scans = conn.execute(SCANS).fetchone()[0] - before
    return ms, rows, scans


def listing(dsn: str, shape: Shape, samples: int) -> dict[str, Any]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        filled = fill(conn, shape)
        out: dict[str, Any] = {"data": filled, "page": PAGE, "filters": {}}
        for name, flt in _filters(conn).items():
            first, nxt, scans, rows = [], [], 0, (0, 0)
            for _ in range(samples):
                ms, page, s1 = _page(conn, flt, None)
                first.append(ms)
                cursor = page[-1][1] if page else None
                ms2, page2, s2 = _page(conn, flt, cursor) if cursor else (0.0, [], 0)
                nxt.append(ms2)
                scans, rows = max(scans, s1, s2), (len(page), len(page2))
            out["filters"][name] = {
                "filter": flt,
                "first_page": _short(first),
                "next_page": _short(nxt),
                "rows": list(rows),
                "seq_scans": scans,
            }
            print(f"jobs_listing: {name}: {out['filters'][name]}", file=sys.stderr, flush=True)
    return out


def _short(ms: list[float]) -> dict[str, Any]:
    s = latency_summary(ms)
    return {"p50_ms": s["p50_ms"], "p95_ms": s["p95_ms"], "count": s["count"]}


# -- hot path -----------------------------------------------------------------------


def _enqueue_rate(conn: psycopg.Connection[Any], n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        conn.execute("select jq.jq_enqueue('wc.enqueue', '{\"a\": 1}', 'wc_enqueue', p_tenant => 'T1')")
    return n / (time.perf_counter() - t0)


def _complete_ms(conn: psycopg.Connection[Any], batches: int) -> list[float]:
    out = []
    for _ in range(batches):
        ids = [r[0] for r in conn.execute("select id from jq.jq_claim('wc', 'wc-worker', 100)").fetchall()]
        t0 = time.perf_counter()
        conn.execute("select count(*) from jq.jq_complete(%s::uuid[], 'wc-worker')", [ids])
        out.append((time.perf_counter() - t0) * 1000)
        conn.execute(
            "select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 'noop',"
            " 'queue', 'wc', 'tenant', 'T' || (i %% 10))) from generate_series(1, %s) i))",
            [len(ids)],
        )
    return out


LISTING_INDEXES = {  # migration 8's indexes on the tables every job passes through
    "jobs_created_idx": "jq.jobs (created_at, id)",
    "jobs_tenant_created_idx": "jq.jobs (tenant, created_at, id) where tenant is not null",
    "job_history_created_idx": "jq.job_history (created_at, id)",
    "job_history_tenant_created_idx": "jq.job_history (tenant, created_at, id) where tenant is not null",
}


def _set_listing_indexes(conn: psycopg.Connection[Any], present: bool) -> None:
    for name, definition in LISTING_INDEXES.items():
        if present:
            conn.execute(f"create index if not exists {name} on {definition}")
        else:
            conn.execute(f"drop index if exists jq.{name}")


def _claim_files_before_pause_check() -> tuple[str, str, str]:
    """claim.sql and claim_steps.sql as they were in the commit before the pause check came in."""
    added = subprocess.run(
        ["git", "-C", str(REPO), "log", "--format=%H", "-S", "jq.queue_pauses", "--", "sql/functions/claim.sql"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if not added:
        raise SystemExit("jobs_listing: no commit adds the pause check to sql/functions/claim.sql")
    base = added[-1] + "^"
    show = [
        subprocess.run(
            ["git", "-C", str(REPO), "show", f"{base}:sql/functions/{name}"], capture_output=True, text=True, check=True
        ).stdout
        for name in ("claim_steps.sql", "claim.sql")
    ]
    return base, show[0], show[1]


def _claim_ms(conn: psycopg.Connection[Any], claims: int) -> list[float]:
    out = []
    for _ in range(claims):
        t0 = time.perf_counter()
        ids = [r[0] for r in conn.execute("select id from jq.jq_claim('wc_claim', 'wc-claimer', 10)").fetchall()]
        out.append((time.perf_counter() - t0) * 1000)
        conn.execute("select count(*) from jq.jq_complete(%s::uuid[], 'wc-claimer')", [ids])
        conn.execute(
            "select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 'noop',"
            " 'queue', 'wc_claim', 'tenant', 'T' || (i %% 10))) from generate_series(1, %s) i))",
            [len(ids)],
        )
    return out


def hot_path(dsn: str, enqueues: int, batches: int, claims: int) -> dict[str, Any]:
    base, old_steps, old_claim = _claim_files_before_pause_check()
    new_steps = (SQL_DIR / "functions" / "claim_steps.sql").read_text()
    new_claim = (SQL_DIR / "functions" / "claim.sql").read_text()
    runs: dict[str, dict[str, list[float]]] = {
        "with_indexes": {"enqueue_per_s": [], "complete_100_ms": []},
        "without_indexes": {"enqueue_per_s": [], "complete_100_ms": []},
        "claim_with_pause_check": {"claim_ms": []},
        "claim_before_pause_check": {"claim_ms": []},
    }
    with psycopg.connect(dsn, autocommit=True) as conn:
        for queue in ("wc", "wc_claim"):
            conn.execute(
                "select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 'noop',"
                " 'queue', %s::text, 'tenant', 'T' || (i %% 10))) from generate_series(1, 10000) i))",
                [queue],
            )
        conn.execute(
            "insert into jq.jobs (id, queue, type, run_at, max_attempts, created_at)"
            " select gen_random_uuid(), 'wc_bulk', 'noop', now(), 25, now() - random() * interval '1 day'"
            " from generate_series(1, 100000)"
        )
        conn.execute("vacuum (analyze) jq.jobs")
        for rnd_i in range(ROUNDS):
            for present in (True, False) if rnd_i % 2 == 0 else (False, True):
                _set_listing_indexes(conn, present)
                key = "with_indexes" if present else "without_indexes"
                runs[key]["enqueue_per_s"].append(_enqueue_rate(conn, enqueues))
                runs[key]["complete_100_ms"].extend(_complete_ms(conn, batches))
            _set_listing_indexes(conn, True)
            for variant in ("new", "old") if rnd_i % 2 == 0 else ("old", "new"):
                with conn.transaction():
                    conn.execute(new_steps if variant == "new" else old_steps)
                    conn.execute(new_claim if variant == "new" else old_claim)
                key = "claim_with_pause_check" if variant == "new" else "claim_before_pause_check"
                _claim_ms(conn, 20)  # warm the plans
                runs[key]["claim_ms"].extend(_claim_ms(conn, claims))
        with conn.transaction():
            conn.execute(new_steps)
            conn.execute(new_claim)
    return {
        "claim_baseline": base,
        "listing_indexes": {
            key: {
                "enqueue_per_s": rnd(statistics.median(runs[key]["enqueue_per_s"])),
                "complete_100": _short(runs[key]["complete_100_ms"]),
            }
            for key in ("with_indexes", "without_indexes")
        },
        "pause_check": {
            key: _short(runs[key]["claim_ms"]) for key in ("claim_with_pause_check", "claim_before_pause_check")
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--dsn", default=None, help="a database with jq and no jobs (default: a throwaway server)")
    ap.add_argument("--samples", type=int, default=None, help="calls per filter and page (default 30; quick 10)")
    ap.add_argument("--no-listing", action="store_true")
    ap.add_argument("--no-hot-path", action="store_true")
    args = ap.parse_args()
    shape = Shape.quick() if args.quick else Shape()
    samples = args.samples or (10 if args.quick else 30)
    sizes = (500, 10, 100) if args.quick else (2000, 30, 300)
    result: dict[str, Any] = {"figure": "jobs_listing", "quick": args.quick, "python": platform.python_version()}

    def measure(list_dsn: str, hot_dsn: str | None) -> None:
        if not args.no_listing:
            result["listing"] = listing(list_dsn, shape, samples)
        if not args.no_hot_path and hot_dsn:
            result["hot_path"] = hot_path(hot_dsn, *sizes)

    if args.dsn:
        result["server"] = {"dsn": args.dsn}
        measure(args.dsn, None if not args.no_listing else args.dsn)
    else:
        from server import BenchServer

        with BenchServer() as server:
            for db in ("jobs_listing", "hot_path"):
                server.createdb(db)
                server.psql(db, "-f", str(SQL_DIR / "install.sql"))
            result["server"] = {"throwaway": True, "settings": "PostgreSQL defaults (bench/server.py)"}
            measure(server.dsn("jobs_listing"), server.dsn("hot_path"))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
