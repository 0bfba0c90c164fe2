"""Same-run baselines: raw SQL with pgbench, and the peers (PgQueuer, Procrastinate).

pgbench scripts live in bench/pgbench/: insert.sql (one job, one
transaction), cycle.sql (enqueue; claim one FOR UPDATE SKIP LOCKED; delete:
three transactions per job), cycle100.sql (the same, 100 jobs at a time). They
run against bench_raw.jobs, a copy of jq.jobs' columns, constraints and
indexes with no function or trigger in front (bench/pgbench/setup.sql).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from typing import Any

import psycopg

from common import BENCH, Child, cleanup, py, rnd, start_all

PGBENCH_DIR = BENCH / "pgbench"
PGQ = str(BENCH / "peers" / "pgqueuer_bench.py")
PROC = str(BENCH / "peers" / "procrastinate_bench.py")


# -- pgbench ---------------------------------------------------------------------------


def pgbench(server, db: str, script: str, clients: int, seconds: int, jobs_per_txn: int = 1) -> dict[str, Any]:
    with psycopg.connect(server.dsn(db), autocommit=True) as conn:
        conn.execute("truncate bench_raw.jobs")
        conn.execute("vacuum (analyze) bench_raw.jobs")
    cmd = [
        str(server.pgbin / "pgbench"),
        "-n",
        "-M",
        "prepared",
        "-c",
        str(clients),
        "-j",
        str(clients),
        "-T",
        str(seconds),
        "-h",
        "127.0.0.1",
        "-p",
        str(server.port),
        "-U",
        "postgres",
        "-f",
        str(PGBENCH_DIR / script),
        db,
    ]
    out = subprocess.run(cmd, capture_output=True, text=True)
    text = out.stdout + out.stderr
    m = re.search(r"tps = ([\d.]+) \(without initial connection time\)", text)
    if out.returncode != 0 or not m:
        raise RuntimeError(f"pgbench {script} failed:\n{text[-2000:]}")
    failed = re.search(r"number of failed transactions: (\d+)", text)
    tps = float(m.group(1))
    return {
        "script": f"bench/pgbench/{script}",
        "clients": clients,
        "seconds": seconds,
        "tps": rnd(tps),
        "jobs_per_s": rnd(tps * jobs_per_txn),
        "failed_transactions": int(failed.group(1)) if failed else 0,
        "mode": "-M prepared",
    }


# -- PgQueuer ---------------------------------------------------------------------------


def _run_json(argv: list[str]) -> dict[str, Any]:
    out = subprocess.run(argv, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:3])} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def pgqueuer_settings() -> dict[str, Any]:
    return _run_json([py(), PGQ, "settings"])


def pgqueuer_install(url: str) -> None:
    subprocess.run([py(), PGQ, "install", "--dsn", url], check=True, capture_output=True)


def _peer_enqueue(script: str, dsn: str, jobs: int, batch: int) -> dict[str, Any]:
    r = _run_json([py(), script, "enqueue", "--dsn", dsn, "--jobs", str(jobs), "--batch", str(batch)])
    return {
        "jobs": r["jobs"],
        "batch": batch,
        "seconds": rnd(r["seconds"], 2),
        "jobs_per_s": rnd(r["jobs_per_s"]),
        "counts": "enqueue commits",
    }


def _peer_drain(
    name: str, script: str, dsn: str, processes: int, expect: int, *, table: str, left_sql: str, counts: str
) -> dict[str, Any]:
    """Drain a peer's queue with `processes` worker processes of its own; jobs/s from first start to last finish."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"vacuum (analyze) {table}")
    kids = [
        Child(f"{name}-drain-{processes}p-{i}", [py(), script, "worker", "--dsn", dsn, "--mode", "drain"])
        for i in range(processes)
    ]
    try:
        start_all(kids)
        res = [k.result(timeout=900) for k in kids]
    finally:
        cleanup(kids)
    t0, t1 = min(r["t0"] for r in res), max(r["t1"] for r in res)
    done = sum(r["done"] for r in res)
    with psycopg.connect(dsn, autocommit=True) as conn:
        left = conn.execute(left_sql).fetchone()[0]
    out = {
        "jobs": done,
        "processes": processes,
        "seconds": rnd(t1 - t0, 2),
        "jobs_per_s": rnd(done / (t1 - t0)),
        "left_in_queue": left,
        "counts": counts,
        "worker_cpu_us_per_job": rnd(sum(r["cpu_s"] for r in res) / max(1, done) * 1e6, 1),
    }
    if done != expect:
        out["warning"] = f"expected {expect} jobs, {done} ran"
    return out


def pgqueuer_enqueue(url: str, jobs: int, batch: int) -> dict[str, Any]:
    return _peer_enqueue(PGQ, url, jobs, batch)


def pgqueuer_drain(url: str, processes: int, expect: int) -> dict[str, Any]:
    return _peer_drain(
        "pgqueuer",
        PGQ,
        url,
        processes,
        expect,
        table="pgqueuer",
        left_sql="select count(*) from pgqueuer",
        counts="jobs run; the last status-log flush committed before exit",
    )


# -- Procrastinate ------------------------------------------------------------------------


def procrastinate_settings() -> dict[str, Any]:
    return _run_json([py(), PROC, "settings"])


def procrastinate_install(dsn: str) -> None:
    subprocess.run([py(), PROC, "install", "--dsn", dsn], check=True, capture_output=True)


def procrastinate_enqueue(dsn: str, jobs: int, batch: int) -> dict[str, Any]:
    return _peer_enqueue(PROC, dsn, jobs, batch)


def procrastinate_drain(dsn: str, processes: int, expect: int) -> dict[str, Any]:
    return _peer_drain(
        "procrastinate",
        PROC,
        dsn,
        processes,
        expect,
        table="procrastinate_jobs",
        left_sql="select count(*) from procrastinate_jobs where status in ('todo', 'doing')",
        counts="completion commits (finish_job per job)",
    )


def start_idle_peers(pgq_url: str, proc_dsn: str, n: int) -> list[Child]:
    kids = [Child(f"pgqueuer-idle-{i}", [py(), PGQ, "worker", "--dsn", pgq_url, "--mode", "run"]) for i in range(n)]
    kids += [
        Child(f"procrastinate-idle-{i}", [py(), PROC, "worker", "--dsn", proc_dsn, "--mode", "run"]) for i in range(n)
    ]
    start_all(kids)
    return kids


def stop_children(kids: list[Child]) -> None:
    for k in kids:
        k.terminate()
    deadline = time.monotonic() + 30
    for k in kids:
        try:
            k.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    cleanup(kids)
