"""The console's pages (GET): overview with its live poll and charts, dead letters, queues,
schedules, tenants, workers. Jobs are in jobs.py. Each reads through the Database methods the JSON
API uses; none holds SQL."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ..._calls.console import ThroughputBucket
from ..._calls.storage import StoragePart
from ...errors import JQError, NotInstalled
from .charts import build_chart, totals
from .console import Console

__all__ = ["DEAD_WINDOWS", "add_pages"]

# The dead-letter page's time windows.
DEAD_WINDOWS = {"1h": timedelta(hours=1), "24h": timedelta(hours=24), "7d": timedelta(days=7)}
# The overview's two charts: (window, bucket, label format).
CHART_WINDOWS = {
    "1h": (timedelta(hours=1), timedelta(minutes=5), "%H:%M"),
    "24h": (timedelta(hours=24), timedelta(hours=1), "%H:%M"),
}
SLOTS_SHOWN = 5


@dataclass(frozen=True, slots=True)
class ScheduleView:
    """A schedule with its next slots, in its own zone and in UTC."""

    row: Any
    slots: list[tuple[datetime, datetime]]  # (local, utc)
    problem: str | None


def schedule_view(row: Any, slots: list[datetime] | JQError) -> ScheduleView:
    """A schedule with the slots jq computed for it (Database.cron_slots), or the error it raised."""
    if isinstance(slots, JQError):
        return ScheduleView(row, [], str(slots))
    try:
        zone = ZoneInfo(row.timezone)
    except (ValueError, KeyError) as exc:  # a zone jq knows and this machine does not: shown in UTC
        return ScheduleView(row, [(s.astimezone(UTC), s.astimezone(UTC)) for s in slots], str(exc))
    return ScheduleView(row, [(s.astimezone(zone), s.astimezone(UTC)) for s in slots], None)


def queue_figures(rows: list[Any]) -> list[dict[str, Any]]:
    """jq_stats rows as the overview's poll sends them (``paused`` once jq_stats has it)."""
    return [
        {
            "queue": r.queue,
            "ready": r.ready,
            "scheduled": r.scheduled,
            "running": r.running,
            "dead": r.dead,
            "oldestReadyAgeSeconds": r.oldest_ready_age.total_seconds() if r.oldest_ready_age is not None else None,
            "paused": bool(getattr(r, "paused", False)),
        }
        for r in rows
    ]


def add_pages(router: APIRouter, console: Console) -> None:
    db = console.db
    figures = console.figures

    async def throughput(window: str) -> list[ThroughputBucket]:
        span, bucket, _ = CHART_WINDOWS[window]

        async def load() -> list[ThroughputBucket]:
            return await db.throughput(since=datetime.now(UTC) - span, bucket=bucket)

        rows: list[ThroughputBucket] = await figures.get(f"throughput:{window}", load, ttl=15.0)
        return rows

    async def stats() -> list[dict[str, Any]]:
        async def load() -> list[dict[str, Any]]:
            return queue_figures(await db.stats())

        rows: list[dict[str, Any]] = await figures.get("stats", load)
        return rows

    async def storage_parts() -> list[StoragePart] | None:
        """jq_storage's rows (catalog figures only: cheap, so never cached); None before jq 0.6.0."""
        try:
            return await db.storage()
        except NotInstalled:
            return None

    async def window_figures(window: str) -> dict[str, Any]:
        rows = await throughput(window)
        t = totals(rows)
        span = CHART_WINDOWS[window][0]
        return {
            "window": window,
            "succeeded": t.succeeded,
            "dead": t.dead,
            "cancelled": t.cancelled,
            "failedAttempts": t.failed_attempts,
            "failureRate": t.failure_rate,
            "perMinute": round(t.succeeded / (span.total_seconds() / 60), 1),
        }

    @router.get("/", response_class=HTMLResponse)
    async def overview(request: Request) -> Response:
        session = console.session(request)
        queues = await stats()
        windows = [await window_figures(w) for w in CHART_WINDOWS]
        storage = await storage_parts()
        return console.page(
            request, session, "overview.html", "overview", queues=queues, windows=windows, storage=storage
        )

    @router.get("/api/overview")
    async def overview_poll(request: Request) -> JSONResponse:
        console.session(request)
        queues = await stats()
        windows = {w: await window_figures(w) for w in CHART_WINDOWS}
        age = figures.age("stats") or 0.0
        return JSONResponse(
            {"queues": queues, "windows": windows, "at": (datetime.now(UTC) - timedelta(seconds=age)).isoformat()},
            headers={"Cache-Control": "no-store"},
        )

    @router.get("/chart/{window}.svg")
    async def chart(request: Request, window: str) -> Response:
        console.session(request)
        if window not in CHART_WINDOWS:
            return Response("no such chart", status_code=404, media_type="text/plain")
        rows = await throughput(window)
        label = "last hour, per 5 minutes" if window == "1h" else "last 24 hours, per hour"
        drawn = build_chart(rows, f"Jobs finished, {label}", CHART_WINDOWS[window][2])
        svg = console.env.get_template("chart.svg").render(chart=drawn)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    @router.get("/dead", response_class=HTMLResponse)
    async def dead_letters(request: Request, window: str = "24h", type: str | None = None) -> Response:
        session = console.session(request)
        window = window if window in DEAD_WINDOWS or window == "all" else "24h"
        since = None if window == "all" else datetime.now(UTC) - DEAD_WINDOWS[window]
        groups = await db.dead_groups(since=since, type=type or None)
        return console.page(
            request,
            session,
            "dead.html",
            "dead",
            groups=groups,
            window=window,
            windows=[*DEAD_WINDOWS, "all"],
            since=since,
            type_filter=type or "",
        )

    @router.get("/queues", response_class=HTMLResponse)
    async def queues(request: Request) -> Response:
        session = console.session(request)
        return console.page(request, session, "queues.html", "queues", queues=await stats())

    @router.get("/schedules", response_class=HTMLResponse)
    async def schedules(request: Request) -> Response:
        session = console.session(request)
        rows = await db.schedules()
        slots = await db.cron_slots(dict.fromkeys((r.cron, r.timezone) for r in rows), count=SLOTS_SHOWN)
        views = [schedule_view(r, slots[(r.cron, r.timezone)]) for r in rows]
        return console.page(request, session, "schedules.html", "schedules", schedules=views)

    @router.get("/tenants", response_class=HTMLResponse)
    async def tenants(request: Request) -> Response:
        session = console.session(request)
        return console.page(
            request,
            session,
            "tenants.html",
            "tenants",
            tenants=await figures.get("tenants", lambda: db.tenants(None)),
            policies=await db.tenant_policies(),
        )

    @router.get("/workers", response_class=HTMLResponse)
    async def workers(request: Request) -> Response:
        session = console.session(request)
        return console.page(
            request, session, "workers.html", "workers", workers=await figures.get("workers", db.workers)
        )
