"""The console's throughput query (sql/functions/throughput.sql)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from . import Many

__all__ = ["THROUGHPUT", "ThroughputBucket"]


@dataclass(frozen=True, slots=True)
class ThroughputBucket:
    bucket_start: datetime
    succeeded: int
    cancelled: int
    dead: int
    failed_attempts: int


THROUGHPUT: Many[ThroughputBucket] = Many(
    ThroughputBucket,
    "select * from jq.jq_throughput(p_since => %(since)s::timestamptz, p_bucket => %(bucket)s::interval)",
)
