"""The worker's periodic call: ``jq_tick`` in a loop, sleeping what each call answers
(docs/worker.md). The policy (when to rotate storage, when to run the maintenance, when
schedules fire) is jq_tick's, in SQL; this loop only keeps calling. Many workers may run it:
one session ticks at a time, the others are answered at once.

Against a database of jq before 0.6.0 (no jq_tick) it calls jq_maintain every
:data:`OLD_MAINTAIN_INTERVAL` seconds instead, as the workers of those releases did.

A tick that keeps finding the oldest generation ``busy`` (another session holds a lock on it,
e.g. ``pg_dump`` or a transaction left open after reading jq.jobs) is logged once as a
WARNING after :data:`BUSY_WARN_AFTER` seconds of it, and once more when it passes."""

from __future__ import annotations

import asyncio
import random
import time

from .._calls import expect_row
from .._calls.admin import MAINTAIN, TICK
from ..errors import NotInstalled
from .connections import DATABASE_ERRORS, Connections
from .log import log_db_error, logger
from .state import RunState
from .timing import BACKOFF_CAP

__all__ = ["Ticker"]

BUSY_WARN_AFTER = 10.0  # seconds of busy answers in a row before a WARNING
OLD_MAINTAIN_INTERVAL = 60.0  # jq_maintain's cadence against jq before 0.6.0


class Ticker:
    def __init__(self, state: RunState, connections: Connections, *, worker_name: str):
        self._state = state
        self._connections = connections
        self._name = worker_name
        self._busy_gen: int | None = None  # the generation a tick found busy, until a tick empties it
        self._busy_since = 0.0
        self._warned = False

    async def run(self) -> None:
        """Until cancelled."""
        call = self._tick
        while True:
            try:
                delay = await call()
            except NotInstalled:
                logger.info("worker %s: the database has no jq_tick (jq before 0.6.0): jq_maintain instead", self._name)
                call = self._maintain
                delay = OLD_MAINTAIN_INTERVAL * random.uniform(0.5, 1.0)
            # A little jitter, so that workers started together do not call in step; never early, since a
            # call before the time jq_tick asked for is only answered with the time left.
            await asyncio.sleep(delay * random.uniform(1.0, 1.1))

    async def _maintain(self) -> float:
        self._state.stats["maintain"] += 1
        self._state.stats["round_trips"] += 1
        try:
            async with self._connections.connection() as conn:
                await MAINTAIN.run_async(conn)
        except DATABASE_ERRORS as exc:
            log_db_error(self._name, "jq_maintain", exc)
            return BACKOFF_CAP
        return OLD_MAINTAIN_INTERVAL

    async def _tick(self) -> float:
        """One call; the seconds to sleep before the next."""
        self._state.stats["tick"] += 1
        self._state.stats["round_trips"] += 1
        try:
            async with self._connections.connection() as conn:
                done = expect_row(await TICK.run_async(conn), "jq_tick")
        except NotInstalled:
            raise
        except DATABASE_ERRORS as exc:
            log_db_error(self._name, "jq_tick", exc)
            return BACKOFF_CAP
        account = done.account
        logger.debug("worker %s: jq_tick: %s", self._name, account)
        if account.get("rotation") == "truncated":
            self._state.stats["storage_truncations"] += 1
        if account.get("rotation") == "turned" or account.get("turned"):
            self._state.stats["storage_turns"] += 1
        if account.get("ran"):  # an answer of another session's tick, or of an early call, says nothing of busy
            self._note_busy(account.get("rotation"), account.get("generation"))
        return done.call_again_after.total_seconds()

    def _note_busy(self, outcome: str | None, generation: int | None) -> None:
        """Follows the generation a tick first found busy until a tick empties it: the turn may make it current
        meanwhile, and the ticks between act on other generations."""
        now = time.monotonic()
        if outcome == "busy":
            if self._busy_gen is None:
                self._busy_gen, self._busy_since = generation, now
            elif generation == self._busy_gen and not self._warned and now - self._busy_since >= BUSY_WARN_AFTER:
                self._warned = True
                logger.warning(
                    "worker %s: jq.jobs generation %s could not be truncated for %.0f s: another session holds a"
                    " lock on it (pg_dump, or a transaction left open after reading jq.jobs); claims stay correct"
                    " but slow down while it lasts (docs/operations.md, Long transactions)",
                    self._name,
                    generation,
                    now - self._busy_since,
                )
        elif outcome in ("truncated", "moving") and generation == self._busy_gen:
            if self._warned:
                logger.warning("worker %s: jq.jobs generation %s is truncated again", self._name, generation)
            self._busy_gen, self._warned = None, False
