"""Fixtures of the jq test suite, where its PostgreSQL comes from, and its three groups.

Every test that asks for ``db`` gets a brand-new database with jq already
installed. jq is installed once per session into a template database, and
pytest-postgresql clones that template for each test (CREATE DATABASE ...
TEMPLATE ...), which is far cheaper than re-running the installer.

Where the server comes from (always pyjq.dev.localpg's ThrowawayPostgres, through
tests/harness/testserver.py, unless you point the tests elsewhere):

* ``make test`` (tests/harness/run-tests.sh) starts a throwaway server and
  exports PGHOST/PGPORT/PGUSER: the fixtures use that server.
* Running ``pytest`` by hand without PGHOST/PGPORT: once a selected test needs a
  database, this file starts the same throwaway server (as the postgres OS user
  when root) and stops it when pytest ends; ``pytest -m unit`` starts none.
* Setting PGHOST/PGPORT (and PGUSER, PGPASSWORD) yourself points the tests at
  an existing server; they create and drop databases named ``jq_test*`` there.

Fixtures: ``db`` (autocommit connection to the fresh database), ``dsn`` (its
conninfo string, for opening more real connections), ``empty_database`` (makes
databases without jq on the same server), ``bouncer_dsn`` (the same
database through the harness's PgBouncer in transaction pooling mode, on
$JQ_TEST_PGBOUNCER_PORT), ``connect`` (opens extra autocommit connections to
it, closed at teardown), ``empty_database`` (makes databases without jq, for
installing a release into), ``quick_turns`` (jq_tick turns generations within a
tick or two). Shared helpers (polling, job status, the CLI runner, dead jobs,
ticking the generations round) are in tests/helpers.py.

Groups: every test is in exactly one (markers registered in pyproject.toml;
``pytest -m unit``, ``-m db``, ``-m processes``, ``-m "not processes"``):

* ``unit``: needs no database;
* ``db``: a fresh database, used from the test's own process;
* ``processes``: real processes beside the test (worker, CLI or HTTP server
  subprocesses, psql/pg_dump, restarting or crashing the server): slower.

A test's group is ``processes`` when PROCESS_TESTS below names its module or
itself, else ``db`` when it uses the database fixtures, else ``unit``. A test
may also carry one of the markers itself. Collection fails when a test would
end up in no group or in two, when a ``unit`` test uses the database, or when
PROCESS_TESTS names a test its module does not have.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest
from harness import testserver
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from pytest_postgresql import factories

import pyjq
from pyjq.dev.localpg import LocalPostgresError, ThrowawayPostgres

DBNAME = "jq_test"  # each test's database; the template is jq_test_tmpl

GROUPS = ("unit", "db", "processes")

# Modules (file name) and single tests (file::function) in the `processes` group.
PROCESS_TESTS = {
    "test_chaos.py",
    "test_connections.py",
    "test_install.py",
    "test_upgrade_under_load.py",
    "test_polyglot.py",
    "test_prepared_statements.py",
    "test_worker_process.py",
    "test_cli.py::test_console_script_in_a_subprocess",
    "test_cli.py::test_python_dash_m_in_a_subprocess",
    "test_cli.py::test_worker_subprocess_runs_jobs_and_exits_0_on_sigterm",
    "test_cli.py::test_worker_factory_gets_dsn_and_queue_override",
    "test_cli.py::test_without_click_the_command_says_to_install_the_cli_extra",
    "test_harness_smoke.py::test_server_can_be_restarted",
    "test_http.py::test_pyjq_serve_refuses_to_start_without_tokens",
    "test_http.py::test_pyjq_serve_runs_uvicorn",
    "test_readme.py::test_readme_cli_enqueue_and_status",
}


# -- groups -------------------------------------------------------------------------


def _derived_group(item: pytest.Item) -> str:
    module = item.path.name
    if module in PROCESS_TESTS or f"{module}::{getattr(item, 'originalname', item.name)}" in PROCESS_TESTS:
        return "processes"
    return "db" if "postgresql" in getattr(item, "fixturenames", ()) else "unit"


def _group_problems(item: pytest.Item) -> list[str]:
    groups = [m.name for m in item.iter_markers() if m.name in GROUPS]
    if len(groups) != 1:
        return [f"{item.nodeid}: in {len(groups)} groups {groups}, expected exactly one of {GROUPS}"]
    if groups[0] == "unit" and "postgresql" in getattr(item, "fixturenames", ()):
        return [f"{item.nodeid}: marked unit but uses the database"]
    return []


def _stale_process_tests(items: list[pytest.Item]) -> list[str]:
    modules = {item.path.name: getattr(item, "module", None) for item in items}
    stale = []
    for entry in sorted(PROCESS_TESTS):
        module_name, _, test = entry.partition("::")
        module = modules.get(module_name)
        if test and module is not None and not hasattr(module, test):
            stale.append(f"conftest.PROCESS_TESTS names {entry}, which {module_name} does not define")
    return stale


@pytest.hookimpl(tryfirst=True)  # before -m deselects by these markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    problems = _stale_process_tests(items)
    for item in items:
        if not any(m.name in GROUPS for m in item.iter_markers()):
            item.add_marker(_derived_group(item))
        problems += _group_problems(item)
    if problems:
        raise pytest.UsageError("test groups:\n  " + "\n  ".join(problems))


# -- the server ---------------------------------------------------------------------

_SERVER = pytest.StashKey[ThrowawayPostgres]()
_NO_SERVER = pytest.StashKey[str]()  # why the planned server cannot start


def pytest_sessionstart(session: pytest.Session) -> None:
    """Without PGHOST/PGPORT, plan a throwaway server: tests read $JQ_TEST_PGCTL at import."""
    if os.environ.get("PGHOST") and os.environ.get("PGPORT"):
        return
    server = testserver.planned()
    session.config.stash[_SERVER] = server
    try:
        os.environ.update(testserver.environment(server))
    except LocalPostgresError as exc:  # no PostgreSQL here: fine while no test needs it
        session.config.stash[_NO_SERVER] = str(exc)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the planned server once a selected test needs it (``-m unit`` needs none)."""
    server = session.config.stash.get(_SERVER, None)
    if server is None or all(item.get_closest_marker("unit") for item in session.items):
        return
    try:
        if _NO_SERVER in session.config.stash:
            raise LocalPostgresError(session.config.stash[_NO_SERVER])
        testserver.start(server)
    except LocalPostgresError as exc:
        raise pytest.UsageError(f"cannot start the test server: {exc}") from None
    os.environ.update(testserver.environment(server))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the planned server and remove its folder (also after Ctrl-C)."""
    server = config.stash.get(_SERVER, None)
    if server is not None:
        testserver.stop(server)


@dataclass(frozen=True)
class ServerAddress:
    """What pytest-postgresql's ``depends_on`` reads from the server it builds on."""

    host: str
    port: str
    user: str
    password: str | None
    options: str = ""
    maintenance_dbname: str = "postgres"
    template_dbname: str | None = None


@pytest.fixture(scope="session")
def jq_test_server() -> ServerAddress:
    """The server of this run, read when first needed (it may start after import)."""
    if not (os.environ.get("PGHOST") and os.environ.get("PGPORT")):
        pytest.fail("no test server: PGHOST/PGPORT are not set", pytrace=False)
    return ServerAddress(
        host=os.environ["PGHOST"],
        port=os.environ["PGPORT"],
        user=os.environ.get("PGUSER", "postgres"),
        password=os.environ.get("PGPASSWORD"),
    )


def load_jq(host: str, port: int | str, user: str, dbname: str, password: str | None = None, **_: Any) -> None:
    """pytest-postgresql loader: install jq into the template database.

    A callable rather than ``load=[Path("sql/install.sql")]``: pytest-postgresql
    feeds .sql files to cursor.execute, which cannot follow install.sql's psql
    ``\\ir`` includes. pyjq.install does. (The janitor also passes
    ``autocommit=``, ignored here: install() manages its own transaction.)
    """
    with psycopg.connect(host=host, port=port, user=user, dbname=dbname, password=password, autocommit=True) as conn:
        pyjq.install(conn)
        # The tests move jq's clock with `set jq.now` (jq._now()); a production install ignores it.
        conn.execute("update jq.settings set allow_test_clock = true")


# The per-session template database with jq installed, on that server.
jq_postgresql_server = factories.postgresql_noproc(dbname=DBNAME, load=[load_jq], depends_on="jq_test_server")


# pytest-postgresql's client fixture: for each test, a new database cloned from
# the template that load_jq filled, dropped after the test. Overrides the
# plugin's own `postgresql` fixture, which would start a different server.
postgresql = factories.postgresql("jq_postgresql_server")


@pytest.fixture
def db(postgresql: psycopg.Connection) -> psycopg.Connection:
    """A connection (autocommit) to a fresh database with jq installed."""
    postgresql.autocommit = True
    return postgresql


@pytest.fixture
def quick_turns(db: psycopg.Connection) -> None:
    """settings.rotation_turn_after 100 ms (its minimum) and rotation_min_bytes 0: jq_tick turns to the
    next generation once the current one is a tenth of a second old, however few rows it holds, so a
    test gets its rows out of the current generation in a tick or two (helpers.make_previous)."""
    db.execute("update jq.settings set rotation_turn_after = interval '100 milliseconds', rotation_min_bytes = 0")


@pytest.fixture
def dsn(postgresql: psycopg.Connection) -> str:
    """Conninfo string for the same fresh database as ``db``."""
    info = postgresql.info
    params: dict[str, Any] = {"host": info.host, "port": info.port, "user": info.user, "dbname": info.dbname}
    if info.password:
        params["password"] = info.password
    return make_conninfo(**params)


@pytest.fixture
def bouncer_dsn(dsn: str) -> str:
    """Conninfo string for the same fresh database as ``db``, through the harness's PgBouncer
    (transaction pooling, tests/harness/bouncer.py): a server connection per transaction."""
    port = os.environ.get("JQ_TEST_PGBOUNCER_PORT")
    if not port:
        pytest.fail("no PgBouncer: JQ_TEST_PGBOUNCER_PORT is not set (run through make test)", pytrace=False)
    params = conninfo_to_dict(dsn)
    params.update(host="127.0.0.1", port=port)
    return make_conninfo(**params)


@pytest.fixture
def empty_database(dsn: str) -> Iterator[Callable[[], str]]:
    """Factory of empty databases (no jq) on the test server, dropped at teardown; returns their conninfo
    (for installing a release with helpers.psql_install)."""
    params = conninfo_to_dict(dsn)
    made: list[str] = []

    def make() -> str:
        name = f"jq_empty_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=True) as admin:
            admin.execute(f'create database "{name}"')
        made.append(name)
        return make_conninfo(**{**params, "dbname": name})

    yield make
    with psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=True) as admin:
        for name in made:
            admin.execute(f'drop database if exists "{name}" with (force)')


@pytest.fixture
def connect(dsn: str) -> Iterator[Callable[..., psycopg.Connection]]:
    """Factory for extra connections to the test database, e.g. one per worker.

    ``connect()`` returns an autocommit connection; keyword arguments go to
    psycopg.connect (``connect(autocommit=False)``). All are closed at teardown.
    """
    opened: list[psycopg.Connection] = []

    def _connect(**kwargs: Any) -> psycopg.Connection:
        kwargs.setdefault("autocommit", True)
        conn = psycopg.connect(dsn, **kwargs)
        opened.append(conn)
        return conn

    yield _connect
    for conn in opened:
        conn.close()
