"""Every jq_* call pyjq makes, written once.

A call is its SQL text (named arguments, explicit casts; a changed SQL
function is a new ``<name>_v2``, docs/design.md) plus the shape and row type
of its answer. Each call runs on a sync or an async psycopg connection, inside
whatever transaction the caller has open, and maps database errors to
pyjq's exceptions (:func:`pyjq.errors.from_psycopg`)::

    ENQUEUE = One(EnqueueResult, "select job_id, status, duplicate from jq.jq_enqueue(p_type => %(type)s::text, ...)")
    ENQUEUE.run(conn, type="send_welcome_email", ...)
    await ENQUEUE.run_async(aconn, type=..., ...)

No call ever creates a server-side prepared statement (``prepare=False``,
whatever the connection's ``prepare_threshold``): behind a pooler in
transaction mode (PgBouncer) the next transaction may run on another server
connection, where the statement does not exist, or exists with another text.

Three shapes: :class:`Scalar` (the first column of the one row), :class:`One`
(one row as a dataclass, or None) and :class:`Many` (every row as a
dataclass). Row types are small frozen dataclasses; columns the dataclass
does not know are ignored, so a column added in SQL never breaks an older
client.

The modules of this package group the calls by concern: ``jobs`` (enqueue,
status, cancel), ``admin`` (dead letters, stats, maintenance, version),
``policies`` (tenants, caps), ``schedules`` (managing and firing them),
``session`` (jq's clock, the HTTP service's session settings) and ``worker``
(claim, finish, heartbeat, release, waiting marks). Nothing above this
package holds SQL of a jq_* call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Generic, NoReturn, TypeVar

import psycopg
from psycopg.rows import dict_row

from ..errors import TimestampOutOfRange, from_psycopg

__all__ = ["Many", "One", "Scalar", "expect_row", "from_row"]

T = TypeVar("T")


_FIELD_NAMES: dict[type, frozenset[str]] = {}  # per row dataclass, filled on first use


def from_row(cls: type[T], row: Mapping[str, Any]) -> T:
    """Build a row dataclass by column name, ignoring columns it does not know."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    return cls(**{k: v for k, v in row.items() if k in names})


def expect_row(row: T | None, function: str) -> T:
    """The row of a :class:`One` call whose SQL function always answers one (e.g. a set function)."""
    if row is None:
        raise RuntimeError(f"{function} answered no row")
    return row


def _raise_mapped(exc: psycopg.Error) -> NoReturn:
    """Raise pyjq's exception for ``exc`` (chained to it), or ``exc`` itself when jq has no class for it."""
    mapped = from_psycopg(exc)
    if mapped is exc:
        raise exc
    raise mapped from exc


def _raise_unreadable(exc: psycopg.DataError) -> NoReturn:
    """A value psycopg could not load into Python (no SQLSTATE: the server sent it fine). In jq's
    answers that is a time beyond Python's years 1 to 9999, written by a client other than jq."""
    if exc.sqlstate:
        raise exc
    raise TimestampOutOfRange(
        f"jq answered a time outside the years 1 to 9999 that Python can hold ({exc})", sqlstate="22008"
    ) from exc


class _Call:
    """The SQL text of one call; the subclasses say what its answer is."""

    __slots__ = ("sql",)

    def __init__(self, sql: str):
        self.sql = sql

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.sql!r})"

    def _fetch(self, conn: psycopg.Connection, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        try:
            with conn.cursor(row_factory=dict_row) as cur:
                cur.execute(self.sql, params, prepare=False)
                if cur.description is None:
                    return []
                try:
                    return cur.fetchall()
                except psycopg.DataError as exc:
                    _raise_unreadable(exc)
        except psycopg.Error as exc:
            _raise_mapped(exc)

    async def _fetch_async(self, conn: psycopg.AsyncConnection, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        try:
            async with conn.cursor(row_factory=dict_row) as cur:
                await cur.execute(self.sql, params, prepare=False)
                if cur.description is None:
                    return []
                try:
                    return await cur.fetchall()
                except psycopg.DataError as exc:
                    _raise_unreadable(exc)
        except psycopg.Error as exc:
            _raise_mapped(exc)


class Scalar(_Call, Generic[T]):
    """A call answering one value: the first column of its one row."""

    __slots__ = ()

    def run(self, conn: psycopg.Connection, **params: Any) -> T:
        rows = self._fetch(conn, params)
        return next(iter(rows[0].values()))

    async def run_async(self, conn: psycopg.AsyncConnection, **params: Any) -> T:
        rows = await self._fetch_async(conn, params)
        return next(iter(rows[0].values()))


class One(_Call, Generic[T]):
    """A call answering at most one row, as the dataclass ``row_type`` (None without a row)."""

    __slots__ = ("row_type",)

    def __init__(self, row_type: type[T], sql: str):
        super().__init__(sql)
        self.row_type = row_type

    def run(self, conn: psycopg.Connection, **params: Any) -> T | None:
        rows = self._fetch(conn, params)
        return from_row(self.row_type, rows[0]) if rows else None

    async def run_async(self, conn: psycopg.AsyncConnection, **params: Any) -> T | None:
        rows = await self._fetch_async(conn, params)
        return from_row(self.row_type, rows[0]) if rows else None


class Many(_Call, Generic[T]):
    """A call answering rows, each as the dataclass ``row_type``."""

    __slots__ = ("row_type",)

    def __init__(self, row_type: type[T], sql: str):
        super().__init__(sql)
        self.row_type = row_type

    def run(self, conn: psycopg.Connection, **params: Any) -> list[T]:
        return [from_row(self.row_type, r) for r in self._fetch(conn, params)]

    async def run_async(self, conn: psycopg.AsyncConnection, **params: Any) -> list[T]:
        return [from_row(self.row_type, r) for r in await self._fetch_async(conn, params)]
