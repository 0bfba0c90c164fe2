"""The outermost layer of the app: request ids, the body size limit, last-resort 500s.

A plain ASGI middleware rather than Starlette's BaseHTTPMiddleware, so that it
can refuse an oversized body before the app reads it, and answer any
exception that escaped the app with the error body (no traceback leaks).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Sequence
from typing import Any

from .errors import error_body

__all__ = ["REQUEST_ID_HEADER", "RequestContextMiddleware", "new_request_id"]

log = logging.getLogger("pyjq.http")

REQUEST_ID_HEADER = "x-request-id"
# A caller's own id is kept when it looks like an id: 1-128 characters, no spaces or controls.
_SANE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/+=@-]{0,127}$")


def new_request_id() -> str:
    return "req_" + secrets.token_hex(8)


def _incoming_id(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers") or ():
        if name.lower() == REQUEST_ID_HEADER.encode():
            try:
                text = value.decode("ascii")
            except UnicodeDecodeError:
                return None
            return text if _SANE_ID.match(text) else None
    return None


def _content_length(scope: dict[str, Any]) -> int | None:
    for name, value in scope.get("headers") or ():
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class RequestContextMiddleware:
    """Gives each request an id (scope state and X-Request-Id header), caps the body, catches what escapes."""

    def __init__(self, app: Any, *, max_body_bytes: int):
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = _incoming_id(scope) or new_request_id()
        scope.setdefault("state", {})["request_id"] = request_id
        started = False

        async def send_with_id(message: dict[str, Any]) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != REQUEST_ID_HEADER.encode()]
                headers.append((b"x-request-id", request_id.encode("ascii")))
                message = {**message, "headers": headers}
            await send(message)

        async def reply(
            status: int, code: str, message: str, extra_headers: Sequence[tuple[bytes, bytes]] = ()
        ) -> None:
            body = json.dumps(error_body(code, message, request_id)).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *extra_headers,
            ]
            await send_with_id({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})

        too_large = f"The request body exceeds the limit of {self.max_body_bytes} bytes."
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body_bytes:
            await reply(413, "PAYLOAD_TOO_LARGE", too_large, [(b"connection", b"close")])
            return

        # Read the whole body first (it is at most max_body_bytes), then replay it to the app.
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                await reply(413, "PAYLOAD_TOO_LARGE", too_large, [(b"connection", b"close")])
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        try:
            await self.app(scope, replay, send_with_id)
        except Exception:
            log.exception("unhandled error in %s %s (request %s)", scope.get("method"), scope.get("path"), request_id)
            if not started:
                await reply(500, "INTERNAL", "Unexpected error; see the service log.")
