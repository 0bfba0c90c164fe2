"""A job's failed attempts (admin scope): GET /jobs/{id}/attempts."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..auth import Principal
from ..db import Database
from ..errors import ApiError
from ..models_audit import JobAttempt, JobAttemptList
from .common import TokenCheck, error_responses, json_response
from .jobs import JobId, _job_uuid

__all__ = ["add_attempt_routes"]


def add_attempt_routes(router: APIRouter, db: Database, admin: TokenCheck) -> None:
    """Add GET /jobs/{id}/attempts to ``router``."""

    @router.get(
        "/jobs/{id}/attempts",
        tags=["jobs"],
        summary="Each failed attempt of a job",
        response_model=None,
        responses={
            200: {"model": JobAttemptList, "description": "When, which worker, the error; oldest first."},
            **error_responses(404, 422),
        },
    )
    async def job_attempts(id: JobId, _: Principal = admin) -> JSONResponse:
        job_id = _job_uuid(id)
        rows = await db.job_attempts(job_id)
        if not rows and await db.status(job_id) is None:
            raise ApiError(404, "JOB_NOT_FOUND", f"No job {id}.")
        attempts = [JobAttempt.model_validate(r, from_attributes=True) for r in rows]
        return json_response(JobAttemptList(attempts=attempts))
