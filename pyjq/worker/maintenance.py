"""The worker's periodic upkeep, on timers of its own: ``jq_maintain`` every ``maintain_interval``
seconds, and the check for job types nobody handles (:mod:`.unhandled`) every ``check_unhandled``
seconds (30 by default), each with jitter and either one optional."""

from __future__ import annotations

import asyncio
import math
import random
import time

from .._calls.worker import MAINTAIN
from .connections import DATABASE_ERRORS, Connections
from .log import log_db_error, logger
from .state import RunState
from .timing import BACKOFF_CAP
from .unhandled import UnhandledTypes

__all__ = ["Maintenance"]


class Maintenance:
    def __init__(
        self,
        state: RunState,
        connections: Connections,
        *,
        worker_name: str,
        interval: float | None,
        unhandled: UnhandledTypes | None = None,
    ):
        self._state = state
        self._connections = connections
        self._name = worker_name
        self.interval = interval
        self.unhandled = unhandled

    async def run(self) -> None:
        """Until cancelled; each first call after half to one interval, so workers started together spread out."""
        now = time.monotonic()
        next_maintain = now + self.interval * random.uniform(0.5, 1.0) if self.interval else math.inf
        next_check = now + self.unhandled.interval * random.uniform(0.5, 1.0) if self.unhandled else math.inf
        while True:
            await asyncio.sleep(max(0.0, min(next_maintain, next_check) - time.monotonic()))
            now = time.monotonic()
            if now >= next_maintain and self.interval:
                ok = await self._maintain()
                delay = self.interval * random.uniform(0.8, 1.2)
                next_maintain = time.monotonic() + (delay if ok else min(delay, BACKOFF_CAP))
            if now >= next_check and self.unhandled is not None:
                ok = await self._check_unhandled(self.unhandled)
                delay = self.unhandled.interval * random.uniform(0.8, 1.2)
                next_check = time.monotonic() + (delay if ok else min(delay, BACKOFF_CAP))

    async def _maintain(self) -> bool:
        self._count("maintain")
        try:
            async with self._connections.connection() as conn:
                done = await MAINTAIN.run_async(conn)
        except DATABASE_ERRORS as exc:
            log_db_error(self._name, "jq_maintain", exc)
            return False
        logger.debug("worker %s: jq_maintain: %s", self._name, done)
        return True

    async def _check_unhandled(self, unhandled: UnhandledTypes) -> bool:
        self._count("unhandled_types")
        try:
            async with self._connections.connection() as conn:
                await unhandled.check(conn)
        except DATABASE_ERRORS as exc:
            log_db_error(self._name, "jq_unhandled_types", exc)
            return False
        return True

    def _count(self, call: str) -> None:
        self._state.stats[call] += 1
        self._state.stats["round_trips"] += 1
