"""Another language shares the queue: a worker written in bash + psql
(tests/polyglot/psql_worker.sh) claims, completes and fails jobs through the
SQL functions alone, beside jobs and statuses seen from Python."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from psycopg.conninfo import conninfo_to_dict

import pyjq

SCRIPT = Path(__file__).resolve().parent / "polyglot" / "psql_worker.sh"


def test_a_bash_and_psql_worker_runs_jobs_through_the_sql_functions(db, dsn, tmp_path):
    lines = ["first", "it's quoted", "third; select 1"]
    ok = [pyjq.enqueue(db, "append_line", {"line": text}, queue="shell").job_id for text in lines]
    failing = pyjq.enqueue(db, "append_line", {"fail": "HTTP 503 from inv_42"}, queue="shell", max_attempts=1)
    retrying = pyjq.enqueue(db, "append_line", {"fail": "flaky"}, queue="shell", max_attempts=5)
    other_type = pyjq.enqueue(db, "not_for_bash", {}, queue="shell")

    params = conninfo_to_dict(dsn)
    env = {
        **os.environ,
        "PGHOST": str(params["host"]),
        "PGPORT": str(params["port"]),
        "PGUSER": str(params["user"]),
        "PGDATABASE": str(params["dbname"]),
    }
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
