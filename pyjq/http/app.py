"""The HTTP API of jq: ``create_app(dsn, tokens=...)`` builds the FastAPI app.

For services that do not share the database. Every route calls one jq_*
SQL function (through pyjq.http.db) and translates its answer; none holds
queue logic. Served by ``pyjq serve`` (uvicorn); see docs/http.md.

    routes                              scope
    POST /jobs                          producer   enqueue (201; 200 duplicate)
    GET  /jobs/{id}                     producer   status
    POST /jobs/{id}/cancel              producer   cancel (409 JOB_RUNNING / JOB_FINISHED)
    PUT|GET|DELETE /schedules/{name}    admin      cron schedules; GET /schedules lists them
    GET  /dead-letter                   admin      dead jobs grouped by type and error
    POST /dead-letter/retry             admin      requeue a group (202)
    GET  /queues, GET /metrics          admin      per-queue figures, Prometheus text
    GET  /workers                       admin      registered workers: state, last beat, running jobs
    GET  /tenants                       admin      per queue and tenant: counts and the policy in force
    GET  /tenant-policies               admin      tenant weights and caps
    PUT|DELETE /tenant-policies/{queue}/{tenant}   admin   set or drop one (tenant - : no tenant)
    PUT|DELETE /key-limits/{type}       admin      running jobs per concurrency key of a type
    GET  /healthz                       none       the database answers and jq is installed
    GET  /openapi.json                  any token  this API's OpenAPI document
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Annotated, Any
from uuid import UUID

from fastapi import Depends, FastAPI, Path, Query
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from .. import __version__
from .._calls import schedules as schedule_calls
from ..cron import CronTimes
from . import metrics
from .auth import Principal, TokenStore, load_tokens, parse_tokens, require
from .db import Database
from .errors import ApiError, install_handlers
from .fields import JSON_VALUE_SCHEMA, KeyLimitType, NewScheduleName, PolicyQueue, PolicyTenant, ScheduleName
from .middleware import RequestContextMiddleware
from .models import (
    CancelledJob,
    DeadGroup,
    DeadGroupList,
    DeadLetterQuery,
    DuplicateJob,
    EnqueuedJob,
    EnqueueRequest,
    ErrorResponse,
    Health,
    Job,
    KeyLimit,
    KeyLimitRequest,
    QueueList,
    QueueStats,
    RetryDeadRequest,
    RetryDeadResult,
    Schedule,
    ScheduleList,
    ScheduleRequest,
    TenantList,
    TenantPolicy,
    TenantPolicyList,
    TenantPolicyRequest,
    TenantPolicyRow,
    TenantsQuery,
    TenantStats,
    WorkerEntry,
    WorkerList,
)

__all__ = ["DEFAULT_MAX_BODY_BYTES", "create_app"]

log = logging.getLogger("pyjq.http")

DEFAULT_MAX_BODY_BYTES = 1024 * 1024
DSN_ENV = "DATABASE_URL"

_ERROR_DESCRIPTIONS = {
    400: "INVALID_JSON (the body is not JSON), INVALID_CHARACTER (a NUL character or invalid Unicode, "
    "which PostgreSQL cannot store; the field is named), INVALID_ARGUMENT.",
    401: "UNAUTHENTICATED: no bearer token, or not a configured one.",
    403: "FORBIDDEN: the token's scope does not include this route; PERMISSION_DENIED: the service's "
    "database role lacks a grant.",
    404: "Not found (JOB_NOT_FOUND, SCHEDULE_NOT_FOUND, POLICY_NOT_FOUND, KEY_LIMIT_NOT_FOUND).",
    409: "JOB_RUNNING: the job is running, cancellation was requested and is cooperative; "
    "JOB_FINISHED: it already finished (succeeded or dead).",
    413: "PAYLOAD_TOO_LARGE: the body exceeds the configured limit (default 1 MiB), or the payload exceeds "
    "jq.settings.max_payload_bytes (1 MiB as stored, unless an admin changed it).",
    422: "VALIDATION_ERROR: the request does not match the schema (unknown fields included; the field is "
    "named); INVALID_ARGUMENT, MISSING_ARGUMENT, VALUE_TOO_LONG, INVALID_TIMESTAMP: jq refused an argument; "
    "PAYLOAD_TOO_DEEP: the payload nests deeper than jq.settings.max_payload_depth (64 unless changed).",
    500: "INTERNAL: an unexpected error (a bug); details are in the service log.",
    503: "DATABASE_UNAVAILABLE, RETRY, TIMEOUT (try again after Retry-After seconds), NOT_INSTALLED.",
}
_AUTH = (401, 403, 500, 503)

JobId = Annotated[str, Path(description="The job id (a UUID).", json_schema_extra={"format": "uuid"})]
NameParam = Annotated[ScheduleName, Path(description="Schedule name.")]
NewNameParam = Annotated[NewScheduleName, Path(description="Schedule name: letters, digits and _ . : -")]
PolicyQueueParam = Annotated[PolicyQueue, Path(description="A queue name, or * for every queue.")]
PolicyTenantParam = Annotated[
    PolicyTenant,
    Path(description="A tenant; * for every tenant without a policy of its own; - for jobs without a tenant."),
]
KeyLimitTypeParam = Annotated[KeyLimitType, Path(description="Job type.")]
NO_TENANT = "-"  # the tenant path segment of jobs without a tenant


def _policy_tenant(tenant: str) -> str | None:
    return None if tenant == NO_TENANT else tenant


def _tenant_label(tenant: str | None) -> str:
    return "jobs without a tenant" if tenant is None else f"tenant {tenant!r}"


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": ErrorResponse, "description": _ERROR_DESCRIPTIONS[s]} for s in sorted({*statuses, *_AUTH})}


def _json(model: BaseModel, status: int = 200) -> JSONResponse:
    return JSONResponse(model.model_dump(mode="json", by_alias=True), status_code=status)


def _job_uuid(value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise ApiError(404, "JOB_NOT_FOUND", f"No job {value[:64]!r}: job ids are UUIDs.") from None


def _first_slot(cron: str, timezone: str) -> datetime:
    return CronTimes(cron, timezone).next_after(datetime.now(UTC))


def _schedule(row: schedule_calls.Schedule) -> Schedule:
    return Schedule.model_validate(row, from_attributes=True)


def create_app(
    dsn: str | None = None,
    *,
    tokens: Mapping[str, str] | str | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    pool_min_size: int = 1,
    pool_max_size: int = 10,
    pool_timeout: float = 5.0,
    statement_timeout: float = 30.0,
) -> FastAPI:
    """The jq HTTP app for the database ``dsn`` (default: $DATABASE_URL).

    ``tokens`` maps bearer token -> scope (``producer`` or ``admin``), or is a
    ``"token:scope,..."`` string; None reads JQ_API_TOKENS / JQ_API_TOKENS_FILE.
    With no tokens at all every route but /healthz answers 401.
    """
    if dsn is None:
        dsn = os.environ.get(DSN_ENV)
        if not dsn:
            raise ValueError(f"no database given: pass dsn or set {DSN_ENV}")
    if tokens is None:
        tokens = load_tokens()
    elif isinstance(tokens, str):
        tokens = parse_tokens(tokens, source="tokens")
    store = TokenStore(tokens)
    if not len(store):
        log.warning(
            "no API tokens configured (JQ_API_TOKENS / JQ_API_TOKENS_FILE): every route but /healthz answers 401"
        )
    db = Database(
        dsn, min_size=pool_min_size, max_size=pool_max_size, timeout=pool_timeout, statement_timeout=statement_timeout
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await db.open()
        try:
            yield
        finally:
            await db.close()

    app = FastAPI(
        title="jq",
        version=__version__,
        summary="A background job queue that lives in PostgreSQL: "
        "HTTP API for services that do not share the database.",
        description=(
            "Every route but `/healthz` needs `Authorization: Bearer <token>`; a token's scope is `producer` "
            "(enqueue, status, cancel) or `admin` (everything). Every non-2xx response is "
            '`{"error": {"code", "message", "requestId"}}`; the request id is also the `X-Request-Id` response '
            "header, and a sane incoming `X-Request-Id` (1-128 letters, digits and `._:/+=@-`) is kept. "
            f"Request bodies are limited to {max_body_bytes} bytes. Timestamps are RFC 3339 with an offset; "
            "responses give them in UTC."
        ),
        lifespan=lifespan,
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
    )
    app.state.db = db
    app.state.tokens = store
    install_handlers(app)
    app.add_middleware(RequestContextMiddleware, max_body_bytes=max_body_bytes)

    producer = Depends(require(store, "producer"))
    admin = Depends(require(store, "admin"))
    any_token = producer

    # -- jobs -------------------------------------------------------------------------

    @app.post(
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
            **_errors(400, 413, 422),
        },
    )
    async def enqueue(body: EnqueueRequest, _: Principal = producer) -> JSONResponse:
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
        )
        if result.duplicate:
            return _json(DuplicateJob.model_validate(result, from_attributes=True))
        return _json(EnqueuedJob.model_validate(result, from_attributes=True), 201)

    @app.get(
        "/jobs/{id}",
        tags=["jobs"],
        summary="Status of a job",
        response_model=None,
        responses={
            200: {"model": Job, "description": "The job, wherever it is: live, finished or dead."},
            **_errors(404, 422),
        },
    )
    async def job_status(id: JobId, _: Principal = producer) -> JSONResponse:
        found = await db.status(_job_uuid(id))
        if found is None:
            raise ApiError(404, "JOB_NOT_FOUND", f"No job {id}.")
        return _json(Job.model_validate(found, from_attributes=True))

    @app.post(
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
            **_errors(404, 409),
        },
    )
    async def cancel(id: JobId, _: Principal = producer) -> JSONResponse:
        job_id = _job_uuid(id)
        result, final = await db.cancel(job_id)
        if result == "cancelled" or (result == "finished" and final == "cancelled"):
            return _json(CancelledJob(job_id=job_id))
        if result == "running":
            raise ApiError(409, "JOB_RUNNING", "Job is running; cancellation is cooperative.")
        if result == "finished":
            raise ApiError(409, "JOB_FINISHED", f"Job already finished ({final or 'finished'}); nothing to cancel.")
        raise ApiError(404, "JOB_NOT_FOUND", f"No job {id}.")

    # -- schedules ----------------------------------------------------------------------

    @app.put(
        "/schedules/{name}",
        tags=["schedules"],
        summary="Create or replace a schedule",
        response_model=None,
        responses={
            201: {"model": Schedule, "description": "Created."},
            200: {"model": Schedule, "description": "Replaced."},
            **_errors(400, 413, 422),
        },
    )
    async def schedule_put(name: NewNameParam, body: ScheduleRequest, _: Principal = admin) -> JSONResponse:
        # The first slot, as pyjq.schedule computes it (croniter in the timezone, jq's DST rule); a bad
        # cron or timezone raises InvalidArgument (22023) here, before anything is written.
        next_run_at = await asyncio.to_thread(_first_slot, body.cron, body.timezone)
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
            next_run_at=next_run_at,
        )
        return _json(_schedule(row), 201 if created else 200)

    @app.get(
        "/schedules",
        tags=["schedules"],
        summary="List schedules",
        response_model=None,
        responses={200: {"model": ScheduleList, "description": "Every schedule, by name."}, **_errors()},
    )
    async def schedules(_: Principal = admin) -> JSONResponse:
        rows = await db.schedules()
        return _json(ScheduleList(schedules=[_schedule(r) for r in rows]))

    @app.get(
        "/schedules/{name}",
        tags=["schedules"],
        summary="One schedule",
        response_model=None,
        responses={200: {"model": Schedule, "description": "The schedule."}, **_errors(400, 404, 422)},
    )
    async def schedule_get(name: NameParam, _: Principal = admin) -> JSONResponse:
        rows = await db.schedules(name)
        if not rows:
            raise ApiError(404, "SCHEDULE_NOT_FOUND", f"No schedule {name!r}.")
        return _json(_schedule(rows[0]))

    @app.delete(
        "/schedules/{name}",
        tags=["schedules"],
        summary="Delete a schedule",
        status_code=204,
        response_model=None,
        response_class=Response,
        responses={204: {"description": "Deleted; jobs it already enqueued are kept."}, **_errors(400, 404, 422)},
    )
    async def schedule_delete(name: NameParam, _: Principal = admin) -> Response:
        if not await db.schedule_delete(name):
            raise ApiError(404, "SCHEDULE_NOT_FOUND", f"No schedule {name!r}.")
        return Response(status_code=204)

    # -- dead letters -------------------------------------------------------------------

    @app.get(
        "/dead-letter",
        tags=["dead letters"],
        summary="Dead jobs grouped by type and error",
        response_model=None,
        responses={200: {"model": DeadGroupList, "description": "Groups, largest first."}, **_errors(400, 422)},
    )
    async def dead_groups(query: Annotated[DeadLetterQuery, Query()], _: Principal = admin) -> JSONResponse:
        rows = await db.dead_groups(since=query.since, type=query.type)
        return _json(DeadGroupList(groups=[DeadGroup.model_validate(r, from_attributes=True) for r in rows]))

    @app.post(
        "/dead-letter/retry",
        tags=["dead letters"],
        summary="Requeue a group of dead jobs",
        status_code=202,
        response_model=None,
        responses={
            202: {"model": RetryDeadResult, "description": "Requeued with fresh attempts."},
            **_errors(400, 413, 422),
        },
    )
    async def dead_retry(body: RetryDeadRequest, _: Principal = admin) -> JSONResponse:
        count = await db.retry_dead(type=body.type, error=body.error, since=body.since, limit=body.limit)
        return _json(RetryDeadResult(requeued=count), 202)

    # -- queues, metrics, health --------------------------------------------------------

    @app.get(
        "/queues",
        tags=["operations"],
        summary="Per-queue figures",
        response_model=None,
        responses={
            200: {"model": QueueList, "description": "One entry per queue with live or dead jobs."},
            **_errors(),
        },
    )
    async def queues(_: Principal = admin) -> JSONResponse:
        rows = await db.stats()
        return _json(
            QueueList(
                queues=[
                    QueueStats(
                        queue=r.queue,
                        ready=r.ready,
                        scheduled=r.scheduled,
                        running=r.running,
                        oldest_ready_age_seconds=(
                            r.oldest_ready_age.total_seconds() if r.oldest_ready_age is not None else None
                        ),
                        dead=r.dead,
                    )
                    for r in rows
                ]
            )
        )

    @app.get(
        "/workers",
        tags=["operations"],
        summary="Registered workers",
        response_model=None,
        responses={
            200: {"model": WorkerList, "description": "Newest first; gone workers are kept an hour."},
            **_errors(),
        },
    )
    async def workers(_: Principal = admin) -> JSONResponse:
        rows = await db.workers()
        return _json(
            WorkerList(
                workers=[
                    WorkerEntry(
                        worker=r.worker,
                        host=r.host,
                        pid=r.pid,
                        queues={q: int(n) for q, n in r.queues.items()},
                        version=r.version,
                        started_at=r.started_at,
                        last_seen=r.last_seen,
                        state=r.state,
                        running=r.running,
                    )
                    for r in rows
                ]
            )
        )

    # -- fairness: tenants, tenant policies, key limits ---------------------------------

    @app.get(
        "/tenants",
        tags=["fairness"],
        summary="Per queue and tenant: counts and the policy in force",
        response_model=None,
        responses={
            200: {"model": TenantList, "description": "One entry per queue and tenant with live jobs."},
            **_errors(400, 422),
        },
    )
    async def tenants(query: Annotated[TenantsQuery, Query()], _: Principal = admin) -> JSONResponse:
        rows = await db.tenants(query.queue)
        return _json(TenantList(tenants=[TenantStats.model_validate(r, from_attributes=True) for r in rows]))

    @app.get(
        "/tenant-policies",
        tags=["fairness"],
        summary="List tenant policies",
        response_model=None,
        responses={200: {"model": TenantPolicyList, "description": "Every policy, by queue and tenant."}, **_errors()},
    )
    async def tenant_policies(_: Principal = admin) -> JSONResponse:
        rows = await db.tenant_policies()
        return _json(TenantPolicyList(policies=[TenantPolicyRow.model_validate(r, from_attributes=True) for r in rows]))

    @app.put(
        "/tenant-policies/{queue}/{tenant}",
        tags=["fairness"],
        summary="Set a tenant's weight and cap",
        response_model=None,
        responses={
            200: {
                "model": TenantPolicy,
                "description": "The policy as stored. A field left out is left to a less specific policy (* rows).",
            },
            **_errors(400, 413, 422),
        },
    )
    async def tenant_policy_put(
        queue: PolicyQueueParam, tenant: PolicyTenantParam, body: TenantPolicyRequest, _: Principal = admin
    ) -> JSONResponse:
        row = await db.tenant_policy_set(
            queue, _policy_tenant(tenant), weight=body.weight, max_running=body.max_running
        )
        return _json(TenantPolicy.model_validate(row, from_attributes=True))

    @app.delete(
        "/tenant-policies/{queue}/{tenant}",
        tags=["fairness"],
        summary="Delete a tenant policy",
        status_code=204,
        response_model=None,
        response_class=Response,
        responses={
            204: {"description": "Deleted; the tenant falls back to a less specific policy, else weight 1 and no cap."},
            **_errors(400, 404, 422),
        },
    )
    async def tenant_policy_delete(
        queue: PolicyQueueParam, tenant: PolicyTenantParam, _: Principal = admin
    ) -> Response:
        who = _policy_tenant(tenant)
        if not await db.tenant_policy_delete(queue, who):
            raise ApiError(404, "POLICY_NOT_FOUND", f"No policy for {_tenant_label(who)} in queue {queue!r}.")
        return Response(status_code=204)

    @app.put(
        "/key-limits/{type}",
        tags=["fairness"],
        summary="Set a type's limit per concurrency key",
        response_model=None,
        responses={200: {"model": KeyLimit, "description": "The limit as stored."}, **_errors(400, 413, 422)},
    )
    async def key_limit_put(type: KeyLimitTypeParam, body: KeyLimitRequest, _: Principal = admin) -> JSONResponse:
        row = await db.key_limit_set(type, body.max_running)
        return _json(KeyLimit.model_validate(row, from_attributes=True))

    @app.delete(
        "/key-limits/{type}",
        tags=["fairness"],
        summary="Delete a type's limit per concurrency key",
        status_code=204,
        response_model=None,
        response_class=Response,
        responses={
            204: {"description": "Deleted: back to 1 running job per concurrency key."},
            **_errors(400, 404, 422),
        },
    )
    async def key_limit_delete(type: KeyLimitTypeParam, _: Principal = admin) -> Response:
        if not await db.key_limit_delete(type):
            raise ApiError(404, "KEY_LIMIT_NOT_FOUND", f"Type {type!r} has no key limit.")
        return Response(status_code=204)

    @app.get(
        "/metrics",
        tags=["operations"],
        summary="Prometheus metrics",
        response_class=Response,
        response_model=None,
        responses={
            200: {
                "description": "Per-queue gauges: " + ", ".join(m[0] for m in metrics.METRICS) + ".",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            },
            **_errors(),
        },
    )
    async def prometheus(_: Principal = admin) -> Response:
        return Response(metrics.render(await db.stats()), media_type=metrics.CONTENT_TYPE)

    @app.get(
        "/healthz",
        tags=["operations"],
        summary="Health check (no token needed)",
        response_model=None,
        responses={
            200: {"model": Health, "description": "The database answers and jq is installed."},
            500: _errors()[500],
            503: _errors()[503],
        },
    )
    async def healthz() -> JSONResponse:
        return _json(Health(schema_version=await db.version()))

    @app.get("/openapi.json", include_in_schema=False)
    async def openapi_document(_: Principal = any_token) -> JSONResponse:
        return JSONResponse(app.openapi())

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _document(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _document(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document, plus the headers every response carries."""
    doc = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
        tags=[
            {"name": "jobs", "description": "Enqueue, look up and cancel jobs (producer scope)."},
            {"name": "schedules", "description": "Cron schedules in a named timezone (admin scope)."},
            {"name": "dead letters", "description": "Jobs that used up their attempts (admin scope)."},
            {
                "name": "fairness",
                "description": "How tenants share a queue: weights, caps, concurrency-key limits (admin scope).",
            },
            {"name": "operations", "description": "Queue figures, metrics, health."},
        ],
    )
    request_id = {
        "description": "The request's id: the caller's sane X-Request-Id, else a new one.",
        "required": True,
        "schema": {"type": "string"},
    }
    retry_after = {
        "description": "Seconds to wait before trying again.",
        "required": True,
        "schema": {"type": "string"},
    }
    authenticate = {"description": "The Bearer challenge.", "required": True, "schema": {"type": "string"}}
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            for status, response in operation.get("responses", {}).items():
                if status == "422" and "HTTPValidationError" in str(response.get("content")):
                    # FastAPI's default for routes with parameters; ours has the error shape.
                    response.clear()
                    response.update(
                        {
                            "description": _ERROR_DESCRIPTIONS[422],
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
                        }
                    )
                headers = response.setdefault("headers", {})
                headers["X-Request-Id"] = request_id
                if status == "503":
                    headers["Retry-After"] = retry_after
                if status == "401":
                    headers["WWW-Authenticate"] = authenticate
    doc.setdefault("components", {}).setdefault("schemas", {})["JsonValue"] = JSON_VALUE_SCHEMA
    for unused in ("HTTPValidationError", "ValidationError"):
        doc.get("components", {}).get("schemas", {}).pop(unused, None)
    return doc
