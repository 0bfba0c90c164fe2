"""The operator console: a web dashboard under /ui, served by ``pyjq serve`` beside the JSON API.

Server-rendered Jinja2 pages (autoescaped), a little JavaScript and CSS of our own as static files,
no third-party origin (see docs/console.md for the choice). A browser logs in once with a viewer or
admin token and is then known by an HttpOnly, SameSite=Strict session cookie (sessions.py); every
POST carries the session's CSRF token (console.py); every response carries a Content-Security-Policy
(security.py). create_app mounts it when Jinja2 (the ``server`` extra) is installed.

    module       what
    console.py   templates, sessions, the checks of who may see or do what
    login.py     GET/POST /ui/login, POST /ui/logout
    pages.py     the pages: overview (+ its JSON poll and SVG charts), dead letters, queues,
                 schedules, tenants, workers
    jobs.py      the jobs list and a job's detail, and its actions
    actions.py   the actions: dead-letter groups, schedules, tenant policies
    charts.py    the throughput chart's geometry (templates/chart.svg draws it)
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from ..auth import TokenStore
from ..db import Database
from .actions import add_actions
from .console import HERE, PREFIX, Console, LoginNeeded, Refused
from .jobs import add_job_pages
from .login import add_login_routes
from .pages import add_pages
from .security import SecurityHeadersMiddleware
from .sessions import SessionStore

__all__ = ["mount_console"]


def mount_console(app: FastAPI, db: Database, tokens: TokenStore) -> Console:
    """Add the console's routes under /ui to ``app``, and the security headers to every response."""
    console = Console(db, SessionStore())
    router = APIRouter(prefix=PREFIX, include_in_schema=False)
    add_login_routes(router, console, tokens)
    add_pages(router, console)
    add_job_pages(router, console)
    add_actions(router, console)
    # Appended to app.router itself, as the API's routes are (see pyjq.http.routes: the 405 handler).
    app.router.routes.extend(router.routes)
    app.mount(f"{PREFIX}/static", StaticFiles(directory=HERE / "static"), name="console-static")
    app.add_middleware(SecurityHeadersMiddleware)

    @app.get(PREFIX, include_in_schema=False)
    async def console_root() -> Response:
        return RedirectResponse(f"{PREFIX}/", status_code=307)

    @app.exception_handler(LoginNeeded)
    async def login_needed(request: Request, _: Exception) -> Response:
        if request.url.path.startswith(f"{PREFIX}/api/") or request.method != "GET":
            return JSONResponse({"error": {"code": "UNAUTHENTICATED", "message": "Log in at /ui/login."}}, 401)
        return RedirectResponse(f"{PREFIX}/login", status_code=303)

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Exception) -> Response:
        reason = exc.reason if isinstance(exc, Refused) else "Refused."
        return console.render("refused.html", 403, reason=reason)

    app.state.console = console
    return console
