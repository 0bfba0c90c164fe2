"""The console's actions (POST, admin only, CSRF-checked): dead-letter groups, queue pauses,
schedules, tenant policies. Each calls the Database method the JSON API calls, naming the session's principal as the
actor (jq.audit_log), and redirects back with a notice. A job's actions are in jobs.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import psycopg
from fastapi import APIRouter, Request
from fastapi.responses import Response

from ...errors import JQError
from ..errors import ApiError, from_database
from .console import PREFIX, Console
from .pages import DEAD_WINDOWS
from .sessions import Session

__all__ = ["add_actions", "attempt"]

RETRY_LIMIT = 10_000  # one click requeues at most this many; the page says when more are left


async def attempt(
    console: Console, request: Request, session: Session, fallback: str, act: Callable[[], Awaitable[str]]
) -> Response:
    """Run ``act`` (which returns the success notice); a refusal of jq's becomes an error notice."""
    try:
        notice = await act()
    except ApiError as exc:
        return console.back(request, session, "error", exc.message, fallback)
    except (JQError, psycopg.Error) as exc:
        return console.back(request, session, "error", from_database(exc).message, fallback)
    return console.back(request, session, "ok", notice, fallback)


def _since(form: dict[str, str]) -> datetime | None:
    window = DEAD_WINDOWS.get(form.get("window", ""))
    return None if window is None else datetime.now(UTC) - window


def _optional_int(value: str | None, what: str) -> int | None:
    if value is None or not value.strip():
        return None
    try:
        return int(value)
    except ValueError:
        raise ApiError(422, "INVALID_ARGUMENT", f"{what} must be a whole number, got {value[:32]!r}.") from None


def add_actions(router: APIRouter, console: Console) -> None:
    db = console.db

    @router.post("/dead/retry")
    async def dead_retry(request: Request) -> Response:
        session, form = await console.acting_session(request)

        async def act() -> str:
            count = await db.retry_dead(
                type=form.get("type"),
                error=form.get("error"),
                since=_since(form),
                limit=RETRY_LIMIT,
                actor=session.principal.name,
            )
            if not count:
                raise ApiError(404, "NOTHING_MATCHED", f"No dead {form.get('type')} jobs match that group any more.")
            return f"Requeued {count} dead {form.get('type')} jobs ({form.get('error')})."

        return await attempt(console, request, session, f"{PREFIX}/dead", act)

    @router.post("/dead/discard")
    async def dead_discard(request: Request) -> Response:
        session, form = await console.acting_session(request)

        async def act() -> str:
            count = await db.dead_discard_group(
                type=form.get("type", ""),
                error=form.get("error", ""),
                since=_since(form),
                limit=RETRY_LIMIT,
                actor=session.principal.name,
            )
            if not count:
                raise ApiError(404, "NOTHING_MATCHED", f"No dead {form.get('type')} jobs match that group any more.")
            return f"Deleted {count} dead {form.get('type')} jobs ({form.get('error')})."

        return await attempt(console, request, session, f"{PREFIX}/dead", act)

    @router.post("/queues/{queue}/{action}")
    async def queue_action(request: Request, queue: str, action: str) -> Response:
        session, _ = await console.acting_session(request)

        async def act() -> str:
            if action == "pause":
                changed = await db.queue_pause(queue, None, actor=session.principal.name)
                return f"Queue {queue} paused: claims skip it from now on." if changed else f"{queue} was paused."
            if action == "resume":
                changed = await db.queue_resume(queue, None, actor=session.principal.name)
                return f"Queue {queue} resumed." if changed else f"{queue} was not paused."
            raise ApiError(404, "NOT_FOUND", f"No queue action {action[:32]!r}.")

        return await attempt(console, request, session, f"{PREFIX}/queues", act)

    @router.post("/schedules/{name}/{action}")
    async def schedule_action(request: Request, name: str, action: str) -> Response:
        session, _ = await console.acting_session(request)
        actor = session.principal.name

        async def act() -> str:
            if action == "pause":
                found = await db.schedule_pause(name, actor=actor)
            elif action == "resume":
                found = await db.schedule_resume(name, actor=actor)
            elif action == "run":
                return await _run_now(name)
            else:
                raise ApiError(404, "NOT_FOUND", f"No schedule action {action[:32]!r}.")
            if not found:
                raise ApiError(404, "SCHEDULE_NOT_FOUND", f"No schedule {name!r}.")
            return f"Schedule {name} {'paused' if action == 'pause' else 'resumed'}."

        async def _run_now(name: str) -> str:
            rows = await db.schedules(name)
            if not rows:
                raise ApiError(404, "SCHEDULE_NOT_FOUND", f"No schedule {name!r}.")
            s = rows[0]
            job = await db.enqueue(
                type=s.type,
                payload=s.payload,
                queue=s.queue,
                priority=s.priority,
                run_at=None,
                max_attempts=s.max_attempts,
                idempotency_key=None,
                tenant=None,
            )
            return f"Schedule {name}: enqueued {s.type} job {job.job_id} now (its slots are unchanged)."

        return await attempt(console, request, session, f"{PREFIX}/schedules", act)

    @router.post("/tenants/policy")
    async def tenant_policy(request: Request) -> Response:
        session, form = await console.acting_session(request)

        async def act() -> str:
            queue = form.get("queue", "")
            tenant = form.get("tenant", "")
            weight = _optional_int(form.get("weight"), "The weight")
            cap = _optional_int(form.get("max_running"), "The cap")
            row = await db.tenant_policy_set(
                queue, None if tenant == "-" else tenant, weight=weight, max_running=cap, actor=session.principal.name
            )
            shown = "jobs without a tenant" if row.tenant is None else f"tenant {row.tenant}"
            return (
                f"Policy of {shown} in {row.queue}: weight {row.weight if row.weight is not None else 'inherited'}, "
                f"cap {row.max_running if row.max_running is not None else 'none'}."
            )

        return await attempt(console, request, session, f"{PREFIX}/tenants", act)
