"""Bodies of the storage route (pydantic, camelCase): GET /storage."""

from __future__ import annotations

from datetime import datetime

from pydantic import ConfigDict, Field

from .models import _Response

__all__ = ["StorageList", "StoragePart"]


class StoragePart(_Response):
    generation: int = Field(description="0, 1, 2: the generations that take new rows in turn; 3: jobs_waiting.")
    partition_name: str = Field(
        description="jobs_g0, jobs_g1, jobs_g2 or jobs_waiting; queue_waiters_g0, _g1 or _g2 (schema jq)."
    )
    role: str = Field(
        description="current (takes new rows now), previous (took them before the last turn), oldest (the next to "
        "take them, emptied by jq_tick) or waiting."
    )
    live_rows: int = Field(description="Live rows, from PostgreSQL's statistics (a moment behind).")
    dead_rows: int = Field(description="Dead row versions, from the statistics: what a held snapshot pins.")
    bytes: int = Field(description="On disk, indexes and TOAST included.")
    truncated_at: datetime | None = Field(description="The last truncation by jq_tick; null: never.")
    truncations: int = Field(description="Truncations since jq was installed.")
    moved: int = Field(description="Live rows the rotation has moved out of it, in all.")


class StorageList(_Response):
    model_config = ConfigDict(
        json_schema_extra={
            "example": {
                "partitions": [
                    {
                        "generation": 0,
                        "partitionName": "jobs_g0",
                        "role": "current",
                        "liveRows": 120,
                        "deadRows": 40,
                        "bytes": 106496,
                        "truncatedAt": "2026-12-01T12:00:02Z",
                        "truncations": 5120,
                        "moved": 310,
                    }
                ]
            }
        }
    )
    partitions: list[StoragePart] = Field(
        description="The four partitions of jq.jobs by generation, then the three of jq.queue_waiters."
    )
