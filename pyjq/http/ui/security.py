"""What every response of the app carries (Content-Security-Policy and friends), and the checks of a
state-changing console request (a same-origin Origin, the session's CSRF token)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from fastapi import Request

__all__ = ["CSP", "SecurityHeadersMiddleware", "same_origin"]

# Everything from our own origin, nothing inline (no inline script or style, no eval), no frames,
# no plugins, forms post only to us.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


class SecurityHeadersMiddleware:
    """Adds the headers above to every HTTP response (the JSON API's too: they cost nothing there)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(n, v) for n, v in _HEADERS if n not in present]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def same_origin(request: Request) -> bool:
    """False when the browser says the request came from another origin (Origin, else Referer).

    A second line behind the SameSite=Strict cookie and the CSRF token; a request without either
    header (curl, an old browser) is left to the CSRF token.
    """
    origin = request.headers.get("origin") or request.headers.get("referer")
    if not origin or origin == "null":
        return origin is None
    parts = urlsplit(origin)
    host = request.headers.get("host", "")
    return parts.netloc == host
