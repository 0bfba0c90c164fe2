"""The connections pyjq's functions accept: psycopg 3's own, or SQLAlchemy 2's on the psycopg dialect.

Every public function that takes a connection is wrapped once, by
:func:`takes_connection` (sync) or :func:`takes_async_connection` (async), so
it receives the psycopg connection underneath whatever the caller passed:

* a ``psycopg.Connection`` / ``psycopg.AsyncConnection``: used as it is;
* a SQLAlchemy ``Session`` (or ``scoped_session``): ``session.connection()``,
  which joins the session's transaction (beginning one if none is open);
* a SQLAlchemy ``Connection``: its transaction, begun if none is open (as its
  own first ``execute`` would), so ``conn.commit()`` / ``rollback()`` decide the job;
* a SQLAlchemy ``AsyncSession`` / ``AsyncConnection`` (the ``_async`` functions): the same.

The job is then written in the caller's transaction: it commits and rolls
back with the caller's rows. Only the psycopg 3 dialect (``postgresql+psycopg://``)
hands over a psycopg connection; psycopg2, asyncpg, pg8000 and the other
drivers raise TypeError saying so. SQLAlchemy is imported only when the
caller passed one of its objects: the core package does not depend on it.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeAlias, TypeVar

import psycopg

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection as SAConnection
    from sqlalchemy.ext.asyncio import AsyncConnection as SAAsyncConnection
    from sqlalchemy.ext.asyncio import AsyncSession, async_scoped_session
    from sqlalchemy.orm import Session, scoped_session

__all__ = [
    "AsyncConnectionLike",
    "ConnectionLike",
    "async_connection",
    "sync_connection",
    "takes_async_connection",
    "takes_connection",
]

ConnectionLike: TypeAlias = "psycopg.Connection[Any] | Session | scoped_session[Any] | SAConnection"
AsyncConnectionLike: TypeAlias = (
    "psycopg.AsyncConnection[Any] | AsyncSession | async_scoped_session[Any] | SAAsyncConnection"
)

P = ParamSpec("P")
R = TypeVar("R")

_SUPPORTED_DRIVER = "psycopg"


def _is_sqlalchemy(obj: object) -> bool:
    return type(obj).__module__.startswith("sqlalchemy.")


def _is_sqlalchemy_async(obj: object) -> bool:
    return type(obj).__module__.startswith("sqlalchemy.ext.asyncio.")


def _check_dialect(dialect: Any) -> None:
    """Only the psycopg 3 dialect hands over a psycopg connection; say so for any other."""
    if dialect.name != "postgresql" or dialect.driver != _SUPPORTED_DRIVER:
        raise TypeError(
            f"pyjq needs SQLAlchemy's psycopg 3 dialect, not {dialect.name}+{dialect.driver}: "
            f"create the engine with a postgresql+psycopg:// URL (pip install 'psycopg[binary]'); "
            f"psycopg2, asyncpg and pg8000 connections are not supported"
        )


def _unsupported(obj: object, supported: str) -> TypeError:
    return TypeError(f"pyjq cannot use a {type(obj).__module__}.{type(obj).__qualname__} as a connection: {supported}")


_SYNC_SUPPORTED = "pass a psycopg.Connection or a SQLAlchemy Session or Connection (postgresql+psycopg://)"
_ASYNC_SUPPORTED = (
    "pass a psycopg.AsyncConnection or a SQLAlchemy AsyncSession or AsyncConnection (postgresql+psycopg://)"
)


def sync_connection(obj: ConnectionLike) -> psycopg.Connection[Any]:
    """The psycopg connection under ``obj``, in the caller's (possibly just begun) transaction."""
    if isinstance(obj, psycopg.Connection):
        return obj
    if not _is_sqlalchemy(obj):
        return obj  # type: ignore[return-value]  # duck-typed connections keep working as before
    if _is_sqlalchemy_async(obj):
        raise _unsupported(obj, "use the _async function (e.g. pyjq.enqueue_async) with an async session")

    from sqlalchemy.engine import Connection as SAConnection
    from sqlalchemy.orm import Session, scoped_session

    if isinstance(obj, Session | scoped_session):
        sa_conn = obj.connection()  # joins the session's transaction, begins one if none
    elif isinstance(obj, SAConnection):
        sa_conn = obj
        if not sa_conn.in_transaction():
            sa_conn.begin()  # what its own first execute() would do, so commit()/rollback() decide
    else:
        raise _unsupported(obj, _SYNC_SUPPORTED)
    _check_dialect(sa_conn.dialect)
    driver_conn = sa_conn.connection.driver_connection
    if not isinstance(driver_conn, psycopg.Connection):
        raise _unsupported(driver_conn, _SYNC_SUPPORTED)
    return driver_conn


async def async_connection(obj: AsyncConnectionLike) -> psycopg.AsyncConnection[Any]:
    """The psycopg async connection under ``obj``, in the caller's (possibly just begun) transaction."""
    if isinstance(obj, psycopg.AsyncConnection):
        return obj
    if not _is_sqlalchemy(obj):
        return obj  # type: ignore[return-value]
    if not _is_sqlalchemy_async(obj):
        raise _unsupported(obj, "use the sync function (e.g. pyjq.enqueue) with a sync Session or Connection")

    from sqlalchemy.ext.asyncio import AsyncConnection as SAAsyncConnection
    from sqlalchemy.ext.asyncio import AsyncSession, async_scoped_session

    if isinstance(obj, AsyncSession | async_scoped_session):
        sa_conn = await obj.connection()
    elif isinstance(obj, SAAsyncConnection):
        sa_conn = obj
        if not sa_conn.in_transaction():
            await sa_conn.begin()
    else:
        raise _unsupported(obj, _ASYNC_SUPPORTED)
    _check_dialect(sa_conn.dialect)
    driver_conn = (await sa_conn.get_raw_connection()).driver_connection
    if not isinstance(driver_conn, psycopg.AsyncConnection):
        raise _unsupported(driver_conn, _ASYNC_SUPPORTED)
    return driver_conn


def takes_connection(
    fn: Callable[Concatenate[psycopg.Connection[Any], P], R],
) -> Callable[Concatenate[ConnectionLike, P], R]:
    """Let ``fn(conn, ...)`` also take a SQLAlchemy Session or Connection as ``conn``."""

    @functools.wraps(fn)
    def wrapper(conn: ConnectionLike, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return fn(sync_connection(conn), *args, **kwargs)

    return wrapper


def takes_async_connection(
    fn: Callable[Concatenate[psycopg.AsyncConnection[Any], P], Awaitable[R]],
) -> Callable[Concatenate[AsyncConnectionLike, P], Coroutine[Any, Any, R]]:
    """Let ``await fn(conn, ...)`` also take a SQLAlchemy AsyncSession or AsyncConnection as ``conn``."""

    @functools.wraps(fn)
    async def wrapper(conn: AsyncConnectionLike, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await fn(await async_connection(conn), *args, **kwargs)

    return wrapper
