"""Storage calls: the partitions of jq.jobs and jq.queue_waiters and their sizes
(sql/functions/storage.sql, docs/storage.md). Their rotation is jq_tick's (admin.TICK)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from . import Many

__all__ = ["STORAGE", "StoragePart"]


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


STORAGE: Many[StoragePart] = Many(StoragePart, "select * from jq.jq_storage()")
