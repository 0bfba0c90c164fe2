"""Claiming: which queues to claim, the claim itself, and starting the claimed jobs.

Each queue has its own slots. The claimer asks ``jq_claim(queue, worker,
limit=free slots, lease, types=registered types)`` for every queue that has
free slots and may have work: a NOTIFY arrived on its channel, its last claim
filled every free slot, a retry of ours (or a job due soon) is due, or the
safety poll (``poll_interval``) is due. Several queues due at once are claimed
in one statement; idle queues are polled together. A queue without free slots
is not claimed. After a claim, idle queues are marked waiting with
``jq_set_waiting`` (through the listener) so that inserts NOTIFY them, and busy
ones unmarked.

Draining (``Worker.drain``), every queue is claimed whenever a slot frees, and
the run stops when a claim finds nothing while no handler runs and every
result is written.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from datetime import timedelta
from typing import Any

import psycopg
from psycopg import errors

from .._calls.worker import CLAIM, ClaimedJob
from .._limits import CLAIM_LIMIT_MAX
from ..job import Job
from .connections import DATABASE_ERRORS, Connections
from .log import log_db_error, logger
from .state import Handler, Queue, Run, RunState
from .timing import Backoff, wait

__all__ = ["Claimer"]

# (queues, waiting) -> whether the marks were set; the listener's jq_set_waiting.
SetWaiting = Callable[[list[Queue], bool], Awaitable[bool]]


class Claimer:
    def __init__(
        self,
        state: RunState,
        connections: Connections,
        *,
        worker_name: str,
        lease: timedelta,
        poll_interval: float,
        handlers: Mapping[str, Handler],
        start: Callable[[Run], None],
        set_waiting: SetWaiting,
    ):
        self._state = state
        self._connections = connections
        self._name = worker_name
        self._lease = lease
        self._poll_interval = poll_interval
        self._handlers = handlers
        self._types = sorted(handlers)
        self._start_run = start
        self._set_waiting = set_waiting
        self._read_committed_transaction = False  # the database defaults to a stricter isolation

    async def run(self) -> None:
        """The claim loop, until the worker stops (or, draining, finds nothing more to run)."""
        state = self._state
        backoff = Backoff()
        while not state.stop.is_set():
            state.queues.kick.clear()
            now = time.monotonic()
            quiescent = state.quiescent
            if quiescent and state.results.unwritten:
                await state.queues.kick.wait()  # the completer kicks when it is done
                continue
            due = [(q, min(q.free, CLAIM_LIMIT_MAX)) for q in state.queues] if quiescent else self._due_queues(now)
            if not due:
                await wait(state.queues.kick, self._next_wake(now))
                continue
            for q, _limit in due:
                q.claiming(now)
            try:
                answers = await self._claim(due)
            except DATABASE_ERRORS as exc:
                for q, _limit in due:
                    q.wake()  # try these again once the database answers
                log_db_error(self._name, "claim", exc)
                await wait(state.stop, backoff.next())
                continue
            backoff.reset()
            claimed = self._start_claimed(due, answers)
            if state.stop.is_set():
                break
            if quiescent and claimed == 0:
                logger.debug("worker %s: drained", self._name)
                state.request_stop(abort=False)
                return
            await self._update_waiting([q for q, _limit in due])

    def _due_queues(self, now: float) -> list[tuple[Queue, int]]:
        """The queues to claim now: free slots, and a reason to expect work. Queues
        whose safety poll is near are claimed together with one that is due."""
        queues = list(self._state.queues)
        polling = any(q.free > 0 and q.next_poll <= now for q in queues)
        near = now + self._poll_interval / 2
        return [
            (q, min(q.free, CLAIM_LIMIT_MAX))
            for q in queues
            if q.free > 0
            and (q.notified or q.more or q.wake_at <= now or q.next_poll <= now or (polling and q.next_poll <= near))
        ]

    def _next_wake(self, now: float) -> float | None:
        times = [min(q.next_poll, q.wake_at) for q in self._state.queues if q.free > 0]
        return max(0.0, min(times) - now) if times else None

    async def _claim(self, due: list[tuple[Queue, int]]) -> list[list[ClaimedJob]]:
        """jq_claim for each due queue, in one statement; the rows of each queue."""
        self._state.stats["claim"] += len(due)
        self._state.stats["round_trips"] += 1
        params = {
            "queues": [q.name for q, _ in due],
            "limits": [limit for _, limit in due],
            "worker": self._name,
            "lease": self._lease,
            "types": self._types,
        }
        async with self._connections.connection() as conn:
            if self._read_committed_transaction:
                rows = await self._claim_read_committed(conn, params)
            else:
                try:
                    rows = await CLAIM.run_async(conn, **params)
                except errors.InvalidTransactionState:
                    # The database's default isolation is stricter than READ COMMITTED, which
                    # jq_claim needs (its caps count running jobs in a fresh snapshot).
                    logger.warning(
                        "worker %s: the database's default isolation is not READ COMMITTED; "
                        "claims run in READ COMMITTED transactions from now on",
                        self._name,
                    )
                    self._read_committed_transaction = True
                    rows = await self._claim_read_committed(conn, params)
        by_queue: dict[str, list[ClaimedJob]] = {q.name: [] for q, _ in due}
        for row in rows:
            by_queue[row.queue].append(row)
        return [by_queue[q.name] for q, _ in due]

    @staticmethod
    async def _claim_read_committed(conn: psycopg.AsyncConnection[Any], params: dict[str, Any]) -> list[ClaimedJob]:
        """The claim in a READ COMMITTED transaction of its own (two more round trips)."""
        await conn.set_isolation_level(psycopg.IsolationLevel.READ_COMMITTED)
        async with conn.transaction():
            return await CLAIM.run_async(conn, **params)

    def _start_claimed(self, due: list[tuple[Queue, int]], answers: list[list[ClaimedJob]]) -> int:
        """Start the claimed jobs; how many there were."""
        now = time.monotonic()
        claimed = 0
        for (q, limit), rows in zip(due, answers, strict=True):
            q.claimed(len(rows), limit, now + self._poll_interval * random.uniform(0.9, 1.1))
            claimed += len(rows)
            for row in rows:
                self._start_run(self._run_for(q, row))
        return claimed

    def _run_for(self, q: Queue, row: ClaimedJob) -> Run:
        job = Job(
            id=row.id,
            type=row.type,
            payload=row.payload if row.payload is not None else {},
            queue=row.queue,
            attempts=row.attempts,
            max_attempts=row.max_attempts,
            priority=row.priority,
            tenant=row.tenant,
            run_at=row.run_at,  # type: ignore[arg-type]  # None only when unreadable: the job is not run
            created_at=row.created_at,  # type: ignore[arg-type]
            idempotency_key=row.idempotency_key,
            last_error=row.last_error,
            locked_until=row.locked_until,
            worker=self._name,
            metadata=row.metadata,
        )
        undecodable = (
            "pyjq cannot read this job: " + "; ".join(f"{k}: {v}" for k, v in row.unreadable.items())
            if row.unreadable
            else None
        )
        run = Run(job, q, self._handlers.get(job.type), time.monotonic(), undecodable=undecodable)
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug(
                "job started id=%s type=%s queue=%s attempt=%d/%d",
                job.id,
                job.type,
                job.queue,
                job.attempts,
                job.max_attempts,
            )
        return run

    async def _update_waiting(self, claimed: list[Queue]) -> None:
        """The jq_set_waiting protocol: a queue whose claim came back short is
        marked waiting (inserts NOTIFY it from then on) and claimed once more,
        for a job inserted before the mark committed; a queue whose claim
        filled every free slot is marked busy (it claims again as soon as a slot
        frees, so inserts need not pay for a NOTIFY). Without the LISTEN
        connection nothing is marked and the safety poll does the work."""
        if self._state.drain:
            return
        idle = [q for q in claimed if not q.more and not q.waiting]
        busy = [q for q in claimed if q.more and q.waiting]
        if idle and await self._set_waiting(idle, True):
            for q in idle:
                q.wake()  # claim once more
        if busy:
            await self._set_waiting(busy, False)
