"""Lease renewal: one jq_heartbeat for every job the worker holds, on its own timer.

Every ``heartbeat_interval`` (default ``lease / 3``) one ``jq_heartbeat`` for
all the jobs the worker holds, results not yet written included; none while
idle. ``lost``: the job is abandoned (a coroutine's task is cancelled,
``job.cancelled`` is set) and its result is never written.
``cancel_requested``: cooperative cancellation -- the coroutine's task is
cancelled, ``job.cancelled`` is set for thread handlers; the attempt is then
reported with ``jq_fail``, which records it as cancelled (a handler that
completes anyway succeeds). A cancellation is therefore noticed within one
heartbeat interval. :meth:`Heartbeat.beat_now` beats at once: the registry
calls it when the worker learns it was declared gone (its jobs were given
back), so their handlers are abandoned now, not a heartbeat interval later.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from .._calls.worker import HEARTBEAT, LeaseState
from .connections import DATABASE_ERRORS, Connections
from .log import log_db_error, logger
from .state import RunState
from .timing import Backoff, wait

__all__ = ["Heartbeat"]


class Heartbeat:
    def __init__(
        self, state: RunState, connections: Connections, *, worker_name: str, lease: timedelta, interval: float
    ):
        self._state = state
        self._connections = connections
        self._name = worker_name
        self._lease = lease
        self.interval = interval
        self._soon: asyncio.Event | None = None

    def beat_now(self) -> None:
        """Beat at once instead of at the end of the interval (on the event loop)."""
        if self._soon is not None:
            self._soon.set()

    async def run(self) -> None:
        """Beat every interval while jobs are held (sooner again after a failed beat); until cancelled."""
        backoff = Backoff()
        delay = self.interval
        soon = self._soon = asyncio.Event()
        while True:
            await wait(soon, delay)
            soon.clear()
            delay = self.interval
            ids = self._state.held_ids()
            if not ids:
                continue
            self._state.stats["heartbeat"] += 1
            self._state.stats["round_trips"] += 1
            try:
                async with self._connections.connection() as conn:
                    rows = await HEARTBEAT.run_async(conn, job_ids=ids, worker=self._name, lease=self._lease)
            except DATABASE_ERRORS as exc:
                log_db_error(self._name, "heartbeat", exc)
                delay = min(self.interval, backoff.next())
                continue
            backoff.reset()
            self._apply(rows)

    def _apply(self, rows: list[LeaseState]) -> None:
        """What jq_heartbeat said about the jobs whose handlers still run."""
        for row in rows:
            run = self._state.runs.get(row.job_id)
            if run is None or not run.holds_lease:
                continue  # its handler has returned: the write decides
            if row.state == "lost":
                logger.warning(
                    "job %s (%s) lost its lease: abandoning it, its result will not be written",
                    row.job_id,
                    run.job.type,
                )
                run.lose()
            elif row.state == "cancel_requested" and not run.cancel_requested:
                logger.info("job %s (%s): cancellation requested, cancelling its handler", row.job_id, run.job.type)
                run.request_cancel()
