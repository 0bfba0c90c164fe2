"""The audit log (admin scope): GET /audit."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ..auth import Principal
from ..db import Database
from ..models_audit import AuditEntry, AuditList, AuditQuery
from .common import TokenCheck, error_responses, json_response

__all__ = ["add_audit_routes"]


def add_audit_routes(router: APIRouter, db: Database, admin: TokenCheck) -> None:
    """Add GET /audit to ``router``."""

    @router.get(
        "/audit",
        tags=["audit"],
        summary="Operator actions, newest first",
        response_model=None,
        responses={
            200: {"model": AuditList, "description": "A page of the audit log, newest first."},
            **error_responses(400, 422),
        },
    )
    async def audit_log(query: Annotated[AuditQuery, Query()], _: Principal = admin) -> JSONResponse:
        rows = await db.audit_log(
            since=query.since, action=query.action, actor=query.actor, limit=query.limit, before=query.before
        )
        entries = [AuditEntry.model_validate(r, from_attributes=True) for r in rows]
        next_before = entries[-1].id if len(entries) == query.limit else None
        return json_response(AuditList(entries=entries, next_before=next_before))
