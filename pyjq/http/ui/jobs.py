"""Jobs: the list (the filters of jq_jobs, keyset paging) and a job's detail with its actions."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

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
        found = None
        if id.strip():
            job_id = _uuid(id)
            found = await db.status(job_id) if job_id else None
            if found is not None:
                return console.page(request, session, "job.html", "jobs", job=found)
        return console.page(request, session, "jobs.html", "jobs", lookup=id, missing=bool(id.strip()))

    @router.get("/jobs/{job_id}", response_class=HTMLResponse)
    async def job_detail(request: Request, job_id: str) -> Response:
        session = console.session(request)
        parsed = _uuid(job_id)
        job = await db.status(parsed) if parsed else None
        if job is None:
            return console.page(request, session, "jobs.html", "jobs", lookup=job_id, missing=True)
        return console.page(request, session, "job.html", "jobs", job=job)

    @router.post("/jobs/{job_id}/cancel")
    async def job_cancel(request: Request, job_id: str) -> Response:
        session, _ = await console.acting_session(request)
        here = f"{PREFIX}/jobs/{job_id}"

        async def act() -> str:
            parsed = _uuid(job_id)
            if parsed is None:
                return "No such job."
            result, final = await db.cancel(parsed, actor=session.principal.name)
            return {
                "cancelled": "Cancelled: the job will not run.",
                "running": "The job is running: cancellation was requested (it is cooperative).",
                "finished": f"The job had already finished ({final}).",
            }.get(result, "No such job.")

        return await attempt(console, request, session, here, act)
