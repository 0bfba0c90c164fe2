"""The operator audit log and a job's failed attempts (sql/functions/audit.sql, attempts.sql)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from . import Many

__all__ = ["AUDIT_LOG", "JOB_ATTEMPTS", "AuditEntry", "JobAttempt"]


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """A row of jq_audit_log: one operator action."""

    id: int  # pass the last id of a page as before_id for the next
    at: datetime
    role: str  # the database role (session_user)
    actor: str  # who it named: the HTTP token's name, or the role
    action: str  # the function's name without jq_, e.g. retry_dead
    target: dict[str, Any]  # the filter or ids it acted on
    rows: int  # how many rows it changed


@dataclass(frozen=True, slots=True)
class JobAttempt:
    """A row of jq_job_attempts: one failed attempt of a job."""

    attempt: int
    failed_at: datetime | None  # None for a job from before 0.5.0 still live or in history
    worker: str | None  # None for a job from before 0.5.0
    error: str  # first lines and traceback tail, 2,000 characters at most


AUDIT_LOG: Many[AuditEntry] = Many(
    AuditEntry,
    "select * from jq.jq_audit_log(p_since => %(since)s::timestamptz, p_action => %(action)s::text,"
    " p_actor => %(actor)s::text, p_limit => %(limit)s::integer, p_before_id => %(before_id)s::bigint)",
)
JOB_ATTEMPTS: Many[JobAttempt] = Many(JobAttempt, "select * from jq.jq_job_attempts(p_job_id => %(job_id)s::uuid)")
