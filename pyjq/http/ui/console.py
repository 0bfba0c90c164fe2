"""What every console route shares: the templates, the sessions, and the checks of who may see or do what.

Pages (GET) need a session of scope viewer or admin (a producer token gets no console); actions
(POST) need an admin session, the session's CSRF token and a same-origin request, else 403.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..auth import may
from ..db import Database
from .figures import RecentFigures
from .formatting import FILTERS
from .security import same_origin
from .sessions import COOKIE_NAME, Session, SessionStore

__all__ = ["Console", "LoginNeeded", "Refused"]

HERE = Path(__file__).parent
PREFIX = "/ui"
NAV = [
    ("overview", "Overview", f"{PREFIX}/"),
    ("jobs", "Jobs", f"{PREFIX}/jobs"),
    ("dead", "Dead letters", f"{PREFIX}/dead"),
    ("queues", "Queues", f"{PREFIX}/queues"),
    ("schedules", "Schedules", f"{PREFIX}/schedules"),
    ("tenants", "Tenants", f"{PREFIX}/tenants"),
    ("workers", "Workers", f"{PREFIX}/workers"),
]


class LoginNeeded(Exception):
    """No valid session: a page redirects to the login form, the JSON poll answers 401."""


class Refused(Exception):
    """The session may not do this (a viewer acting), or the CSRF token or the origin is wrong: 403."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Console:
    def __init__(self, db: Database, sessions: SessionStore):
        self.db = db
        self.sessions = sessions
        self.figures = RecentFigures()
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=True,  # every template, .svg included: nothing a job carries renders as markup
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters.update(FILTERS)

    # -- who is asking ------------------------------------------------------------------

    def session(self, request: Request) -> Session:
        """The request's session (viewer or admin), else LoginNeeded."""
        session = self.sessions.get(request.cookies.get(COOKIE_NAME))
        if session is None or not may(session.principal, "viewer"):
            raise LoginNeeded()
        return session

    async def acting_session(self, request: Request, scope: str = "admin") -> tuple[Session, dict[str, str]]:
        """For a POST: the session (of ``scope``: admin to act) and the form, after the origin and CSRF checks."""
        session = self.session(request)
        form = await read_form(request)
        if not same_origin(request):
            raise Refused("The request came from another origin.")
        if not session.csrf_matches(form.get("csrf") or request.headers.get("x-csrf-token")):
            raise Refused("The form's CSRF token is missing or wrong: reload the page and try again.")
        if not may(session.principal, scope):
            scope_name = session.principal.scope
            raise Refused(f"The {scope_name} scope sees everything and changes nothing; acting needs admin.")
        return session, form

    # -- answers ------------------------------------------------------------------------

    def render(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        html = self.env.get_template(template).render(prefix=PREFIX, nav=NAV, **context)
        return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})

    def page(self, request: Request, session: Session, template: str, active: str, **context: Any) -> HTMLResponse:
        """A page of the console for ``session``: the navigation, its notices, the CSRF token for its forms."""
        return self.render(
            template,
            active=active,
            principal=session.principal,
            can_act=may(session.principal, "admin"),
            csrf=session.csrf,
            notices=self.sessions.take_notices(session),
            **context,
        )

    def back(self, request: Request, session: Session, kind: str, text: str, fallback: str) -> Response:
        """Redirect (303) to where the form was, with a notice shown once; the figures are recomputed."""
        self.sessions.notify(session, kind, text)
        self.figures.forget()
        return RedirectResponse(_local_return(request, fallback), status_code=303)


async def read_form(request: Request) -> dict[str, str]:
    """An application/x-www-form-urlencoded body as {name: last value} (the body is already size-capped)."""
    body = (await request.body()).decode("utf-8", "replace")
    return {k: v[-1] for k, v in parse_qs(body, keep_blank_values=True).items()}


def _local_return(request: Request, fallback: str) -> str:
    """The page to go back to: the Referer when it is a console page of this origin, else ``fallback``."""
    referer = request.headers.get("referer", "")
    host = request.headers.get("host", "")
    for scheme in ("http://", "https://"):
        start = f"{scheme}{host}{PREFIX}"
        if host and referer.startswith(start):
            return referer[len(scheme) + len(host) :]
    return fallback
