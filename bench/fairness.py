"""Fair claiming across tenants (issue #8, point 5): what the fair claim buys a
small tenant stuck behind a big one, and what it costs in drain throughput.
Prints one JSON object.

    python bench/fairness.py                  # backlog 1,000,000, own throwaway server
    python bench/fairness.py --quick          # backlog 100,000 (a smoke test)
    python bench/fairness.py --backlog 300000 --tenant-jobs 10000
    python bench/fairness.py --dsn "host=... dbname=..."   # an existing database without jobs

Scenarios, each run twice from the same backlog: once with the queue fair
(the default) and once set plain (`jq_queue_set_fair(queue, false)`: priority,
then run_at across tenants):

1. `one_big_tenant`: tenant A enqueues N jobs, then tenants B..K enqueue 100
   each (1,000 jobs, all later than A's). Figures: the time from the start of
   draining until B..K's last job is completed, how many of A's jobs completed
   before that, and the drain rate over the first `measure` completions (the
   mixed backlog: B..K and the start of A's). Fair runs stop once both are
   known; plain runs must drain all of A first.
2. `equal_tenants`: 11 tenants with equal backlogs (enqueued one tenant after
   the other), drained to the end: jobs/s; how the first 10% of completions
   spread over the tenants; when every tenant had its first job done. Here the
   fair claim has the most to do: 11 ready groups in every claim. Drained four
   times, fair, plain, plain, fair, so that a load drifting during the section
   (a shared machine) weighs on both modes alike; jobs/s is each mode's mean.

Claimers: `--claimers` processes (default 2), each a loop on its own
connection (autocommit, so each call is its own transaction):
`jq_claim(queue, worker, limit, '5 minutes')`, then `jq_complete(ids, worker)`
-- a worker with a no-op handler, without the Python worker around it. A job
counts when its jq_complete returned. Timed from the go signal (processes
connected and waiting) to each completion.

Backlogs are built through the SQL API, untimed: `jq_enqueue_many` of 10,000
jobs a call, generated in the server (`jsonb_agg` over `generate_series`), on
two connections. The built jq.jobs is copied once to a table; before each run
jq.jobs and jq.job_history are truncated, the copy is inserted back, jq.fair_lanes
emptied, jq.jobs `VACUUM (ANALYZE)`d and a CHECKPOINT taken: both modes start
from the same rows (same ids, run_at, physical order) and a clean slate.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

from common import REPO, percentile, rnd
from standalone import run_standalone

SQL_DIR = Path(os.environ.get("JQ_BENCH_SQL") or REPO / "sql")
QUEUE = "fair"
SMALL_TENANTS = [chr(c) for c in range(ord("B"), ord("K") + 1)]  # B..K: 10 tenants
SMALL_JOBS = 100
BATCH = 10_000
LEASE = "5 minutes"
SNAPSHOT = "public.fairness_bench_snapshot"
ISSUE_BACKLOG = 1_000_000  # issue #8: tenant A's backlog

ENQUEUE = """
select count(*) from jq.jq_enqueue_many((
    select jsonb_agg(jsonb_build_object('type', 'noop', 'queue', %(queue)s::text, 'tenant', %(tenant)s::text,
                                        'payload', jsonb_build_object('n', i)))
      from generate_series(1, %(n)s::integer) i))
"""


# -- backlogs ----------------------------------------------------------------------------


def parallel_calls(dsn: str, sql: str, params: list[dict[str, Any]], connections: int = 2) -> None:
    """Run `sql` once per params entry (each call its own transaction), from
    `connections` connections at once, in order of the list."""
    todo = list(reversed(params))
    errors: list[BaseException] = []
    lock = threading.Lock()

    def work() -> None:
        try:
            with psycopg.connect(dsn, autocommit=True) as conn:
                while True:
                    with lock:
                        if not todo or errors:
                            return
                        p = todo.pop()
                    conn.execute(sql, p)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(max(1, min(connections, len(params))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def enqueue_tenant(dsn: str, queue: str, tenant: str, n: int, connections: int = 2, batch: int = BATCH) -> None:
    """n jobs of one tenant through jq_enqueue_many, `batch` a call (one
    transaction each), from `connections` connections at once."""
    parallel_calls(
        dsn,
        ENQUEUE,
        [{"queue": queue, "tenant": tenant, "n": min(batch, n - i)} for i in range(0, n, batch)],
        connections,
    )


def build(dsn: str, queue: str, plan: list[tuple[str, int]]) -> float:
    """Enqueue plan's (tenant, jobs) in order (each tenant's jobs after the
    previous tenant's); returns the seconds it took (never part of a figure)."""
    t = time.perf_counter()
    for tenant, n in plan:
        enqueue_tenant(dsn, queue, tenant, n)
    return time.perf_counter() - t


def snapshot(dsn: str) -> float:
    t = time.perf_counter()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"drop table if exists {SNAPSHOT}")
        conn.execute(f"create unlogged table {SNAPSHOT} as select * from jq.jobs")
    return time.perf_counter() - t


def restore(dsn: str) -> float:
    """jq.jobs back to the snapshot; history and claim state (fair lanes,
    queue settings) emptied; vacuumed, analyzed, checkpointed."""
    t = time.perf_counter()
    with psycopg.connect(dsn, autocommit=True) as conn:
        with conn.transaction():
            conn.execute("truncate jq.jobs, jq.job_history")
            conn.execute("delete from jq.fair_lanes")
            conn.execute("delete from jq.queue_settings")
            conn.execute(f"insert into jq.jobs select * from {SNAPSHOT}")
        conn.execute("vacuum (analyze) jq.jobs")
        conn.execute("checkpoint")
    return time.perf_counter() - t


def drop_snapshot(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"drop table if exists {SNAPSHOT}")


def set_fair(dsn: str, queue: str, fair: bool) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("select jq.jq_queue_set_fair(%s, %s)", [queue, fair])


# -- the claimers --------------------------------------------------------------------------


def _claimer(
    dsn: str,
    queue: str,
    worker: str,
    limit: int,
    big: str | None,
    small_total: int,
    target: int,
    ready: Any,
    go: Any,
    stop: Any,
    lock: Any,
    done_total: Any,
    done_small: Any,
    out: Any,
) -> None:
    """One claimer process: claim, complete, note (time, jobs per tenant) per
    batch. Stops when the queue has no pending job left, or when `target`
    jobs are done in all and `small_total` of tenants other than `big`."""
    try:
        conn = psycopg.connect(dsn, autocommit=True, application_name=worker)
        claim_sql = "select id, tenant from jq.jq_claim(%s, %s, %s, %s::interval)"
        done_sql = "select count(*) from jq.jq_complete(%s, %s)"
        ready.put(worker)
        go.wait()
        records: list[tuple[float, dict[str, int]]] = []
        claim_ms: list[float] = []
        complete_ms: list[float] = []
        empty = 0
        while not stop.is_set():
            t = time.perf_counter()
            rows = conn.execute(claim_sql, [queue, worker, limit, LEASE]).fetchall()
            t1 = time.perf_counter()
            if not rows:
                empty += 1
                if not conn.execute(
                    "select exists (select 1 from jq.jobs where queue = %s and status = 'pending')", [queue]
                ).fetchone()[0]:
                    break
                time.sleep(0.001)
                continue
            claim_ms.append((t1 - t) * 1000)
            n = conn.execute(done_sql, [[r[0] for r in rows], worker]).fetchone()[0]
            now = time.time()
            complete_ms.append((time.perf_counter() - t1) * 1000)
            if n != len(rows):
                raise RuntimeError(f"{worker}: completed {n} of {len(rows)} claimed jobs")
            per = Counter(r[1] for r in rows)
            records.append((now, dict(per)))
            small = sum(v for k, v in per.items() if k != big)
            with lock:
                done_total.value += len(rows)
                done_small.value += small
                if done_total.value >= target and done_small.value >= small_total:
                    stop.set()
        conn.close()
        out.put(
            {
                "worker": worker,
                "records": records,
                "claim_ms": claim_ms,
                "complete_ms": complete_ms,
                "empty_claims": empty,
            }
        )
    except BaseException as exc:
        out.put({"worker": worker, "error": f"{type(exc).__name__}: {exc}"})


def drain(
    dsn: str,
    queue: str,
    claimers: int,
    limit: int,
    *,
    big: str | None = None,
    small_total: int = 0,
    target: int | None = None,
    timeout: float = 1800.0,
) -> dict[str, Any]:
    """Run the claimers from the go signal until their stop rule; returns
    t0 and every batch's (completion time, {tenant: jobs}) in time order."""
    ctx = mp.get_context("spawn")
    ready, out = ctx.Queue(), ctx.Queue()
    go, stop, lock = ctx.Event(), ctx.Event(), ctx.Lock()
    done_total, done_small = ctx.Value("q", 0, lock=False), ctx.Value("q", 0, lock=False)
    target = target if target is not None else 1 << 62
    procs = [
        ctx.Process(
            target=_claimer,
            args=(
                dsn,
                queue,
                f"fair-bench-{i}",
                limit,
                big,
                small_total,
                target,
                ready,
                go,
                stop,
                lock,
                done_total,
                done_small,
                out,
            ),
            daemon=True,
        )
        for i in range(claimers)
    ]
    for p in procs:
        p.start()
    try:
        for _ in procs:
            ready.get(timeout=60)
        t0 = time.time()
        go.set()
        results = [out.get(timeout=timeout) for _ in procs]
        for p in procs:
            p.join(timeout=30)
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        raise RuntimeError("; ".join(errors))
    records = sorted((rec for r in results for rec in r["records"]), key=lambda x: x[0])
    return {
        "t0": t0,
        "records": records,
        "claim_ms": [x for r in results for x in r["claim_ms"]],
        "complete_ms": [x for r in results for x in r["complete_ms"]],
        "empty_claims": sum(r["empty_claims"] for r in results),
    }


def _time_to(records: list[tuple[float, dict[str, int]]], t0: float, count: int) -> float | None:
    """Seconds from t0 until `count` jobs were completed."""
    n = 0
    for t, per in records:
        n += sum(per.values())
        if n >= count:
            return t - t0
    return None


def _rate(run: dict[str, Any], count: int) -> dict[str, Any]:
    s = _time_to(run["records"], run["t0"], count)
    return {"jobs": count, "seconds": rnd(s, 3), "jobs_per_s": rnd(count / s) if s else None}


def _calls(run: dict[str, Any]) -> dict[str, Any]:
    c = run["claim_ms"]
    return {
        "claims": len(c),
        "jobs_per_claim": rnd(sum(sum(p.values()) for _, p in run["records"]) / max(1, len(c))),
        "claim_ms_p50": rnd(percentile(c, 50), 2),
        "claim_ms_p95": rnd(percentile(c, 95), 2),
        "complete_ms_p50": rnd(percentile(run["complete_ms"], 50), 2),
        "empty_claims": run["empty_claims"],
    }


# -- the scenarios ---------------------------------------------------------------------------


def one_big_tenant(dsn: str, backlog: int, measure: int, claimers: int, limit: int, log: Any = None) -> dict[str, Any]:
    plan = [("A", backlog)] + [(t, SMALL_JOBS) for t in SMALL_TENANTS]
    small_total = SMALL_JOBS * len(SMALL_TENANTS)
    setup = {"build_s": rnd(build(dsn, QUEUE, plan), 1), "snapshot_s": rnd(snapshot(dsn), 1)}
    out: dict[str, Any] = {}
    try:
        for mode in ("fair", "plain"):
            setup[f"restore_{mode}_s"] = rnd(restore(dsn), 1)
            set_fair(dsn, QUEUE, mode == "fair")
            load0 = os.getloadavg()[0]
            run = drain(dsn, QUEUE, claimers, limit, big="A", small_total=small_total, target=measure)
            t0, n_a, n_small, done_at = run["t0"], 0, 0, None
            for t, per in run["records"]:
                n_a += per.get("A", 0)
                n_small += sum(v for k, v in per.items() if k != "A")
                if n_small >= small_total:
                    done_at = t
                    break
            first_small = next((t for t, per in run["records"] if any(k != "A" for k in per)), None)
            # After B..K are done only A is ready: the one-tenant claim, fair or plain alike.
            alone = None
            if done_at:
                n_done = sum(sum(p.values()) for t, p in run["records"] if t <= done_at)
                if measure > n_done:
                    t_m = _time_to(run["records"], t0, measure)
                    alone = {
                        "jobs": measure - n_done,
                        "seconds": rnd(t_m - (done_at - t0), 3),
                        "jobs_per_s": rnd((measure - n_done) / (t_m - (done_at - t0))),
                    }
            end = run["records"][-1][0] if run["records"] else t0
            total = sum(sum(p.values()) for _, p in run["records"])
            out[mode] = {
                "small_tenants_done_s": rnd(done_at - t0, 3) if done_at else None,
                "a_jobs_before_small_done": n_a if done_at else None,
                "first_small_job_done_s": rnd(first_small - t0, 3) if first_small else None,
                "drain_first": _rate(run, measure),
                "drain_a_alone_within_first": alone,
                "jobs_completed": total,
                "seconds": rnd(end - t0, 2),
                "jobs_per_s_whole_run": rnd(total / (end - t0)) if end > t0 else None,
                **_calls(run),
                "loadavg_1min_before_after": [rnd(load0, 2), rnd(os.getloadavg()[0], 2)],
            }
            if log:
                log(f"one_big_tenant {mode}: {json.dumps(out[mode])}")
    finally:
        drop_snapshot(dsn)
    f, p = out["fair"]["drain_first"]["jobs_per_s"], out["plain"]["drain_first"]["jobs_per_s"]
    out["fair_over_plain_jobs_per_s"] = rnd(f / p, 3) if f and p else None
    fs, ps = out["fair"]["small_tenants_done_s"], out["plain"]["small_tenants_done_s"]
    out["small_done_plain_over_fair"] = rnd(ps / fs, 1) if fs and ps else None
    return {
        "backlog": {"A": backlog, **{t: SMALL_JOBS for t in SMALL_TENANTS}},
        "enqueue_order": "A's jobs first, then B..K's (later run_at)",
        "measure_first": measure,
        "setup_untimed": setup,
        **out,
    }


def equal_tenants(
    dsn: str,
    tenants: int,
    per_tenant: int,
    claimers: int,
    limit: int,
    order: tuple[str, ...] = ("fair", "plain", "plain", "fair"),
    log: Any = None,
) -> dict[str, Any]:
    """Drained in the order given (default fair, plain, plain, fair: a load
    that drifts during the section weighs on both modes alike); a mode's
    jobs_per_s is the mean of its runs, its other figures its first run's."""
    names = [f"T{i:02d}" for i in range(1, tenants + 1)]
    total = tenants * per_tenant
    setup: dict[str, Any] = {
        "build_s": rnd(build(dsn, QUEUE, [(t, per_tenant) for t in names]), 1),
        "snapshot_s": rnd(snapshot(dsn), 1),
        "restore_s": [],
    }
    out: dict[str, Any] = {}
    rates: dict[str, list[float]] = {}
    first_tenth = total // 10
    try:
        for mode in order:
            setup["restore_s"].append(rnd(restore(dsn), 1))
            set_fair(dsn, QUEUE, mode == "fair")
            load0 = os.getloadavg()[0]
            run = drain(dsn, QUEUE, claimers, limit)
            t0 = run["t0"]
            done = sum(sum(p.values()) for _, p in run["records"])
            end = run["records"][-1][0]
            rates.setdefault(mode, []).append(done / (end - t0))
            if done != total:
                out.setdefault("warnings", []).append(f"{mode}: expected {total} jobs, {done} completed")
            if log:
                log(f"equal_tenants {mode}: {done} jobs in {end - t0:.2f} s, {done / (end - t0):.0f} jobs/s")
            if mode in out:
                continue
            seen: dict[str, float] = {}
            spread: Counter[str] = Counter()
            n = 0
            for t, per in run["records"]:
                for k in per:
                    seen.setdefault(k, t - t0)
                if n < first_tenth:
                    spread.update(per)
                n += sum(per.values())
            out[mode] = {
                "jobs": done,
                "seconds": rnd(end - t0, 2),
                "drain_first_half": _rate(run, total // 2),
                "first_tenth_per_tenant": {
                    "jobs": first_tenth,
                    "min": min(spread.get(k, 0) for k in names),
                    "max": max(spread.get(k, 0) for k in names),
                },
                "every_tenant_served_s": rnd(max(seen.values()), 3) if len(seen) == tenants else None,
                **_calls(run),
                "loadavg_1min_before_after": [rnd(load0, 2), rnd(os.getloadavg()[0], 2)],
            }
    finally:
        drop_snapshot(dsn)
    for mode, rs in rates.items():
        out[mode]["jobs_per_s"] = rnd(statistics.fmean(rs))
        out[mode]["runs_jobs_per_s"] = [rnd(r) for r in rs]
    f, p = out["fair"]["jobs_per_s"], out["plain"]["jobs_per_s"]
    out["fair_over_plain_jobs_per_s"] = rnd(f / p, 3) if f and p else None
    return {
        "tenants": tenants,
        "jobs_per_tenant": per_tenant,
        "enqueue_order": "one tenant after the other",
        "run_order": list(order),
        "setup_untimed": setup,
        **out,
    }


def sql_fingerprint(dsn: str) -> dict[str, Any]:
    """Which claim was measured, from the database itself (sql/ may be under
    edit while a run lasts): jq's version and an md5 of jq_claim's source and
    of every jq function's source."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        version, claim, every = conn.execute(
            """select jq.jq_version(),
                      (select left(md5(string_agg(prosrc, '' order by oid)), 12) from pg_proc
                        where pronamespace = 'jq'::regnamespace and proname = 'jq_claim'),
                      (select left(md5(string_agg(proname || prosrc, '' order by proname, oid)), 12) from pg_proc
                        where pronamespace = 'jq'::regnamespace)"""
        ).fetchone()
    return {"sql_dir": str(SQL_DIR), "jq_version": version, "jq_claim_src_md5": claim, "jq_functions_src_md5": every}


def run(
    dsn: str,
    backlog: int,
    tenant_jobs: int,
    tenants: int = 11,
    claimers: int = 2,
    limit: int = 100,
    measure: int | None = None,
    log: Any = None,
) -> dict[str, Any]:
    """Both scenarios in one database holding jq and no jobs (each leaves it empty)."""
    measure = measure or min(100_000, backlog // 2)
    with psycopg.connect(dsn, autocommit=True) as conn:
        if conn.execute("select exists (select 1 from jq.jobs)").fetchone()[0]:
            raise SystemExit("fairness: jq.jobs is not empty; this benchmark truncates it -- use an empty database")
    t = time.perf_counter()
    big = one_big_tenant(dsn, backlog, measure, claimers, limit, log)
    t_big = time.perf_counter() - t
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("truncate jq.jobs, jq.job_history")
        conn.execute("delete from jq.fair_lanes")
        conn.execute("delete from jq.queue_settings")
    t = time.perf_counter()
    eq = equal_tenants(dsn, tenants, tenant_jobs, claimers, limit, log=log)
    t_eq = time.perf_counter() - t
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("truncate jq.jobs, jq.job_history")
        conn.execute("delete from jq.fair_lanes")
        conn.execute("delete from jq.queue_settings")
    return {
        "claimers": {
            "processes": claimers,
            "how": f"loop: jq_claim(queue, worker, {limit}, '{LEASE}') then "
            "jq_complete(ids, worker), autocommit, one connection per process (no-op handler, no pyjq.Worker)",
            "limit": limit,
        },
        "counts": "completion commits (jq_complete returned); time from the go signal",
        "backlog_a": backlog,
        "backlog_a_issue": ISSUE_BACKLOG,
        **(
            {
                "scaled_down": f"A's backlog {backlog:,} instead of the issue's {ISSUE_BACKLOG:,} "
                f"(--quick or --backlog); the default runs {ISSUE_BACKLOG:,}"
            }
            if backlog < ISSUE_BACKLOG
            else {}
        ),
        "one_big_tenant": big,
        "equal_tenants": eq,
        "target": {
            "fair_over_plain_jobs_per_s": ">= 0.8 (fair at most 20% slower)",
            "one_big_tenant": big.get("fair_over_plain_jobs_per_s"),
            "equal_tenants": eq.get("fair_over_plain_jobs_per_s"),
        },
        "section_seconds": {"one_big_tenant": rnd(t_big, 1), "equal_tenants": rnd(t_eq, 1)},
        **sql_fingerprint(dsn),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dsn", default=None, help="an existing database without jobs (default: a throwaway server)")
    ap.add_argument("--quick", action="store_true", help="backlog 100,000, 11 x 5,000")
    ap.add_argument("--backlog", type=int, default=None, help="tenant A's jobs (default 1,000,000)")
    ap.add_argument("--tenant-jobs", type=int, default=None, help="jobs per tenant, equal_tenants (default 20,000)")
    ap.add_argument("--measure", type=int, default=None, help="drain rate over the first N jobs (default 100,000)")
    ap.add_argument("--claimers", type=int, default=2)
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--out", default=None, help="also write the JSON here")
    args = ap.parse_args()
    backlog = args.backlog or (100_000 if args.quick else 1_000_000)
    tenant_jobs = args.tenant_jobs or (5_000 if args.quick else 20_000)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    run_standalone(
        "fairness",
        args.dsn,
        SQL_DIR,
        lambda dsn: run(
            dsn, backlog, tenant_jobs, claimers=args.claimers, limit=args.limit, measure=args.measure, log=log
        ),
        out=args.out,
    )


if __name__ == "__main__":
    main()
