"""Who did what: the operator audit log, newest first, a page at a time.

    page = pyjq.audit_log(conn, action="retry_dead", limit=50)
    older = pyjq.audit_log(conn, action="retry_dead", limit=50, before=page[-1].id)

Every state-changing operator function (jq_retry_dead, the schedule, tenant
policy, key limit and fair-queue functions, ...) writes one row: when, the
database role, the actor (the HTTP token's name, or the role), the action
(the function's name without ``jq_``), its filter or ids and how many rows it
changed. Reading it needs jq_admin.
"""

from __future__ import annotations

from datetime import datetime

import psycopg

from ._adapters import takes_async_connection, takes_connection
from ._calls.audit import AUDIT_LOG, AuditEntry

__all__ = ["AuditEntry", "audit_log", "audit_log_async"]


@takes_connection
def audit_log(
    conn: psycopg.Connection,
    *,
    since: datetime | None = None,
    action: str | None = None,
    actor: str | None = None,
    limit: int = 100,
    before: int | None = None,
) -> list[AuditEntry]:
    """Operator actions newest first (jq_audit_log); ``before`` is the last id of the previous page."""
    return AUDIT_LOG.run(conn, since=since, action=action, actor=actor, limit=limit, before_id=before)


@takes_async_connection
async def audit_log_async(
    conn: psycopg.AsyncConnection,
    *,
    since: datetime | None = None,
    action: str | None = None,
    actor: str | None = None,
    limit: int = 100,
    before: int | None = None,
) -> list[AuditEntry]:
    """audit_log on an async connection."""
    return await AUDIT_LOG.run_async(conn, since=since, action=action, actor=actor, limit=limit, before_id=before)
