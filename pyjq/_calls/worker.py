"""Worker calls: claim, finish, heartbeat, release, waiting marks, maintenance,
the bounds (sql/functions/claim.sql, finish.sql, wakeup.sql, maintenance.sql,
limits.sql).

The claim is the one call that does not decode its rows the usual way: a
claimed row may hold a value Python cannot represent (a JSON number of 5,000
digits, JSON nested deeper than the recursion limit, a time before year 1; all
of which PostgreSQL accepts from other clients). :class:`ClaimCall` then
decodes the rows again leniently, and such a value costs only its own job
(:attr:`ClaimedJob.unreadable`: the worker dead-letters it without running it),
not every job leased in the same statement.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg import sql
from psycopg.adapt import Transformer
from psycopg.rows import dict_row
from psycopg.types.datetime import TimestamptzLoader
from psycopg.types.json import JsonbLoader, JsonLoader

from ..errors import from_psycopg
from . import Many, One, Scalar, _Call, from_row
from .admin import MAINTAIN, VERSION

__all__ = [
    "CLAIM",
    "COMPLETE",
    "FINISH",
    "HEARTBEAT",
    "LIMITS",
    "LISTEN_SESSION",
    "MAINTAIN",
    "RELEASE",
    "SET_WAITING",
    "SET_WAITING_ON_BACKEND",
    "VERSION",
    "ClaimCall",
    "ClaimedJob",
    "Finished",
    "LeaseState",
    "Limits",
    "ListenSession",
    "Released",
    "listen_async",
    "notify_channel",
]


@dataclass(frozen=True, slots=True)
class ClaimedJob:
    """A row of jq_claim. A value that could not be decoded is None here (the
    payload: {}), and ``unreadable`` maps its column to the reason."""

    id: UUID
    queue: str
    type: str
    payload: Any
    priority: int
    attempts: int
    max_attempts: int
    tenant: str | None
    run_at: datetime | None
    created_at: datetime | None
    locked_until: datetime | None = None
    idempotency_key: str | None = None
    last_error: str | None = None
    metadata: dict[str, str] | None = None
    unreadable: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Finished:
    """What writing one result did: succeeded, failed_retrying, cancelled or dead."""

    job_id: UUID
    status: str
    next_attempt_at: datetime | None  # failed_retrying: when the next attempt is due


@dataclass(frozen=True, slots=True)
class Limits:
    """The bounds in jq.settings now (jq_limits)."""

    max_payload_bytes: int
    max_payload_depth: int
    max_error_length: int
    max_result_bytes: int  # bytes of a result's JSON text; jq_complete refuses a larger one (54000)


@dataclass(frozen=True, slots=True)
class LeaseState:
    job_id: UUID
    state: str  # held | cancel_requested | lost


@dataclass(frozen=True, slots=True)
class ListenSession:
    """The backend a statement of the LISTEN connection ran on, and whether it listens on its channels."""

    backend_pid: int
    listening: bool


@dataclass(frozen=True, slots=True)
class Released:
    job_id: UUID
    status: str  # released, or what the job had become meanwhile


class ClaimCall(_Call):
    """jq_claim, decoding a row it cannot read leniently (see the module docstring).
    Async only: the worker is its one caller."""

    __slots__ = ()

    async def run_async(self, conn: psycopg.AsyncConnection, **params: Any) -> list[ClaimedJob]:
        try:
            async with conn.cursor(row_factory=dict_row) as cur:
                await cur.execute(self.sql, params, prepare=False)  # see pyjq._calls
                try:
                    rows = await cur.fetchall()  # the rows are here already: only decoding can fail
                except Exception:  # any decoding error
                    rows = _load_leniently(cur)
        except psycopg.Error as exc:
            raise from_psycopg(exc) from exc
        return [_claimed_job(row) for row in rows]


# jq_claim for one or more queues in one statement: one call per (queue, limit) pair.
CLAIM = ClaimCall(
    "select c.* from unnest(%(queues)s::text[], %(limits)s::integer[]) as q(queue_name, claim_limit)"
    " cross join lateral jq.jq_claim(p_queue => q.queue_name, p_worker => %(worker)s::text,"
    " p_limit => q.claim_limit, p_lease => %(lease)s::interval, p_types => %(types)s::text[]) as c"
)
# Successes only (the batch without failures). results: the handlers' return values as
# JSON text, parallel to job_ids (None: none returned a value).
COMPLETE: Many[Finished] = Many(
    Finished,
    "select t.job_id, 'succeeded' as status, null::timestamptz as next_attempt_at"
    " from jq.jq_complete(p_job_ids => %(job_ids)s::uuid[], p_worker => %(worker)s::text,"
    " p_results => %(results)s::text[]::jsonb[]) as t(job_id)",
)
# A batch of results in one statement: jq_complete for the successes, then
# jq_fail once per failed job (the four arrays are the failures, index by index).
FINISH: Many[Finished] = Many(
    Finished,
    "select t.job_id, 'succeeded' as status, null::timestamptz as next_attempt_at"
    " from jq.jq_complete(p_job_ids => %(job_ids)s::uuid[], p_worker => %(worker)s::text,"
    " p_results => %(results)s::text[]::jsonb[]) as t(job_id)"
    " union all"
    " select f.job_id, r.status, r.next_attempt_at"
    " from unnest(%(failed_ids)s::uuid[], %(errors)s::text[], %(retry_in)s::interval[], %(discard)s::boolean[])"
    " as f(job_id, error, retry_in, discard)"
    " cross join lateral jq.jq_fail(p_job_id => f.job_id, p_worker => %(worker)s::text, p_error => f.error,"
    " p_retry_in => f.retry_in, p_discard => f.discard) as r",
)
LIMITS: One[Limits] = One(Limits, "select * from jq.jq_limits()")
HEARTBEAT: Many[LeaseState] = Many(
    LeaseState,
    "select job_id, state from jq.jq_heartbeat(p_job_ids => %(job_ids)s::uuid[], p_worker => %(worker)s::text,"
    " p_lease => %(lease)s::interval)",
)
RELEASE: Many[Released] = Many(
    Released, "select job_id, status from jq.jq_release(p_job_ids => %(job_ids)s::uuid[], p_worker => %(worker)s::text)"
)
SET_WAITING: Scalar[None] = Scalar(
    "select jq.jq_set_waiting(p_queues => %(queues)s::text[], p_worker => %(worker)s::text,"
    " p_waiting => %(waiting)s::boolean)"
)
# The same, but only on the backend ``backend_pid`` (the one that ran LISTEN): no row when the
# statement landed on another backend, as it may behind a pooler in transaction mode.
SET_WAITING_ON_BACKEND: One[ListenSession] = One(
    ListenSession,
    "select pg_backend_pid() as backend_pid, true as listening, jq.jq_set_waiting(p_queues => %(queues)s::text[],"
    " p_worker => %(worker)s::text, p_waiting => %(waiting)s::boolean)::text as marked"
    " where pg_backend_pid() = %(backend_pid)s::integer",
)
# Which backend answers, and whether it LISTENs on every one of ``channels``.
LISTEN_SESSION: One[ListenSession] = One(
    ListenSession,
    "select pg_backend_pid() as backend_pid,"
    " %(channels)s::text[] <@ array(select pg_listening_channels()) as listening",
)


def notify_channel(queue: str) -> str:
    """The channel jq NOTIFYs when a job of ``queue`` becomes ready (as jq._channel names it)."""
    return "jq_" + queue[:60]


async def listen_async(conn: psycopg.AsyncConnection[Any], channel: str) -> None:
    """LISTEN on ``channel`` (an identifier, not a parameter: LISTEN takes no placeholders)."""
    try:
        await conn.execute(sql.SQL("listen {}").format(sql.Identifier(channel)))
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc


# -- lenient decoding of claimed rows ----------------------------------------------


class _Undecodable:
    """A value of a claimed row that this client cannot represent."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


def _lenient(base: type[Any]) -> type[Any]:
    """A psycopg loader that returns _Undecodable instead of raising."""

    class Lenient(base):
        def load(self, data: Any) -> Any:
            try:
                return super().load(data)
            except Exception as exc:  # any value the client cannot hold
                return _Undecodable(_firstline(f"{type(exc).__name__}: {exc}"))

    Lenient.__name__ = Lenient.__qualname__ = f"_Lenient{base.__name__}"
    return Lenient


_LENIENT_LOADERS = [
    ("jsonb", _lenient(JsonbLoader)),
    ("json", _lenient(JsonLoader)),
    ("timestamptz", _lenient(TimestamptzLoader)),
]


def _load_leniently(cur: psycopg.AsyncCursor[Any]) -> list[dict[str, Any]]:
    """The claimed rows again, when one of them could not be decoded: a value
    Python cannot hold becomes _Undecodable. Slower, so only after a failure."""
    for name, loader in _LENIENT_LOADERS:
        cur.adapters.register_loader(name, loader)
    tx = Transformer(cur)
    pgresult = cur.pgresult
    assert pgresult is not None
    tx.set_pgresult(pgresult)
    names = [d.name for d in cur.description or ()]
    return tx.load_rows(0, pgresult.ntuples, lambda values: dict(zip(names, values, strict=True)))


def _claimed_job(row: dict[str, Any]) -> ClaimedJob:
    unreadable = {k: v.reason for k, v in row.items() if isinstance(v, _Undecodable)}
    if unreadable:
        row = {k: (({} if k == "payload" else None) if k in unreadable else v) for k, v in row.items()}
        row["unreadable"] = unreadable
    return from_row(ClaimedJob, row)


def _firstline(text: str, limit: int = 200) -> str:
    line = text.split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"
