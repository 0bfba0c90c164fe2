"""Another language shares the queue: workers written in bash + psql
(tests/polyglot/) claim, complete and fail jobs through the SQL functions
alone, beside jobs and statuses seen from Python; with jq_tick in a loop
(tests/polyglot/tick_loop.sh) such a deployment gets the storage rotation a
pyjq deployment gets."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import time
from pathlib import Path

from psycopg.conninfo import conninfo_to_dict

import pyjq

POLYGLOT = Path(__file__).resolve().parent / "polyglot"
SCRIPT = POLYGLOT / "psql_worker.sh"


def libpq_env(dsn: str) -> dict[str, str]:
    params = conninfo_to_dict(dsn)
    return {
        **os.environ,
        "PGHOST": str(params["host"]),
        "PGPORT": str(params["port"]),
        "PGUSER": str(params["user"]),
        "PGDATABASE": str(params["dbname"]),
    }


def test_a_bash_and_psql_worker_runs_jobs_through_the_sql_functions(db, dsn, tmp_path):
    lines = ["first", "it's quoted", "third; select 1"]
    ok = [pyjq.enqueue(db, "append_line", {"line": text}, queue="shell").job_id for text in lines]
    failing = pyjq.enqueue(db, "append_line", {"fail": "HTTP 503 from inv_42"}, queue="shell", max_attempts=1)
    retrying = pyjq.enqueue(db, "append_line", {"fail": "flaky"}, queue="shell", max_attempts=5)
    other_type = pyjq.enqueue(db, "not_for_bash", {}, queue="shell")

    env = libpq_env(dsn)
    out = tmp_path / "out.txt"
    proc = subprocess.run(
        ["bash", str(SCRIPT), "shell", "bash-worker-1", str(out)], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr

    assert out.read_text().splitlines() == lines
    assert [pyjq.status(db, i).status for i in ok] == ["succeeded"] * 3
    dead = pyjq.status(db, failing.job_id)
    assert dead.status == "dead" and dead.last_error == "HTTP 503 from inv_42"
    again = pyjq.status(db, retrying.job_id)
    assert again.status == "failed_retrying" and again.attempts == 1 and again.next_attempt_at is not None
    assert pyjq.status(db, other_type.job_id).status == "queued"


HELD_JOBS = 50_000
PROBE_QUEUE = "probe"


def claim_probe(conn, samples: int = 15) -> tuple[int, float]:
    """jq_claim(10) on a queue of 100 ready jobs, in transactions rolled back: the fewest buffers a call
    touched (nested statements included) and the median milliseconds."""
    conn.execute(
        "select count(*) from jq.jq_enqueue_many(%s::jsonb)",
        [json.dumps([{"type": "probe", "queue": PROBE_QUEUE}] * 100)],
    )
    buffers, times = [], []
    for _ in range(samples):
        with conn.transaction(force_rollback=True):
            t = time.perf_counter()
            plan = conn.execute(
                f"explain (analyze, buffers, format json) select * from jq.jq_claim('{PROBE_QUEUE}', 'probe', 10)"
            ).fetchone()[0][0]["Plan"]
            times.append((time.perf_counter() - t) * 1000)
            buffers.append(plan["Shared Hit Blocks"] + plan["Shared Read Blocks"])
    conn.execute("delete from jq.jobs where queue = %s", [PROBE_QUEUE])
    return min(buffers), statistics.median(times)


def jobs_bytes(conn) -> int:
    return conn.execute(
        "select sum(pg_total_relation_size(p.relid))::bigint from pg_partition_tree('jq.jobs') p where p.isleaf"
    ).fetchone()[0]


def test_a_sql_only_deployment_with_jq_tick_keeps_claims_cheap_under_a_held_snapshot(db, dsn, connect, tmp_path):
    """50,000 jobs through a bash + psql worker while another session holds a REPEATABLE READ snapshot,
    jq_tick called in a loop by a bash + psql script: nothing pyjq does. At the end a claim touches at most
    twice the buffers it did fresh and jq.jobs is at most 5x its fresh size (with rotate_storage off, the
    same run does not drain in 2 minutes)."""
    db.execute("update jq.settings set rotation_turn_after = '500 ms'")  # a short test sees several turns
    fresh_buffers, fresh_ms = claim_probe(db)
    fresh_bytes = jobs_bytes(db)

    holder = connect(autocommit=False)
    holder.execute("set transaction isolation level repeatable read")
    holder.execute("select count(*) from pg_class").fetchone()  # the snapshot is taken and held
    env = libpq_env(dsn)
    stop = tmp_path / "stop"
    worker = subprocess.Popen(
        ["bash", str(POLYGLOT / "batch_worker.sh"), "held", "bash-batch-1", str(stop)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    ticker = subprocess.Popen(
        ["bash", str(POLYGLOT / "tick_loop.sh"), str(stop)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        batch = json.dumps([{"type": "noop", "queue": "held"}] * 250)
        for _ in range(HELD_JOBS // 250):
            db.execute("select count(*) from jq.jq_enqueue_many(%s::jsonb)", [batch])
            time.sleep(0.05)  # about 5,000 jobs a second at most: a flow, not one backlog
        deadline = time.monotonic() + 120
        while db.execute("select count(*) from jq.jobs where queue = 'held'").fetchone()[0]:
            assert time.monotonic() < deadline, "the bash worker did not drain the queue within 2 minutes"
            time.sleep(0.2)
        end_buffers, end_ms = claim_probe(db)
        end_bytes = jobs_bytes(db)
        assert holder.execute("select count(*) from pg_class").fetchone()[0] > 0  # still holding it
    finally:
        stop.touch()
        worker_out, worker_err = worker.communicate(timeout=30)
        ticker_out, ticker_err = ticker.communicate(timeout=30)
        holder.rollback()
    assert worker.returncode == 0, worker_err
    assert ticker.returncode == 0, ticker_err
    calls, truncations = map(int, ticker_out.split())
    print(
        f"claim(10): {fresh_buffers} -> {end_buffers} buffers, {fresh_ms:.2f} -> {end_ms:.2f} ms;"
        f" jq.jobs {fresh_bytes} -> {end_bytes} bytes; {calls} ticks, {truncations} truncations"
    )
    assert int(worker_out) == HELD_JOBS
    succeeded = db.execute("select count(*) from jq.job_history where queue = 'held' and status = 'succeeded'")
    assert succeeded.fetchone()[0] == HELD_JOBS
    assert truncations >= 3, "the generations were truncated under the held snapshot"
    assert end_buffers <= 2 * fresh_buffers, (fresh_buffers, end_buffers)
    assert end_bytes <= 5 * fresh_bytes, (fresh_bytes, end_bytes)
