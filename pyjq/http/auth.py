"""Bearer tokens and their scopes.

Tokens come from configuration, never from the database:

* ``JQ_API_TOKENS``: comma-separated ``token:scope`` entries, or
* ``JQ_API_TOKENS_FILE``: a file of the same entries, separated by commas or
  newlines; blank lines and lines starting with ``#`` are ignored.

A scope is ``producer`` (enqueue, status, cancel), ``viewer`` (every read-only
operator route and the console, acting on nothing) or ``admin`` (everything).
A token is looked up by comparing SHA-256 digests with hmac.compare_digest
against every configured token, without stopping at a match, so the time
taken says nothing about how much of a token was right. Errors never repeat
a token: they name the entry by position.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from .errors import ApiError

__all__ = [
    "SCOPES",
    "TOKENS_ENV",
    "TOKENS_FILE_ENV",
    "Principal",
    "TokenConfigError",
    "TokenStore",
    "load_tokens",
    "may",
    "parse_tokens",
    "require",
]

TOKENS_ENV = "JQ_API_TOKENS"
TOKENS_FILE_ENV = "JQ_API_TOKENS_FILE"
SCOPES = ("producer", "viewer", "admin")
# What each scope may do: admin includes producer and viewer; viewer and producer are disjoint.
_GRANTS = {"producer": {"producer"}, "viewer": {"viewer"}, "admin": {"producer", "viewer", "admin"}}


class TokenConfigError(ValueError):
    """The token configuration is malformed."""


@dataclass(frozen=True, slots=True)
class Principal:
    """Who presented a token: its scope, and a name for the audit log.

    The name is the scope and the first 8 hex digits of the token's SHA-256
    (``admin:3f2a9c1e``): it tells tokens apart in jq.audit_log without
    revealing them (``printf %s "$TOKEN" | sha256sum | cut -c1-8``).
    """

    scope: str
    name: str


class TokenStore:
    """The configured tokens, kept as digests."""

    def __init__(self, tokens: Mapping[str, str]):
        entries: list[tuple[bytes, str]] = []
        for token, scope in tokens.items():
            if scope not in SCOPES:
                raise TokenConfigError(f"unknown scope {scope!r}: use producer, viewer or admin")
            if not token or any(c.isspace() for c in token):
                raise TokenConfigError("a token must be non-empty and hold no whitespace")
            entries.append((hashlib.sha256(token.encode("utf-8")).digest(), scope))
        self._entries = tuple(entries)

    def __len__(self) -> int:
        return len(self._entries)

    def scope_of(self, presented: str) -> str | None:
        principal = self.principal_of(presented)
        return None if principal is None else principal.scope

    def principal_of(self, presented: str) -> Principal | None:
        digest = hashlib.sha256(presented.encode("utf-8", "surrogateescape")).digest()
        found = None
        for known, scope in self._entries:
            if hmac.compare_digest(digest, known):
                found = Principal(scope, f"{scope}:{known.hex()[:8]}")
        return found


def parse_tokens(text: str, *, source: str = TOKENS_ENV) -> dict[str, str]:
    """``token:scope`` entries separated by commas or newlines -> {token: scope}."""
    tokens: dict[str, str] = {}
    entries = [e.strip() for line in text.splitlines() if not line.lstrip().startswith("#") for e in line.split(",")]
    for number, entry in enumerate((e for e in entries if e), start=1):
        token, sep, scope = entry.rpartition(":")
        token, scope = token.strip(), scope.strip().lower()
        if not sep or not token:
            raise TokenConfigError(f"{source}: entry {number} is not token:scope")
        if scope not in SCOPES:
            raise TokenConfigError(f"{source}: entry {number} has scope {scope!r}; use producer, viewer or admin")
        if any(c.isspace() for c in token):
            raise TokenConfigError(f"{source}: entry {number}: a token must hold no whitespace")
        if tokens.get(token, scope) != scope:
            raise TokenConfigError(f"{source}: entry {number} repeats a token with another scope")
        tokens[token] = scope
    return tokens


def load_tokens(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Tokens from JQ_API_TOKENS and the file named by JQ_API_TOKENS_FILE (both, when both are set)."""
    environ = os.environ if environ is None else environ
    tokens: dict[str, str] = {}
    if environ.get(TOKENS_ENV):
        tokens.update(parse_tokens(environ[TOKENS_ENV], source=TOKENS_ENV))
    path = environ.get(TOKENS_FILE_ENV)
    if path:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise TokenConfigError(f"{TOKENS_FILE_ENV}: cannot read {path!r}: {exc.strerror or exc}") from exc
        for token, scope in parse_tokens(text, source=f"{TOKENS_FILE_ENV} {path!r}").items():
            if tokens.get(token, scope) != scope:
                raise TokenConfigError(f"a token in {TOKENS_FILE_ENV} has another scope in {TOKENS_ENV}")
            tokens[token] = scope
    return tokens


_bearer = HTTPBearer(auto_error=False, description="A token from JQ_API_TOKENS; scope producer, viewer or admin.")


def may(principal: Principal, scope: str) -> bool:
    """Whether ``principal``'s scope includes ``scope`` (admin includes every scope)."""
    return scope in _GRANTS[principal.scope]


def require(store: TokenStore, scope: str) -> Callable[..., Principal]:
    """A dependency that admits a bearer token whose scope includes ``scope``."""

    def dependency(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> Principal:
        if credentials is None:
            raise ApiError(
                401,
                "UNAUTHENTICATED",
                "Missing bearer token: send Authorization: Bearer <token>.",
                headers={"WWW-Authenticate": 'Bearer realm="jq"'},
            )
        principal = store.principal_of(credentials.credentials)
        if principal is None:
            raise ApiError(
                401,
                "UNAUTHENTICATED",
                "Invalid bearer token.",
                headers={"WWW-Authenticate": 'Bearer realm="jq", error="invalid_token"'},
            )
        if not may(principal, scope):
            needed = "viewer or admin" if scope == "viewer" else scope
            raise ApiError(403, "FORBIDDEN", f"This route needs the {needed} scope; the token has {principal.scope}.")
        return principal

    return dependency
