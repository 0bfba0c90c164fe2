"""The database jq lives in, seen through Django's settings: the backend's ``DATABASE`` alias.

Enqueue and get_result run on the psycopg 3 connection under Django's own
(``connection.connection``), so a job enqueued inside ``transaction.atomic()``
commits and rolls back with the block. The worker opens its own connections
from the same settings (:func:`worker_dsn`), or from the ``DSN`` option.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.core import checks
from django.db import connections
from psycopg.conninfo import make_conninfo

__all__ = ["check_database", "raw_connection", "worker_dsn"]

# get_connection_params() keys that are Python objects for psycopg.connect, not libpq parameters.
_NOT_LIBPQ = frozenset({"cursor_factory", "context", "prepare_threshold", "pool", "server_side_binding"})


def raw_connection(alias: str) -> psycopg.Connection[Any]:
    """The psycopg connection under Django's connection ``alias``, in its current transaction.

    Outside ``atomic()`` Django's connection is in autocommit mode, so the job
    commits at once, as a model's save() would.
    """
    conn = connections[alias]
    conn.ensure_connection()
    conn.validate_no_broken_transaction()  # what Django's own cursors check inside a failed atomic block
    raw = conn.connection
    if not isinstance(raw, psycopg.Connection):
        raise TypeError(
            f"pyjq needs Django's PostgreSQL backend on psycopg 3 for database {alias!r}, "
            f"not a {type(raw).__module__}.{type(raw).__qualname__} (pip install 'psycopg[binary]')"
        )
    return raw


def worker_dsn(alias: str) -> str:
    """A libpq conninfo string for the database of Django's connection ``alias``."""
    params = connections[alias].get_connection_params()
    libpq = {k: v for k, v in params.items() if k not in _NOT_LIBPQ and isinstance(v, str | int)}
    return make_conninfo("", **libpq)


def check_database(alias: str, backend_alias: str) -> list[checks.CheckMessage]:
    """System-check errors when ``alias`` is not a PostgreSQL database on psycopg 3."""
    where = f"TASKS[{backend_alias!r}]['OPTIONS']['DATABASE']"
    if alias not in connections.settings:
        return [checks.Error(f"{where} names {alias!r}, which is not in DATABASES", id="pyjq.E001")]
    conn = connections[alias]
    if conn.vendor != "postgresql":
        return [checks.Error(f"{where}: jq needs PostgreSQL, {alias!r} is {conn.vendor}", id="pyjq.E002")]
    from django.db.backends.postgresql.psycopg_any import is_psycopg3

    if not is_psycopg3:
        return [
            checks.Error(
                f"{where}: jq needs psycopg 3 under Django's PostgreSQL backend, {alias!r} uses psycopg2",
                hint="pip install 'psycopg[binary]' (Django prefers psycopg 3 when both are installed)",
                id="pyjq.E003",
            )
        ]
    return []
