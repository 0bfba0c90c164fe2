"""SQLAlchemy 2 sessions and connections passed to pyjq: the job lives and dies with the caller's rows.

Each test uses a real model (``User``) in the test database, inserts a row and
enqueues a job through the same Session/Connection, then rolls back or
commits, and looks at both from a separate connection. The psycopg 3 dialect
(``postgresql+psycopg://``) is supported, sync and async; any other driver is
refused with a TypeError naming the supported URL.

No pytest-asyncio: each async test drives its own event loop with asyncio.run().
"""

from __future__ import annotations

import asyncio
import importlib.util
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict
from sqlalchemy import Engine, String, create_engine, func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

import pyjq


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(200), unique=True)


def _engine_args(dsn: str) -> dict[str, Any]:
    # The test server may listen on a Unix socket: pass the conninfo to psycopg as it is.
    return {"connect_args": conninfo_to_dict(dsn)}


@pytest.fixture
def engine(dsn: str) -> Iterator[Engine]:
    """A psycopg 3 engine on the test database, with the users table created."""
    eng = create_engine("postgresql+psycopg://", **_engine_args(dsn))
    Base.metadata.create_all(eng)
    yield eng
    eng.dispose()  # before pytest-postgresql drops the database


def _users(db: psycopg.Connection) -> list[str]:
    return [r[0] for r in db.execute("select email from users order by email")]


def _job_exists(db: psycopg.Connection, job_id: Any) -> bool:
    return pyjq.status(db, job_id) is not None


# -- sync Session ---------------------------------------------------------------------------------


def test_session_rollback_removes_the_row_and_the_job(engine: Engine, db: psycopg.Connection) -> None:
    with Session(engine) as session, session.begin():
        session.add(User(email="ada@example.com"))
        job = pyjq.enqueue(session, "send_welcome_email", {"email": "ada@example.com"})
        assert pyjq.status(session, job.job_id) is not None  # visible inside the transaction
        session.rollback()
    assert _users(db) == []
    assert not _job_exists(db, job.job_id)


def test_session_commit_keeps_the_row_and_the_job(engine: Engine, db: psycopg.Connection) -> None:
    with Session(engine) as session:
        with session.begin():
            session.add(User(email="ada@example.com"))
            job = pyjq.enqueue(session, "send_welcome_email", {"email": "ada@example.com"}, priority=5)
            assert not _job_exists(db, job.job_id)  # not yet committed: others do not see it
        # After commit, a new transaction on the same session sees it through pyjq too.
        status = pyjq.status(session, job.job_id)
        assert status is not None and status.status == "queued" and status.priority == 5
        assert [s.queue for s in pyjq.stats(session)] == ["default"]
        session.commit()
    assert _users(db) == ["ada@example.com"]
    seen = pyjq.status(db, job.job_id)
    assert seen is not None and seen.type == "send_welcome_email"


def test_session_without_begin_joins_its_autobegun_transaction(engine: Engine, db: psycopg.Connection) -> None:
    with Session(engine) as session:
        session.add(User(email="bob@example.com"))
        [job] = pyjq.enqueue_many(session, [{"type": "send_welcome_email", "payload": {"email": "bob@example.com"}}])
    # Closed without commit: the session rolled back, the job with it.
    assert _users(db) == []
    assert not _job_exists(db, job.job_id)


# -- sync Connection ------------------------------------------------------------------------------


def test_connection_rollback_and_commit(engine: Engine, db: psycopg.Connection) -> None:
    with engine.connect() as conn:
        conn.execute(insert(User).values(email="ada@example.com"))
        rolled_back = pyjq.enqueue(conn, "send_welcome_email", {"email": "ada@example.com"})
        conn.rollback()

        # pyjq first, before the connection's own first execute: it begins the transaction
        # that commit() then commits.
        kept = pyjq.enqueue(conn, "send_welcome_email", {"email": "bob@example.com"})
        assert conn.in_transaction()
        conn.execute(insert(User).values(email="bob@example.com"))
        conn.commit()
    assert _users(db) == ["bob@example.com"]
    assert not _job_exists(db, rolled_back.job_id)
    assert _job_exists(db, kept.job_id)


def test_connection_closed_without_commit_drops_the_job(engine: Engine, db: psycopg.Connection) -> None:
    with engine.connect() as conn:
        job = pyjq.enqueue(conn, "send_welcome_email", {"email": "ada@example.com"})
    assert not _job_exists(db, job.job_id)


def test_engine_begin_commits_the_job(engine: Engine, db: psycopg.Connection) -> None:
    with engine.begin() as conn:
        conn.execute(insert(User).values(email="ada@example.com"))
        job = pyjq.enqueue(conn, "send_welcome_email", {"email": "ada@example.com"})
    assert _users(db) == ["ada@example.com"]
    assert _job_exists(db, job.job_id)


# -- async Session and Connection -----------------------------------------------------------------


async def _async_engine(dsn: str) -> AsyncEngine:
    eng = create_async_engine("postgresql+psycopg://", **_engine_args(dsn))
    async with eng.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    return eng


def test_async_session_rollback_and_commit(dsn: str, db: psycopg.Connection) -> None:
    async def scenario() -> tuple[Any, Any]:
        eng = await _async_engine(dsn)
        try:
            async with AsyncSession(eng) as session:
                async with session.begin():
                    session.add(User(email="ada@example.com"))
                    rolled_back = await pyjq.enqueue_async(session, "send_welcome_email", {"email": "ada@example.com"})
                    await session.rollback()
                async with session.begin():
                    session.add(User(email="bob@example.com"))
                    kept = await pyjq.enqueue_async(session, "send_welcome_email", {"email": "bob@example.com"})
                status = await pyjq.status_async(session, kept.job_id)
                assert status is not None and status.status == "queued"
            return rolled_back, kept
        finally:
            await eng.dispose()

    rolled_back, kept = asyncio.run(scenario())
    assert _users(db) == ["bob@example.com"]
    assert not _job_exists(db, rolled_back.job_id)
    assert _job_exists(db, kept.job_id)


def test_async_connection_rollback_and_commit(dsn: str, db: psycopg.Connection) -> None:
    async def scenario() -> tuple[Any, Any]:
        eng = await _async_engine(dsn)
        try:
            async with eng.connect() as conn:
                await conn.execute(insert(User).values(email="ada@example.com"))
                rolled_back = await pyjq.enqueue_async(conn, "send_welcome_email", {"email": "ada@example.com"})
                await conn.rollback()
                kept = await pyjq.enqueue_async(conn, "send_welcome_email", {"email": "bob@example.com"})
                await conn.execute(insert(User).values(email="bob@example.com"))
                assert await conn.scalar(select(func.count()).select_from(User)) == 1
                await conn.commit()
            return rolled_back, kept
        finally:
            await eng.dispose()

    rolled_back, kept = asyncio.run(scenario())
    assert _users(db) == ["bob@example.com"]
    assert not _job_exists(db, rolled_back.job_id)
    assert _job_exists(db, kept.job_id)


# -- what is refused ------------------------------------------------------------------------------


def test_a_driver_other_than_psycopg_is_refused_naming_the_supported_url() -> None:
    # sqlite (stdlib driver, always available) stands for any non-psycopg dialect.
    eng = create_engine("sqlite://")
    try:
        with Session(eng) as session, pytest.raises(TypeError, match=r"sqlite\+pysqlite.*postgresql\+psycopg://"):
            pyjq.enqueue(session, "send_welcome_email", {})
        with eng.connect() as conn, pytest.raises(TypeError, match=r"postgresql\+psycopg://"):
            pyjq.status(conn, "00000000-0000-0000-0000-000000000000")
    finally:
        eng.dispose()


@pytest.mark.skipif(importlib.util.find_spec("psycopg2") is None, reason="psycopg2 is not installed")
def test_psycopg2_is_refused(dsn: str) -> None:
    eng = create_engine("postgresql+psycopg2://", **_engine_args(dsn))
    try:
        with Session(eng) as session, pytest.raises(TypeError, match=r"postgresql\+psycopg2.*postgresql\+psycopg://"):
            pyjq.enqueue(session, "send_welcome_email", {})
    finally:
        eng.dispose()


@pytest.mark.skipif(importlib.util.find_spec("asyncpg") is None, reason="asyncpg is not installed")
def test_asyncpg_is_refused(dsn: str) -> None:
    async def scenario() -> None:
        # asyncpg names its arguments its own way (database, not dbname).
        d = conninfo_to_dict(dsn)
        args = {
            "host": d.get("host"),
            "port": int(d.get("port") or 5432),
            "user": d.get("user"),
            "database": d["dbname"],
        }
        eng = create_async_engine("postgresql+asyncpg://", connect_args=args)
        try:
            async with AsyncSession(eng) as session:
                with pytest.raises(TypeError, match=r"postgresql\+asyncpg.*postgresql\+psycopg://"):
                    await pyjq.enqueue_async(session, "send_welcome_email", {})
        finally:
            await eng.dispose()

    asyncio.run(scenario())


def test_sync_and_async_objects_are_not_mixed_up(engine: Engine, dsn: str) -> None:
    with Session(engine) as session, pytest.raises(TypeError, match="enqueue"):
        asyncio.run(pyjq.enqueue_async(session, "send_welcome_email", {}))  # type: ignore[arg-type]

    async def scenario() -> None:
        eng = await _async_engine(dsn)
        try:
            async with AsyncSession(eng) as session:
                with pytest.raises(TypeError, match="enqueue_async"):
                    pyjq.enqueue(session, "send_welcome_email", {})  # type: ignore[arg-type]
        finally:
            await eng.dispose()

    asyncio.run(scenario())


def test_an_engine_is_refused_it_has_no_transaction(engine: Engine) -> None:
    with pytest.raises(TypeError, match="Session or Connection"):
        pyjq.enqueue(engine, "send_welcome_email", {})  # type: ignore[arg-type]


@pytest.mark.processes
def test_importing_pyjq_does_not_import_sqlalchemy() -> None:
    code = "import sys, pyjq; pyjq.client; sys.exit('sqlalchemy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
