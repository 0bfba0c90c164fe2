"""The jq benchmark suite (`make bench`): one throwaway PostgreSQL, every figure
beside its same-run baseline, JSON in bench/results/latest.json, a markdown
table on stdout.

    python bench/run.py            # default sizes, about 6-8 minutes on 2 cores
    python bench/run.py --quick    # small sizes, about 2 minutes: a smoke test, not figures
    python bench/run.py --full     # the issue's full sizes (bloat: 2,000,000 jobs)
    python bench/run.py --only a,b # some figures only (a b c d e f g h i j)

The server runs with PostgreSQL's default settings -- fsync, synchronous_commit
and full_page_writes on -- except where it listens and the log line prefix
(the idle figure counts logged statements per database). Every figure runs in
a fresh database. See bench/README.md for what each figure counts.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg

import baselines as base
import explain_claim
import fairness
import held_snapshot
import jq_figures as jqf
from common import BENCH, REPO, rnd
from server import BenchServer

SIZES: dict[str, dict[str, Any]] = {
    "quick": dict(
        enqueue_seconds=3,
        pgbench_seconds=3,
        diag_seconds=2,
        batch=1000,
        drain_jobs=20_000,
        pgqueuer_jobs=20_000,
        procrastinate_jobs=1_000,
        steady_seconds=10,
        steady_rate=1000,
        urgent_backlog=20_000,
        bloat_jobs=60_000,
        bloat_backlog=5_000,
        bloat_max_seconds=30,
        idle_seconds=10,
        fair_backlog=100_000,
        fair_tenant_jobs=5_000,
        explain_sizes=[1_000, 10_000, 100_000],
        explain_many_jobs=100_000,
        held_seconds=20,
        held_recovery_s=10,
    ),
    "default": dict(
        enqueue_seconds=10,
        pgbench_seconds=10,
        diag_seconds=5,
        batch=1000,
        drain_jobs=100_000,
        pgqueuer_jobs=100_000,
        procrastinate_jobs=3_000,
        steady_seconds=60,
        steady_rate=1000,
        urgent_backlog=100_000,
        bloat_jobs=500_000,
        bloat_backlog=10_000,
        bloat_max_seconds=120,
        idle_seconds=30,
        fair_backlog=1_000_000,
        fair_tenant_jobs=20_000,
        explain_sizes=[1_000, 100_000, 1_000_000],
        explain_many_jobs=1_000_000,
        held_seconds=120,
        held_recovery_s=60,
    ),
    "full": dict(
        enqueue_seconds=10,
        pgbench_seconds=10,
        diag_seconds=10,
        batch=1000,
        drain_jobs=100_000,
        pgqueuer_jobs=100_000,
        procrastinate_jobs=20_000,
        steady_seconds=60,
        steady_rate=1000,
        urgent_backlog=100_000,
        bloat_jobs=2_000_000,
        bloat_backlog=10_000,
        bloat_max_seconds=600,
        idle_seconds=60,
        fair_backlog=1_000_000,
        fair_tenant_jobs=20_000,
        explain_sizes=[1_000, 100_000, 1_000_000],
        explain_many_jobs=1_000_000,
        held_seconds=600,
        held_recovery_s=60,
    ),
}
ISSUE_SIZES = {
    "drain_jobs": 100_000,
    "urgent_backlog": 100_000,
    "bloat_jobs": 2_000_000,
    "steady_seconds": 60,
    "steady_rate": 1000,
    # issue #8: A's backlog of 1,000,000 (fairness, explain); 1,000,000 jobs over 1,000 tenants
    "fair_backlog": 1_000_000,
    "explain_many_jobs": 1_000_000,
    # issue #16: 1,000 jobs/s for 10 minutes under a held snapshot
    "held_seconds": 600,
}

# Worker configuration used by the figures (recorded in the results).
DRAIN_SLOTS = 500  # per process: jq_claim(limit = free slots), up to 500 jobs per claim
STEADY_SLOTS = 100
URGENT_SLOTS = 10
IDLE_WORKERS = 4
FAIR_CLAIMERS = 2  # h: claimer processes, each jq_claim(limit FAIR_LIMIT) + jq_complete in a loop
FAIR_LIMIT = 100
EXPLAIN_SAMPLES = 200  # i: jq_claim(limit 10) calls timed per backlog and mode
# The jq being measured: this working tree's sql/ (JQ_BENCH_SQL=DIR measures another copy).
SQL_DIR = Path(os.environ.get("JQ_BENCH_SQL") or REPO / "sql")
SERVER_CONF = {"log_line_prefix": "'%m [%p] %q%d '"}  # logging only: lets the idle figure count per database


def _log(msg: str) -> None:
    print(f"    {msg[:400]}", file=sys.stderr, flush=True)


class Suite:
    def __init__(self, server: BenchServer, sizes: dict[str, Any], only: set[str]):
        self.server = server
        self.sizes = sizes
        self.only = only
        self.results: dict[str, Any] = {"baselines": {}, "figures": {}, "peer_settings": {}, "errors": {}}
        self.timings: dict[str, float] = {}

    # -- plumbing ------------------------------------------------------------------------

    def fresh_db(self, name: str, jq: bool = True, raw: bool = False) -> str:
        self.server.createdb(name)
        if jq:
            self.server.psql(name, "-f", str(SQL_DIR / "install.sql"))
        if raw:
            self.server.psql(name, "-f", str(BENCH / "pgbench" / "setup.sql"))
        return self.server.dsn(name)

    def step(self, key: str, fn: Callable[[], Any]) -> Any:
        print(f"--> {key}", file=sys.stderr, flush=True)
        t = time.perf_counter()
        try:
            result = fn()
            if isinstance(result, dict):
                brief = {k: v for k, v in result.items() if not isinstance(v, (dict, list)) or k == "latency"}
                print(json.dumps({key: brief}, default=str), file=sys.stderr, flush=True)
            return result
        except Exception as exc:  # one broken figure must not lose the others
            traceback.print_exc()
            self.results["errors"][key] = f"{type(exc).__name__}: {exc}"
            return None
        finally:
            self.timings[key] = round(time.perf_counter() - t, 1)

    def want(self, fig: str) -> bool:
        return not self.only or fig in self.only

    # -- the figures ---------------------------------------------------------------------

    def run(self) -> None:
        s, B, F = self.sizes, self.results["baselines"], self.results["figures"]
        if self.want("a"):
            dsn = self.fresh_db("bench_enqueue", raw=True)
            sec, pgs = s["enqueue_seconds"], s["pgbench_seconds"]
            B["pgbench_insert_1"] = self.step(
                "pgbench insert, 1 client", lambda: base.pgbench(self.server, "bench_enqueue", "insert.sql", 1, pgs)
            )
            F["a_enqueue_1"] = self.step("a: enqueue, 1 connection", lambda: jqf.enqueue_one_per_txn(dsn, 1, sec))
            B["pgbench_insert_8"] = self.step(
                "pgbench insert, 8 clients", lambda: base.pgbench(self.server, "bench_enqueue", "insert.sql", 8, pgs)
            )
            F["a_enqueue_8"] = self.step("a: enqueue, 8 connections", lambda: jqf.enqueue_one_per_txn(dsn, 8, sec))

            def with_waiter():
                waiter = jqf.hold_waiter(dsn, "bench")
                try:
                    r = jqf.enqueue_one_per_txn(dsn, 8, sec)
                    r["how"] += "; a worker is marked waiting on the queue, so every insert NOTIFYs"
                    return r
                finally:
                    waiter.close()

            F["a_enqueue_8_notify"] = self.step("a: enqueue, 8 connections, a worker waiting (NOTIFY)", with_waiter)
            # Where the time goes: jq_enqueue straight from pgbench (the SQL function without Python).
            B["pgbench_jq_enqueue_1"] = self.step(
                "pgbench jq_enqueue, 1 client",
                lambda: base.pgbench(self.server, "bench_enqueue", "enqueue_fn.sql", 1, s["diag_seconds"]),
            )
        if self.want("c") or self.want("b"):
            B["pgbench_cycle_2"] = self.step(
                "pgbench cycle, 2 clients",
                lambda: base.pgbench(self.server, self.raw_db(), "cycle.sql", 2, s["pgbench_seconds"]),
            )
            B["pgbench_cycle100_2"] = self.step(
                "pgbench cycle x100, 2 clients",
                lambda: base.pgbench(self.server, self.raw_db(), "cycle100.sql", 2, s["pgbench_seconds"], 100),
            )
            # Where the time goes in batch enqueue: jq_enqueue_many(1,000) straight from pgbench,
            # and the same rows as one plain INSERT ... SELECT from the same JSON.
            B["pgbench_jq_enqueue_many_1"] = self.step(
                "pgbench jq_enqueue_many(1000), 1 client",
                lambda: base.pgbench(self.server, self.raw_db(), "enqueue_many.sql", 1, s["diag_seconds"], 1000),
            )
            B["pgbench_insert_many_1"] = self.step(
                "pgbench insert ... select 1000 rows, 1 client",
                lambda: base.pgbench(self.server, self.raw_db(), "insert_many.sql", 1, s["diag_seconds"], 1000),
            )
            n = s["drain_jobs"]
            for procs in (1, 2):
                db = f"bench_drain_{procs}"
                dsn = self.fresh_db(db)
                enq = self.step(
                    f"b: enqueue_many, {n} jobs (before the {procs}-process drain)",
                    lambda dsn=dsn: jqf.enqueue_many(dsn, n, s["batch"], "bulk"),
                )
                if procs == 2:
                    F["b_enqueue_many"] = enq
                else:
                    F["b_enqueue_many_first"] = enq
                jqf.vacuum_analyze(dsn, "jq.jobs")
                F[f"c_drain_{procs}"] = self.step(
                    f"c: drain {n} jobs, {procs} worker processes",
                    lambda dsn=dsn, procs=procs: jqf.drain(dsn, procs, DRAIN_SLOTS, expect=n),
                )
            self.results["peer_settings"]["pgqueuer"] = self.step("PgQueuer settings", base.pgqueuer_settings)
            self.results["peer_settings"]["procrastinate"] = self.step(
                "Procrastinate settings", base.procrastinate_settings
            )
            pn = s["pgqueuer_jobs"]
            self.fresh_db("bench_pgqueuer", jq=False)
            url = self.server.url("bench_pgqueuer")
            self.step("PgQueuer install", lambda: base.pgqueuer_install(url))
            B["pgqueuer_enqueue"] = self.step(
                f"PgQueuer batch enqueue, {pn} jobs", lambda: base.pgqueuer_enqueue(url, pn, s["batch"])
            )
            B["pgqueuer_drain_2"] = self.step(
                f"PgQueuer drain {pn} jobs, 2 processes", lambda: base.pgqueuer_drain(url, 2, pn)
            )
            rn = s["procrastinate_jobs"]
            pdsn = self.fresh_db("bench_procrastinate", jq=False)
            self.step("Procrastinate install", lambda: base.procrastinate_install(pdsn))
            B["procrastinate_enqueue"] = self.step(
                f"Procrastinate batch enqueue, {rn} jobs", lambda: base.procrastinate_enqueue(pdsn, rn, s["batch"])
            )
            B["procrastinate_drain_2"] = self.step(
                f"Procrastinate drain {rn} jobs, 2 processes", lambda: base.procrastinate_drain(pdsn, 2, rn)
            )
        if self.want("d"):
            dsn = self.fresh_db("bench_steady")
            F["d_steady"] = self.step(
                f"d: steady state, {s['steady_rate']} jobs/s for {s['steady_seconds']} s",
                lambda: jqf.steady(dsn, s["steady_rate"], s["steady_seconds"], STEADY_SLOTS),
            )
        if self.want("e"):
            dsn = self.fresh_db("bench_urgent")
            n = s["urgent_backlog"]
            self.step(f"e: enqueue the {n}-job bulk backlog", lambda: jqf.enqueue_many(dsn, n, s["batch"], "bulk"))
            jqf.vacuum_analyze(dsn, "jq.jobs")
            F["e_urgent"] = self.step(
                "e: urgent pickup while the bulk backlog drains",
                lambda: jqf.urgent_pickup(dsn, DRAIN_SLOTS, 0.05, URGENT_SLOTS, 1, expect_bulk=n),
            )
        if self.want("f"):
            dsn = self.fresh_db("bench_bloat")
            F["f_bloat"] = self.step(
                f"f: bloat, {s['bloat_jobs']} jobs through the queue",
                lambda: jqf.bloat(dsn, s["bloat_jobs"], backlog=s["bloat_backlog"], max_seconds=s["bloat_max_seconds"]),
            )
            # The same with autovacuum visiting every 5 s instead of every minute (the default):
            # how much of the bloat is the naptime. A server setting, reset afterwards.
            dsn = self.fresh_db("bench_bloat_naptime")
            self.server.psql(
                "postgres", "-c", "alter system set autovacuum_naptime = '5s'", "-c", "select pg_reload_conf()"
            )
            try:
                F["f_bloat_naptime_5s"] = self.step(
                    f"f: bloat, {s['bloat_jobs'] // 2} jobs, autovacuum_naptime = 5s",
                    lambda: jqf.bloat(
                        dsn, s["bloat_jobs"] // 2, backlog=s["bloat_backlog"], max_seconds=s["bloat_max_seconds"] / 2
                    ),
                )
            finally:
                self.server.psql(
                    "postgres", "-c", "alter system reset autovacuum_naptime", "-c", "select pg_reload_conf()"
                )
        if self.want("g"):
            F["g_idle"] = self.step("g: idle cost, 4 workers each (jq, PgQueuer, Procrastinate)", self.idle)
        if self.want("h"):
            dsn = self.fresh_db("bench_fairness")
            F["h_fairness"] = self.step(
                f"h: fair vs plain claim, A {s['fair_backlog']:,} + B..K 100 each; 11 x {s['fair_tenant_jobs']:,}",
                lambda: fairness.run(
                    dsn, s["fair_backlog"], s["fair_tenant_jobs"], claimers=FAIR_CLAIMERS, limit=FAIR_LIMIT, log=_log
                ),
            )
        if self.want("i"):
            dsn = self.fresh_db("bench_explain_claim")
            F["i_explain_claim"] = self.step(
                f"i: jq_claim plans and latency, A at {', '.join(f'{x:,}' for x in s['explain_sizes'])}; "
                f"{s['explain_many_jobs']:,} jobs over 1,000 tenants",
                lambda: explain_claim.run(
                    dsn, s["explain_sizes"], samples=EXPLAIN_SAMPLES, many=(1_000, s["explain_many_jobs"]), log=_log
                ),
            )
        if self.want("j"):
            dsn = self.fresh_db("bench_held_jq")
            self.fresh_db("bench_held_pgqueuer", jq=False)
            url = self.server.url("bench_held_pgqueuer")
            F["j_held_snapshot"] = self.step(
                f"j: {s['steady_rate']} jobs/s for {s['held_seconds']} s under a held snapshot (jq, PgQueuer)",
                lambda: held_snapshot.run(
                    dsn, url, s["held_seconds"], s["steady_rate"], s["held_recovery_s"], STEADY_SLOTS, log=_log
                ),
            )

    _raw_db: str | None = None

    def raw_db(self) -> str:
        if self._raw_db is None:
            self.fresh_db("bench_raw", raw=True)
            self._raw_db = "bench_raw"
        return self._raw_db

    def idle(self) -> dict[str, Any]:
        """4 idle workers of each queue, at once, each in its own database with
        log_statement = 'all': statements per second per worker, counted in the
        server log (one line per statement a client sent)."""
        seconds = self.sizes["idle_seconds"]
        jq_dsn = self.fresh_db("idle_jq")
        self.fresh_db("idle_pgqueuer", jq=False)
        pgq_url = self.server.url("idle_pgqueuer")
        proc_dsn = self.fresh_db("idle_procrastinate", jq=False)
        base.pgqueuer_install(pgq_url)
        base.procrastinate_install(proc_dsn)
        for db in ("idle_jq", "idle_pgqueuer", "idle_procrastinate"):
            self.server.psql("postgres", "-c", f"alter database {db} set log_statement = 'all'")
        jq_kids = jqf.start_idle_workers(jq_dsn, IDLE_WORKERS)
        peers = base.start_idle_peers(pgq_url, proc_dsn, IDLE_WORKERS)
        try:
            time.sleep(5.0)  # start-up queries (install checks, LISTEN, worker registration) are not idle cost
            log = self.server.log_path
            start = log.stat().st_size
            time.sleep(seconds)
            end = log.stat().st_size
        finally:
            jq_results = jqf.stop_idle_workers(jq_kids)
            base.stop_children(peers)
        with open(log, "rb") as f:
            f.seek(start)
            chunk = f.read(end - start).decode(errors="replace")
        counts = {db: 0 for db in ("idle_jq", "idle_pgqueuer", "idle_procrastinate")}
        for line in chunk.splitlines():
            for db in counts:
                if f"] {db} LOG:  statement: " in line or f"] {db} LOG:  execute " in line:
                    counts[db] += 1
        per = {db: rnd(c / seconds / IDLE_WORKERS, 3) for db, c in counts.items()}
        return {
            "workers": IDLE_WORKERS,
            "seconds": seconds,
            "queries_per_s_per_worker": per["idle_jq"],
            "pgqueuer_queries_per_s_per_worker": per["idle_pgqueuer"],
            "procrastinate_queries_per_s_per_worker": per["idle_procrastinate"],
            "statements_logged": counts,
            "counts": "statements the workers sent (log_statement = all), per second per worker, after 5 s of start-up",
            "jq_worker_settings": jq_results[0]["settings"] if jq_results else None,
            "jq_worker_stats": [r["stats"] for r in jq_results],
        }


# -- targets and the table ---------------------------------------------------------------


def _get(d: dict | None, *path: str) -> Any:
    for p in path:
        if not isinstance(d, dict):
            return None
        d = d.get(p)
    return d


def _ratio(a: float | None, b: float | None) -> float | None:
    if a is None or not b:
        return None
    return round(a / b, 2)


def evaluate(results: dict[str, Any]) -> list[dict[str, Any]]:
    B, F = results["baselines"], results["figures"]
    t: list[dict[str, Any]] = []

    def add(name: str, value: Any, threshold: str, met: bool | None, note: str = "") -> None:
        t.append({"target": name, "value": value, "threshold": threshold, "met": met, "note": note})

    drain2 = _get(F, "c_drain_2", "jobs_per_s")
    pgq = _get(B, "pgqueuer_drain_2", "jobs_per_s")
    proc = _get(B, "procrastinate_drain_2", "jobs_per_s")
    add("drain, 2 worker processes (jobs/s)", drain2, ">= 10,000", None if drain2 is None else drain2 >= 10_000)
    r = _ratio(drain2, pgq)
    add("drain, 2 processes / PgQueuer drain, 2 processes", r, ">= 2.5", None if r is None else r >= 2.5)
    r = _ratio(drain2, proc)
    add("drain, 2 processes / Procrastinate drain, 2 processes", r, ">= 15", None if r is None else r >= 15)
    r = _ratio(_get(F, "a_enqueue_1", "jobs_per_s"), _get(B, "pgbench_insert_1", "jobs_per_s"))
    add(
        "enqueue 1 job/txn, 1 connection / pgbench single insert, 1 client",
        r,
        ">= 0.70",
        None if r is None else r >= 0.70,
    )
    r = _ratio(_get(F, "b_enqueue_many", "jobs_per_s"), _get(B, "pgqueuer_enqueue", "jobs_per_s"))
    add("batch enqueue / PgQueuer batch enqueue", r, ">= 1.5", None if r is None else r >= 1.5)
    p95 = _get(F, "e_urgent", "latency", "p95_ms")
    add(
        "urgent pickup p95 with the bulk backlog draining (ms)",
        p95,
        "< 50 (requirement: 2000)",
        None if p95 is None else p95 < 50,
    )
    r = _get(F, "f_bloat", "claim_probe_ms", "ratio")
    cp = _get(F, "f_bloat", "claim_probe_ms") or {}
    add(
        "claim latency after the bloat run / fresh",
        r,
        "<= 1.5",
        None if r is None else r <= 1.5,
        f"buffers read to find the rows: {cp.get('find_buffers_start')} fresh, {cp.get('find_buffers_end')} after",
    )
    r = _get(F, "f_bloat", "table", "size_ratio")
    add("jq.jobs size after / before (same live rows)", r, "<= 3 (a small multiple)", None if r is None else r <= 3)
    # 0.6.0 on, jq.jobs holds the last slots' writes until they are rotated out: the size the flood left.
    r = _get(F, "f_bloat", "table", "size_ratio_settled")
    s = _get(F, "f_bloat", "table", "within_2x_fresh_after_s")
    add(
        "jq.jobs size once the rotation caught up / before",
        r,
        "<= 3 (a small multiple)",
        None if r is None else r <= 3,
        "not within 2x of fresh after 30 s" if s is None else f"within 2x of fresh {s} s after the flood",
    )
    q = _get(F, "g_idle", "queries_per_s_per_worker")
    add("idle queries per second per worker", q, "<= 1", None if q is None else q <= 1)
    h = F.get("h_fairness") or {}
    r = _get(h, "one_big_tenant", "fair_over_plain_jobs_per_s")
    n = _get(h, "one_big_tenant", "measure_first")
    add(
        f"fair / plain drain jobs/s, A's backlog + B..K (first {n or 0:,} jobs)",
        r,
        ">= 0.8 (fair at most 20% slower)",
        None if r is None else r >= 0.8,
    )
    r = _get(h, "equal_tenants", "fair_over_plain_jobs_per_s")
    add(
        "fair / plain drain jobs/s, 11 tenants with equal backlogs",
        r,
        ">= 0.8 (fair at most 20% slower)",
        None if r is None else r >= 0.8,
    )
    i = F.get("i_explain_claim") or {}
    r = i.get("fair_p50_largest_over_smallest")
    sizes = [e.get("tenant_a_ready") for e in i.get("backlogs") or []]
    add(
        "jq_claim(10) p50 at the largest / the smallest backlog of tenant A",
        r,
        "<= 1.5 (latency does not grow with the backlog)",
        None if r is None else r <= 1.5,
        f"backlogs {sizes[0]:,} and {sizes[-1]:,}" if sizes else "",
    )
    if F.get("j_held_snapshot"):
        t += held_snapshot.targets(F["j_held_snapshot"])
    return t


def _fmt(x: Any, unit: str = "") -> str:
    if x is None:
        return "—"
    if isinstance(x, float) and x >= 100:
        x = round(x)
    if isinstance(x, (int, float)):
        s = f"{x:,}" if isinstance(x, int) else f"{x:,.2f}".rstrip("0").rstrip(".")
        return s + unit
    return str(x)


def table(results: dict[str, Any]) -> str:
    B, F = results["baselines"], results["figures"]
    rows: list[tuple[str, str, str, str, str]] = []

    def row(fig: str, counts: str, jq: Any, baseline: str, ratio: float | None, unit: str = " jobs/s") -> None:
        rows.append((fig, counts, _fmt(jq, unit), baseline, _fmt(ratio, "×") if ratio is not None else "—"))

    def bl(name: str, v: Any, unit: str = " jobs/s") -> str:
        return f"{name} {_fmt(v, unit)}" if v is not None else f"{name} —"

    a1, p1 = _get(F, "a_enqueue_1", "jobs_per_s"), _get(B, "pgbench_insert_1", "jobs_per_s")
    row(
        "a. enqueue, 1 job/txn, 1 conn",
        "enqueue commits",
        a1,
        bl("pgbench insert, 1 client", p1, " tps"),
        _ratio(a1, p1),
    )
    a8, p8 = _get(F, "a_enqueue_8", "jobs_per_s"), _get(B, "pgbench_insert_8", "jobs_per_s")
    row(
        "a. enqueue, 1 job/txn, 8 conns",
        "enqueue commits",
        a8,
        bl("pgbench insert, 8 clients", p8, " tps"),
        _ratio(a8, p8),
    )
    an = _get(F, "a_enqueue_8_notify", "jobs_per_s")
    row("a. same, a worker waiting (NOTIFY each)", "enqueue commits", an, bl("jq without NOTIFY", a8), _ratio(an, a8))
    b, pb = _get(F, "b_enqueue_many", "jobs_per_s"), _get(B, "pgqueuer_enqueue", "jobs_per_s")
    rb = _get(B, "procrastinate_enqueue", "jobs_per_s")
    batch = _get(F, "b_enqueue_many", "batch")
    row(
        f"b. batch enqueue ({batch}/call)",
        "enqueue commits",
        b,
        bl("PgQueuer", pb) + "; " + bl("Procrastinate", rb),
        _ratio(b, pb),
    )
    c1, c2 = _get(F, "c_drain_1", "jobs_per_s"), _get(F, "c_drain_2", "jobs_per_s")
    cyc = _get(B, "pgbench_cycle100_2", "jobs_per_s")
    row(
        f"c. drain {_fmt(_get(F, 'c_drain_1', 'jobs'))} no-op jobs, 1 process",
        "completion commits",
        c1,
        bl("pgbench cycle ×100, 2 clients", cyc),
        _ratio(c1, cyc),
    )
    pq, pr = _get(B, "pgqueuer_drain_2", "jobs_per_s"), _get(B, "procrastinate_drain_2", "jobs_per_s")
    row(
        f"c. drain {_fmt(_get(F, 'c_drain_2', 'jobs'))} no-op jobs, 2 processes",
        "completion commits",
        c2,
        bl("PgQueuer, 2 proc", pq)
        + "; "
        + bl("Procrastinate, 2 proc", pr)
        + (f" (Procrastinate ratio {_fmt(_ratio(c2, pr), '×')})" if pr else ""),
        _ratio(c2, pq),
    )
    d = F.get("d_steady") or {}
    row(
        f"d. steady, {_fmt(d.get('offered_jobs_per_s'))} jobs/s offered",
        "completion commits",
        d.get("sustained_jobs_per_s"),
        "offered rate",
        _ratio(d.get("sustained_jobs_per_s"), d.get("offered_jobs_per_s")),
    )
    lat = d.get("latency") or {}
    rows.append(
        (
            "d. steady, end-to-end latency",
            "enqueue → completion commit",
            f"p50 {_fmt(lat.get('p50_ms'), ' ms')} / p95 {_fmt(lat.get('p95_ms'), ' ms')} / "
            f"p99 {_fmt(lat.get('p99_ms'), ' ms')}",
            "—",
            "—",
        )
    )
    e = _get(F, "e_urgent", "latency") or {}
    rows.append(
        (
            "e. urgent pickup, bulk draining",
            "enqueue commit → handler start",
            f"p50 {_fmt(e.get('p50_ms'), ' ms')} / p95 {_fmt(e.get('p95_ms'), ' ms')} / "
            f"p99 {_fmt(e.get('p99_ms'), ' ms')}",
            "requirement 2,000 ms; target p95 < 50 ms",
            _fmt(_ratio(e.get("p95_ms"), 50), "× target") if e.get("p95_ms") is not None else "—",
        )
    )
    f = F.get("f_bloat") or {}
    cp = f.get("claim_probe_ms") or {}
    if f:
        rows.append(
            (
                f"f. bloat, {_fmt(f.get('jobs_through'))} jobs through",
                f"claim({cp.get('limit')}) statement latency",
                f"{_fmt(cp.get('end'), ' ms')} at end ({cp.get('find_buffers_end')} buffers to find the rows)",
                f"fresh {_fmt(cp.get('start'), ' ms')} ({cp.get('find_buffers_start')} buffers)",
                _fmt(cp.get("ratio"), "×") if cp.get("ratio") is not None else "—",
            )
        )
    ts, te = _get(f, "table", "start") or {}, _get(f, "table", "end") or {}
    if ts and te:
        rows.append(
            (
                "f. bloat: jq.jobs heap+indexes",
                f"live rows {ts.get('live_rows')} → {te.get('live_rows')}",
                f"{_mb(te)} MB, {te.get('dead_tuples_exact')} dead (peak "
                f"{(_get(f, 'table', 'peak_during_run', 'heap_and_index_bytes') or 0) / 1048576:.1f} MB)",
                f"fresh {_mb(ts)} MB, {ts.get('dead_tuples_exact')} dead",
                _fmt(_get(f, "table", "size_ratio"), "×"),
            )
        )
    f5 = F.get("f_bloat_naptime_5s") or {}
    t5 = _get(f5, "table", "end") or {}
    if t5:
        rows.append(
            (
                f"f. same, autovacuum_naptime 5 s, {_fmt(f5.get('jobs_through'))} jobs",
                "jq.jobs heap+indexes at end; claim",
                f"{_mb(t5)} MB, {t5.get('dead_tuples_exact')} dead; "
                f"claim {_fmt(_get(f5, 'claim_probe_ms', 'end'), ' ms')}",
                f"fresh {_mb(_get(f5, 'table', 'start') or {})} MB; claim "
                f"{_fmt(_get(f5, 'claim_probe_ms', 'start'), ' ms')}",
                _fmt(_get(f5, "table", "size_ratio"), "×"),
            )
        )
    g = F.get("g_idle") or {}
    row(
        "g. idle, 4 workers",
        "queries/s per worker",
        g.get("queries_per_s_per_worker"),
        bl("PgQueuer", g.get("pgqueuer_queries_per_s_per_worker"), " q/s")
        + "; "
        + bl("Procrastinate", g.get("procrastinate_queries_per_s_per_worker"), " q/s"),
        _ratio(g.get("queries_per_s_per_worker"), g.get("pgqueuer_queries_per_s_per_worker")),
        unit=" q/s",
    )
    h = F.get("h_fairness") or {}
    big = h.get("one_big_tenant") or {}
    if big.get("fair") and big.get("plain"):
        fa, pl = big["fair"], big["plain"]
        n_a = _fmt(_get(big, "backlog", "A"))
        rows.append(
            (
                f"h. B..K (10 x 100 jobs) behind A's {n_a}: until all done",
                "completion commits, 2 claimers",
                f"fair {_fmt(fa.get('small_tenants_done_s'), ' s')} ({_fmt(fa.get('a_jobs_before_small_done'))}"
                f" of A's jobs ran first)",
                f"plain {_fmt(pl.get('small_tenants_done_s'), ' s')} "
                f"({_fmt(pl.get('a_jobs_before_small_done'))} of A's first)",
                _fmt(_ratio(pl.get("small_tenants_done_s"), fa.get("small_tenants_done_s")), "× sooner (plain/fair)"),
            )
        )
        row(
            f"h. drain, first {_fmt(_get(fa, 'drain_first', 'jobs'))} of that backlog",
            "completion commits",
            _get(fa, "drain_first", "jobs_per_s"),
            bl("plain", _get(pl, "drain_first", "jobs_per_s")),
            big.get("fair_over_plain_jobs_per_s"),
        )
    eq = h.get("equal_tenants") or {}
    if eq.get("fair") and eq.get("plain"):
        row(
            f"h. drain, {eq.get('tenants')} tenants x {_fmt(eq.get('jobs_per_tenant'))}",
            "completion commits",
            _get(eq, "fair", "jobs_per_s"),
            bl("plain", _get(eq, "plain", "jobs_per_s")),
            eq.get("fair_over_plain_jobs_per_s"),
        )
    i = F.get("i_explain_claim") or {}
    bks = i.get("backlogs") or []
    if bks:
        lo, hi = bks[0], bks[-1]
        rows.append(
            (
                f"i. jq_claim(10) p50, A {_fmt(lo.get('tenant_a_ready'))} → {_fmt(hi.get('tenant_a_ready'))}"
                " ready + B..K 100 each",
                "claim call, own txn",
                " / ".join(_fmt(_get(e, "fair", "claim_ms", "p50_ms"), " ms") for e in bks) + " (fair)",
                "plain " + " / ".join(_fmt(_get(e, "plain", "claim_ms", "p50_ms"), " ms") for e in bks),
                _fmt(i.get("fair_p50_largest_over_smallest"), "× (largest/smallest)"),
            )
        )
    many = i.get("many_tenants") or {}
    if many.get("fair"):
        rows.append(
            (
                f"i. jq_claim(10) p50, {_fmt(many.get('jobs'))} jobs over {_fmt(many.get('tenants'))} tenants",
                "claim call, own txn",
                f"{_fmt(_get(many, 'fair', 'claim_ms', 'p50_ms'), ' ms')} (fair)",
                f"plain {_fmt(_get(many, 'plain', 'claim_ms', 'p50_ms'), ' ms')}",
                _fmt(_ratio(_get(many, "fair", "claim_ms", "p50_ms"), _get(many, "plain", "claim_ms", "p50_ms")), "×"),
            )
        )
    if F.get("j_held_snapshot"):
        rows.append(held_snapshot.table_row(F["j_held_snapshot"]))
    rows = [r for r in rows if "—" not in (r[2], r[2][:5]) and "p50 —" not in r[2]]
    out = ["| figure | counts | jq | same-run baseline | jq / baseline |", "|---|---|---|---|---|"]
    out += [f"| {' | '.join(r)} |" for r in rows]
    # Where the time goes: the same work with parts taken away.
    diag: list[tuple[str, Any, str, float | None]] = []
    fn1 = _get(B, "pgbench_jq_enqueue_1", "jobs_per_s")
    diag.append(("pgbench: jq_enqueue, 1 client (no Python)", fn1, " jobs/s", _ratio(fn1, p1)))
    diag.append(
        ("pyjq.enqueue, 1 conn / pgbench jq_enqueue (the Python client's share)", a1, " jobs/s", _ratio(a1, fn1))
    )
    ins = _get(B, "pgbench_insert_many_1", "jobs_per_s")
    many = _get(B, "pgbench_jq_enqueue_many_1", "jobs_per_s")
    diag.append(("pgbench: INSERT ... SELECT of 1,000 rows from JSON, 1 client", ins, " jobs/s", None))
    diag.append(
        ("pgbench: jq_enqueue_many(1,000), 1 client (no Python) / that INSERT", many, " jobs/s", _ratio(many, ins))
    )
    diag.append(("pyjq.enqueue_many(1,000) / pgbench jq_enqueue_many", b, " jobs/s", _ratio(b, many)))
    for label, key, src in (
        ("jq", "c_drain_2", F),
        ("PgQueuer", "pgqueuer_drain_2", B),
        ("Procrastinate", "procrastinate_drain_2", B),
    ):
        diag.append(
            (f"drain, 2 processes: worker CPU per job, {label}", _get(src, key, "worker_cpu_us_per_job"), " µs", None)
        )
    diag.append(
        (
            "drain, 2 processes: jq jobs per jq_claim / per jq_complete",
            f"{_fmt(_get(F, 'c_drain_2', 'jobs_per_claim'))} / {_fmt(_get(F, 'c_drain_2', 'jobs_per_complete'))}",
            "",
            None,
        )
    )
    diag_rows = [
        f"| {label} | {_fmt(v, unit)} | {_fmt(r, '×') if r is not None else '—'} |"
        for label, v, unit, r in diag
        if v is not None and v != "— / —"
    ]
    if diag_rows:
        out += ["", "| where the time goes | value | ratio |", "|---|---|---|", *diag_rows]
    out += ["", "| target | value | threshold | met |", "|---|---|---|---|"]
    for t in results.get("targets", []):
        if t["value"] is None:
            continue
        met = {True: "yes", False: "**no**", None: "—"}[t["met"]]
        note = f" ({t['note']})" if t.get("note") else ""
        out.append(f"| {t['target']}{note} | {_fmt(t['value'])} | {t['threshold']} | {met} |")
    return "\n".join(out)


def _mb(state: dict) -> str:
    return f"{(state.get('heap_bytes', 0) + state.get('index_bytes', 0)) / 1048576:.1f}"


# -- meta -------------------------------------------------------------------------------------


def meta(server: BenchServer, profile: str, sizes: dict[str, Any]) -> dict[str, Any]:
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True).stdout.strip()
        except OSError:
            return ""

    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        version = conn.execute("select version()").fetchone()[0]
        settings = dict(
            conn.execute(
                """select name, current_setting(name) from pg_settings
                where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'shared_buffers', 'wal_level',
                               'max_wal_size', 'checkpoint_timeout', 'autovacuum', 'autovacuum_naptime',
                               'autovacuum_vacuum_cost_delay', 'max_connections', 'wal_sync_method',
                               'work_mem', 'jit')"""
            ).fetchall()
        )
    import importlib.metadata as md

    def v(pkg: str) -> str | None:
        try:
            return md.version(pkg)
        except md.PackageNotFoundError:
            return None

    scaled = {k: {"issue": ISSUE_SIZES[k], "this_run": sizes[k]} for k in ISSUE_SIZES if sizes[k] != ISSUE_SIZES[k]}
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "profile": profile,
        "sizes": sizes,
        "scaled_down_from_issue": scaled,
        "git_commit": git("rev-parse", "HEAD"),
        "sql_dir": str(SQL_DIR),
        "git_dirty": bool(git("status", "--porcelain", "--", "sql", "pyjq", "bench")),
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "postgresql": version,
        "server_settings": settings,
        "server_conf_changed": SERVER_CONF,
        "packages": {
            p: v(p)
            for p in ("psycopg", "psycopg-binary", "psycopg-pool", "procrastinate", "pgqueuer", "asyncpg", "uvloop")
        },
        "jq_worker": {
            "drain_slots_per_process": DRAIN_SLOTS,
            "steady_slots": STEADY_SLOTS,
            "urgent_slots": URGENT_SLOTS,
            "idle_workers": IDLE_WORKERS,
            "other": "pyjq.Worker defaults (flush_size, flush_interval, poll_interval, lease)",
            "fairness_claimers": {
                "processes": FAIR_CLAIMERS,
                "limit": FAIR_LIMIT,
                "how": "SQL loop jq_claim + jq_complete, no pyjq.Worker",
            },
            "explain_claim": {"limit": explain_claim.LIMIT, "samples": EXPLAIN_SAMPLES},
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="small sizes (a smoke test)")
    g.add_argument("--full", action="store_true", help="the issue's full sizes")
    ap.add_argument("--only", default="", help="comma-separated figures: a,b,c,d,e,f,g,h,i,j")
    ap.add_argument("--out", default=str(BENCH / "results" / "latest.json"))
    args = ap.parse_args()
    profile = "quick" if args.quick else "full" if args.full else "default"
    sizes = SIZES[profile]
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    # SIGTERM (make interrupted, CI time-out) unwinds like Ctrl-C: the server is stopped and removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    t0 = time.perf_counter()
    with BenchServer(extra_conf=SERVER_CONF) as server:
        suite = Suite(server, sizes, only)
        results = {"meta": meta(server, profile, sizes)}
        suite.run()
        results.update(suite.results)
    results["targets"] = evaluate(results)
    results["meta"]["step_seconds"] = suite.timings
    results["meta"]["total_seconds"] = round(time.perf_counter() - t0, 1)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, default=str) + "\n")
    print(table(results))
    shown = out.relative_to(REPO) if out.is_relative_to(REPO) else out
    print(f"\n{profile} run, {results['meta']['total_seconds']} s; JSON: {shown}")
    if results["errors"]:
        print(f"errors: {json.dumps(results['errors'], indent=2)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
