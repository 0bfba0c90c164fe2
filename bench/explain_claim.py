"""The plans inside jq_claim, and claim latency against the largest tenant's
backlog (issue #8, point 6). Prints one JSON object; the plans also go to
bench/results/explain_claim.txt.

    python bench/explain_claim.py                # backlogs 1,000 / 100,000 / 1,000,000; own throwaway server
    python bench/explain_claim.py --quick        # backlogs 1,000 / 10,000 / 100,000
    python bench/explain_claim.py --sizes 1000,100000 --no-many-tenants
    python bench/explain_claim.py --dsn "host=... dbname=..."   # an existing database without jobs

Queue `claim`: tenant A holds `size` ready jobs, tenants B..K 100 each (B..K
enqueued after A's first 1,000; A is topped up to the next size later, so
A's newer jobs are behind theirs). At each size, for the fair queue (the
default) and again set plain (`jq_queue_set_fair`):

* latency: `--samples` (200) calls of `jq_claim(queue, worker, 10)`, each its
  own transaction (autocommit: the time includes the commit), after 20 untimed
  ones. After each claim, untimed: `jq_complete` of the claimed jobs, then one
  new job per claimed job for the same tenant (`jq_enqueue_many`), so every
  claim sees the same backlog: A at `size`, B..K at 100 each;
* plans: one more claim with `auto_explain` loaded in the session
  (`log_min_duration 0`, `log_nested_statements`, `log_analyze`,
  `log_buffers`, `log_level notice`): every statement jq_claim runs comes back
  to the client as a NOTICE with its duration and its plan (the JSON keeps
  each statement's duration, its first line, its scan lines; the text file
  the whole plans). The claim's own line (`select ... from jq.jq_claim`) is
  the total, with the per-node timing overhead of EXPLAIN ANALYZE.

Variant `many_tenants`: 1,000,000 jobs (`--many-jobs`) spread over 1,000
tenants (`--many-tenants`), 1,000 each, interleaved; the same two
measurements. Here the claim walks 1,000 groups each call.

Backlogs are built through jq_enqueue_many (10,000 jobs a call, generated in
the server), untimed, then `VACUUM (ANALYZE)`d.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

from common import BENCH, latency_summary, rnd
from fairness import BATCH, SQL_DIR, enqueue_tenant, parallel_calls, sql_fingerprint
from standalone import run_standalone

QUEUE = "claim"
SMALL_TENANTS = [chr(c) for c in range(ord("B"), ord("K") + 1)]
SMALL_JOBS = 100
LIMIT = 10
WARMUP = 20
PLANS_TXT = BENCH / "results" / "explain_claim.txt"

ENQUEUE_SPREAD = """
select count(*) from jq.jq_enqueue_many((
    select jsonb_agg(jsonb_build_object('type', 'noop', 'queue', %(queue)s::text,
                                        'tenant', 'U' || lpad((i %% %(tenants)s::integer)::text, 4, '0'),
                                        'payload', jsonb_build_object('n', i)))
      from generate_series(%(lo)s::integer, %(hi)s::integer) i))
"""
SCAN = re.compile(
    r"(Index Scan|Index Only Scan|Bitmap Index Scan|Bitmap Heap Scan|Seq Scan|LockRows|"
    r"Update on|Insert on|Recursive Union|CTE Scan|Function Scan|Buffers:)"
)


def _vacuum(dsn: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("vacuum (analyze) jq.jobs")


def _parse_notice(msg: str) -> dict[str, Any] | None:
    """An auto_explain NOTICE: 'duration: X ms  plan:\\nQuery Text: ...\\n<plan>'."""
    m = re.match(r"duration: ([\d.]+) ms\s+plan:\n", msg)
    if not m:
        return None
    body = msg[m.end() :]
    lines = body.split("\n")
    # The plan starts at the first unindented line with a cost estimate.
    start = next((i for i, ln in enumerate(lines) if i > 0 and re.match(r"^\S.*\(cost=", ln)), len(lines))
    query = " ".join(" ".join(lines[:start]).removeprefix("Query Text:").split())
    plan = "\n".join(lines[start:]).rstrip()
    return {
        "duration_ms": float(m.group(1)),
        "query": query,
        "plan": plan,
        "key_lines": [ln.strip() for ln in plan.split("\n") if SCAN.search(ln)],
    }


INDEX_LINE = re.compile(
    r"(Index Scan|Index Only Scan|Bitmap Index Scan|Seq Scan)(?: Backward)?(?: using (\S+))? on (\S+)"
    r".*?\(actual (?:time=\S+ )?rows=(\d+) loops=(\d+)\)"
)


def scan_summary(statements: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per index (or seq scan of a table) over every statement of one claim:
    how many scans (loops) and rows (rows x loops) it gave."""
    out: dict[str, dict[str, int]] = {}
    for s in statements:
        for m in INDEX_LINE.finditer(s["plan"]):
            kind, index, table, rows, loops = m.groups()
            key = index if index else f"{kind.lower()} {table}"
            d = out.setdefault(key, {"scans": 0, "rows": 0})
            d["scans"] += int(loops)
            d["rows"] += int(rows) * int(loops)
    return out


def measure(dsn: str, label: str, samples: int, limit: int = LIMIT, fair: bool = True) -> dict[str, Any]:
    worker = f"explain-{label}"
    claim = "select id, tenant from jq.jq_claim(%s, %s, %s)"
    with psycopg.connect(dsn, autocommit=True, application_name=worker) as conn:
        conn.execute("select jq.jq_queue_set_fair(%s, %s)", [QUEUE, fair])

        def after(rows: list[tuple[Any, str]]) -> None:  # untimed: complete, then put the same tenants back
            conn.execute("select count(*) from jq.jq_complete(%s, %s)", [[r[0] for r in rows], worker])
            conn.execute(
                "select count(*) from jq.jq_enqueue_many(%s::jsonb)",
                [json.dumps([{"type": "noop", "queue": QUEUE, "tenant": r[1]} for r in rows])],
            )

        for _ in range(WARMUP):
            after(conn.execute(claim, [QUEUE, worker, limit]).fetchall())
        ms: list[float] = []
        tenants_per_claim: list[int] = []
        a_share = 0
        got = 0
        for _ in range(samples):
            t = time.perf_counter()
            rows = conn.execute(claim, [QUEUE, worker, limit]).fetchall()
            ms.append((time.perf_counter() - t) * 1000)
            got += len(rows)
            a_share += sum(1 for r in rows if r[1] == "A")
            tenants_per_claim.append(len({r[1] for r in rows}))
            after(rows)
        # One more claim, explained: every statement inside it, with buffers.
        notices: list[str] = []
        conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
        with conn.transaction():
            conn.execute("load 'auto_explain'")
            for k, v in (
                ("log_min_duration", "0"),
                ("log_analyze", "on"),
                ("log_buffers", "on"),
                ("log_timing", "on"),
                ("log_nested_statements", "on"),
                ("log_level", "notice"),
            ):
                conn.execute(f"set local auto_explain.{k} = {v}")
            notices.clear()
            rows = conn.execute(claim, [QUEUE, worker, limit]).fetchall()
        # The claim's own plan comes at commit: the (unnamed) portal is closed then.
        explained = [p for p in (_parse_notice(n) for n in notices) if p]
        after(rows)
        conn.execute("select jq.jq_queue_set_fair(%s, true)", [QUEUE])
    top = next((s for s in reversed(explained) if "jq_claim(" in s["query"]), None)
    return {
        "mode": "fair" if fair else "plain",
        "limit": limit,
        "samples": samples,
        "claim_ms": {**latency_summary(ms), "mean_ms": rnd(statistics.fmean(ms), 3), "min_ms": rnd(min(ms), 3)},
        "jobs_per_claim": rnd(got / samples, 2),
        "tenant_a_share": rnd(a_share / max(1, got), 3),
        "tenants_per_claim_mean": rnd(statistics.fmean(tenants_per_claim), 2),
        "explained_claim": {
            "jobs": len(rows),
            "total_ms_with_explain": top["duration_ms"] if top else None,
            "statements_run": len(explained) - (1 if top else 0),
            "buffers": _buffers(top["plan"]) if top else None,
            "scans": scan_summary([s for s in explained if s is not top]),
            "statements": [
                {"duration_ms": s["duration_ms"], "query": s["query"][:160], "key_lines": s["key_lines"]}
                for s in explained
            ],
        },
        "_plans": explained,
    }


def _buffers(plan: str) -> dict[str, int] | None:
    m = re.search(r"Buffers: shared((?: \w+=\d+)+)", plan)
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(1))} if m else None


def _backlog_a(conn: psycopg.Connection) -> int:
    return conn.execute(
        "select count(*) from jq.jobs where queue = %s and tenant = 'A' and status = 'pending'", [QUEUE]
    ).fetchone()[0]


def run(
    dsn: str,
    sizes: list[int],
    samples: int = 200,
    many: tuple[int, int] | None = (1_000, 1_000_000),
    plans_out: Path | None = PLANS_TXT,
    log: Any = None,
) -> dict[str, Any]:
    with psycopg.connect(dsn, autocommit=True) as conn:
        if conn.execute("select exists (select 1 from jq.jobs)").fetchone()[0]:
            raise SystemExit(
                "explain_claim: jq.jobs is not empty; this benchmark truncates it -- use an empty database"
            )
    out: dict[str, Any] = {
        "queue": QUEUE,
        "limit": LIMIT,
        "samples": samples,
        "warmup": WARMUP,
        "small_tenants": {t: SMALL_JOBS for t in SMALL_TENANTS},
        "backlogs": [],
        "counts": "client-side time of `select ... from jq.jq_claim(q, w, 10)` in autocommit "
        "(own transaction, commit included)",
    }
    texts: list[str] = []
    setup: dict[str, float] = {}
    t = time.perf_counter()
    first = True
    for size in sorted(sizes):
        t1 = time.perf_counter()
        with psycopg.connect(dsn, autocommit=True) as conn:
            have = _backlog_a(conn)
        if size > have:
            enqueue_tenant(dsn, QUEUE, "A", size - have)
        if first:
            for ten in SMALL_TENANTS:
                enqueue_tenant(dsn, QUEUE, ten, SMALL_JOBS, connections=1)
            first = False
        _vacuum(dsn)
        setup[f"build_to_{size}_s"] = rnd(time.perf_counter() - t1, 1)
        entry: dict[str, Any] = {"tenant_a_ready": size, "others_ready": SMALL_JOBS * len(SMALL_TENANTS)}
        for fair in (True, False):
            r = measure(dsn, f"{size}", samples, fair=fair)
            texts.extend(
                f"-- backlog A={size:,} + B..K 100 each, {r['mode']} queue; "
                f"{p['duration_ms']} ms: {p['query'][:300]}\n{p['plan']}\n"
                for p in r.pop("_plans")
            )
            entry[r["mode"]] = r
            if log:
                log(
                    f"explain_claim A={size} {r['mode']}: {json.dumps(r['claim_ms'])} "
                    f"explained total {r['explained_claim']['total_ms_with_explain']} ms"
                )
        out["backlogs"].append(entry)
    p50 = [(e["tenant_a_ready"], e["fair"]["claim_ms"]["p50_ms"]) for e in out["backlogs"]]
    if len(p50) > 1 and p50[0][1]:
        out["fair_p50_largest_over_smallest"] = rnd(p50[-1][1] / p50[0][1], 2)
    if many:
        tenants, jobs = many
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("truncate jq.jobs, jq.job_history")
            conn.execute("delete from jq.fair_lanes")
        t1 = time.perf_counter()
        parallel_calls(
            dsn,
            ENQUEUE_SPREAD,
            [
                {"queue": QUEUE, "tenants": tenants, "lo": lo, "hi": min(lo + BATCH - 1, jobs)}
                for lo in range(1, jobs + 1, BATCH)
            ],
        )
        _vacuum(dsn)
        setup["build_many_tenants_s"] = rnd(time.perf_counter() - t1, 1)
        entry = {"tenants": tenants, "jobs": jobs, "jobs_per_tenant": jobs // tenants}
        for fair in (True, False):
            r = measure(dsn, f"many{tenants}", samples, fair=fair)
            texts.extend(
                f"-- {jobs:,} jobs over {tenants:,} tenants, {r['mode']} queue; "
                f"{p['duration_ms']} ms: {p['query'][:300]}\n{p['plan']}\n"
                for p in r.pop("_plans")
            )
            entry[r["mode"]] = r
            if log:
                log(f"explain_claim many tenants {r['mode']}: {json.dumps(r['claim_ms'])}")
        out["many_tenants"] = entry
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("truncate jq.jobs, jq.job_history")
        conn.execute("delete from jq.fair_lanes")
        conn.execute("delete from jq.queue_settings")
    out["setup_untimed"] = setup
    out["section_seconds"] = rnd(time.perf_counter() - t, 1)
    out.update(sql_fingerprint(dsn))
    if plans_out:
        plans_out.parent.mkdir(parents=True, exist_ok=True)
        plans_out.write_text(
            f"-- jq_claim plans (auto_explain, analyze, buffers); jq_claim source md5 "
            f"{out.get('jq_claim_src_md5')}\n\n" + "\n".join(texts)
        )
        out["plans_file"] = str(plans_out)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dsn", default=None, help="an existing database without jobs (default: a throwaway server)")
    ap.add_argument(
        "--quick", action="store_true", help="backlogs 1,000 / 10,000 / 100,000; 100,000 over 1,000 tenants"
    )
    ap.add_argument("--sizes", default=None, help="tenant A's backlogs, comma-separated (default 1000,100000,1000000)")
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--many-tenants", type=int, default=1000)
    ap.add_argument("--many-jobs", type=int, default=None, help="default 1,000,000 (--quick: 100,000)")
    ap.add_argument("--no-many-tenants", action="store_true")
    ap.add_argument("--plans-out", default=str(PLANS_TXT))
    args = ap.parse_args()
    sizes = (
        [int(x) for x in args.sizes.split(",")]
        if args.sizes
        else [1_000, 10_000, 100_000]
        if args.quick
        else [1_000, 100_000, 1_000_000]
    )
    many = (
        None if args.no_many_tenants else (args.many_tenants, args.many_jobs or (100_000 if args.quick else 1_000_000))
    )

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    kw = dict(samples=args.samples, many=many, plans_out=Path(args.plans_out), log=log)
    run_standalone("explain_claim", args.dsn, SQL_DIR, lambda dsn: run(dsn, sizes, **kw))


if __name__ == "__main__":
    main()
