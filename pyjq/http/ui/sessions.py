"""Console sessions: a browser logs in once with a token and is then known by a cookie.

The cookie holds a random session id (256 bits from :mod:`secrets`); the session itself (the
principal, its CSRF token, its expiry) is kept here, in the serving process. Why server-side rather
than a signed cookie: logout ends the session at once (a signed value stays valid until it expires,
unless a revocation list is kept, which is server-side state again), no signing key has to be
configured, shared and rotated, and the cookie reveals nothing. The cost: sessions live in one
process, so a restart logs everyone out and several uvicorn workers behind one address need sticky
routing; for an operator console both are acceptable (logging in again takes one paste).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field

from ..auth import Principal

__all__ = ["COOKIE_NAME", "SESSION_SECONDS", "Session", "SessionStore"]

COOKIE_NAME = "jq_console"
SESSION_SECONDS = 8 * 3600  # a working day; then the token is asked for again
MAX_SESSIONS = 10_000  # a bound on memory: the oldest are dropped first


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    principal: Principal
    csrf: str  # sent back by every state-changing request, as a form field or the X-CSRF-Token header
    expires_at: float = field(compare=False)

    def csrf_matches(self, presented: str | None) -> bool:
        return presented is not None and hmac.compare_digest(presented.encode(), self.csrf.encode())


class SessionStore:
    """Sessions by id, each until its expiry or logout."""

    def __init__(self, lifetime: float = SESSION_SECONDS):
        self._lifetime = lifetime
        self._sessions: dict[str, Session] = {}
        self._notices: dict[str, list[tuple[str, str]]] = {}  # session id -> (kind, text) shown once
        self._lock = threading.Lock()

    def create(self, principal: Principal) -> Session:
        session = Session(
            id=secrets.token_urlsafe(32),
            principal=principal,
            csrf=secrets.token_urlsafe(32),
            expires_at=time.monotonic() + self._lifetime,
        )
        with self._lock:
            self._forget_expired()
            while len(self._sessions) >= MAX_SESSIONS:
                self._sessions.pop(next(iter(self._sessions)))
            self._sessions[session.id] = session
        return session

    def get(self, session_id: str | None) -> Session | None:
        if not session_id:
            return None
        with self._lock:
            session = self._sessions.get(session_id)
            if session is not None and session.expires_at <= time.monotonic():
                del self._sessions[session_id]
                return None
        return session

    def drop(self, session_id: str | None) -> None:
        if session_id:
            with self._lock:
                self._sessions.pop(session_id, None)
                self._notices.pop(session_id, None)

    def notify(self, session: Session, kind: str, text: str) -> None:
        """A notice (kind ``ok`` or ``error``) for the next page this session sees, after a redirect."""
        with self._lock:
            notices = self._notices.setdefault(session.id, [])
            notices[:] = [*notices[-4:], (kind, text)]

    def take_notices(self, session: Session) -> list[tuple[str, str]]:
        with self._lock:
            return self._notices.pop(session.id, [])

    def _forget_expired(self) -> None:
        now = time.monotonic()
        for key in [k for k, s in self._sessions.items() if s.expires_at <= now]:
            del self._sessions[key]
            self._notices.pop(key, None)
