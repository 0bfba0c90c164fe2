"""Figure j (issue #16, point 1): a queue under steady load while another session
holds a REPEATABLE READ snapshot the whole time, jq beside PgQueuer.

    .venv/bin/python bench/held_snapshot.py [--quick] [--seconds N] [--rate R] [--dsn ...] [--skip-pgqueuer]
        [--batch B] [--recovery S] [--control]

Each queue, in a database of its own (the snapshot must be in the queue's
database to hold its rows back) and one after the other:

1. the load starts: `--rate` jobs/s (default 1,000) offered from 8 producer
   connections on a fixed schedule, `--batch` jobs per transaction (default
   10), to one real worker process: for jq bench/jq_worker_proc.py with 100
   slots (figure d's worker; `--batch 1` runs figure d's own load,
   `jq_figures.steady`, one pyjq.enqueue per transaction), for PgQueuer
   `Queries.enqueue` with lists and the worker of
   bench/peers/pgqueuer_bench.py (batch size 100). Why 10 a transaction: see
   PGQ_BATCH;
2. after 10 s of load, the fresh sample (claim latency, sizes, pgstattuple),
   then a session runs `begin; set transaction isolation level repeatable
   read;`, reads one row of a table of its own (`held_snapshot_report`) and
   stays open: from then on no row version deleted or updated in that
   database can be removed, whatever autovacuum does (`--control`: no
   snapshot, the same run otherwise);
3. every 5 s for `--seconds` (default 600, `--quick` 120): the claim's
   latency -- median of 5 calls, each in a transaction rolled back, on the
   offered queue: `jq_claim(queue, worker, 10)` (with the buffers its
   row-finding statements read, by auto_explain: figure f's probe), and for
   PgQueuer the dequeue statement its worker runs, built by PgQueuer's own
   query builder with a batch of 10 -- and each table's total size (heap +
   indexes + TOAST) and n_dead_tup (pg_stat_user_tables); pgstattuple of
   each at the fresh sample and at the end;
4. the snapshot is committed while the load goes on; every 1 s for
   `--recovery` s (default 60): the seconds until the claim is back within 2x
   its fresh latency and the queue table within 2x its fresh size, with
   autovacuum as the server has it (bench/server.py: PostgreSQL's defaults);
5. end-to-end latency of the offered jobs: for jq
   `job_history.finished_at - created_at` (as figure d), for PgQueuer the
   `successful` minus the `queued` row of pgqueuer_log; p95 in the warm-up
   (fresh), while the snapshot was held (overall and per minute, so
   "throughout" can be checked) and after the release.

"At the end" is the median of the last three samples (15 s). The tables:
jq.jobs, jq.idempotency_keys, jq.fair_lanes, jq.queue_waiters, jq.workers and
job_history's current partition; pgqueuer, pgqueuer_log and
pgqueuer_statistics. The storage target is on the queue table itself (jq.jobs,
pgqueuer); the others are reported beside it, and the sizes as installed too.

Prints one JSON object (also written to bench/results/held_snapshot.json)
with the targets of point 1 evaluated, and a one-line markdown summary on
stderr. `bench/run.py --only j` runs the same inside the suite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg
from psycopg.conninfo import conninfo_to_dict

import baselines as base
import jq_figures as jqf
import pyjq
from common import BENCH, Child, cleanup, latency_summary, percentile, py, rnd, start_all

SAMPLE_EVERY_S = 5.0
RECOVERY_EVERY_S = 1.0
PROBE_SAMPLES = 5
PROBE_LIMIT = 10
END_SAMPLES = 3
WARMUP_S = 10.0  # of load before the fresh sample and the snapshot
JQ_QUEUE = "default"  # figure d's queue
JQ_SLOTS = 100  # figure d's worker (bench/run.py STEADY_SLOTS)
PGQ_ENTRYPOINT = "noop"
# PgQueuer's enqueue NOTIFYs from a statement trigger, and PostgreSQL commits
# transactions that NOTIFY one at a time (the WAL flush included): one job per
# transaction topped out at 220-280 jobs/s here (1 or 8 connections, while a
# plain autocommit INSERT ran at about 300/s). Ten jobs a transaction offer the
# same 1,000 jobs/s, and every job still makes the same row versions.
PGQ_BATCH = 10
# Both queues get the same load; with 1, jq's is figure d's own (jq_figures.steady).
DEFAULT_BATCH = PGQ_BATCH
PGQ_BATCH_WHY = (
    "one job per transaction reached 220-280 jobs/s (PgQueuer's enqueue NOTIFYs, and commits that NOTIFY are "
    "serialized with their WAL flush); 10 jobs per transaction offer the rate with the same row versions per job"
)
RESULTS = BENCH / "results" / "held_snapshot.json"

JQ_TABLES = ["jq.jobs", "jq.idempotency_keys", "jq.fair_lanes", "jq.queue_waiters", "jq.workers"]
# job_history's partition for today (UTC; jq_maintain names them so), or the default one.
JQ_HISTORY_NOW = """select coalesce(to_regclass('jq.job_history_p' || to_char(now() at time zone 'UTC', 'YYYYMMDD')),
                                    'jq.job_history_default'::regclass)::text"""
PGQ_TABLES = ["pgqueuer", "pgqueuer_log", "pgqueuer_statistics"]

TARGETS = {"claim_end_over_fresh": 2.0, "e2e_p95_ms": 100.0, "storage_end_over_fresh": 5.0, "vs_pgqueuer": 5.0}


def _log(msg: str) -> None:
    print(f"    {msg}", file=sys.stderr, flush=True)


def _row(conn: psycopg.Connection, sql: str, params: Any = None) -> Any:
    """The one row a query returns."""
    row = conn.execute(sql, params).fetchone()
    if row is None:
        raise RuntimeError(f"no row from {sql[:60]!r}")
    return row


# -- the long transaction --------------------------------------------------------------


class HeldSnapshot:
    """A session in a REPEATABLE READ transaction that has read one row and stays open."""

    def __init__(self, dsn: str):
        self.conn = psycopg.connect(dsn, autocommit=True)  # explicit begin/commit, as a person in psql would
        self.conn.execute("create table if not exists held_snapshot_report (id int primary key, note text)")
        self.conn.execute("insert into held_snapshot_report values (1, 'a report') on conflict do nothing")
        self.conn.execute("begin")
        self.conn.execute("set transaction isolation level repeatable read")
        self.conn.execute("select * from held_snapshot_report limit 1").fetchone()
        self.pid = self.conn.info.backend_pid
        self.since = time.perf_counter()

    def xmin_age(self, conn: psycopg.Connection) -> int | None:
        """How many transactions the snapshot holds back (age of its backend_xmin), seen from `conn`."""
        row = conn.execute("select age(backend_xmin) from pg_stat_activity where pid = %s", [self.pid]).fetchone()
        return row[0] if row else None

    def release(self) -> float:
        self.conn.execute("commit")
        self.conn.close()
        return time.perf_counter() - self.since


# -- what is sampled -------------------------------------------------------------------


# The tables that hold a table's rows: its leaf partitions (jq.jobs since 0.6.0), or the table itself.
LEAVES = """select p.relid from pg_partition_tree({0}) p where p.isleaf
            union all select {0} where not exists (select 1 from pg_partition_tree({0}))"""


def table_sizes(conn: psycopg.Connection, tables: list[str]) -> dict[str, dict[str, Any]]:
    """Total size (heap + indexes + TOAST) and the statistics' live and dead tuples of each table."""
    rows = conn.execute(
        # A partitioned table (jq.jobs since 0.6.0) counts as the sum of its partitions.
        f"""select t.name, sum(pg_total_relation_size(p.relid))::bigint, sum(s.n_live_tup)::bigint,
                  sum(s.n_dead_tup)::bigint, sum(s.autovacuum_count)::bigint
             from unnest(%s::text[]) as t(name)
             cross join lateral ({LEAVES.format("t.name::regclass")}) p
             left join pg_stat_user_tables s on s.relid = p.relid
            group by t.name""",
        [tables],
    ).fetchall()
    return {
        name: {"bytes": size, "n_live_tup": live, "n_dead_tup": dead, "autovacuums": av}
        for name, size, live, dead, av in rows
    }


def exact_state(conn: psycopg.Connection, tables: list[str]) -> dict[str, dict[str, Any]]:
    """pgstattuple of each table: exact live and dead tuples, free space."""
    out = {}
    for name in tables:
        length, live, dead, free = _row(
            conn,
            "select sum(s.table_len)::bigint, sum(s.tuple_count)::bigint, sum(s.dead_tuple_count)::bigint,"
            "       round((sum(s.free_space) * 100.0 / nullif(sum(s.table_len), 0))::numeric, 1)"
            f"  from ({LEAVES.format('%(t)s::regclass')}) p cross join lateral pgstattuple(p.relid) s",
            {"t": name},
        )
        out[name] = {
            "heap_bytes": length,
            "live_tuples": live,
            "dead_tuples": dead,
            "free_percent": None if free is None else float(free),
        }
    return out


class JqClaimProbe:
    """jq_claim(queue, worker, 10), 5 times, each rolled back: figure f's probe (jq_figures._claim_probe)."""

    name = "jq_claim(queue, worker, 10)"

    def __init__(self, dsn: str):
        self.conn = psycopg.connect(dsn, autocommit=True)

    def sample(self) -> dict[str, Any]:
        p = jqf._claim_probe(self.conn, JQ_QUEUE, PROBE_SAMPLES, PROBE_LIMIT)
        return {"median_ms": p["median_ms"], "min_ms": p["min_ms"], "buffers": p["find_buffers"]}

    def close(self) -> None:
        self.conn.close()


class PgqDequeueProbe:
    """The statement PgQueuer's worker dequeues with (Queries.dequeue builds it with
    QueryQueueBuilder.build_dequeue_query; here with a batch of 10 and the worker's
    settings: one entrypoint without a concurrency limit, no global limit, 30 s
    heartbeat timeout), 5 times, each in a transaction rolled back. Buffers: the
    shared blocks of one EXPLAIN (ANALYZE, BUFFERS) of it, also rolled back."""

    name = "PgQueuer's dequeue statement, batch 10"

    def __init__(self, url: str):
        import asyncpg
        from pgqueuer.db import AsyncpgDriver
        from pgqueuer.queries import Queries
        from pgqueuer.types import QueueEntrypoint, QueueManagerId

        self.loop = asyncio.new_event_loop()
        self.conn = self.loop.run_until_complete(asyncpg.connect(dsn=url))
        self.query = Queries(AsyncpgDriver(self.conn)).qbq.build_dequeue_query(
            batch_size=PROBE_LIMIT,
            entrypoints=[QueueEntrypoint(PGQ_ENTRYPOINT)],
            concurrency_limits=[0],
            queue_manager_id=QueueManagerId(uuid.uuid4()),
            global_concurrency_limit=None,
            heartbeat_timeout=timedelta(seconds=pgqueuer_heartbeat_timeout_s()),
        )

    def sample(self) -> dict[str, Any]:
        return self.loop.run_until_complete(self._sample())

    async def _sample(self) -> dict[str, Any]:
        times = []
        for _ in range(PROBE_SAMPLES):
            tr = self.conn.transaction()
            await tr.start()
            t = time.perf_counter()
            await self.conn.fetch(self.query.sql, *self.query.args)
            times.append((time.perf_counter() - t) * 1000)
            await tr.rollback()
        tr = self.conn.transaction()
        await tr.start()
        try:
            plan = await self.conn.fetchval(
                "explain (analyze, buffers, format json)\n" + self.query.sql, *self.query.args
            )
            top = json.loads(plan)[0]["Plan"]
            buffers = top.get("Shared Hit Blocks", 0) + top.get("Shared Read Blocks", 0)
        finally:
            await tr.rollback()
        return {"median_ms": rnd(statistics.median(times), 3), "min_ms": rnd(min(times), 3), "buffers": buffers}

    def close(self) -> None:
        self.loop.run_until_complete(self.conn.close())
        self.loop.close()


def pgqueuer_heartbeat_timeout_s() -> float:
    """The heartbeat timeout bench/peers/pgqueuer_bench.py runs its worker with."""
    from peers.pgqueuer_bench import SETTINGS

    return float(cast(float, SETTINGS["heartbeat_timeout_s"]))


# -- the load ----------------------------------------------------------------------------


def pgqueuer_steady(
    url: str, rate: float, seconds: float, producers: int = 8, batch: int = PGQ_BATCH
) -> dict[str, Any]:
    """Figure d's load for PgQueuer: `rate` jobs/s offered for `seconds` from
    `producers` connections on a fixed schedule, `batch` jobs per transaction
    (one Queries.enqueue call with lists), to one worker process of
    bench/peers/pgqueuer_bench.py; then up to 15 s for the worker to finish what is
    queued, and a graceful stop."""
    worker = Child("pgqueuer-held-worker", [py(), base.PGQ, "worker", "--dsn", url, "--mode", "run"])
    try:
        start_all([worker])
        time.sleep(0.5)
        sent, lag, produced_s = asyncio.run(_pgqueuer_produce(url, rate, seconds, producers, batch))
        with psycopg.connect(url, autocommit=True) as conn:
            backlog_at_end = _row(conn, "select count(*) from pgqueuer")[0]
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and _row(conn, "select count(*) from pgqueuer")[0]:
                time.sleep(0.1)
            unfinished = _row(conn, "select count(*) from pgqueuer")[0]
        worker.terminate()
        res = worker.result(timeout=60)
    finally:
        cleanup([worker])
    offered = sum(sent)
    return {
        "target_jobs_per_s": rate,
        "offered_jobs": offered,
        "offered_jobs_per_s": rnd(offered / produced_s),
        "seconds": rnd(produced_s, 1),
        "producers_kept_up": offered >= 0.98 * rate * seconds,
        "max_producer_lag_ms": rnd(max(lag) * 1000, 1),
        "backlog_when_producers_stopped": backlog_at_end,
        "unfinished_after_15s": unfinished,
        "worker_jobs_done": res.get("done"),
        "producers": producers,
        "jobs_per_enqueue_transaction": batch,
        "why_batched": PGQ_BATCH_WHY,
    }


async def _pgqueuer_produce(
    url: str, rate: float, seconds: float, producers: int, batch: int
) -> tuple[list[int], list[float], float]:
    import asyncpg
    from pgqueuer.db import AsyncpgDriver
    from pgqueuer.queries import Queries

    conns = [await asyncpg.connect(dsn=url) for _ in range(producers)]
    loop = asyncio.get_running_loop()
    calls_per_s = rate / producers / batch  # per producer
    lag = [0.0] * producers
    t0 = loop.time() + 0.2
    end = t0 + seconds

    async def produce(k: int) -> int:
        q = Queries(AsyncpgDriver(conns[k]))
        i = 0
        while True:
            due = t0 + (i + k / producers) / calls_per_s
            now = loop.time()
            if due >= end or now >= end:  # as figure d: what was offered is what counts
                return i * batch
            if due > now:
                await asyncio.sleep(due - now)
            else:
                lag[k] = max(lag[k], now - due)
            payloads: list[bytes | None] = [json.dumps({"n": i * batch + j}).encode() for j in range(batch)]
            await q.enqueue([PGQ_ENTRYPOINT] * batch, payloads, [0] * batch)
            i += 1

    try:
        sent = await asyncio.gather(*(produce(k) for k in range(producers)))
    finally:
        for c in conns:
            await c.close()
    return list(sent), lag, loop.time() - t0


def jq_steady_batched(
    dsn: str, rate: float, seconds: float, slots: int, batch: int, producers: int = 8
) -> dict[str, Any]:
    """Figure d's load with `batch` jobs per transaction (pyjq.enqueue_many) instead of
    one: the same worker process (bench/jq_worker_proc.py, `slots` slots), the same
    8 producer connections on a fixed schedule, the same 15 s to finish and graceful stop."""
    argv = [py(), jqf.WORKER, "--dsn", dsn, "--queue", f"{JQ_QUEUE}={slots}", "--mode", "run"]
    worker = Child("jq-held-worker", argv)
    sent = [0] * producers
    lag = [0.0] * producers
    calls_per_s = rate / producers / batch  # per producer
    try:
        start_all([worker])
        time.sleep(0.5)
        t0 = time.perf_counter() + 0.2
        end = t0 + seconds

        def produce(k: int) -> None:
            with psycopg.connect(dsn, autocommit=True) as conn:
                i = 0
                while True:
                    due = t0 + (i + k / producers) / calls_per_s
                    now = time.perf_counter()
                    if due >= end or now >= end:  # as figure d: what was offered is what counts
                        break
                    if due > now:
                        time.sleep(due - now)
                    else:
                        lag[k] = max(lag[k], now - due)
                    jobs = [{"type": "noop", "queue": JQ_QUEUE, "payload": {"n": i * batch + j}} for j in range(batch)]
                    pyjq.enqueue_many(conn, jobs)
                    i += 1
                sent[k] = i * batch

        threads = [threading.Thread(target=produce, args=(k,), daemon=True) for k in range(producers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        produced_s = time.perf_counter() - t0
        count = f"select count(*) from jq.jobs where queue = '{JQ_QUEUE}'"
        with psycopg.connect(dsn, autocommit=True) as conn:
            backlog_at_end = _row(conn, count)[0]
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and _row(conn, count)[0]:
                time.sleep(0.1)
            unfinished = _row(conn, count)[0]
        worker.terminate()
        res = worker.result(timeout=60)
    finally:
        cleanup([worker])
    offered = sum(sent)
    return {
        "target_jobs_per_s": rate,
        "offered_jobs": offered,
        "offered_jobs_per_s": rnd(offered / produced_s),
        "seconds": rnd(produced_s, 1),
        "producers_kept_up": offered >= 0.98 * rate * seconds,
        "max_producer_lag_ms": rnd(max(lag) * 1000, 1),
        "backlog_when_producers_stopped": backlog_at_end,
        "unfinished_after_15s": unfinished,
        "producers": producers,
        "jobs_per_enqueue_transaction": batch,
        "worker_settings": res["settings"],
        "worker_stats": res["stats"],
    }


# -- one queue under a held snapshot ----------------------------------------------------------


@dataclass
class Subject:
    """What differs between jq and PgQueuer; measure() does the rest."""

    name: str
    dsn: str
    queue_table: str  # the one the storage target is on
    tables: Callable[[psycopg.Connection], list[str]]
    probe: Callable[[], Any]
    load: Callable[[float], dict[str, Any]]  # runs the offered load for that many seconds
    first_job_sql: str  # true once the first offered job is finished
    e2e_sql: str  # (seconds since %(t0)s of its enqueue, end-to-end ms) per offered job created after t0


def jq_subject(dsn: str, rate: float, slots: int = JQ_SLOTS, batch: int = 1) -> Subject:
    def tables(conn: psycopg.Connection) -> list[str]:
        storage = _row(conn, "select to_regclass('jq.storage_generations')::text")[0]  # 0.6.0 on
        return [*JQ_TABLES, *([storage] if storage else []), _row(conn, JQ_HISTORY_NOW)[0]]

    return Subject(
        name="jq",
        dsn=dsn,
        queue_table="jq.jobs",
        tables=tables,
        probe=lambda: JqClaimProbe(dsn),
        load=lambda seconds: (
            jqf.steady(dsn, rate, seconds, slots, queue=JQ_QUEUE)
            if batch == 1
            else jq_steady_batched(dsn, rate, seconds, slots, batch)
        ),
        first_job_sql=f"select exists (select from jq.job_history where queue = '{JQ_QUEUE}' and type = 'noop')",
        e2e_sql=f"""select extract(epoch from created_at - %(t0)s), extract(epoch from finished_at - created_at) * 1000
                      from jq.job_history
                     where queue = '{JQ_QUEUE}' and type = 'noop' and created_at >= %(t0)s""",
    )


def pgqueuer_subject(url: str, rate: float, batch: int = PGQ_BATCH) -> Subject:
    return Subject(
        name="pgqueuer",
        dsn=url,
        queue_table="pgqueuer",
        tables=lambda conn: list(PGQ_TABLES),
        probe=lambda: PgqDequeueProbe(url),
        load=lambda seconds: pgqueuer_steady(url, rate, seconds, batch=batch),
        first_job_sql="select exists (select from pgqueuer_log where status = 'successful')",
        e2e_sql="""select extract(epoch from q.created - %(t0)s), extract(epoch from s.created - q.created) * 1000
                     from pgqueuer_log q
                     join pgqueuer_log s on s.job_id = q.job_id and s.status = 'successful'
                    where q.status = 'queued' and q.entrypoint = 'noop' and q.created >= %(t0)s""",
    )


def measure(
    subject: Subject, seconds: float, recovery_s: float, hold: bool = True, log: Callable[[str], None] = _log
) -> dict[str, Any]:
    """The held-snapshot figure of one queue (see the module's docstring); `hold`
    False: the same run without the long transaction (the control)."""
    mon = psycopg.connect(subject.dsn, autocommit=True)
    mon.execute("create extension if not exists pgstattuple")
    probe = subject.probe()
    load_result: dict[str, Any] = {}
    load_errors: list[BaseException] = []
    holder = None
    try:
        installed = {"claim": probe.sample(), "tables": table_sizes(mon, subject.tables(mon))}
        loadavg_start = os.getloadavg()

        def run_load() -> None:
            try:  # a little longer than the sampling, so the recovery is sampled under load to its end
                load_result.update(subject.load(WARMUP_S + seconds + recovery_s + 10))
            except BaseException as exc:  # reported below
                load_errors.append(exc)

        loader = threading.Thread(target=run_load, daemon=True)
        loader.start()
        _wait_first_job(mon, subject.first_job_sql, loader)
        load_t0_db = _row(mon, "select now()")[0]
        log(f"{subject.name}: load running; fresh sample after {WARMUP_S:.0f} s, before the snapshot")
        time.sleep(WARMUP_S)
        tables = subject.tables(mon)
        fresh = {"claim": probe.sample(), "tables": table_sizes(mon, tables), "exact": exact_state(mon, tables)}
        holder = HeldSnapshot(subject.dsn) if hold else None
        since = time.perf_counter()
        held_t0_db = _row(mon, "select now()")[0]
        held = "held" if hold else "NOT held (control)"
        log(f"{subject.name}: snapshot {held}; sampling every {SAMPLE_EVERY_S:.0f} s for {seconds:.0f} s")
        timeline = _sample_held(mon, probe, subject, seconds, log)
        tables = subject.tables(mon)  # history's partition may have changed (midnight UTC)
        end_exact = exact_state(mon, tables)
        xmin_age = holder.xmin_age(mon) if holder else None
        released_db = _row(mon, "select now()")[0]
        held_for = holder.release() if holder else time.perf_counter() - since
        holder = None
        log(f"{subject.name}: snapshot released after {held_for:.0f} s; recovery, every {RECOVERY_EVERY_S:.0f} s")
        recovery = _sample_recovery(mon, probe, subject, fresh, recovery_s)
        loader.join()
        if load_errors:
            raise load_errors[0]
        loadavg_end = os.getloadavg()
        e2e = _end_to_end(
            mon,
            subject.e2e_sql,
            load_t0_db,
            (held_t0_db - load_t0_db).total_seconds(),
            (released_db - held_t0_db).total_seconds(),
        )
    finally:
        if holder is not None:
            holder.conn.close()  # the transaction ends with its session
        probe.close()
        mon.close()
    return _summarise(
        subject,
        fresh=fresh,
        timeline=timeline,
        end_exact=end_exact,
        recovery=recovery,
        e2e=e2e,
        extra={
            "as_installed": installed,
            "snapshot_held": hold,
            "snapshot_held_s": rnd(held_for, 1),
            "snapshot_xmin_age_at_end": xmin_age,
            "load": load_result,
            "loadavg_start": [round(x, 2) for x in loadavg_start],
            "loadavg_end": [round(x, 2) for x in loadavg_end],
            "probe": probe.name,
        },
    )


def _wait_first_job(conn: psycopg.Connection, sql: str, loader: threading.Thread, timeout: float = 120) -> None:
    """Until the worker has finished its first offered job: the held period starts with the load."""
    deadline = time.monotonic() + timeout
    while not _row(conn, sql)[0]:
        if not loader.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the load did not start (see .tmp/bench/*.log)")
        time.sleep(0.1)


def _sample_held(
    conn: psycopg.Connection, probe: Any, subject: Subject, seconds: float, log: Callable[[str], None]
) -> list[dict[str, Any]]:
    timeline = []
    t0 = time.perf_counter()
    k = 1
    while True:
        due = t0 + k * SAMPLE_EVERY_S
        if due > t0 + seconds:
            break
        time.sleep(max(0.0, due - time.perf_counter()))
        claim = probe.sample()
        sizes = table_sizes(conn, subject.tables(conn))
        timeline.append({"t_s": rnd(time.perf_counter() - t0, 1), "claim": claim, "tables": sizes})
        if k % 12 == 0:
            q = sizes[subject.queue_table]
            log(
                f"{subject.name} t={timeline[-1]['t_s']:.0f}s: claim {claim['median_ms']} ms, "
                f"{subject.queue_table} {q['bytes'] / 1048576:.1f} MB, {q['n_dead_tup']} dead"
            )
        k += 1
    return timeline


def _sample_recovery(
    conn: psycopg.Connection, probe: Any, subject: Subject, fresh: dict[str, Any], recovery_s: float
) -> dict[str, Any]:
    fresh_claim = fresh["claim"]["median_ms"]
    fresh_bytes = fresh["tables"][subject.queue_table]["bytes"]
    claim_back = size_back = None
    samples = []
    t0 = time.perf_counter()
    k = 0
    while k * RECOVERY_EVERY_S <= recovery_s:
        time.sleep(max(0.0, t0 + k * RECOVERY_EVERY_S - time.perf_counter()))
        claim = probe.sample()
        q = table_sizes(conn, [subject.queue_table])[subject.queue_table]
        t = rnd(time.perf_counter() - t0, 1)
        samples.append({"t_s": t, "claim_ms": claim["median_ms"], "bytes": q["bytes"], "n_dead_tup": q["n_dead_tup"]})
        if claim_back is None and claim["median_ms"] <= 2 * fresh_claim:
            claim_back = t
        if size_back is None and q["bytes"] <= 2 * fresh_bytes:
            size_back = t
        k += 1
    return {
        "sampled_s": recovery_s,
        "claim_within_2x_fresh_after_s": claim_back,
        "queue_table_within_2x_fresh_size_after_s": size_back,
        "claim_ms_at_release": samples[0]["claim_ms"],
        "claim_ms_at_end": samples[-1]["claim_ms"],
        "queue_table_bytes_at_end": samples[-1]["bytes"],
        "n_dead_tup_at_end": samples[-1]["n_dead_tup"],
        "samples": samples,
    }


def _end_to_end(
    conn: psycopg.Connection, sql: str, load_t0: datetime, warmup_s: float, held_s: float
) -> dict[str, Any]:
    """End-to-end latency of the jobs enqueued in the warm-up (fresh), while the snapshot
    was held (overall and per minute) and after its release."""
    rows = [(float(t) - warmup_s, float(ms)) for t, ms in conn.execute(sql, {"t0": load_t0}).fetchall()]
    held = [(t, ms) for t, ms in rows if 0 <= t < held_s]
    per_minute: dict[int, list[float]] = {}
    last_full = max(0, int(held_s // 60) - 1)  # the seconds past the last full minute count with it
    for t, ms in held:
        per_minute.setdefault(min(int(t // 60), last_full), []).append(ms)
    minutes = [
        {"minute": m + 1, "jobs": len(v), "p50_ms": rnd(percentile(v, 50), 2), "p95_ms": rnd(percentile(v, 95), 2)}
        for m, v in sorted(per_minute.items())
    ]
    return {
        "fresh": latency_summary([ms for t, ms in rows if t < 0]),
        "held": latency_summary([ms for _, ms in held]),
        "per_minute_held": minutes,
        "worst_minute_p95_ms": max((m["p95_ms"] for m in minutes if m["p95_ms"] is not None), default=None),
        "recovery": latency_summary([ms for t, ms in rows if t >= held_s]),
    }


def _summarise(
    subject: Subject,
    *,
    fresh: dict[str, Any],
    timeline: list[dict[str, Any]],
    end_exact: dict[str, Any],
    recovery: dict[str, Any],
    e2e: dict[str, Any],
    extra: dict[str, Any],
) -> dict[str, Any]:
    claims = [s["claim"]["median_ms"] for s in timeline]
    start, last = fresh["claim"], timeline[-1]["claim"]
    # "At the end": the median of the last three samples (15 s), steadier than the last one alone.
    end_ms = statistics.median(claims[-END_SAMPLES:])
    worst = max(timeline, key=lambda s: s["claim"]["median_ms"])
    tables = {}
    for name in fresh["tables"].keys() | timeline[-1]["tables"].keys():
        series = [s["tables"][name] for s in timeline if name in s["tables"]]
        f = fresh["tables"].get(name) or {"bytes": None, "n_dead_tup": None}
        e = timeline[-1]["tables"].get(name) or {"bytes": None, "n_dead_tup": None}
        tables[name] = {
            "bytes": {"fresh": f["bytes"], "end": e["bytes"], "peak": max((x["bytes"] for x in series), default=None)},
            "n_dead_tup": {
                "fresh": f["n_dead_tup"],
                "end": e["n_dead_tup"],
                "peak": max((x["n_dead_tup"] or 0 for x in series), default=None),
            },
            "size_end_over_fresh": rnd(e["bytes"] / f["bytes"], 1) if f["bytes"] and e["bytes"] else None,
            "pgstattuple": {"start": fresh["exact"].get(name), "end": end_exact.get(name)},
            "autovacuums_during_held": (e.get("autovacuums") or 0) - (f.get("autovacuums") or 0)
            if f.get("bytes") is not None
            else None,
        }
    q = tables[subject.queue_table]
    return {
        "queue": subject.name,
        "claim_ms": {
            "fresh": start["median_ms"],
            "end": rnd(end_ms, 3),
            "end_is": f"median of the last {END_SAMPLES} samples",
            "last_sample": last["median_ms"],
            "worst": worst["claim"]["median_ms"],
            "worst_at_s": worst["t_s"],
            "end_over_fresh": rnd(end_ms / start["median_ms"], 2),
            "worst_over_fresh": rnd(worst["claim"]["median_ms"] / start["median_ms"], 2),
            "buffers": {"fresh": start["buffers"], "end": last["buffers"]},
            "median_of_samples": rnd(statistics.median(claims), 3),
        },
        "queue_table": subject.queue_table,
        "queue_table_size_end_over_fresh": q["size_end_over_fresh"],
        "tables": dict(sorted(tables.items())),
        "end_to_end": e2e,
        "recovery": recovery,
        **extra,
        "timeline": [
            {
                "t_s": s["t_s"],
                "claim_ms": s["claim"]["median_ms"],
                "buffers": s["claim"]["buffers"],
                "bytes": {n: v["bytes"] for n, v in s["tables"].items()},
                "n_dead_tup": {n: v["n_dead_tup"] for n, v in s["tables"].items()},
            }
            for s in timeline
        ],
    }


# -- the figure: both queues, the targets ---------------------------------------------------


def run(
    jq_dsn: str,
    pgqueuer_url: str | None,
    seconds: float,
    rate: float = 1000,
    recovery_s: float = 60,
    slots: int = JQ_SLOTS,
    log: Callable[[str], None] = _log,
    hold: bool = True,
    batch: int = DEFAULT_BATCH,
) -> dict[str, Any]:
    """Figure j: jq, then PgQueuer (unless `pgqueuer_url` is None), each in its own database
    (`hold` False: the control, the same load without the long transaction)."""
    out: dict[str, Any] = {
        "rate": rate,
        "seconds": seconds,
        "recovery_s": recovery_s,
        "sample_every_s": SAMPLE_EVERY_S,
        "probe": {"calls_per_sample": PROBE_SAMPLES, "limit": PROBE_LIMIT, "each": "own transaction, rolled back"},
        "snapshot_held": hold,
        "jobs_per_enqueue_transaction": batch,
        "jq": measure(jq_subject(jq_dsn, rate, slots, batch), seconds, recovery_s, hold, log),
    }
    if pgqueuer_url is not None:
        base.pgqueuer_install(pgqueuer_url)
        out["pgqueuer"] = measure(pgqueuer_subject(pgqueuer_url, rate, batch), seconds, recovery_s, hold, log)
        out["pgqueuer_settings"] = base.pgqueuer_settings()
    out["targets"] = targets(out)
    out["summary"] = summary_row(out)
    out["counts"] = (
        "claim: median of 5 calls each rolled back, every 5 s; sizes: pg_total_relation_size; dead: n_dead_tup "
        "(pgstattuple at start and end); end to end: enqueue transaction start to completion record, of the jobs "
        "finished by the end of the run (load.unfinished_after_15s: those that were not)"
    )
    return out


def _get(d: Any, *path: str) -> Any:
    for p in path:
        if not isinstance(d, dict):
            return None
        d = d.get(p)
    return d


def targets(fig: dict[str, Any]) -> list[dict[str, Any]]:
    """Issue #16 point 1's targets, on jq's figures (the last one against PgQueuer's)."""
    t: list[dict[str, Any]] = []

    def add(name: str, value: Any, threshold: str, met: bool | None, note: str = "") -> None:
        t.append({"target": name, "value": value, "threshold": threshold, "met": met, "note": note})

    jq = fig.get("jq") or {}
    r = _get(jq, "claim_ms", "end_over_fresh")
    add(
        "held snapshot: jq_claim(10) at the end / fresh",
        r,
        "<= 2",
        None if r is None else r <= TARGETS["claim_end_over_fresh"],
        f"buffers a claim reads: {_get(jq, 'claim_ms', 'buffers', 'fresh')} fresh, "
        f"{_get(jq, 'claim_ms', 'buffers', 'end')} at the end",
    )
    w = _get(jq, "end_to_end", "worst_minute_p95_ms")
    add(
        "held snapshot: end-to-end p95, worst minute (ms)",
        w,
        "<= 100 throughout",
        None if w is None else w <= TARGETS["e2e_p95_ms"],
        f"over the whole held period {_get(jq, 'end_to_end', 'held', 'p95_ms')} ms",
    )
    s = jq.get("queue_table_size_end_over_fresh")
    add(
        "held snapshot: jq.jobs size at the end / fresh",
        s,
        "<= 5",
        None if s is None else s <= TARGETS["storage_end_over_fresh"],
    )
    p = _get(fig, "pgqueuer", "claim_ms", "end_over_fresh")
    better = rnd(p / r, 2) if p is not None and r else None
    add(
        "held snapshot: PgQueuer's end/fresh dequeue ratio / jq's end/fresh claim ratio",
        better,
        ">= 5",
        None if better is None else better >= TARGETS["vs_pgqueuer"],
        f"PgQueuer {p}×, jq {r}×; buffers at the end: PgQueuer {_get(fig, 'pgqueuer', 'claim_ms', 'buffers', 'end')}, "
        f"jq {_get(jq, 'claim_ms', 'buffers', 'end')}",
    )
    return t


def _mb(b: int | None) -> str:
    return "—" if b is None else f"{b / 1048576:.1f} MB"


def table_row(fig: dict[str, Any]) -> tuple[str, str, str, str, str]:
    """The figure as a row of bench/run.py's table (figure | counts | jq | baseline | ratio)."""

    def side(d: dict[str, Any]) -> str:
        c, q = d["claim_ms"], d["tables"][d["queue_table"]]["bytes"]
        return (
            f"claim {c['fresh']} → {c['end']} ms ({c['end_over_fresh']}×, worst {c['worst']}); "
            f"{d['queue_table']} {_mb(q['fresh'])} → {_mb(q['end'])}; "
            f"e2e p95 {_get(d, 'end_to_end', 'held', 'p95_ms')} ms (worst minute "
            f"{_get(d, 'end_to_end', 'worst_minute_p95_ms')})"
        )

    jq, pgq = fig["jq"], fig.get("pgqueuer")
    ratio = next((x["value"] for x in targets(fig) if x["target"].startswith("held snapshot: PgQueuer")), None)
    return (
        f"j. held snapshot, {fig['rate']:,.0f} jobs/s for {fig['seconds']:,.0f} s",
        "claim(10) median, rolled back; queue table heap+indexes+TOAST",
        side(jq),
        f"PgQueuer {side(pgq)}" if pgq else "PgQueuer —",
        "—" if ratio is None else f"{ratio}× (PgQueuer's ratio / jq's)",
    )


def summary_row(fig: dict[str, Any]) -> str:
    """The one-line markdown summary."""
    return f"| {' | '.join(table_row(fig))} |"


# -- alone ---------------------------------------------------------------------------------


def _url(dsn: str) -> str:
    """A postgresql:// URL for asyncpg from a key=value DSN (a URL is kept)."""
    if "://" in dsn:
        return dsn
    p = conninfo_to_dict(dsn)
    auth = str(p.get("user", ""))
    if p.get("password"):
        auth += f":{p['password']}"
    return f"postgresql://{auth}{'@' if auth else ''}{p.get('host', '')}:{p.get('port', 5432)}/{p.get('dbname', '')}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 minutes per queue instead of 10")
    ap.add_argument("--seconds", type=float, default=None, help="how long the snapshot is held under load")
    ap.add_argument("--rate", type=float, default=1000, help="jobs/s offered (default 1,000)")
    ap.add_argument("--recovery", type=float, default=60, help="seconds sampled after the release (default 60)")
    ap.add_argument(
        "--dsn", default=None, help="an existing database (jq is installed into it; PgQueuer too, in public)"
    )
    ap.add_argument("--skip-pgqueuer", action="store_true", help="jq only")
    ap.add_argument("--control", action="store_true", help="the same run without the held snapshot")
    ap.add_argument(
        "--batch",
        type=int,
        default=DEFAULT_BATCH,
        help=f"jobs per enqueue transaction, both queues (default {DEFAULT_BATCH}; 1: jq runs figure d's own load)",
    )
    ap.add_argument("--out", default=str(RESULTS), help=f"also write the JSON here (default {RESULTS})")
    args = ap.parse_args()
    seconds = args.seconds or (120 if args.quick else 600)
    t0 = time.perf_counter()
    started = datetime.now(UTC).isoformat(timespec="seconds")
    if args.dsn:
        with psycopg.connect(args.dsn, autocommit=True) as conn:
            pyjq.install(conn)
        pgq_url = None if args.skip_pgqueuer else _url(args.dsn)
        result = run(args.dsn, pgq_url, seconds, args.rate, args.recovery, hold=not args.control, batch=args.batch)
        server_info: dict[str, Any] = {"dsn": args.dsn}
    else:
        from server import BenchServer

        sql_dir = Path(os.environ.get("JQ_BENCH_SQL") or BENCH.parent / "sql")
        server = BenchServer()
        with server:
            server.createdb("held_jq")
            server.psql("held_jq", "-f", str(sql_dir / "install.sql"))
            pgq = None
            if not args.skip_pgqueuer:
                server.createdb("held_pgqueuer")
                pgq = server.url("held_pgqueuer")
            result = run(
                server.dsn("held_jq"), pgq, seconds, args.rate, args.recovery, hold=not args.control, batch=args.batch
            )
            server_info = {"throwaway": True, "settings": "PostgreSQL defaults (bench/server.py)"}
    result["meta"] = {
        "date": started,
        "server": server_info,
        "cpus": os.cpu_count(),
        "total_seconds": rnd(time.perf_counter() - t0, 1),
    }
    text = json.dumps(result, indent=2, default=str)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
    print(text)
    print(result["summary"], file=sys.stderr)


if __name__ == "__main__":
    main()
