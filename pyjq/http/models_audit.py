"""Bodies of the operator-history routes (pydantic, camelCase): GET /audit and GET /jobs/{id}/attempts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .fields import Timestamp
from .models import _Response

__all__ = ["AuditEntry", "AuditList", "AuditQuery", "JobAttempt", "JobAttemptList"]

AUDIT_PAGE_MAX = 1000  # jq_audit_log's p_limit range is 1..1000


class AuditQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    since: Timestamp | None = Field(default=None, description="Only actions at or after this instant.")
    action: str | None = Field(
        default=None, min_length=1, max_length=100, description="Only this action, e.g. retry_dead."
    )
    actor: str | None = Field(
        default=None, min_length=1, max_length=255, description="Only this actor, e.g. admin:3f2a9c1e."
    )
    limit: int = Field(default=100, ge=1, le=AUDIT_PAGE_MAX, description="Rows on the page (1 to 1000).")
    before: int | None = Field(
        default=None, ge=1, description="The page below this id: the last id of the previous page (keyset)."
    )


class AuditEntry(_Response):
    id: int
    at: datetime
    role: str = Field(description="The database role that acted (session_user).")
    actor: str = Field(description="Who it named: the token's name (scope:sha256 prefix), else the role.")
    action: str = Field(description="The operator function without jq_, e.g. retry_dead, schedule_put.")
    target: dict[str, Any] = Field(description="The filter or ids it acted on.")
    rows: int = Field(description="How many rows it changed.")


class AuditList(_Response):
    model_config = ConfigDict(
        json_schema_extra={
            "example": {
                "entries": [
                    {
                        "id": 42,
                        "at": "2026-10-18T06:12:00Z",
                        "role": "jq_service",
                        "actor": "admin:3f2a9c1e",
                        "action": "retry_dead",
                        "target": {"type": "deliver_webhook", "error": "HTTP 503"},
                        "rows": 1840,
                    }
                ],
                "nextBefore": 42,
            }
        }
    )
    entries: list[AuditEntry] = Field(description="Newest first.")
    next_before: int | None = Field(description="Pass as before for the next page; null on the last page.")


class JobAttempt(_Response):
    attempt: int
    failed_at: datetime | None = Field(description="Null only for a job from before 0.5.0.")
    worker: str | None = Field(description="The worker that ran the attempt; null for a job from before 0.5.0.")
    error: str = Field(description="The error's first lines and its traceback's tail (2,000 characters at most).")


class JobAttemptList(_Response):
    attempts: list[JobAttempt] = Field(description="Oldest first; the last 10 are kept.")
