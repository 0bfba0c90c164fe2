"""pyjq: the thin Python client of jq, a job queue that lives in PostgreSQL.

Every queue decision is a call of a jq_* SQL function; this package
dispatches handlers, batches calls and keeps connections healthy.
"""

from .client import (
    DeadGroup,
    EnqueueResult,
    JobStatus,
    QueueStats,
    cancel,
    cancel_async,
    dead_groups,
    enqueue,
    enqueue_async,
    enqueue_many,
    enqueue_many_async,
    maintain,
    retry_dead,
    stats,
    status,
    status_async,
    version,
)
from .errors import (
    InvalidArgument,
    InvalidTimestamp,
    JQError,
    MissingArgument,
    NotInstalled,
    PermissionDenied,
    SchemaTooNew,
    ValueTooLong,
)
from .install import install
from .policies import (
    key_limit_delete,
    key_limit_set,
    queue_set_fair,
    tenant_policies,
    tenant_policy_delete,
    tenant_policy_set,
    tenants,
)
from .scheduler import (
    Schedule,
    Scheduler,
    ScheduleResult,
    list_schedules,
    pause_schedule,
    resume_schedule,
    schedule,
    unschedule,
)
from .job import Discard, Job, JobCancelled, Retry
from .worker import RunSummary, Worker

__version__ = "0.3.0"

__all__ = [
    "install",
    "Worker",
    "Job",
    "Retry",
    "Discard",
    "JobCancelled",
    "RunSummary",
    "enqueue",
    "enqueue_async",
    "enqueue_many",
    "enqueue_many_async",
    "status",
    "status_async",
    "cancel",
    "cancel_async",
    "dead_groups",
    "retry_dead",
    "stats",
    "maintain",
    "version",
    "tenant_policy_set",
    "tenant_policy_delete",
    "tenant_policies",
    "key_limit_set",
    "key_limit_delete",
    "queue_set_fair",
    "tenants",
    "schedule",
    "unschedule",
    "pause_schedule",
    "resume_schedule",
    "list_schedules",
    "Scheduler",
    "Schedule",
    "ScheduleResult",
    "EnqueueResult",
    "JobStatus",
    "DeadGroup",
    "QueueStats",
    "JQError",
    "InvalidArgument",
    "MissingArgument",
    "ValueTooLong",
    "InvalidTimestamp",
    "SchemaTooNew",
    "NotInstalled",
    "PermissionDenied",
]
