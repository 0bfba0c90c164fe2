"""Dead letters (admin scope): GET /dead-letter, POST /dead-letter/retry (a retry that matched nothing
answers requeued 0 with a hint: the closest groups)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from ..auth import Principal
from ..db import Database
from ..models import DeadGroup, DeadGroupList, DeadLetterQuery, RetryDeadRequest, RetryDeadResult
from .common import TokenCheck, error_responses, json_response

__all__ = ["add_dead_letter_routes"]


def add_dead_letter_routes(router: APIRouter, db: Database, admin: TokenCheck, viewer: TokenCheck) -> None:
    """Add GET /dead-letter and POST /dead-letter/retry to ``router``."""

    @router.get(
        "/dead-letter",
        tags=["dead letters"],
        summary="Dead jobs grouped by type and error",
        response_model=None,
        responses={
            200: {"model": DeadGroupList, "description": "Groups, largest first."},
            **error_responses(400, 422),
        },
    )
    async def dead_groups(query: Annotated[DeadLetterQuery, Query()], _: Principal = viewer) -> JSONResponse:
        since = query.start()
        rows = await db.dead_groups(since=since, type=query.type, error=query.error)
        return json_response(DeadGroupList(groups=[DeadGroup.model_validate(r, from_attributes=True) for r in rows]))

    @router.post(
        "/dead-letter/retry",
        tags=["dead letters"],
        summary="Requeue a group of dead jobs",
        status_code=202,
        response_model=None,
        responses={
            202: {
                "model": RetryDeadResult,
                "description": "Requeued with fresh attempts; requeued 0 with a hint (the closest groups) "
                "when nothing matched.",
            },
            **error_responses(400, 413, 422),
        },
    )
    async def dead_retry(body: RetryDeadRequest, principal: Principal = admin) -> JSONResponse:
        since = body.start()
        count = await db.retry_dead(
            type=body.type, error=body.error, since=since, limit=body.limit, actor=principal.name
        )
        if count:
            return json_response(RetryDeadResult(requeued=count), 202, exclude_none=True)
        closest = await db.dead_retry_hint(type=body.type, since=since)
        hint = [DeadGroup.model_validate(g, from_attributes=True) for g in closest]
        return json_response(RetryDeadResult(requeued=0, hint=hint), 202)
