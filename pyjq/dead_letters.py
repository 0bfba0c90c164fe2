"""Dead-letter helpers above the two SQL calls: time windows, and the hint for a retry that matched nothing.

    since = pyjq.window_since("24h")
    if pyjq.retry_dead(conn, type="deliver_webhook", error="HTTP 503", since=since) == 0:
        for g in pyjq.dead_retry_hint(conn, type="deliver_webhook", since=since):
            print(g.type, g.count, g.error)

The CLI (``pyjq dead retry``) and the HTTP service (POST /dead-letter/retry) give the same hint.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

import psycopg

from ._adapters import takes_async_connection, takes_connection
from ._calls.admin import DEAD_GROUPS, DeadGroup

__all__ = [
    "HINT_GROUPS",
    "WINDOWS",
    "closest_groups",
    "dead_retry_hint",
    "dead_retry_hint_async",
    "window_since",
    "window_start",
]

# The time windows of the dead-letter views: name -> how far back.
WINDOWS: dict[str, timedelta] = {"1h": timedelta(hours=1), "24h": timedelta(hours=24), "7d": timedelta(days=7)}
HINT_GROUPS = 5  # groups a hint lists


def window_since(window: str, now: datetime | None = None) -> datetime:
    """The start of a named window (``1h``, ``24h``, ``7d``) before ``now`` (default: the current time)."""
    try:
        span = WINDOWS[window]
    except KeyError:
        raise ValueError(f"window {window!r} is not one of {', '.join(WINDOWS)}") from None
    return (now or datetime.now(UTC)) - span


def window_start(window: str | None, since: datetime | None, now: datetime | None = None) -> datetime | None:
    """Where a dead-letter view starts: ``since``, the named ``window`` before now, or with both the later
    of the two (both filters hold); None: from the beginning."""
    if window is None:
        return since
    start = window_since(window, now)
    return start if since is None else max(start, since)


def closest_groups(groups: Iterable[DeadGroup], *, type: str | None, limit: int = HINT_GROUPS) -> list[DeadGroup]:
    """The groups to suggest when a retry matched nothing: those of ``type`` first, then the largest."""
    return sorted(groups, key=lambda g: (g.type != type, -g.count, g.type, g.error))[:limit]


@takes_connection
def dead_retry_hint(
    conn: psycopg.Connection, *, type: str | None = None, since: datetime | None = None, limit: int = HINT_GROUPS
) -> list[DeadGroup]:
    """The dead groups in the window closest to a retry of ``type`` that matched nothing."""
    return closest_groups(DEAD_GROUPS.run(conn, since=since, type=None, error=None), type=type, limit=limit)


@takes_async_connection
async def dead_retry_hint_async(
    conn: psycopg.AsyncConnection, *, type: str | None = None, since: datetime | None = None, limit: int = HINT_GROUPS
) -> list[DeadGroup]:
    """dead_retry_hint on an async connection."""
    groups = await DEAD_GROUPS.run_async(conn, since=since, type=None, error=None)
    return closest_groups(groups, type=type, limit=limit)
