"""Install and upgrade: idempotent re-runs, racing installers, psql and
pyjq.install giving the same schema, and an in-place upgrade from the first
tagged release that keeps every job and ends at a fresh install's schema."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tarfile
import io
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

import pyjq

REPO = Path(__file__).resolve().parent.parent
RELEASES = REPO / "tests" / "releases.txt"


def _tool(name: str) -> str:
    """A PostgreSQL client program matching the test server when the harness says where it is."""
    pgbin = os.environ.get("JQ_TEST_PGBIN")
    if pgbin and Path(pgbin, name).exists():
        return str(Path(pgbin, name))
    found = shutil.which(name)
    assert found, f"{name} is not installed"
    return found


@pytest.fixture
def empty_database(dsn: str) -> Iterator[Callable[[], str]]:
    """Factory of empty databases (no jq) on the test server; returns their conninfo."""
    params = conninfo_to_dict(dsn)
    made: list[str] = []

    def make() -> str:
        name = f"jq_empty_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=True) as admin:
            admin.execute(f'create database "{name}"')
        made.append(name)
        return psycopg.conninfo.make_conninfo(**{**params, "dbname": name})

    yield make
    with psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=True) as admin:
        for name in made:
            admin.execute(f'drop database if exists "{name}" with (force)')


def _psql_install(conninfo: str, root: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run(
        [_tool("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", conninfo, "-f", str(root / "sql" / "install.sql")],
        capture_output=True, text=True, timeout=120)


def _schema_dump(conninfo: str) -> str:
    out = subprocess.run([_tool("pg_dump"), "--schema-only", "--schema=jq", "-d", conninfo],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    # Drop comments and session settings that name the dump, not the schema.
    lines = [ln for ln in out.splitlines() if ln and not ln.startswith("--") and not ln.startswith("SET ")
             and not ln.startswith("SELECT pg_catalog.set_config") and not ln.startswith("\\restrict")
             and not ln.startswith("\\unrestrict")]
    return "\n".join(lines)


def test_install_twice_changes_nothing(empty_database):
    target = empty_database()
    first = _psql_install(target)
    assert first.returncode == 0, first.stderr
    before = _schema_dump(target)
    second = _psql_install(target)
    assert second.returncode == 0, second.stderr
    assert _schema_dump(target) == before
    with psycopg.connect(target) as conn:
        assert conn.execute("select count(*) from jq.migrations").fetchone()[0] == 3
        assert pyjq.version(conn) == "0.3.0"


def test_two_installers_racing_apply_each_migration_once(empty_database):
    target = empty_database()
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda _: _psql_install(target), range(2)))
    for r in results:
        assert r.returncode == 0, r.stderr
    with psycopg.connect(target) as conn:
        assert conn.execute("select count(*) from jq.migrations").fetchall() == [(3,)]


def test_python_install_equals_psql_install(empty_database):
    by_psql, by_python = empty_database(), empty_database()
    assert _psql_install(by_psql).returncode == 0
    with psycopg.connect(by_python, autocommit=True) as conn:
        assert pyjq.install(conn) == "0.3.0"
    assert _schema_dump(by_python) == _schema_dump(by_psql)


def test_installer_refuses_a_newer_schema(empty_database):
    target = empty_database()
    assert _psql_install(target).returncode == 0
    with psycopg.connect(target, autocommit=True) as conn:
        conn.execute("insert into jq.migrations (version, release, name) values (999, '99.0.0', 'future')")
        with pytest.raises(pyjq.SchemaTooNew):
            pyjq.install(conn)
        assert pyjq.version(conn) == "99.0.0"


def _releases() -> list[tuple[str, str]]:
    rows = []
    for line in RELEASES.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            release, commit = line.split()
            rows.append((release, commit))
    return rows


def _checkout_sql(commit: str, into: Path) -> Path:
    """sql/ as it was at a commit, extracted from git history."""
    proc = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", commit, "sql"],
                          capture_output=True, timeout=60)
    assert proc.returncode == 0, (
        f"release commit {commit} is not in this clone's history ({proc.stderr.decode().strip()}); "
        "the upgrade test needs a full clone")
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4 (Debian 12 ships 3.11.2)
            tar.extractall(into, filter="data")
        else:
            tar.extractall(into)  # our own repository's history: trusted
    return into


@pytest.mark.parametrize("release,commit", _releases())
def test_upgrade_from_a_release_keeps_jobs_and_matches_a_fresh_install(empty_database, tmp_path, release, commit):
    old_root = _checkout_sql(commit, tmp_path / release)
    upgraded, fresh = empty_database(), empty_database()

    old = _psql_install(upgraded, old_root)
    assert old.returncode == 0, old.stderr
    with psycopg.connect(upgraded, autocommit=True) as conn:
        assert pyjq.version(conn) == release
        # Jobs in every state the old release can hold, made with its own functions.
        ids = [conn.execute("select job_id from jq.jq_enqueue(%s, %s::jsonb, 'default', 0, null, 3, %s)",
                            [f"t{i}", f'{{"i": {i}}}', f"key-{i}"]).fetchone()[0] for i in range(5)]
        conn.execute("select jq.jq_enqueue('later', '{}', 'default', 0, now() + interval '1 day')")
        conn.execute("select * from jq.jq_claim('default', 'old-worker', 2)")
        before = conn.execute("select id, type, payload, status, attempts, locked_by from jq.jobs order by id").fetchall()

    new = _psql_install(upgraded)
    assert new.returncode == 0, new.stderr
    assert _psql_install(fresh).returncode == 0

    with psycopg.connect(upgraded, autocommit=True) as conn:
        after = conn.execute("select id, type, payload, status, attempts, locked_by from jq.jobs order by id").fetchall()
        assert after == before, "the upgrade changed or lost jobs"
        assert pyjq.version(conn) == pyjq.version(psycopg.connect(fresh))
        # The old jobs still work with the new functions.
        dup = pyjq.enqueue(conn, "t0", {"i": 0}, idempotency_key="key-0")
        assert dup.duplicate and dup.job_id == ids[0]
        claimed = conn.execute("select count(*) from jq.jq_claim('default', 'new-worker', 10)").fetchone()[0]
        assert claimed == 3
    assert _schema_dump(upgraded) == _schema_dump(fresh)
