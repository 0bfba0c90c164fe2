"""Shutdown's hand-back: the jobs still running are released with jq_release.

Their handlers are told to stop (a coroutine's task is cancelled,
``job.cancelled`` is set) and their results are never written; each job is
logged ``released`` (or ``lease_lost`` when the worker no longer held it).
"""

from __future__ import annotations

import asyncio
import time
from uuid import UUID

import psycopg

from .._calls.worker import RELEASE, Released
from .connections import DATABASE_ERRORS, Connections
from .log import log_db_error, logger, oneline
from .state import Run, RunState
from .timing import Backoff

__all__ = ["release_running"]


async def release_running(state: RunState, connections: Connections, worker_name: str) -> None:
    """Release every running job whose lease is held, retrying until ``state.deadline``."""
    runs = [run for run in state.runs if not run.lost]
    for run in runs:
        run.release()
    if not runs:
        return
    by_id = {run.job.id: run for run in runs}
    backoff = Backoff()
    while True:
        state.stats["release"] += 1
        state.stats["round_trips"] += 1
        try:
            async with connections.connection() as conn:
                rows = await RELEASE.run_async(conn, job_ids=list(by_id), worker=worker_name)
            break
        except DATABASE_ERRORS as exc:
            if time.monotonic() > state.deadline or not isinstance(exc, psycopg.OperationalError):
                logger.error(
                    "worker %s: could not release %d running jobs (%s); they run again after their lease expires",
                    worker_name,
                    len(runs),
                    oneline(exc),
                )
                return
            log_db_error(worker_name, "release", exc)
            await asyncio.sleep(min(backoff.next(), max(0.05, state.deadline - time.monotonic())))
    _log_released(state, by_id, rows)


def _log_released(state: RunState, by_id: dict[UUID, Run], rows: list[Released]) -> None:
    now = time.monotonic()
    reported = set()
    for row in rows:
        run = by_id.get(row.job_id)
        if run is not None:
            reported.add(row.job_id)
            state.outcomes.record(
                run.job, "released" if row.status == "released" else row.status, (now - run.started) * 1000.0
            )
    for job_id, run in by_id.items():
        if job_id not in reported:
            state.outcomes.record(run.job, "lease_lost", (now - run.started) * 1000.0)
