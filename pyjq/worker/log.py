"""The worker's log lines: one per job outcome, and database trouble.

Every part logs to the ``pyjq.worker`` logger (users and tests filter on that
name), never to a logger named after its module.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime

import psycopg

from ..errors import JQError, from_psycopg
from ..job import Job

__all__ = ["Outcomes", "firstline", "log_db_error", "logger", "oneline"]

logger = logging.getLogger("pyjq.worker")

_LEVELS = {
    "succeeded": logging.INFO,
    "cancelled": logging.INFO,
    "released": logging.INFO,
    "failed_retrying": logging.WARNING,
    "lease_lost": logging.WARNING,
    "dead": logging.ERROR,
}


class Outcomes:
    """How the jobs of one run ended: counted and logged, one line per job."""

    def __init__(self, worker_name: str):
        self.worker_name = worker_name
        self.counts: Counter[str] = Counter()

    def record(
        self,
        job: Job,
        outcome: str,
        duration_ms: float,
        next_attempt_at: datetime | None = None,
        error: str | None = None,
    ) -> None:
        self.counts[outcome] += 1
        level = _LEVELS.get(outcome, logging.INFO)
        if not logger.isEnabledFor(level):
            return
        tail = ""
        if next_attempt_at is not None:
            tail += f" next_attempt_at={next_attempt_at.isoformat()}"
        if error and outcome != "succeeded":
            tail += f" error={firstline(error)!r}"
        logger.log(
            level,
            "job %s id=%s type=%s queue=%s attempt=%d/%d duration_ms=%.1f%s",
            outcome,
            job.id,
            job.type,
            job.queue,
            job.attempts,
            job.max_attempts,
            duration_ms,
            tail,
            extra={
                "jq_job_id": str(job.id),
                "jq_type": job.type,
                "jq_queue": job.queue,
                "jq_attempt": job.attempts,
                "jq_max_attempts": job.max_attempts,
                "jq_outcome": outcome,
                "jq_duration_ms": round(duration_ms, 1),
                "jq_worker": self.worker_name,
            },
        )


def log_db_error(worker_name: str, what: str, exc: psycopg.Error | JQError) -> None:
    """A failed call: a warning if the database was unreachable (it is retried), else an error."""
    if isinstance(exc, psycopg.OperationalError):
        logger.warning("worker %s: %s: database unreachable (%s); retrying", worker_name, what, oneline(exc))
    else:
        mapped = from_psycopg(exc) if isinstance(exc, psycopg.Error) else exc
        logger.error("worker %s: %s failed: %s", worker_name, what, oneline(mapped))


def firstline(text: str, limit: int = 200) -> str:
    line = text.split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"


def oneline(exc: BaseException) -> str:
    return firstline(str(exc).strip() or type(exc).__name__, 300)
