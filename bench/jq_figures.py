"""The jq figures of the benchmark suite (issue #4, item 3). run.py calls them.

Each function takes a database (already holding jq, see run.py's fresh_db)
and returns a dict of JSON-able figures. Every figure states what it counts:

  enqueue commits      a job counts once the transaction that enqueued it committed;
  completion commits   a job counts once the jq_complete that finished it committed
                       (end to end: claimed, handler run, result written).
"""

from __future__ import annotations

import json
import re
import statistics
import threading
import time
from collections import Counter
from typing import Any

import psycopg

import pyjq
from common import Child, cleanup, latency_summary, py, rnd, start_all

WORKER = "bench/jq_worker_proc.py"


# -- a. enqueue, one job per transaction ----------------------------------------------


def enqueue_one_per_txn(dsn: str, connections: int, seconds: float, queue: str = "bench") -> dict[str, Any]:
    """pyjq.enqueue in autocommit mode (one job, one transaction, one round trip)
    from `connections` threads, each on its own connection, for `seconds`."""
    counts = [0] * connections
    window: dict[str, float] = {}

    def open_window() -> None:  # run by the last thread to arrive, before any is released
        window["t0"] = time.perf_counter()
        window["end"] = window["t0"] + seconds

    barrier = threading.Barrier(connections + 1, action=open_window)
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            with psycopg.connect(dsn, autocommit=True) as conn:
                for i in range(20):  # warm up: connection, prepared statement (prepare_threshold 5)
                    pyjq.enqueue(conn, "noop", {"n": i}, queue=queue + "_warmup")
                barrier.wait()
                end = window["end"]
                n = 0
                while time.perf_counter() < end:
                    pyjq.enqueue(conn, "noop", {"n": n}, queue=queue)
                    n += 1
                counts[k] = n
        except BaseException as exc:  # reported by the caller
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(k,), daemon=True) for k in range(connections)]
    for t in threads:
        t.start()
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        pass
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    elapsed = time.perf_counter() - window["t0"]
    if errors:
        raise errors[0]
    total = sum(counts)
    return {
        "jobs": total,
        "seconds": rnd(elapsed, 2),
        "jobs_per_s": rnd(total / elapsed),
        "connections": connections,
        "counts": "enqueue commits",
        "how": "pyjq.enqueue(conn, 'noop', {'n': i}) on autocommit connections, one thread each",
    }


def hold_waiter(dsn: str, queue: str) -> psycopg.Connection:
    """A connection that LISTENs on the queue and is marked waiting (jq_set_waiting),
    as an idle worker would be: from then on every ready insert NOTIFYs."""
    conn = psycopg.connect(dsn, autocommit=True)
    conn.execute(f'listen "jq_{queue}"')
    conn.execute("select jq.jq_set_waiting(%s::text[], %s::text, true)", [[queue], "bench-waiter"])
    return conn


# -- b. batch enqueue ------------------------------------------------------------------


def enqueue_many(dsn: str, jobs: int, batch: int, queue: str) -> dict[str, Any]:
    """pyjq.enqueue_many of `batch` jobs per call (one transaction each) until `jobs` are in."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        done = 0
        t0 = time.perf_counter()
        while done < jobs:
            n = min(batch, jobs - done)
            pyjq.enqueue_many(conn, [{"type": "noop", "queue": queue, "payload": {"n": done + i}} for i in range(n)])
            done += n
        elapsed = time.perf_counter() - t0
    return {
        "jobs": done,
        "batch": batch,
        "seconds": rnd(elapsed, 2),
        "jobs_per_s": rnd(done / elapsed),
        "counts": "enqueue commits",
        "how": f"pyjq.enqueue_many(conn, [{batch} jobs]) per transaction",
    }


def vacuum_analyze(dsn: str, table: str) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"vacuum (analyze) {table}")


# -- c. drain ---------------------------------------------------------------------------


def drain(dsn: str, processes: int, slots: int, queue: str = "bulk", expect: int | None = None) -> dict[str, Any]:
    """`processes` worker processes drain the queue: await worker.drain() in each.
    Timed from the go signal to the last process's exit (its last jq_complete committed)."""
    kids = [
        Child(
            f"jq-drain-{processes}p-{i}", [py(), WORKER, "--dsn", dsn, "--queue", f"{queue}={slots}", "--mode", "drain"]
        )
        for i in range(processes)
    ]
    try:
        start_all(kids)
        results = [k.result(timeout=900) for k in kids]
    finally:
        cleanup(kids)
    t0 = min(r["t0"] for r in results)
    t1 = max(r["t1"] for r in results)
    done = sum(r["summary"]["succeeded"] for r in results)
    with psycopg.connect(dsn, autocommit=True) as conn:
        left = conn.execute("select count(*) from jq.jobs where queue = %s", [queue]).fetchone()[0]
    stats = [r["stats"] for r in results]
    claims = sum(s.get("claim", 0) for s in stats)
    completes = sum(s.get("complete", 0) for s in stats)
    out = {
        "jobs": done,
        "processes": processes,
        "seconds": rnd(t1 - t0, 2),
        "jobs_per_s": rnd(done / (t1 - t0)),
        "left_in_queue": left,
        "counts": "completion commits",
        "jobs_per_claim": rnd(done / claims, 1) if claims else None,
        "jobs_per_complete": rnd(done / completes, 1) if completes else None,
        "worker_cpu_us_per_job": rnd(sum(r["cpu_s"] for r in results) / max(1, done) * 1e6, 1),
        "worker_settings": results[0]["settings"],
        "worker_stats": stats,
    }
    if expect is not None and done != expect:
        out["warning"] = f"expected {expect} jobs, {done} succeeded"
    return out


# -- d. steady state --------------------------------------------------------------------


def steady(
    dsn: str, rate: float, seconds: float, slots: int, producers: int = 8, queue: str = "default"
) -> dict[str, Any]:
    """`rate` jobs/s offered for `seconds` (one job per transaction, `producers`
    connections, paced on a fixed schedule) to one worker process. Latency per
    job: jq.job_history.finished_at - created_at, i.e. from the start of the
    enqueueing transaction to the start of the completing one; both commits
    cost about the same, so this is commit-to-commit within about a millisecond."""
    worker = Child("jq-steady-worker", [py(), WORKER, "--dsn", dsn, "--queue", f"{queue}={slots}", "--mode", "run"])
    try:
        start_all([worker])
        time.sleep(0.5)
        with psycopg.connect(dsn, autocommit=True) as conn:
            db_t0 = conn.execute("select now()").fetchone()[0]
        sent = [0] * producers
        lag = [0.0] * producers
        t0 = time.perf_counter() + 0.2
        per = rate / producers

        def produce(k: int) -> None:
            with psycopg.connect(dsn, autocommit=True) as conn:
                for _ in range(5):
                    pyjq.enqueue(conn, "warmup", {}, queue="steady_warmup")
                i = 0
                end = t0 + seconds
                while True:
                    due = t0 + (i + k / producers) / per
                    now = time.perf_counter()
                    if due >= end or now >= end:  # behind schedule at the end: what was offered is what counts
                        break
                    if due > now:
                        time.sleep(due - now)
                    else:
                        lag[k] = max(lag[k], now - due)
                    pyjq.enqueue(conn, "noop", {"n": i}, queue=queue)
                    i += 1
                sent[k] = i

        threads = [threading.Thread(target=produce, args=(k,), daemon=True) for k in range(producers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        produced_s = time.perf_counter() - t0
        # let the worker finish what is queued (bounded), then stop it gracefully
        with psycopg.connect(dsn, autocommit=True) as conn:
            backlog_at_end = conn.execute("select count(*) from jq.jobs where queue = %s", [queue]).fetchone()[0]
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                if conn.execute("select count(*) from jq.jobs where queue = %s", [queue]).fetchone()[0] == 0:
                    break
                time.sleep(0.1)
        worker.terminate()
        res = worker.result(timeout=60)
    finally:
        cleanup([worker])
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            """select extract(epoch from finished_at - created_at) * 1000
                 from jq.job_history where queue = %s and type = 'noop' and created_at >= %s""",
            [queue, db_t0],
        ).fetchall()
        in_window = conn.execute(
            """select count(*) from jq.job_history
                where queue = %s and type = 'noop'
                  and finished_at >= %s and finished_at < %s + make_interval(secs => %s)""",
            [queue, db_t0, db_t0, seconds + 0.2],
        ).fetchone()[0]
        unfinished = conn.execute("select count(*) from jq.jobs where queue = %s", [queue]).fetchone()[0]
    lat = [float(r[0]) for r in rows]
    offered = sum(sent)
    return {
        "target_jobs_per_s": rate,
        "offered_jobs_per_s": rnd(offered / produced_s),
        "offered_jobs": offered,
        "seconds": rnd(produced_s, 1),
        "producers_kept_up": offered >= 0.98 * rate * seconds,
        "sustained_jobs_per_s": rnd(in_window / (seconds + 0.2)),
        "completed": len(lat),
        "unfinished_after_15s": unfinished,
        "backlog_when_producers_stopped": backlog_at_end,
        "latency": latency_summary(lat),
        "max_producer_lag_ms": rnd(max(lag) * 1000, 1),
        "counts": "completion commits; latency = job_history.finished_at - created_at (enqueue txn start to "
        "completing txn start)",
        "producers": producers,
        "worker_settings": res["settings"],
        "worker_stats": res["stats"],
    }


# -- e. urgent pickup -------------------------------------------------------------------


def urgent_pickup(
    dsn: str,
    bulk_slots: int,
    every_s: float = 0.05,
    urgent_slots: int = 10,
    bulk_processes: int = 1,
    expect_bulk: int | None = None,
) -> dict[str, Any]:
    """While `bulk_processes` worker processes drain the bulk backlog (already
    enqueued), one urgent job is enqueued every `every_s` seconds (own
    transaction) to the `urgent` queue, which has its own worker process.
    Pickup latency: handler start (time.time() in the worker) - the moment
    the enqueueing commit returned to the producer."""
    bulk = [
        Child(f"jq-urgent-bulk-{i}", [py(), WORKER, "--dsn", dsn, "--queue", f"bulk={bulk_slots}", "--mode", "drain"])
        for i in range(bulk_processes)
    ]
    urgent = Child(
        "jq-urgent-worker",
        [
            py(),
            WORKER,
            "--dsn",
            dsn,
            "--queue",
            f"urgent={urgent_slots}",
            "--type",
            "urgent",
            "--mode",
            "run",
            "--record",
        ],
    )
    kids = [*bulk, urgent]
    committed: dict[str, float] = {}
    try:
        start_all(kids)
        with psycopg.connect(dsn, autocommit=True) as conn:
            for _ in range(5):
                pyjq.enqueue(conn, "warmup", {}, queue="urgent_warmup")
            t_next = time.perf_counter()
            i = 0
            while any(k.proc.poll() is None for k in bulk):
                now = time.perf_counter()
                if t_next > now:
                    time.sleep(t_next - now)
                r = pyjq.enqueue(conn, "urgent", {"n": i}, queue="urgent")
                committed[str(r.job_id)] = time.time()
                i += 1
                t_next += every_s
        bulk_results = [k.result(timeout=60) for k in bulk]
        time.sleep(3.0)  # the last urgent jobs: picked up at the latest by the 2 s safety poll
        urgent.terminate()
        urgent_result = urgent.result(timeout=60)
    finally:
        cleanup(kids)
    starts = {jid: t for jid, t in urgent_result["starts"]}
    lat = [(starts[j] - c) * 1000.0 for j, c in committed.items() if j in starts]
    bt0 = min(r["t0"] for r in bulk_results)
    bt1 = max(r["t1"] for r in bulk_results)
    bulk_done = sum(r["summary"]["succeeded"] for r in bulk_results)
    out = {
        "urgent_jobs": len(committed),
        "urgent_started": len(lat),
        "latency": latency_summary(lat),
        "bulk_jobs": bulk_done,
        "bulk_seconds": rnd(bt1 - bt0, 2),
        "bulk_jobs_per_s": rnd(bulk_done / (bt1 - bt0)),
        "counts": "handler start minus enqueue commit (urgent jobs)",
        "bulk_worker_settings": bulk_results[0]["settings"],
        "urgent_worker_settings": urgent_result["settings"],
        "urgent_worker_stats": urgent_result["stats"],
    }
    if expect_bulk is not None and bulk_done != expect_bulk:
        out["warning"] = f"expected {expect_bulk} bulk jobs, {bulk_done} succeeded"
    return out


# -- f. bloat -----------------------------------------------------------------------------

_TABLE_STATE = """
with parts as (  -- jq.jobs' partitions (0.6.0 on), or jq.jobs itself
    select p.relid from pg_partition_tree('jq.jobs') p where p.isleaf
    union all select 'jq.jobs'::regclass where not exists (select 1 from pg_partition_tree('jq.jobs'))
)
select (select sum(pg_relation_size(relid))::bigint from parts) as heap_bytes,
       (select sum(pg_indexes_size(relid))::bigint from parts) as index_bytes,
       (select sum(n_live_tup)::bigint from pg_stat_user_tables where relid in (select relid from parts)) as n_live_tup,
       (select sum(n_dead_tup)::bigint from pg_stat_user_tables where relid in (select relid from parts)) as n_dead_tup,
       (select sum(autovacuum_count)::bigint from pg_stat_user_tables
         where relid in (select relid from parts)) as autovacuums,
       (select count(*) from jq.jobs) as live_rows,
       (select sum(s.dead_tuple_count)::bigint from parts cross join lateral pgstattuple(parts.relid) s)
           as dead_tuples_exact,
       (select round((sum(s.free_space) * 100.0 / nullif(sum(s.table_len), 0))::numeric, 1)
          from parts cross join lateral pgstattuple(parts.relid) s) as free_percent
"""


_PARTITION_BYTES = """
select p.relid::regclass::text, pg_relation_size(p.relid) + pg_indexes_size(p.relid)
  from pg_partition_tree('jq.jobs') p where p.isleaf order by 1
"""


def _table_state(conn: psycopg.Connection) -> dict[str, Any]:
    cur = conn.execute(_TABLE_STATE)
    row = dict(zip([d.name for d in cur.description], cur.fetchone(), strict=True))
    row["bytes_per_live_row"] = rnd((row["heap_bytes"] + row["index_bytes"]) / max(1, row["live_rows"]), 0)
    row["partition_bytes"] = dict(conn.execute(_PARTITION_BYTES).fetchall()) or None  # 0.6.0 on
    return {k: (float(v) if hasattr(v, "as_tuple") else v) for k, v in row.items()}


def _table_bytes_and_dead(conn: psycopg.Connection) -> tuple[int, int]:
    """jq.jobs' heap and index bytes over its partitions (0.6.0 on) or the plain table, and its dead tuples."""
    return conn.execute(
        """select sum(pg_relation_size(p.relid) + pg_indexes_size(p.relid))::bigint,
                  coalesce(sum(s.n_dead_tup), 0)::bigint
             from (select p.relid from pg_partition_tree('jq.jobs') p where p.isleaf
                   union all select 'jq.jobs'::regclass
                    where not exists (select 1 from pg_partition_tree('jq.jobs'))) p
             left join pg_stat_user_tables s on s.relid = p.relid"""
    ).fetchone()


def _table_bytes(conn: psycopg.Connection) -> int:
    return _table_bytes_and_dead(conn)[0]


def _claim_probe(conn: psycopg.Connection, queue: str, samples: int, limit: int) -> dict[str, Any]:
    """jq_claim(limit) in a transaction that is rolled back, `samples` times: the
    claim statement's latency as a client sees it; plus the plan of its claiming
    query, with buffers (auto_explain, nested statements, sent as a NOTICE)."""
    autovacuums = _autovacuum_workers(conn)
    times = []
    for _ in range(samples):
        conn.execute("begin")
        t = time.perf_counter()
        conn.execute("select count(*) from jq.jq_claim(%s, 'bloat-probe', %s)", [queue, limit]).fetchone()
        times.append((time.perf_counter() - t) * 1000)
        conn.execute("rollback")
    autovacuums = max(autovacuums, _autovacuum_workers(conn))
    plans: list[str] = []

    def keep(diag) -> None:
        if "Query Text:" in (diag.message_primary or ""):
            plans.append(diag.message_primary)

    conn.add_notice_handler(keep)
    try:
        conn.execute("begin")
        conn.execute("load 'auto_explain'")
        for k, v in (
            ("log_min_duration", "0"),
            ("log_analyze", "on"),
            ("log_buffers", "on"),
            ("log_nested_statements", "on"),
            ("log_level", "notice"),
            ("log_timing", "off"),
        ):
            conn.execute(f"set local auto_explain.{k} = {v}")
        conn.execute("select count(*) from jq.jq_claim(%s, 'bloat-probe', %s)", [queue, limit]).fetchone()
        conn.execute("rollback")
    finally:
        conn.remove_notice_handler(keep)

    def buffers(text: str) -> int | None:
        m = re.search(r"Buffers: shared hit=(\d+)(?: read=(\d+))?", text)
        return int(m.group(1)) + int(m.group(2) or 0) if m else None

    # The statements inside jq_claim, each with its own plan; the outer call's
    # plan (whose buffers count them all) is the one for the client's query.
    inner = [p for p in plans if "jq.jq_claim(" not in p]
    outer = [p for p in plans if "jq.jq_claim(" in p]
    # The part bloat hurts: finding the rows (the statements that read the
    # claim index: the group walk and the locking read of each group's head).
    finding = [p for p in inner if "claim_idx" in p]  # jobs_claim_idx, or a generation's jobs_g0_claim_idx
    find = [b for b in map(buffers, finding) if b is not None]
    return {
        "samples": samples,
        "limit": limit,
        "median_ms": rnd(statistics.median(times), 3),
        "min_ms": rnd(min(times), 3),
        "p95_ms": rnd(sorted(times)[int(0.95 * (len(times) - 1))], 3),
        "buffers": buffers(outer[-1]) if outer else None,
        "find_buffers": sum(find) if find else None,
        "autovacuum_workers": autovacuums,
        "plan": "\n\n".join(inner) or None,
    }


def _autovacuum_workers(conn: psycopg.Connection) -> int:
    """Autovacuum workers running now, on any table: CPU the probe shares on a small machine."""
    return conn.execute("select count(*) from pg_stat_activity where backend_type = 'autovacuum worker'").fetchone()[0]


def bloat(
    dsn: str,
    total_jobs: int,
    backlog: int = 10_000,
    batch: int = 10_000,
    claim_limit: int = 1000,
    consumers: int = 2,
    probe_samples: int = 30,
    probe_limit: int = 100,
    queue: str = "bloat",
    max_seconds: float | None = None,
) -> dict[str, Any]:
    """`total_jobs` jobs through jq.jobs, driven in SQL in big batches on
    separate transactions (so vacuum can do its work as in production): one
    producer connection keeps about `backlog`..2x`backlog` jobs queued with
    jq_enqueue_many(`batch`); `consumers` connections loop jq_claim(`claim_limit`)
    then jq_complete. Compares the claim statement's latency, jq.jobs' size and
    its dead tuples at the start (after the backlog is loaded) and at the end.
    `max_seconds` bounds the run: it stops enqueueing then, drains, and reports
    how many jobs went through."""
    job_json = json.dumps([{"type": "noop", "queue": queue, "payload": {"n": i}} for i in range(batch)])
    enq = "select count(*) from jq.jq_enqueue_many(%s::jsonb)"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("create extension if not exists pgstattuple")
        conn.execute(enq, [json.dumps([{"type": "noop", "queue": queue, "payload": {"n": i}} for i in range(backlog)])])
        conn.execute("vacuum (analyze) jq.jobs")
        conn.execute("select pg_stat_force_next_flush()")
    produced = [backlog]
    consumed = [0] * consumers
    claim_ms: list[list[tuple[int, float]]] = [[] for _ in range(consumers)]
    stop = threading.Event()
    errors: list[BaseException] = []

    def producer() -> None:
        try:
            with psycopg.connect(dsn, autocommit=True) as conn:
                while produced[0] < total_jobs and not stop.is_set():
                    if deadline is not None and time.perf_counter() > deadline:
                        break
                    queued = produced[0] - sum(consumed)
                    if queued > 2 * backlog:
                        time.sleep(0.005)
                        continue
                    n = min(batch, total_jobs - produced[0])
                    conn.execute(enq, [job_json if n == batch else json.dumps(json.loads(job_json)[:n])])
                    produced[0] += n
                conn.execute("select pg_stat_force_next_flush()")
        except BaseException as exc:
            errors.append(exc)
            stop.set()

    def consumer(k: int) -> None:
        try:
            with psycopg.connect(dsn, autocommit=True) as conn:
                worker = f"bloat-{k}"
                while not stop.is_set():
                    t = time.perf_counter()
                    ids = [
                        r[0]
                        for r in conn.execute(
                            "select id from jq.jq_claim(%s, %s, %s)", [queue, worker, claim_limit]
                        ).fetchall()
                    ]
                    dt = (time.perf_counter() - t) * 1000
                    if not ids:
                        if produced[0] >= total_jobs or not prod.is_alive():
                            break
                        time.sleep(0.002)
                        continue
                    claim_ms[k].append((sum(consumed), dt))
                    conn.execute("select count(*) from jq.jq_complete(%s, %s)", [ids, worker])
                    consumed[k] += len(ids)
                conn.execute("select pg_stat_force_next_flush()")
        except BaseException as exc:
            errors.append(exc)
            stop.set()

    rotations: Counter[str] = Counter()

    rotation_ms: list[float] = []

    rotating = threading.Event()

    def rotator() -> None:
        """What every pyjq worker does (0.6.0 on): jq_tick in a loop, sleeping what it answers."""
        with psycopg.connect(dsn, autocommit=True) as conn:
            if not conn.execute("select to_regprocedure('jq.jq_tick()') is not null").fetchone()[0]:
                return
            while not rotating.is_set():
                t = time.perf_counter()
                again, account = conn.execute("select call_again_after, account from jq.jq_tick()").fetchone()
                rotation_ms.append((time.perf_counter() - t) * 1000)
                rotations[account.get("rotation", "elsewhere")] += 1
                if account.get("turned"):
                    rotations["turned"] += 1
                if rotating.wait(again.total_seconds()):
                    break

    peak = {"bytes": 0, "n_dead_tup": 0}
    sizes: list[int] = []
    samples_taken = [0]

    def monitor() -> None:  # jq.jobs' size every second: the peak, not only the end
        with psycopg.connect(dsn, autocommit=True) as conn:
            while not done.wait(1.0):
                b, dead = _table_bytes_and_dead(conn)
                peak["bytes"] = max(peak["bytes"], b)
                sizes.append(b)
                peak["n_dead_tup"] = max(peak["n_dead_tup"], dead or 0)
                samples_taken[0] += 1

    done = threading.Event()
    # Both probes run with the rotation going, as it always is beside pyjq workers: its locks and
    # truncations (plans made again after each) weigh on the end probe, so they weigh on the fresh one.
    rot = threading.Thread(target=rotator, daemon=True)
    rot.start()
    with psycopg.connect(dsn, autocommit=True) as conn:
        start_state = _table_state(conn)
        start_probe = _claim_probe(conn, queue, probe_samples, probe_limit)
    mon = threading.Thread(target=monitor, daemon=True)
    mon.start()
    t0 = time.perf_counter()
    deadline = t0 + max_seconds if max_seconds else None
    prod = threading.Thread(target=producer, daemon=True)
    threads = [prod] + [threading.Thread(target=consumer, args=(k,), daemon=True) for k in range(consumers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    done.set()  # the monitor stops; the rotation goes on, as the workers' would, until the settled state
    mon.join()
    if errors:
        raise errors[0]
    # Top the backlog up again to its starting size, so both ends compare the same live rows.
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(enq, [json.dumps([{"type": "noop", "queue": queue, "payload": {"n": i}} for i in range(backlog)])])
        conn.execute("select pg_stat_force_next_flush()")
    time.sleep(0.2)
    with psycopg.connect(dsn, autocommit=True) as conn:
        end_state = _table_state(conn)
        end_probe = _claim_probe(conn, queue, probe_samples, probe_limit)
        # Settled: the rotation goes on as a worker's does after a flood; how long until jq.jobs is back
        # within 2x its fresh size (every 0.5 s, 30 s at most), and its state then (or at 30 s).
        fresh_bytes = start_state["heap_bytes"] + start_state["index_bytes"]
        t_end = time.perf_counter()
        settled_after: float | None = None
        while time.perf_counter() - t_end < 30.0:
            if _table_bytes(conn) <= 2 * fresh_bytes:
                settled_after = time.perf_counter() - t_end
                break
            time.sleep(0.5)
        settled_state = _table_state(conn)
    rotating.set()
    rot.join()
    samples = sorted(x for per in claim_ms for x in per)
    n = max(1, len(samples) // 10)
    first = [ms for _, ms in samples[:n]]
    last = [ms for _, ms in samples[-n:]]
    through = sum(consumed)
    return {
        "jobs_planned": total_jobs,
        "stopped_by_time_limit": produced[0] < total_jobs,
        "jobs_through": through,
        "seconds": rnd(elapsed, 1),
        "jobs_per_s": rnd(through / elapsed),
        "standing_backlog": backlog,
        "enqueue_batch": batch,
        "claim_limit": claim_limit,
        "consumers": consumers,
        "claim_probe_ms": {
            "start": start_probe["median_ms"],
            "end": end_probe["median_ms"],
            "ratio": rnd(end_probe["median_ms"] / start_probe["median_ms"], 2),
            "min_start": start_probe["min_ms"],
            "min_end": end_probe["min_ms"],
            "limit": probe_limit,
            "samples": probe_samples,
            "buffers_start": start_probe["buffers"],
            "buffers_end": end_probe["buffers"],
            "find_buffers_start": start_probe["find_buffers"],
            "find_buffers_end": end_probe["find_buffers"],
            "autovacuum_workers_start": start_probe["autovacuum_workers"],
            "autovacuum_workers_end": end_probe["autovacuum_workers"],
        },
        "claim_1000_ms": {
            "first_tenth_median": rnd(statistics.median(first), 2),
            "last_tenth_median": rnd(statistics.median(last), 2),
        },
        "table": {
            "start": start_state,
            "end": end_state,
            "peak_during_run": {
                "heap_and_index_bytes": peak["bytes"],
                "n_dead_tup": peak["n_dead_tup"],
                "samples": samples_taken[0],
            },
            "size_ratio": rnd(
                (end_state["heap_bytes"] + end_state["index_bytes"])
                / (start_state["heap_bytes"] + start_state["index_bytes"]),
                2,
            ),
            "settled": settled_state,
            "within_2x_fresh_after_s": rnd(settled_after, 1) if settled_after is not None else None,
            "size_ratio_settled": rnd(
                (settled_state["heap_bytes"] + settled_state["index_bytes"])
                / (start_state["heap_bytes"] + start_state["index_bytes"]),
                2,
            ),
            "median_during_run_ratio": rnd(
                statistics.median(sizes) / (start_state["heap_bytes"] + start_state["index_bytes"]), 2
            )
            if sizes
            else None,
        },
        "claim_plan": {"start": start_probe["plan"], "end": end_probe["plan"]},
        "storage_rotations": dict(rotations),  # jq_tick rotation outcomes (0.6.0 on; empty before)
        "rotation_call_ms": {
            "calls": len(rotation_ms),
            "median": rnd(statistics.median(rotation_ms), 2) if rotation_ms else None,
            "max": rnd(max(rotation_ms), 1) if rotation_ms else None,
        },
        "counts": "jobs enqueued, claimed and completed (each step its own transaction), driven in SQL;"
        " jq_tick in a loop where it exists, as pyjq workers call it",
    }


# -- g. idle cost ---------------------------------------------------------------------------


def start_idle_workers(dsn: str, n: int, slots: int = 10) -> list[Child]:
    kids = [
        Child(f"jq-idle-{i}", [py(), WORKER, "--dsn", dsn, "--queue", f"default={slots}", "--mode", "run"])
        for i in range(n)
    ]
    start_all(kids)
    return kids


def stop_idle_workers(kids: list[Child]) -> list[dict[str, Any]]:
    for k in kids:
        k.terminate()
    try:
        return [k.result(timeout=60) for k in kids]
    finally:
        cleanup(kids)
