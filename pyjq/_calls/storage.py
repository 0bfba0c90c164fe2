"""Storage calls: the rotation of jq.jobs' generations and their sizes
(sql/functions/storage.sql, docs/storage.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from . import Many, Scalar

__all__ = ["STORAGE", "STORAGE_ROTATE", "STORAGE_TURN", "Rotation", "StoragePart"]


@dataclass(frozen=True, slots=True)
class Rotation:
    """What one jq_storage_rotate call did to one generation (3: jobs_waiting)."""

    generation: int | None  # None: another session was rotating
    # truncated, moving, empty, small, current, draining, busy, promoted, rotating elsewhere;
    # marks truncated, marks busy
    outcome: str
    moved: int


@dataclass(frozen=True, slots=True)
class StoragePart:
    """One partition of jq.jobs or of jq.queue_waiters, as jq_storage() reports it."""

    generation: int
    partition_name: str
    role: str  # current, previous, oldest, waiting
    live_rows: int
    dead_rows: int
    bytes: int
    truncated_at: datetime | None
    truncations: int
    moved: int


STORAGE_ROTATE: Many[Rotation] = Many(Rotation, "select * from jq.jq_storage_rotate()")
# True: the current slot ended early, its full generation is truncated by the next rotation.
STORAGE_TURN: Scalar[bool] = Scalar("select jq.jq_storage_turn()")
STORAGE: Many[StoragePart] = Many(StoragePart, "select * from jq.jq_storage()")
