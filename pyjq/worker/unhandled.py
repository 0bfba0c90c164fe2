"""Job types waiting in the worker's queues that no running worker handles (jq_unhandled_types).

A job whose type no worker has a handler for is never claimed and never fails:
without a word it waits for ever (a typo in a type name, a handler not deployed
yet). The worker asks ``jq_unhandled_types`` every ``interval`` seconds (30 by
default, with jitter) on the run's pool, and logs one WARNING per (queue, type)
the first time it shows up in one of this worker's queues::

    jobs of type 'make_report' wait in queue 'default' and no running worker handles them:
    registered types are charge_card, send_welcome_email (3 waiting, the oldest for 38 s; 1 worker serves the queue)

The answer speaks only for queues whose live workers all registered their types
(sql/functions/unhandled.sql); docs/operations.md, "Jobs nobody handles".
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

import psycopg

from .._calls.registry import UNHANDLED_TYPES, UnhandledType
from .connections import DATABASE_ERRORS, Connections
from .log import log_db_error, logger
from .state import RunState
from .timing import BACKOFF_CAP

__all__ = ["UnhandledTypes"]


class UnhandledTypes:
    """Warns once per (queue, type) per run."""

    def __init__(self, *, worker_name: str, queues: Sequence[str], types: Sequence[str], interval: float):
        self._name = worker_name
        self._queues = frozenset(queues)
        self._types = sorted(types)
        self.interval = interval
        self._warned: set[tuple[str, str]] = set()

    async def run(self, state: RunState, connections: Connections) -> None:
        """Until cancelled; the first check after half to one interval, so workers started together spread out."""
        delay = self.interval * random.uniform(0.5, 1.0)
        while True:
            await asyncio.sleep(delay)
            state.stats["unhandled_types"] += 1
            state.stats["round_trips"] += 1
            delay = self.interval * random.uniform(0.8, 1.2)
            try:
                async with connections.connection() as conn:
                    await self.check(conn)
            except DATABASE_ERRORS as exc:
                log_db_error(self._name, "jq_unhandled_types", exc)
                delay = min(delay, BACKOFF_CAP)

    async def check(self, conn: psycopg.AsyncConnection[Any]) -> list[UnhandledType]:
        """One jq_unhandled_types call; returns the rows of this worker's queues that were new."""
        rows = await UNHANDLED_TYPES.run_async(conn)
        new = [r for r in rows if r.queue in self._queues and (r.queue, r.type) not in self._warned]
        for row in new:
            self._warned.add((row.queue, row.type))
            logger.warning(
                "jobs of type %r wait in queue %r and no running worker handles them: registered types are %s"
                " (%d waiting, the oldest for %.0f s; %d worker%s serve%s the queue)",
                row.type,
                row.queue,
                ", ".join(self._types),
                row.waiting,
                row.oldest_waiting_age.total_seconds(),
                row.workers,
                "" if row.workers == 1 else "s",
                "s" if row.workers == 1 else "",
                extra={"jq_queue": row.queue, "jq_type": row.type, "jq_waiting": row.waiting},
            )
        return new
