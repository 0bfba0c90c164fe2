"""The figures every console page of the queue reads (jq_stats, jq_tenants, jq_workers,
jq_throughput), kept a few seconds and refreshed behind the page rather than in front of it.

Each of those counts its whole table: with a million live jobs jq_stats takes about a second,
jq_throughput over a day at 20 M jobs/day longer. Every open overview polls every 5 s, so in
this process each figure is computed at most once per ``ttl``, however many browsers look; a
page that finds it older than that gets it as it is (with its age) and starts one refresh in the
background: only the first page after start waits for the database. An action (pause, retry)
forgets the figures, so the page it returns to shows its effect.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["RecentFigures"]


class RecentFigures:
    def __init__(self, ttl: float = 5.0):
        self._ttl = ttl
        self._kept: dict[str, tuple[float, Any]] = {}  # key -> (monotonic time computed, value)
        self._refreshing: dict[str, asyncio.Task[Any]] = {}

    async def get(self, key: str, load: Callable[[], Awaitable[Any]], ttl: float | None = None) -> Any:
        kept = self._kept.get(key)
        if kept is None:
            return await self._refresh(key, load)
        if time.monotonic() - kept[0] >= (self._ttl if ttl is None else ttl) and key not in self._refreshing:
            task = asyncio.get_running_loop().create_task(self._refresh(key, load))
            self._refreshing[key] = task
            task.add_done_callback(lambda _: self._refreshing.pop(key, None))
        return kept[1]

    def age(self, key: str) -> float | None:
        """Seconds since the figure was computed, or None."""
        kept = self._kept.get(key)
        return None if kept is None else time.monotonic() - kept[0]

    def forget(self) -> None:
        self._kept.clear()

    async def _refresh(self, key: str, load: Callable[[], Awaitable[Any]]) -> Any:
        value = await load()
        self._kept[key] = (time.monotonic(), value)
        return value
