"""A job's failed attempts, wherever the job is now (live, dead, history).

    for a in pyjq.job_attempts(conn, job_id):
        print(a.attempt, a.failed_at, a.worker, a.error.splitlines()[0])

jq_fail keeps the last 10 attempts of each job: when, which worker, and the
error's first lines with the tail of its traceback (2,000 characters at
most). A job from before 0.5.0 shows its last error as its last attempt.
Reading it needs jq_worker or jq_admin.
"""

from __future__ import annotations

from uuid import UUID

import psycopg

from ._adapters import takes_async_connection, takes_connection
from ._calls.audit import JOB_ATTEMPTS, JobAttempt

__all__ = ["JobAttempt", "job_attempts", "job_attempts_async"]


@takes_connection
def job_attempts(conn: psycopg.Connection, job_id: UUID | str) -> list[JobAttempt]:
    """The job's failed attempts, oldest first (jq_job_attempts); empty for an unknown job."""
    return JOB_ATTEMPTS.run(conn, job_id=job_id)


@takes_async_connection
async def job_attempts_async(conn: psycopg.AsyncConnection, job_id: UUID | str) -> list[JobAttempt]:
    """job_attempts on an async connection."""
    return await JOB_ATTEMPTS.run_async(conn, job_id=job_id)
