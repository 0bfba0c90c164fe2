"""Jobs (producer scope): POST /jobs, GET /jobs/{id}, POST /jobs/{id}/cancel."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from ... import tracing
from ..auth import Principal
from ..db import Database
from ..errors import ApiError
from ..models import CancelledJob, DuplicateJob, EnqueuedJob, EnqueueRequest, Job
from .common import TokenCheck, error_responses, json_response

__all__ = ["add_job_routes"]

JobId = Annotated[str, Path(description="The job id (a UUID).", json_schema_extra={"format": "uuid"})]


def _job_uuid(value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise ApiError(404, "JOB_NOT_FOUND", f"No job {value[:64]!r}: job ids are UUIDs.") from None


def add_job_routes(router: APIRouter, db: Database, producer: TokenCheck) -> None:
    """Add POST /jobs, GET /jobs/{id} and POST /jobs/{id}/cancel to ``router``."""

    @router.post(
        "/jobs",
        tags=["jobs"],
        status_code=201,
        summary="Enqueue a job",
        response_model=None,
        responses={
            201: {"model": EnqueuedJob, "description": "Enqueued: queued, or scheduled for a future runAt."},
            200: {
                "model": DuplicateJob,
                "description": "The idempotency key was seen in its window: the original job.",
            },
            **error_responses(400, 413, 422),
        },
    )
    async def enqueue(body: EnqueueRequest, request: Request, _: Principal = producer) -> JSONResponse:
        with tracing.continuing(request.headers):
            result = await db.enqueue(
                type=body.type,
                payload=body.payload,
                queue=body.queue,
                priority=body.priority,
                run_at=body.run_at,
                max_attempts=body.max_attempts,
                idempotency_key=body.idempotency_key,
                tenant=body.tenant,
                concurrency_key=body.concurrency_key,
                metadata=tracing.passed_through(body.metadata, request.headers),
            )
        if result.duplicate:
            return json_response(DuplicateJob.model_validate(result, from_attributes=True))
        return json_response(EnqueuedJob.model_validate(result, from_attributes=True), 201)

    @router.get(
        "/jobs/{id}",
        tags=["jobs"],
        summary="Status of a job",
        response_model=None,
        responses={
            200: {"model": Job, "description": "The job, wherever it is: live, finished or dead."},
            **error_responses(404, 422),
        },
    )
    async def job_status(id: JobId, _: Principal = producer) -> JSONResponse:
        found = await db.status(_job_uuid(id))
        if found is None:
            raise ApiError(404, "JOB_NOT_FOUND", f"No job {id}.")
        return json_response(Job.model_validate(found, from_attributes=True))

    @router.post(
        "/jobs/{id}/cancel",
        tags=["jobs"],
        summary="Cancel a job",
        response_model=None,
        responses={
            200: {
                "model": CancelledJob,
                "description": "Cancelled: it was queued or scheduled (or had already been cancelled) "
                "and will not run.",
            },
            **error_responses(404, 409),
        },
    )
    async def cancel(id: JobId, _: Principal = producer) -> JSONResponse:
        job_id = _job_uuid(id)
        result, final = await db.cancel(job_id)
        if result == "cancelled" or (result == "finished" and final == "cancelled"):
            return json_response(CancelledJob(job_id=job_id))
        if result == "running":
            raise ApiError(409, "JOB_RUNNING", "Job is running; cancellation is cooperative.")
        if result == "finished":
            raise ApiError(409, "JOB_FINISHED", f"Job already finished ({final or 'finished'}); nothing to cancel.")
        raise ApiError(404, "JOB_NOT_FOUND", f"No job {id}.")
