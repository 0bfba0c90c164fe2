"""Jobs: looking a job up by id, its detail (jq_status, jq_job_detail, jq_job_attempts) and
cancelling it (jq_cancel)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ..errors import ApiError
from .actions import attempt
from .console import PREFIX, Console

__all__ = ["add_job_pages"]


def _uuid(value: str) -> UUID | None:
    try:
        return UUID(value.strip())
    except ValueError:
        return None


def add_job_pages(router: APIRouter, console: Console) -> None:
    db = console.db

    @router.get("/jobs", response_class=HTMLResponse)
    async def jobs(request: Request, id: str = "") -> Response:
        session = console.session(request)
        job_id = _uuid(id)
        if job_id is not None:
            return await _detail(request, session, job_id)
        return console.page(request, session, "jobs.html", "jobs", lookup=id, missing=bool(id.strip()))

    async def _detail(request: Request, session: Any, job_id: UUID) -> Response:
        job = await db.status(job_id)
        if job is None:
            return console.page(request, session, "job_missing.html", "jobs", lookup=str(job_id))
        detail = await db.job_detail(job_id)
        attempts = await db.job_attempts(job_id)
        return console.page(request, session, "job.html", "jobs", job=job, detail=detail, attempts=attempts)

    @router.get("/jobs/{job_id}", response_class=HTMLResponse)
    async def job_detail(request: Request, job_id: str) -> Response:
        session = console.session(request)
        parsed = _uuid(job_id)
        if parsed is None:
            return console.page(request, session, "job_missing.html", "jobs", lookup=job_id)
        return await _detail(request, session, parsed)

    @router.post("/jobs/{job_id}/cancel")
    async def job_cancel(request: Request, job_id: str) -> Response:
        session, _ = await console.acting_session(request)

        async def act() -> str:
            parsed = _uuid(job_id)
            if parsed is None:
                raise ApiError(404, "JOB_NOT_FOUND", "No such job.")
            result, final = await db.cancel(parsed, actor=session.principal.name)
            return {
                "cancelled": "Cancelled: the job will not run.",
                "running": "The job is running: cancellation was requested (it is cooperative).",
                "finished": f"The job had already finished ({final}).",
            }.get(result, "No such job.")

        return await attempt(console, request, session, f"{PREFIX}/jobs/{job_id}", act)
