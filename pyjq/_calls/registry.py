"""The worker registry: register, beat, deregister, list (sql/functions/workers.sql), and the job
types no live worker handles (sql/functions/unhandled.sql)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from . import Many, One, Scalar

__all__ = [
    "BEAT",
    "DEREGISTER",
    "REGISTER",
    "UNHANDLED_TYPES",
    "WORKERS",
    "Registration",
    "UnhandledType",
    "WorkerInfo",
]


@dataclass(frozen=True, slots=True)
class Registration:
    """What jq_worker_register answered: beat well within ``gone_after``."""

    worker: str
    started_at: datetime
    gone_after: timedelta


@dataclass(frozen=True, slots=True)
class WorkerInfo:
    """A row of jq_workers: a registered worker, its last beat and what it runs now."""

    worker: str
    host: str
    pid: int
    queues: dict[str, Any]  # queue -> slots
    version: str
    started_at: datetime
    last_seen: datetime
    state: str  # alive | silent (no beat for gone_after) | gone (declared gone, its jobs requeued)
    running: int
    types: list[str] | None = None  # the job types it registered; None: it did not say (or jq before 0.5.0)


@dataclass(frozen=True, slots=True)
class UnhandledType:
    """A row of jq_unhandled_types: jobs of ``type`` wait in ``queue`` and none of its live workers handles them.

    ``waiting`` and ``oldest_waiting_age`` are read from a bounded sample of the
    queue (at most 1,000 ready jobs in claim order): a lower bound on a longer queue.
    """

    queue: str
    type: str
    waiting: int
    oldest_waiting_age: timedelta
    workers: int  # the live workers serving the queue, all of which registered their types


REGISTER: One[Registration] = One(
    Registration,
    "select worker, started_at, gone_after from jq.jq_worker_register(p_worker => %(worker)s::text,"
    " p_queues => %(queues)s::jsonb, p_host => %(host)s::text, p_pid => %(pid)s::integer,"
    " p_version => %(version)s::text, p_types => %(types)s::text[])",
)
# ok | was_gone (declared gone meanwhile: the jobs it held then were requeued) | unknown (register again)
BEAT: Scalar[str] = Scalar("select jq.jq_worker_beat(p_worker => %(worker)s::text)")
DEREGISTER: Scalar[int] = Scalar("select jq.jq_worker_deregister(p_worker => %(worker)s::text)")
WORKERS: Many[WorkerInfo] = Many(WorkerInfo, "select * from jq.jq_workers()")
UNHANDLED_TYPES: Many[UnhandledType] = Many(UnhandledType, "select * from jq.jq_unhandled_types()")
