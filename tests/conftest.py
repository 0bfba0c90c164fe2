"""Database fixtures for the jq test suite.

Every test that asks for ``db`` gets a brand-new database with jq already
installed. jq is installed once per session into a template database, and
pytest-postgresql clones that template for each test (CREATE DATABASE ...
TEMPLATE ...), which is far cheaper than re-running the installer.

Where the server comes from:

* ``make test`` (tests/harness/run-tests.sh) starts a throwaway server and
  exports PGHOST/PGPORT/PGUSER: the fixtures use that server.
* Running ``pytest`` by hand as an ordinary user without PGHOST/PGPORT:
  pytest-postgresql starts (and later stops) a private server itself.
* Setting PGHOST/PGPORT (and PGUSER, PGPASSWORD) yourself points the tests at
  an existing server; they create and drop databases named ``jq_test*`` there.

Fixtures: ``db`` (autocommit connection to the fresh database), ``dsn`` (its
conninfo string, for opening more real connections), ``connect`` (opens extra
autocommit connections to it, closed at teardown).
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from pytest_postgresql import factories

import pyjq

DBNAME = "jq_test"  # each test's database; the template is jq_test_tmpl


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


def _pg_ctl() -> str | None:
    """pg_ctl for a self-started server: JQ_TEST_PGBIN, else Debian's newest
    /usr/lib/postgresql/<N>/bin, else None (pytest-postgresql searches itself)."""
    if os.environ.get("JQ_TEST_PGBIN"):
        return os.path.join(os.environ["JQ_TEST_PGBIN"], "pg_ctl")
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    return found[-1] if found else None


if os.environ.get("PGHOST") and os.environ.get("PGPORT"):
    # A server is already running (the harness's, or one you chose).
    jq_postgresql_server = factories.postgresql_noproc(
        host=os.environ["PGHOST"],
        port=os.environ["PGPORT"],
        user=os.environ.get("PGUSER", "postgres"),
        password=os.environ.get("PGPASSWORD"),
        dbname=DBNAME,
        load=[load_jq],
    )
elif os.geteuid() != 0:
    # Laptop convenience: plain `pytest` starts its own server.
    jq_postgresql_server = factories.postgresql_proc(
        executable=_pg_ctl(),
        user="postgres",
        dbname=DBNAME,
        load=[load_jq],
        postgres_options="-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
    )
else:

    @pytest.fixture(scope="session")
    def jq_postgresql_server() -> None:
        # PostgreSQL refuses to run as root, so pytest-postgresql cannot start one.
        pytest.fail(
            "running as root without a test server: use `make test` (or `make test-py "
            'PYTEST_ARGS="..."`), which starts PostgreSQL as the postgres user, '
            "or set PGHOST/PGPORT to a running server",
            pytrace=False,
        )


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
def dsn(postgresql: psycopg.Connection) -> str:
    """Conninfo string for the same fresh database as ``db``."""
    info = postgresql.info
    params = {"host": info.host, "port": info.port, "user": info.user, "dbname": info.dbname}
    if info.password:
        params["password"] = info.password
    return make_conninfo(**params)


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
