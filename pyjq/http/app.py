"""The HTTP API of jq: ``create_app(dsn, tokens=...)`` builds the FastAPI app.

For services that do not share the database. Every route calls one jq_*
SQL function (through pyjq.http.db) and translates its answer; none holds
queue logic. Served by ``pyjq serve`` (uvicorn); see docs/http.md.

create_app holds what is the app's own: the settings, the database pool's lifespan, the middleware,
the error handlers, the token checks and the OpenAPI document (GET /openapi.json, any token). The
routes are in pyjq.http.routes, one module per resource (its docstring lists them and says where a
new route goes); create_app adds them.
"""

from __future__ import annotations

import importlib.util
import logging
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse

from .. import __version__
from .auth import Principal, TokenStore, load_tokens, parse_tokens, require
from .db import Database
from .errors import install_handlers
from .fields import JSON_VALUE_SCHEMA
from .middleware import RequestContextMiddleware
from .routes.attempts import add_attempt_routes
from .routes.audit import add_audit_routes
from .routes.common import ERROR_DESCRIPTIONS
from .routes.dead_letters import add_dead_letter_routes
from .routes.fairness import add_fairness_routes
from .routes.jobs import add_job_routes
from .routes.operations import add_operations_routes, add_probe_routes
from .routes.operator_jobs import add_operator_job_routes
from .routes.schedules import add_schedule_routes
from .routes.storage import add_storage_routes

__all__ = ["DEFAULT_MAX_BODY_BYTES", "create_app"]

log = logging.getLogger("pyjq.http")

DEFAULT_MAX_BODY_BYTES = 1024 * 1024
DSN_ENV = "DATABASE_URL"


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

    ``tokens`` maps bearer token -> scope (``producer``, ``viewer`` or ``admin``), or is a
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
    viewer = Depends(require(store, "viewer"))  # the read-only operator routes: viewer or admin
    any_token = producer

    # In the order of the OpenAPI document's paths.
    add_job_routes(app.router, db, producer)
    add_schedule_routes(app.router, db, admin, viewer)
    add_dead_letter_routes(app.router, db, admin, viewer)
    add_operations_routes(app.router, db, admin, viewer)
    add_fairness_routes(app.router, db, admin, viewer)
    add_probe_routes(app.router, db, admin)
    add_audit_routes(app.router, db, viewer)  # read-only: a viewer token too
    add_attempt_routes(app.router, db, viewer)
    add_operator_job_routes(app.router, db, admin)
    add_storage_routes(app.router, db, viewer)
    _mount_console(app, db, store)

    @app.get("/openapi.json", include_in_schema=False)
    async def openapi_document(_: Principal = any_token) -> JSONResponse:
        return JSONResponse(app.openapi())

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _document(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _mount_console(app: FastAPI, db: Database, store: TokenStore) -> None:
    """The operator console under /ui (pyjq.http.ui), when its dependency, Jinja2, is installed."""
    if importlib.util.find_spec("jinja2") is None:  # the `server` extra
        log.info("operator console not mounted: Jinja2 is not installed (pip install 'pgjq[server]')")
        return
    from .ui import mount_console

    mount_console(app, db, store)


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
            {"name": "audit", "description": "Who did what: the operator audit log (admin scope)."},
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
                            "description": ERROR_DESCRIPTIONS[422],
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
