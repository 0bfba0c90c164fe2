"""Operations: GET /queues and GET /workers (admin), then the probes GET /metrics (admin) and GET /healthz (no token).

Two functions, because the OpenAPI document lists the fairness routes between them: create_app calls
add_operations_routes before add_fairness_routes and add_probe_routes after it.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from .. import metrics
from ..auth import Principal
from ..db import Database
from ..models import Health, QueueList, QueueStats, UnhandledTypeEntry, WorkerEntry, WorkerList
from .common import TokenCheck, error_responses, json_response

__all__ = ["add_operations_routes", "add_probe_routes"]


def add_operations_routes(router: APIRouter, db: Database, admin: TokenCheck, viewer: TokenCheck) -> None:
    """Add what an operator asks about the queues and the workers, GET /queues and GET /workers, to ``router``."""

    @router.get(
        "/queues",
        tags=["operations"],
        summary="Per-queue figures",
        response_model=None,
        responses={
            200: {
                "model": QueueList,
                "description": "One entry per queue with live or dead jobs, and the job types nobody handles.",
            },
            **error_responses(),
        },
    )
    async def queues(_: Principal = viewer) -> JSONResponse:
        rows = await db.stats()
        unhandled = await db.unhandled_types()
        return json_response(
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
                ],
                unhandled=[
                    UnhandledTypeEntry(
                        queue=u.queue,
                        type=u.type,
                        waiting=u.waiting,
                        oldest_waiting_age_seconds=u.oldest_waiting_age.total_seconds(),
                        workers=u.workers,
                    )
                    for u in unhandled
                ],
            )
        )

    @router.get(
        "/workers",
        tags=["operations"],
        summary="Registered workers",
        response_model=None,
        responses={
            200: {"model": WorkerList, "description": "Newest first; gone workers are kept an hour."},
            **error_responses(),
        },
    )
    async def workers(_: Principal = viewer) -> JSONResponse:
        rows = await db.workers()
        return json_response(
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


def add_probe_routes(router: APIRouter, db: Database, admin: TokenCheck) -> None:
    """Add what monitoring polls, GET /metrics (Prometheus text) and GET /healthz, to ``router``."""

    @router.get(
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
            **error_responses(),
        },
    )
    async def prometheus(_: Principal = admin) -> Response:
        return Response(metrics.render(await db.stats()), media_type=metrics.CONTENT_TYPE)

    @router.get(
        "/healthz",
        tags=["operations"],
        summary="Health check (no token needed)",
        response_model=None,
        responses={
            200: {"model": Health, "description": "The database answers and jq is installed."},
            500: error_responses()[500],
            503: error_responses()[503],
        },
    )
    async def healthz() -> JSONResponse:
        return json_response(Health(schema_version=await db.version()))
