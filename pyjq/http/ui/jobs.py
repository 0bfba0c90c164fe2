"""Jobs: the list (the filters of jq_jobs, keyset pages), a job's detail (jq_status, jq_job_detail,
jq_job_attempts) and its actions (cancel, retry now, discard: the bulk functions by id)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ..errors import ApiError
from .actions import attempt
from .console import PREFIX, Console

__all__ = ["FILTER_FIELDS", "add_job_pages"]

PAGE_SIZE = 50
STATUSES = ("queued", "scheduled", "running", "failed_retrying", "dead", "succeeded", "cancelled")
# The form's fields that are jq_jobs filter keys as they are.
FILTER_FIELDS = ("queue", "type", "status", "tenant", "created_after", "created_before", "id_prefix")
# Action -> (bulk function, what the notice says was done).
JOB_ACTIONS = {
    "retry": ("jq_jobs_retry", "made ready now"),
    "cancel": ("jq_jobs_cancel", "cancelled (a running job is asked to stop)"),
    "discard": ("jq_jobs_discard", "moved to the dead letters"),
}


def _uuid(value: str) -> UUID | None:
    try:
        return UUID(value.strip())
    except ValueError:
        return None


def jobs_filter(params: dict[str, str]) -> dict[str, Any]:
    """The list's query parameters as jq_jobs' filter; a payload that is not a JSON object is refused."""
    out: dict[str, Any] = {k: params[k].strip() for k in FILTER_FIELDS if params.get(k, "").strip()}
    payload = params.get("payload", "").strip()
    if payload:
        try:
            value = json.loads(payload)
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict):
            raise ApiError(422, "INVALID_ARGUMENT", 'The payload filter must be a JSON object, e.g. {"account": 42}.')
        out["payload"] = value
    return out


def add_job_pages(router: APIRouter, console: Console) -> None:
    db = console.db

    @router.get("/jobs", response_class=HTMLResponse)
    async def jobs(request: Request) -> Response:
        session = console.session(request)
        params = dict(request.query_params)
        job_id = _uuid(params.get("id", ""))
        if job_id is not None:
            return await _detail(request, session, job_id)
        problem = None
        rows: list[Any] = []
        try:
            rows = await db.operator_jobs(
                filter=jobs_filter(params),
                limit=PAGE_SIZE,
                cursor=params.get("cursor") or None,
                oldest_first=params.get("order") == "oldest",
            )
        except ApiError as exc:
            problem = exc.message
        kept = {k: v for k, v in params.items() if k != "cursor" and v}
        next_page = None
        if len(rows) == PAGE_SIZE:
            next_page = f"{PREFIX}/jobs?" + urlencode({**kept, "cursor": rows[-1].cursor})
        return console.page(
            request,
            session,
            "jobs.html",
            "jobs",
            rows=rows,
            params=params,
            statuses=STATUSES,
            problem=problem,
            next_page=next_page,
            first_page=f"{PREFIX}/jobs?" + urlencode(kept) if params.get("cursor") else None,
        )

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

    @router.post("/jobs/{job_id}/{action}")
    async def job_action(request: Request, job_id: str, action: str) -> Response:
        session, _ = await console.acting_session(request)
        here = f"{PREFIX}/jobs/{job_id}"

        async def act() -> str:
            parsed = _uuid(job_id)
            if parsed is None or action not in JOB_ACTIONS:
                raise ApiError(404, "NOT_FOUND", "No such job or action.")
            function, done = JOB_ACTIONS[action]
            count = await db.operator_bulk(
                function, filter=None, ids=[str(parsed)], limit=1, actor=session.principal.name
            )
            if not count:
                raise ApiError(
                    409, "NOTHING_DONE", f"Nothing to do: the job is not in a state to be {done.split(' (')[0]}."
                )
            return f"Job {parsed} {done}."

        return await attempt(console, request, session, here, act)
