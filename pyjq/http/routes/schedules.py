"""Cron schedules (admin scope): PUT, GET and DELETE /schedules/{name}; GET /schedules."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse, Response

from ..._calls import schedules as schedule_calls
from ..auth import Principal
from ..db import Database
from ..errors import ApiError
from ..fields import NewScheduleName, ScheduleName
from ..models import Schedule, ScheduleList, ScheduleRequest
from .common import TokenCheck, error_responses, json_response

__all__ = ["add_schedule_routes"]

NameParam = Annotated[ScheduleName, Path(description="Schedule name.")]
NewNameParam = Annotated[NewScheduleName, Path(description="Schedule name: letters, digits and _ . : -")]


def _schedule(row: schedule_calls.Schedule) -> Schedule:
    return Schedule.model_validate(row, from_attributes=True)


def add_schedule_routes(router: APIRouter, db: Database, admin: TokenCheck, viewer: TokenCheck) -> None:
    """Add PUT /schedules/{name}, GET /schedules, GET and DELETE /schedules/{name} to ``router``."""

    @router.put(
        "/schedules/{name}",
        tags=["schedules"],
        summary="Create or replace a schedule",
        response_model=None,
        responses={
            201: {"model": Schedule, "description": "Created."},
            200: {"model": Schedule, "description": "Replaced."},
            **error_responses(400, 413, 422),
        },
    )
    async def schedule_put(name: NewNameParam, body: ScheduleRequest, principal: Principal = admin) -> JSONResponse:
        created, row = await db.schedule_put(
            name,
            cron=body.cron,
            timezone=body.timezone,
            type=body.type,
            payload=body.payload,
            queue=body.queue,
            priority=body.priority,
            jitter_seconds=body.jitter_seconds,
            max_attempts=body.max_attempts,
            missed=body.missed,
            actor=principal.name,
        )
        return json_response(_schedule(row), 201 if created else 200)

    @router.get(
        "/schedules",
        tags=["schedules"],
        summary="List schedules",
        response_model=None,
        responses={200: {"model": ScheduleList, "description": "Every schedule, by name."}, **error_responses()},
    )
    async def schedules(_: Principal = viewer) -> JSONResponse:
        rows = await db.schedules()
        return json_response(ScheduleList(schedules=[_schedule(r) for r in rows]))

    @router.get(
        "/schedules/{name}",
        tags=["schedules"],
        summary="One schedule",
        response_model=None,
        responses={200: {"model": Schedule, "description": "The schedule."}, **error_responses(400, 404, 422)},
    )
    async def schedule_get(name: NameParam, _: Principal = viewer) -> JSONResponse:
        rows = await db.schedules(name)
        if not rows:
            raise ApiError(404, "SCHEDULE_NOT_FOUND", f"No schedule {name!r}.")
        return json_response(_schedule(rows[0]))

    @router.delete(
        "/schedules/{name}",
        tags=["schedules"],
        summary="Delete a schedule",
        status_code=204,
        response_model=None,
        response_class=Response,
        responses={
            204: {"description": "Deleted; jobs it already enqueued are kept."},
            **error_responses(400, 404, 422),
        },
    )
    async def schedule_delete(name: NameParam, principal: Principal = admin) -> Response:
        if not await db.schedule_delete(name, actor=principal.name):
            raise ApiError(404, "SCHEDULE_NOT_FOUND", f"No schedule {name!r}.")
        return Response(status_code=204)
