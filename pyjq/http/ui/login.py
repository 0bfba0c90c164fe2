"""Logging in and out: POST /ui/login trades a token for a session cookie; POST /ui/logout ends it."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..auth import TokenStore, may
from .console import PREFIX, Console, read_form
from .security import same_origin
from .sessions import COOKIE_NAME, SESSION_SECONDS

__all__ = ["add_login_routes"]


def add_login_routes(router: APIRouter, console: Console, tokens: TokenStore) -> None:
    @router.get("/login", response_class=HTMLResponse)
    async def login_form(request: Request) -> Response:
        return console.render("login.html", error=None)

    @router.post("/login", response_class=HTMLResponse)
    async def login(request: Request) -> Response:
        form = await read_form(request)
        if not same_origin(request):
            return console.render("login.html", 403, error="The login form was posted from another origin.")
        principal = tokens.principal_of(form.get("token", "").strip())
        if principal is None:
            return console.render("login.html", 401, error="That is not a configured token.")
        if not may(principal, "viewer"):
            return console.render(
                "login.html", 403, error=f"A {principal.scope} token gets no console: use a viewer or admin token."
            )
        session = console.sessions.create(principal)
        answer = RedirectResponse(f"{PREFIX}/", status_code=303)
        answer.set_cookie(
            COOKIE_NAME,
            session.id,
            max_age=SESSION_SECONDS,
            path=PREFIX,
            httponly=True,
            samesite="strict",
            secure=_is_https(request),
        )
        return answer

    @router.post("/logout")
    async def logout(request: Request) -> Response:
        session, _ = await console.acting_session(request, scope="viewer")
        console.sessions.drop(session.id)
        answer = RedirectResponse(f"{PREFIX}/login", status_code=303)
        answer.delete_cookie(COOKIE_NAME, path=PREFIX, httponly=True, samesite="strict", secure=_is_https(request))
        return answer


def _is_https(request: Request) -> bool:
    """Whether the browser sees https: the request's scheme, or the X-Forwarded-Proto of a proxy in front."""
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme == "https" or forwarded == "https"
