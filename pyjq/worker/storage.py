"""The rotation of jq.jobs' generations (docs/storage.md): ``jq_storage_rotate``
just after every two-second slot boundary while the worker is busy, so a
generation is emptied and truncated as soon as it stops taking rows; when a
call leaves one busy, again :data:`RETRY_AFTER` seconds later, up to
:data:`RETRIES_PER_SLOT` times, and while a call leaves one half moved (a call
moves at most 500 rows, to keep its lock short), again
:data:`MOVING_RETRY_AFTER` seconds later, up to :data:`MOVING_RETRIES_PER_SLOT`
times, because the oldest generation takes rows again at the next boundary
and a generation not emptied by then keeps its dead rows for another round. Many
workers may run it: one rotates, the others return at once ("rotating
elsewhere"). An idle worker (nothing held, completed or failed since its last
call) calls it only every :data:`IDLE_INTERVAL` seconds: idle workers cost
next to nothing, and still truncate what busy workers of other languages
leave behind.

While the worker works, it also asks ``jq_storage_turn`` every
:data:`TURN_CHECK` seconds whether the current generation is full
(settings.rotation_turn_bytes): when that ends the slot early, the rotation
follows :data:`AFTER_BOUNDARY` later, as after a boundary, so a flood's
generations are truncated by size rather than every two seconds.

A generation that stays ``busy`` (another session holds a lock on it, e.g.
``pg_dump`` or a transaction left open after reading jq.jobs) is logged once
as a WARNING after :data:`BUSY_WARN_AFTER` slots in a row refused it, and once
more when it is truncated again."""

from __future__ import annotations

import asyncio
import time

from .._calls.storage import STORAGE_ROTATE, STORAGE_TURN
from ..errors import NotInstalled
from .connections import DATABASE_ERRORS, Connections
from .log import log_db_error, logger
from .state import RunState
from .timing import BACKOFF_CAP

__all__ = ["SLOT_SECONDS", "StorageRotation"]

SLOT_SECONDS = 2.0  # jq._storage_slot's slot length (sql/functions/storage_slot.sql)
AFTER_BOUNDARY = 0.05  # seconds after a slot boundary: statements begun in the old slot have ended
BUSY_WARN_AFTER = 5  # slots in a row whose calls left one generation 'busy', before a WARNING
IDLE_INTERVAL = 30.0  # seconds between calls of a worker that did nothing meanwhile
RETRY_AFTER = 0.5  # seconds from a call that left a generation busy to the next, within the slot
RETRIES_PER_SLOT = 2
MOVING_RETRY_AFTER = 0.1  # ... that left one half moved: claims run in between the short locks
MOVING_RETRIES_PER_SLOT = 12  # 13 calls of 500 rows: what 3 calls of 2,000 (0.6.0's first build) moved
TURN_CHECK = 0.25  # seconds between jq_storage_turn calls while working: a full generation's slot ends early
UNFINISHED = ("busy", "moving", "marks busy")  # outcomes that call again (soon, or the next slot)


class StorageRotation:
    def __init__(self, state: RunState, connections: Connections, *, worker_name: str, interval: float):
        self._state = state
        self._connections = connections
        self._name = worker_name
        self.interval = max(SLOT_SECONDS, interval)
        self._busy: dict[int, int] = {}
        self._seen: tuple[int, ...] = self._activity()
        self._last_call = time.monotonic()
        self._unfinished = False  # the last call left a generation busy or half moved: call again soon
        self._moving = False  # ... half moved: call again very soon
        self._retries = 0  # calls made since this slot's first because one was busy
        self._moving_retries = 0  # ... because one was half moved
        self._slot_busy: set[int] = set()  # generations some call of this slot left busy
        self._draining = False  # ... left one to the claims: look again while working (_until_slot_ends)
        self._turning = True  # False once the database turned out to have no jq_storage_turn
        self._seen_by_turn: tuple[int, ...] = self._seen  # activity at the last jq_storage_turn check

    async def run(self) -> None:
        """Until cancelled, or until the database turns out to have no jq_storage_rotate (jq before 0.6.0):
        one call per interval, just after a slot boundary (by this host's clock), and more within the
        slot while a call leaves work undone (:meth:`_retry_in`)."""
        while True:
            retry = self._retry_in()
            if retry is not None:
                await asyncio.sleep(retry)
            else:
                if await self._until_slot_ends():
                    self._new_slot()
                    if not self._due():
                        continue
            try:
                ok = await self._rotate()
            except NotInstalled:
                logger.warning(
                    "worker %s: the database has no jq_storage_rotate (jq older than 0.6.0): storage rotation off",
                    self._name,
                )
                return
            if not ok:
                await asyncio.sleep(BACKOFF_CAP)

    def _retry_in(self) -> float | None:
        """Seconds to the next call within this slot, counted; None: wait for the next slot."""
        left = self._until_next_boundary()
        if self._moving and self._moving_retries < MOVING_RETRIES_PER_SLOT and left > MOVING_RETRY_AFTER:
            self._moving_retries += 1
            return MOVING_RETRY_AFTER
        if self._unfinished and self._retries < RETRIES_PER_SLOT and left > RETRY_AFTER:
            self._retries += 1
            return RETRY_AFTER
        return None

    async def _until_slot_ends(self) -> bool:
        """Until just after the next slot boundary, or just after this worker ended the slot early (True: a
        new slot), or until a generation the last call left draining is worth another look (False). While
        it works, every TURN_CHECK seconds, it asks jq_storage_turn whether the current generation is
        full, and when not, looks again at a draining generation: the claims empty a flood's backlog
        within a second or so, and one left for the next boundary keeps its dead rows that much longer."""
        while True:
            left = self._until_next_boundary()
            if left <= TURN_CHECK + AFTER_BOUNDARY or not self._turning:
                await asyncio.sleep(left)
                return True
            await asyncio.sleep(TURN_CHECK)
            seen = self._activity()
            working, self._seen_by_turn = seen != self._seen_by_turn or seen[-1] > 0, seen
            if not working:
                continue
            if await self._turn():
                await asyncio.sleep(AFTER_BOUNDARY)
                return True
            if self._draining:
                return False

    async def _turn(self) -> bool:
        self._state.stats["storage_turn"] += 1
        self._state.stats["round_trips"] += 1
        try:
            async with self._connections.connection() as conn:
                turned = bool(await STORAGE_TURN.run_async(conn))
        except NotInstalled:
            logger.info("worker %s: the database has no jq_storage_turn (an earlier build): 2 s slots", self._name)
            self._turning = False
            return False
        except DATABASE_ERRORS as exc:
            log_db_error(self._name, "jq_storage_turn", exc)
            return False
        if turned:
            self._state.stats["storage_turns"] += 1
        return turned

    def _new_slot(self) -> None:
        """At a boundary: count the generations the last slot's calls left busy (and none truncated since)."""
        for generation in self._slot_busy:
            self._busy[generation] = self._busy.get(generation, 0) + 1
            if self._busy[generation] == BUSY_WARN_AFTER:
                logger.warning(
                    "worker %s: jq.jobs generation %d could not be truncated %d times in a row: another session"
                    " holds a lock on it (pg_dump, or a transaction left open after reading jq.jobs); claims stay"
                    " correct but slow down while it lasts (docs/operations.md, Long transactions)",
                    self._name,
                    generation,
                    BUSY_WARN_AFTER,
                )
        self._slot_busy.clear()
        self._retries = self._moving_retries = 0

    def _activity(self) -> tuple[int, ...]:
        """What changes whenever this worker touched jq.jobs (the rows a rotation would move or free)."""
        stats = self._state.stats
        return (stats["complete"], stats["fail"], stats["heartbeat"], stats["release"], len(self._state.held_ids()))

    def _due(self) -> bool:
        """Busy since the last call (or holding jobs), the last call left work undone, or idle for IDLE_INTERVAL."""
        now, seen = time.monotonic(), self._activity()
        busy = seen != self._seen or seen[-1] > 0
        self._seen = seen
        if busy or self._unfinished or now - self._last_call >= IDLE_INTERVAL:
            self._last_call = now
            return True
        return False

    def _until_next_boundary(self) -> float:
        now = time.time()
        return self.interval - (now % self.interval) + AFTER_BOUNDARY

    async def _rotate(self) -> bool:
        self._state.stats["storage_rotate"] += 1
        self._state.stats["round_trips"] += 1
        try:
            async with self._connections.connection() as conn:
                rows = await STORAGE_ROTATE.run_async(conn)
        except NotInstalled:
            raise
        except DATABASE_ERRORS as exc:
            log_db_error(self._name, "jq_storage_rotate", exc)
            return False
        for row in rows:
            if row.generation is None:
                continue
            if row.outcome == "truncated":
                self._state.stats["storage_truncations"] += 1
            self._note_busy(row.generation, row.outcome)
        # Call again (soon, then at the next slot) while a generation is refused or half moved, until each is done.
        self._unfinished = bool(self._busy) or bool(self._slot_busy) or any(row.outcome in UNFINISHED for row in rows)
        self._moving = any(row.outcome == "moving" for row in rows)
        self._draining = any(row.outcome == "draining" for row in rows)
        logger.debug("worker %s: jq_storage_rotate: %s", self._name, rows)
        return True

    def _note_busy(self, generation: int, outcome: str) -> None:
        if outcome == "busy":
            self._slot_busy.add(generation)
        elif outcome in ("truncated", "empty", "small", "promoted"):
            self._slot_busy.discard(generation)
            refused = self._busy.pop(generation, 0)
            if refused >= BUSY_WARN_AFTER:
                logger.warning(
                    "worker %s: jq.jobs generation %d truncated again after %d refusals",
                    self._name,
                    generation,
                    refused,
                )
