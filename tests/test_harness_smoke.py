"""The test harness itself: jq is installed, and every test gets its own database."""

from __future__ import annotations

import os
import shlex
import subprocess

import psycopg
import pytest


def test_jq_is_installed(db: psycopg.Connection) -> None:
    version = db.execute("select jq.jq_version()").fetchone()[0]
    assert isinstance(version, str) and version.strip()


# Both cases assert the table is absent, then create it: whichever runs second
# fails unless each test really gets a fresh database. Order-independent.
@pytest.mark.parametrize("case", ["first", "second"])
def test_each_test_gets_a_fresh_database(db: psycopg.Connection, case: str) -> None:
    assert db.execute("select to_regclass('public.harness_marker')").fetchone()[0] is None
    db.execute("create table public.harness_marker (note text)")
    db.execute("insert into public.harness_marker values (%s)", (case,))


def test_dsn_and_connect_reach_the_same_database(db: psycopg.Connection, dsn: str, connect) -> None:
    name = db.execute("select current_database()").fetchone()[0]
    with psycopg.connect(dsn) as other:
        assert other.execute("select current_database()").fetchone()[0] == name
    workers = [connect() for _ in range(8)]
    pids = {conn.execute("select pg_backend_pid()").fetchone()[0] for conn in workers}
    assert len(pids) == 8
    assert all(conn.autocommit for conn in workers)
    for conn in workers:
        assert conn.execute("select current_database()").fetchone()[0] == name


@pytest.mark.skipif("JQ_TEST_PGCTL" not in os.environ, reason="needs the make test harness (JQ_TEST_PGCTL)")
def test_server_can_be_restarted(db: psycopg.Connection, dsn: str) -> None:
    """Crash/restart tests rely on $JQ_TEST_PGCTL restart -m fast."""
    before = db.execute("select pg_postmaster_start_time()").fetchone()[0]
    subprocess.run(
        [*shlex.split(os.environ["JQ_TEST_PGCTL"]), "restart", "-m", "fast"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    with pytest.raises(psycopg.OperationalError):
        db.execute("select 1")
    with psycopg.connect(dsn) as conn:
        after = conn.execute("select pg_postmaster_start_time()").fetchone()[0]
    assert after > before
