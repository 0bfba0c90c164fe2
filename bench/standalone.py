"""The frame of a benchmark that also runs alone (fairness.py, explain_claim.py):
on an existing database (``--dsn``, jq installed there
first) or on a throwaway server of its own (bench/server.py), then one JSON
object with the run's meta on stdout, and in ``--out`` when given.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

from common import rnd

THROWAWAY = {"throwaway": True, "settings": "PostgreSQL defaults (bench/server.py)"}


def run_standalone(
    dbname: str,
    dsn: str | None,
    sql_dir: Path,
    run: Callable[[str], dict[str, Any]],
    *,
    check: Callable[[psycopg.Connection], None] | None = None,
    out: str | None = None,
) -> None:
    """run(dsn) on the database, its result printed with "meta". ``check`` looks at a --dsn database before
    jq is installed there (it may exit with a message)."""
    started = time.perf_counter()
    if dsn:
        import pyjq

        with psycopg.connect(dsn, autocommit=True) as conn:
            if check is not None:
                check(conn)
            pyjq.install(conn, sql_dir)
        result = run(dsn)
        server: dict[str, Any] = {"dsn": dsn}
    else:
        from server import BenchServer

        with BenchServer() as bench_server:
            bench_server.createdb(dbname)
            bench_server.psql(dbname, "-f", str(sql_dir / "install.sql"))
            result = run(bench_server.dsn(dbname))
            server = THROWAWAY
    result["meta"] = {
        "server": server,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "total_seconds": rnd(time.perf_counter() - started, 1),
    }
    text = json.dumps(result, indent=2, default=str)
    if out:
        Path(out).write_text(text + "\n")
    print(text)
