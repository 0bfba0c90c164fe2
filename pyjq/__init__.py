"""pyjq: the thin Python client of jq, a job queue that lives in PostgreSQL.

Every queue decision is a call of a jq_* SQL function; this package
dispatches handlers, batches calls and keeps connections healthy. A Python
function is named like its SQL function without ``jq_`` (``schedule_put`` is
``jq_schedule_put``), and each has an ``_async`` twin taking a psycopg
AsyncConnection. Results are small frozen dataclasses.
"""

from .attempts import JobAttempt, job_attempts, job_attempts_async
from .audit import AuditEntry, audit_log, audit_log_async
from .client import (
    DeadGroup,
    EnqueueResult,
    JobStatus,
    QueueStats,
    cancel,
    cancel_async,
    dead_groups,
    dead_groups_async,
    enqueue,
    enqueue_async,
    enqueue_many,
    enqueue_many_async,
    maintain,
    maintain_async,
    retry_dead,
    retry_dead_async,
    stats,
    stats_async,
    status,
    status_async,
    version,
    version_async,
)
from .dead_letters import WINDOWS, closest_groups, dead_retry_hint, dead_retry_hint_async, window_since
from .errors import (
    InvalidArgument,
    InvalidTimestamp,
    JQError,
    MissingArgument,
    NotInstalled,
    PayloadTooDeep,
    PayloadTooLarge,
    PermissionDenied,
    SchemaTooNew,
    TimestampOutOfRange,
    ValueTooLong,
)
from .install import install, installed_version
from .job import Discard, Job, JobCancelled, Retry
from .policies import (
    KeyLimit,
    TenantPolicy,
    TenantPolicyRow,
    TenantStats,
    key_limit_delete,
    key_limit_delete_async,
    key_limit_set,
    key_limit_set_async,
    queue_set_fair,
    queue_set_fair_async,
    tenant_policies,
    tenant_policies_async,
    tenant_policy_delete,
    tenant_policy_delete_async,
    tenant_policy_set,
    tenant_policy_set_async,
    tenants,
    tenants_async,
)
from .registry import WorkerInfo, workers, workers_async
from .scheduler import Scheduler
from .schedules import (
    Schedule,
    ScheduleResult,
    list_schedules,
    pause_schedule,
    resume_schedule,
    schedule,
    schedule_delete,
    schedule_delete_async,
    schedule_pause,
    schedule_pause_async,
    schedule_put,
    schedule_put_async,
    schedule_resume,
    schedule_resume_async,
    schedules,
    schedules_async,
    unschedule,
)
from .worker import RunSummary, Worker

__version__ = "0.5.0"  # the Python package's one place; sql/bootstrap.sql holds the schema's (tests compare them)

# Deprecated aliases (removed in 0.5), the names of release 0.3, kept in __all__:
#   schedule        = schedule_put
#   unschedule      = schedule_delete
#   pause_schedule  = schedule_pause
#   resume_schedule = schedule_resume
#   list_schedules  = schedules
__all__ = [
    "DeadGroup",
    "Discard",
    "EnqueueResult",
    "InvalidArgument",
    "InvalidTimestamp",
    "JQError",
    "Job",
    "JobCancelled",
    "JobStatus",
    "KeyLimit",
    "MissingArgument",
    "NotInstalled",
    "PayloadTooDeep",
    "PayloadTooLarge",
    "PermissionDenied",
    "QueueStats",
    "Retry",
    "RunSummary",
    "Schedule",
    "ScheduleResult",
    "Scheduler",
    "SchemaTooNew",
    "TenantPolicy",
    "TenantPolicyRow",
    "TenantStats",
    "TimestampOutOfRange",
    "ValueTooLong",
    "Worker",
    "WorkerInfo",
    "cancel",
    "cancel_async",
    "dead_groups",
    "dead_groups_async",
    "enqueue",
    "enqueue_async",
    "enqueue_many",
    "enqueue_many_async",
    "install",
    "installed_version",
    "key_limit_delete",
    "key_limit_delete_async",
    "key_limit_set",
    "key_limit_set_async",
    "list_schedules",
    "maintain",
    "maintain_async",
    "pause_schedule",
    "queue_set_fair",
    "queue_set_fair_async",
    "resume_schedule",
    "retry_dead",
    "retry_dead_async",
    "schedule",
    "schedule_delete",
    "schedule_delete_async",
    "schedule_pause",
    "schedule_pause_async",
    "schedule_put",
    "schedule_put_async",
    "schedule_resume",
    "schedule_resume_async",
    "schedules",
    "schedules_async",
    "stats",
    "stats_async",
    "status",
    "status_async",
    "tenant_policies",
    "tenant_policies_async",
    "tenant_policy_delete",
    "tenant_policy_delete_async",
    "tenant_policy_set",
    "tenant_policy_set_async",
    "tenants",
    "tenants_async",
    "unschedule",
    "version",
    "version_async",
    "workers",
    "workers_async",
]
# Operator console calls (#17 1d-1f): dead-letter hints and windows, the audit log, per-attempt errors.
__all__ += [
    "WINDOWS",
    "AuditEntry",
    "JobAttempt",
    "audit_log",
    "audit_log_async",
    "closest_groups",
    "dead_retry_hint",
    "dead_retry_hint_async",
    "job_attempts",
    "job_attempts_async",
    "window_since",
]
