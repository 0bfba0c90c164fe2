"""Reporting: results are written in batches, and the writes retried.

Results are written as soon as ``flush_size`` are waiting or
``flush_interval`` after the first one: one statement calls ``jq_complete``
for the successes and ``jq_fail`` for each failure. Nothing is written before
its handler returned. A queue whose last claim came back short is claimed once
more after a batch of its results is written: the finished jobs may have held a
tenant cap or a concurrency-key limit that kept pending jobs back (no NOTIFY
says so). A batch the database refuses (not a connection problem) is written
result by result (split-retry), so one bad result (say, a ``Retry`` delay
jq_fail rejects) cannot hold up the others. While the database is unreachable
the results wait and the write is retried.

Return values travel with the successes (jq_complete's ``p_results``). A value
over ``jq.settings.max_result_bytes`` would make jq_complete refuse the whole
batch, so it is written as a failed attempt instead (jq_fail: the job
retries). The bound is read (``jq_limits``) with the first batch that holds a
value, again before a value is refused (an admin may have raised it), and
after the connection was lost or jq_complete refused a value anyway (an admin
lowered the bound, or PostgreSQL prints a number longer than Python did):
that one success is then written as a failure with jq's message.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import psycopg

from .._calls.worker import COMPLETE, FINISH, LIMITS, Finished
from . import returned
from .connections import DATABASE_ERRORS, Connections
from .errortext import clean
from .log import log_db_error, logger, oneline
from .state import Queue, Result, RunState
from .timing import Backoff

__all__ = ["Completer"]


class Completer:
    def __init__(self, state: RunState, connections: Connections, *, worker_name: str, flush_interval: float):
        self._state = state
        self._connections = connections
        self._name = worker_name
        self._flush_interval = flush_interval
        self._max_result_bytes: int | None = None  # jq_limits, read when a batch holds a value

    async def run(self) -> None:
        """The flush loop: a batch whenever results are waiting (runs until cancelled)."""
        state, results = self._state, self._state.results
        while True:
            await results.arrived()
            if not results.pending:
                continue
            if (
                self._flush_interval
                and not state.stop.is_set()
                and results.pending < results.flush_size
                and not state.quiescent
            ):
                await results.more_within(self._flush_interval)
            batch = results.take_batch()
            try:
                await self._write(batch)
            finally:
                results.batch_done()
            if state.drain:
                state.queues.kick.set()
            elif not state.stop.is_set():
                self._reclaim_after_finish({r.run.queue for r in batch})
            if results.pending:
                results.recheck()

    def _reclaim_after_finish(self, queues: set[Queue]) -> None:
        """A job that finished may have held a tenant's cap or a concurrency key's
        limit (jq_tenant_policy_set, jq_key_limit_set), so pending jobs a claim
        skipped may be claimable now that its result is committed. A queue whose
        last claim came back short is claimed once more, rather than at its next
        safety poll (no NOTIFY says a cap freed up)."""
        for q in queues:
            if not q.more and q.free > 0:
                q.wake()

    async def _write(self, batch: list[Result]) -> None:
        """Write results, retrying while the database is unreachable. A result the
        database refuses (not a connection problem) is retried alone, then
        without its retry_in/discard, then logged and dropped: its lease
        expires and the job runs again."""
        state = self._state
        backoff = Backoff()
        pending = batch
        while pending:
            try:
                outcomes = await self._write_once(pending)
            except psycopg.OperationalError as exc:
                if state.abort.is_set() or (state.stop.is_set() and time.monotonic() > state.deadline):
                    logger.error(
                        "worker %s: could not write the results of %d jobs (%s); they run again "
                        "after their lease expires",
                        self._name,
                        len(pending),
                        oneline(exc),
                    )
                    return
                log_db_error(self._name, "write results", exc)
                self._max_result_bytes = None  # read again on the new connection
                await asyncio.sleep(backoff.next())
                continue
            except DATABASE_ERRORS as exc:
                if len(pending) > 1:
                    for result in pending:
                        await self._write([result])
                    return
                plain = _without_request(pending[0], exc) or self._without_value(pending[0], exc)
                if plain is None:
                    logger.error(
                        "job %s: could not record its outcome (%s); it runs again after its lease expires",
                        pending[0].run.job.id,
                        oneline(exc),
                    )
                    return
                pending = [plain]
                continue
            for result, status, next_at in outcomes:
                state.outcomes.record(result.run.job, status, result.duration_ms, next_at, result.error)
                if status == "failed_retrying" and next_at is not None:
                    _wake_for_retry(result.run.queue, next_at)
            return

    async def _write_once(self, batch: list[Result]) -> list[tuple[Result, str, datetime | None]]:
        """One statement: jq_complete for the successes, jq_fail for each failure
        (and jq_limits first when a value is to be checked against a bound not read yet)."""
        stats = self._state.stats
        rows: list[Finished]
        async with self._connections.connection() as conn:
            batch = await self._within_bound(conn, batch)
            succeeded = [r for r in batch if r.ok]
            done_ok = [r.run.job.id for r in succeeded]
            values = [r.value for r in succeeded] if any(r.value is not None for r in succeeded) else None
            failed = [r for r in batch if not r.ok]
            stats["round_trips"] += 1
            stats["complete"] += 1 if done_ok else 0
            stats["fail"] += len(failed)
            if not failed:
                rows = await COMPLETE.run_async(conn, job_ids=done_ok, worker=self._name, results=values)
            else:
                rows = await FINISH.run_async(
                    conn,
                    job_ids=done_ok,
                    worker=self._name,
                    results=values,
                    failed_ids=[r.run.job.id for r in failed],
                    errors=[r.error for r in failed],
                    retry_in=[r.retry_in for r in failed],
                    discard=[r.discard for r in failed],
                )
        outcome = {row.job_id: (row.status, row.next_attempt_at) for row in rows}
        # A success missing from jq_complete's answer: this worker no longer held the job.
        return [(r, *outcome.get(r.run.job.id, ("lease_lost", None))) for r in batch]

    async def _within_bound(self, conn: psycopg.AsyncConnection, batch: list[Result]) -> list[Result]:
        """The batch with every value over max_result_bytes made a failed attempt. The bound
        is read when it is not known, and read again before a value is refused by a bound
        read earlier (an admin may have raised it)."""
        largest = max((r.value_bytes for r in batch if r.value is not None), default=None)
        if largest is None:
            return batch
        limit = self._max_result_bytes
        if limit is None or largest > limit:
            limit = self._max_result_bytes = await self._read_bound(conn)
        return [_failed(r, returned.too_large(r.value_bytes, limit)) if r.value_bytes > limit else r for r in batch]

    async def _read_bound(self, conn: psycopg.AsyncConnection) -> int:
        self._state.stats["round_trips"] += 1
        self._state.stats["limits"] += 1
        limits = await LIMITS.run_async(conn)
        assert limits is not None  # jq_limits answers one row
        return limits.max_result_bytes

    def _without_value(self, result: Result, refusal: Exception) -> Result | None:
        """A success whose value jq_complete refused (54000), as a failed attempt with jq's
        message (None for any other refusal). The bound is read again before the next value."""
        if not result.ok or result.value is None or getattr(refusal, "sqlstate", None) != "54000":
            return None
        self._max_result_bytes = None
        return _failed(result, f"jq_complete refused the result: {oneline(refusal)}")


def _without_request(result: Result, refusal: Exception) -> Result | None:
    """A failure whose retry_in/discard request jq_fail refused, as a plain failure
    (None if there is nothing left to drop)."""
    if result.ok or (result.retry_in is None and not result.discard):
        return None
    logger.error(
        "job %s: jq_fail refused its retry/discard request (%s); recording a plain failure",
        result.run.job.id,
        oneline(refusal),
    )
    return Result(
        result.run,
        result.duration_ms,
        ok=False,
        error=clean(
            f"{result.error}\n(pyjq: jq_fail refused retry_in={result.retry_in} "
            f"discard={result.discard}: {oneline(refusal)})"
        ),
    )


def _failed(result: Result, error: str) -> Result:
    """A success whose value jq cannot store, as a failed attempt."""
    logger.warning("job %s (%s): %s; the attempt fails", result.run.job.id, result.run.job.type, error)
    return Result(result.run, result.duration_ms, ok=False, error=clean(error))


def _wake_for_retry(q: Queue, next_at: datetime) -> None:
    """Claim the queue when our failed job's next attempt is due (no NOTIFY says so)."""
    delay = (next_at - datetime.now(UTC)).total_seconds()
    q.wake_at_time(time.monotonic() + max(0.0, delay) + 0.05)
