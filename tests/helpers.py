"""Helpers shared by the pytest files: waiting for a condition, reading a job's
status, running the CLI in-process, enqueueing test jobs, the tagged releases
and the installer, ticking the storage generations round.

    from helpers import eventually, invoke_cli, job_status, wait_until
    from helpers import current_generation, make_previous, stop_turning, tick_now, tick_until

(tests/ is on sys.path: pytest puts a conftest's folder there.) Fixtures stay in
conftest.py; helpers used by one file only stay in that file.
"""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import subprocess
import tarfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol
from uuid import UUID

import psycopg
from click.testing import CliRunner, Result

import pyjq
from pyjq.cli.app import cli

REPO = Path(__file__).resolve().parent.parent
RELEASES = REPO / "tests" / "releases.txt"

# -- waiting ------------------------------------------------------------------------------


class HasLogs(Protocol):
    """A process started by a test whose log helps explain a timeout."""

    def logs(self) -> str: ...


def wait_until(
    check: Callable[[], Any],
    timeout: float = 30.0,
    what: str = "condition",
    procs: Iterable[HasLogs] = (),
    *,
    proc: HasLogs | None = None,
) -> Any:
    """Poll check() every 50 ms until it returns something truthy, and return that.
    On timeout, fail with ``what`` and the logs of ``proc``/``procs``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            logs = [p for p in (proc, *procs) if p is not None]
            raise AssertionError(
                f"timed out waiting for {what}"
                + "".join(f"\n--- {getattr(p, 'name', 'worker')} log:\n{p.logs()}" for p in logs)
            )
        time.sleep(0.05)


async def eventually(check: Callable[[], Any], timeout: float = 15.0, what: str = "condition") -> Any:
    """wait_until for asyncio: check() may be sync or async; polls every 20 ms."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


# -- jobs ---------------------------------------------------------------------------------


def job_status(dsn: str, job_id: UUID | str) -> pyjq.JobStatus | None:
    """pyjq.status on a connection of its own (the test's may be busy or in a transaction)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        return pyjq.status(conn, job_id)


def enqueue_sql(db: psycopg.Connection, type_: str = "work", **kw: Any) -> UUID:
    """jq_enqueue(type_, p_<name> => value for each keyword), straight from SQL."""
    args = ", ".join(f"p_{k} => %s" for k in kw)
    sql = f"select job_id from jq.jq_enqueue(%s{', ' + args if args else ''})"
    row = db.execute(sql, [type_, *kw.values()]).fetchone()
    assert row is not None
    return row[0]


def enqueue_n(
    conn: psycopg.Connection,
    n: int,
    *,
    tenant: str | None = None,
    type: str = "work",
    concurrency_key: str | None = None,
    queue: str = "default",
) -> list[UUID]:
    """n jobs of one kind in one pyjq.enqueue_many call (payload {"i": 0..n-1})."""
    jobs = [
        {"type": type, "payload": {"i": i}, "queue": queue, "tenant": tenant, "concurrency_key": concurrency_key}
        for i in range(n)
    ]
    return [r.job_id for r in pyjq.enqueue_many(conn, jobs)]


# -- the command line ---------------------------------------------------------------------


def invoke_cli(*args: str, env: dict[str, str | None] | None = None, input: str | None = None) -> Result:
    """Invoke `pyjq ARGS` in-process. DATABASE_URL is unset unless env sets it."""
    full_env: dict[str, str | None] = {"DATABASE_URL": None}
    full_env.update(env or {})
    result = CliRunner().invoke(cli, list(args), env=full_env, input=input, prog_name="pyjq")
    # Whatever happened, the user never sees a Python traceback.
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


# -- releases and the installer -----------------------------------------------------------


def pg_tool(name: str) -> str:
    """A PostgreSQL client program matching the test server when the harness says where it is."""
    pgbin = os.environ.get("JQ_TEST_PGBIN")
    if pgbin and Path(pgbin, name).exists():
        return str(Path(pgbin, name))
    found = shutil.which(name)
    assert found, f"{name} is not installed"
    return found


def psql_install(
    conninfo: str, root: Path = REPO, *, quiet: bool = True, options: str | None = None
) -> subprocess.CompletedProcess:
    """psql -v ON_ERROR_STOP=1 -f <root>/sql/install.sql, as the README tells DBAs to run it; ``options``
    are the session's settings (PGOPTIONS, e.g. "-c lock_timeout=2s")."""
    return subprocess.run(
        [
            pg_tool("psql"),
            "-X",
            *(["-q"] if quiet else []),
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            conninfo,
            "-f",
            str(root / "sql" / "install.sql"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=None if options is None else {**os.environ, "PGOPTIONS": options},
    )


def install_report(proc: subprocess.CompletedProcess) -> str:
    """Everything an install printed, stdout and stderr."""
    return (proc.stdout + proc.stderr).strip()


def releases() -> list[tuple[str, str]]:
    """The tagged releases of tests/releases.txt: (release, commit), oldest first."""
    rows = []
    for line in RELEASES.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            release, commit = line.split()
            rows.append((release, commit))
    return rows


def checkout_release(commit: str, into: Path, paths: Iterable[str] = ("sql",)) -> Path:
    """The given folders (sql/ by default) as they were at a commit, extracted from git history into ``into``."""
    proc = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit, *paths], capture_output=True, timeout=60
    )
    assert proc.returncode == 0, (
        f"release commit {commit} is not in this clone's history ({proc.stderr.decode().strip()}); "
        "the upgrade tests need a full clone"
    )
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4 (Debian 12 ships 3.11.2)
            tar.extractall(into, filter="data")
        else:
            tar.extractall(into)  # our own repository's history: trusted
    return into


# -- the storage generations ---------------------------------------------------------------


def current_generation(conn: psycopg.Connection) -> int:
    """The generation of jq.jobs that takes new rows (jq._storage_current); only jq_tick changes it."""
    row = conn.execute("select jq._storage_current()").fetchone()
    assert row is not None
    return row[0]


def tick_now(conn: psycopg.Connection) -> pyjq.Tick:
    """One pyjq.tick that runs whatever the last call asked for: the due time (jq.tick_due) set back
    first, as if the wait had passed (tests/pgtap_helpers.sql's jq_test.tick does the same)."""
    conn.execute("select setval('jq.tick_due', 0)")
    return pyjq.tick(conn)


def tick_until(
    conn: psycopg.Connection, done: Callable[[pyjq.Tick], Any], timeout: float = 30.0, what: str = "the tick"
) -> pyjq.Tick:
    """pyjq.tick on conn (autocommit or idle), sleeping what each call answers (at most 0.1 s) until
    done(answer) is truthy; returns that answer. A call before the time the last one asked for is
    answered {"ran": false} and the time left."""
    deadline = time.monotonic() + timeout
    while True:
        answer = pyjq.tick(conn)
        if done(answer):
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; the last tick answered {answer}")
        time.sleep(min(answer.call_again_after.total_seconds(), 0.1))


def stop_turning(conn: psycopg.Connection) -> None:
    """settings.rotation_turn_after an hour and no turn by size: jq_tick empties generations but turns
    no more, so a test's ticks answer for the generation it set up."""
    conn.execute("update jq.settings set rotation_turn_after = interval '1 hour', rotation_turn_bytes = 0")


def make_previous(conn: psycopg.Connection, generation: int, timeout: float = 30.0) -> None:
    """Ticks until ``generation`` is no longer current (jq_tick turned away from it), the other
    generations emptied on the way: the next tick empties it. Quick with conftest's ``quick_turns``;
    no other session may tick meanwhile (a worker would empty it too)."""
    if current_generation(conn) != generation:
        return
    tick_until(
        conn,
        lambda _: current_generation(conn) != generation,
        timeout,
        f"jq_tick to turn away from generation {generation}",
    )
