"""Operator routes on many jobs (admin scope): GET /jobs, POST /jobs/retry|cancel|discard,
POST /queues/{queue}/pause|resume, GET /queues/pauses, POST /dead-letter/jobs/requeue|delete.

Every state-changing route names its token in the audit log (actor=principal.name).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse

from ..auth import Principal
from ..db import Database
from ..errors import ApiError
from ..fields import QueueName
from ..operator_models import (
    BulkRequest,
    BulkResult,
    JobList,
    JobListRow,
    JobsQuery,
    PauseRequest,
    PauseResult,
    QueuePause,
    QueuePauseList,
)
from .common import TokenCheck, error_responses, json_response

__all__ = ["add_operator_job_routes"]

QueueParam = Annotated[QueueName, Path(description="Queue name.")]

_FILTER_KEYS = (
    "queue",
    "type",
    "status",
    "tenant",
    "created_after",
    "created_before",
    "finished_after",
    "finished_before",
    "id_prefix",
)
# Route path -> the bulk SQL function it calls.
_BULK_ROUTES = {
    "/jobs/retry": ("jq_jobs_retry", "Make scheduled and retrying jobs ready now"),
    "/jobs/cancel": ("jq_jobs_cancel", "Cancel pending jobs, ask running ones to cancel"),
    "/jobs/discard": ("jq_jobs_discard", "Move pending jobs to the dead letters"),
    "/dead-letter/jobs/requeue": ("jq_dead_requeue", "Requeue dead jobs with fresh attempts"),
    "/dead-letter/jobs/delete": ("jq_dead_delete", "Delete dead jobs"),
}


def _filter_of(query: JobsQuery) -> dict[str, Any]:
    """The query parameters as jq's filter (jsonb keys as jq_jobs takes them)."""
    out: dict[str, Any] = {}
    for key in _FILTER_KEYS:
        value = getattr(query, key)
        if value is not None:
            out[key] = value.isoformat() if hasattr(value, "isoformat") else value
    if query.payload is not None:
        try:
            out["payload"] = json.loads(query.payload)
        except json.JSONDecodeError:
            raise ApiError(422, "INVALID_ARGUMENT", "payload must be a JSON object", field="payload") from None
    return out


def add_operator_job_routes(router: APIRouter, db: Database, admin: TokenCheck) -> None:
    """Add the listing, the pauses and the bulk actions to ``router``."""

    @router.get(
        "/jobs",
        tags=["operations"],
        summary="List jobs wherever they are (live, dead, history), newest first, by keyset pages",
        response_model=None,
        responses={200: {"model": JobList, "description": "One page."}, **error_responses(400, 422)},
    )
    async def list_jobs(query: Annotated[JobsQuery, Query()], _: Principal = admin) -> JSONResponse:
        rows = await db.operator_jobs(
            filter=_filter_of(query), limit=query.limit, cursor=query.cursor, oldest_first=query.order == "oldest"
        )
        page = [JobListRow.model_validate(r, from_attributes=True) for r in rows]
        next_cursor = page[-1].cursor if len(page) == query.limit else None
        return json_response(JobList(jobs=page, next_cursor=next_cursor))

    def add_bulk(path: str, function: str, summary: str) -> None:
        async def bulk(body: BulkRequest, principal: Principal = admin) -> JSONResponse:
            ids = None if body.ids is None else [str(i) for i in body.ids]
            changed = await db.operator_bulk(
                function, filter=body.filter, ids=ids, limit=body.limit, actor=principal.name
            )
            return json_response(BulkResult(changed=changed))

        router.add_api_route(
            path,
            bulk,
            methods=["POST"],
            tags=["operations"],
            summary=summary + " (bounded per call; repeat until changed is 0)",
            response_model=None,
            responses={
                200: {"model": BulkResult, "description": "How many changed."},
                **error_responses(400, 413, 422),
            },
            name=function.removeprefix("jq_"),
        )

    for path, (function, summary) in _BULK_ROUTES.items():
        add_bulk(path, function, summary)

    @router.get(
        "/queues/pauses",
        tags=["operations"],
        summary="Paused queues and (queue, type) pairs",
        response_model=None,
        responses={200: {"model": QueuePauseList, "description": "Every pause."}, **error_responses()},
    )
    async def queue_pauses(_: Principal = admin) -> JSONResponse:
        rows = await db.queue_pauses()
        return json_response(QueuePauseList(pauses=[QueuePause.model_validate(r, from_attributes=True) for r in rows]))

    @router.post(
        "/queues/{queue}/pause",
        tags=["operations"],
        summary="Pause a queue (or one type in it): claims skip it from the next claim on",
        response_model=None,
        responses={200: {"model": PauseResult, "description": "Paused."}, **error_responses(400, 422)},
    )
    async def queue_pause(
        queue: QueueParam, body: PauseRequest | None = None, principal: Principal = admin
    ) -> JSONResponse:
        type_ = body.type if body else None
        changed = await db.queue_pause(queue, type_, actor=principal.name)
        return json_response(PauseResult(queue=queue, type=type_, changed=changed))

    @router.post(
        "/queues/{queue}/resume",
        tags=["operations"],
        summary="Resume a paused queue (or type); wakes its waiting workers",
        response_model=None,
        responses={200: {"model": PauseResult, "description": "Resumed."}, **error_responses(400, 422)},
    )
    async def queue_resume(
        queue: QueueParam, body: PauseRequest | None = None, principal: Principal = admin
    ) -> JSONResponse:
        type_ = body.type if body else None
        changed = await db.queue_resume(queue, type_, actor=principal.name)
        return json_response(PauseResult(queue=queue, type=type_, changed=changed))
