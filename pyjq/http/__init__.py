"""The jq HTTP service (``pip install 'pgjq[server]'``; run with ``pyjq serve``).

``create_app(dsn, tokens={...})`` returns a FastAPI app whose routes each call
one jq_* SQL function. Only this subpackage imports FastAPI; the core pyjq
package does not.
"""

from __future__ import annotations

try:
    import fastapi  # noqa: F401  (only to say which extra is missing)
except ModuleNotFoundError as exc:  # pragma: no cover - depends on the environment
    if exc.name not in ("fastapi", "starlette", "pydantic", "prometheus_client"):
        raise
    raise ModuleNotFoundError("the jq HTTP service needs FastAPI: pip install 'pgjq[server]'", name=exc.name) from exc

from .app import DEFAULT_MAX_BODY_BYTES, create_app
from .auth import TokenConfigError, load_tokens, parse_tokens

__all__ = ["DEFAULT_MAX_BODY_BYTES", "TokenConfigError", "create_app", "load_tokens", "parse_tokens"]
