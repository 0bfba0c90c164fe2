"""``jq_maintain`` every ``maintain_interval`` seconds (with jitter), on its own timer."""

from __future__ import annotations

import asyncio
import random

from .._calls.worker import MAINTAIN
from .connections import DATABASE_ERRORS, Connections
from .log import log_db_error, logger
from .state import RunState
from .timing import BACKOFF_CAP

__all__ = ["Maintenance"]


class Maintenance:
    def __init__(self, state: RunState, connections: Connections, *, worker_name: str, interval: float):
        self._state = state
        self._connections = connections
        self._name = worker_name
        self.interval = interval

    async def run(self) -> None:
        """Until cancelled; the first call after half to one interval, so workers started together spread out."""
        delay = self.interval * random.uniform(0.5, 1.0)
        while True:
            await asyncio.sleep(delay)
            delay = self.interval * random.uniform(0.8, 1.2)
            self._state.stats["maintain"] += 1
            self._state.stats["round_trips"] += 1
            try:
                async with self._connections.connection() as conn:
                    done = await MAINTAIN.run_async(conn)
            except DATABASE_ERRORS as exc:
                log_db_error(self._name, "jq_maintain", exc)
                delay = min(delay, BACKOFF_CAP)
                continue
            logger.debug("worker %s: jq_maintain: %s", self._name, done)
