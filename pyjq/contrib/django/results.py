"""jq's view of a job (``pyjq.status``) as the tasks framework's TaskResult, and the mappings both ways.

Priority: Django's -100..100 (higher runs sooner) is jq's priority as it is;
jq's range (a smallint, -32768..32767, higher runs first) holds it whole, so a
Django task at priority 5 competes fairly with a plain ``pyjq.enqueue(...,
priority=5)``. A job enqueued outside Django with a priority beyond ±100 reads
back clamped to the tasks framework's range.

Status: scheduled, queued and failed_retrying (waiting for its next attempt)
are READY; running is RUNNING; succeeded is SUCCESSFUL; dead and cancelled are
FAILED. Errors: one TaskError per failed attempt jq keeps (``jq_job_attempts``,
the last 10: 'Type: message' and a traceback), or, where those cannot be read,
the job's last error (``jq_status.last_error``). The return value is
``jq_status.result``.
"""

from __future__ import annotations

import builtins
import json
import re
from datetime import datetime
from typing import Any

from pyjq import JobAttempt, JobStatus

from .compat import TaskError, TaskResult, TaskResultStatus

__all__ = [
    "DJANGO_PRIORITY_MAX",
    "DJANGO_PRIORITY_MIN",
    "from_jq_priority",
    "result_from_status",
    "task_error",
    "task_result",
    "to_jq_priority",
]

DJANGO_PRIORITY_MIN, DJANGO_PRIORITY_MAX = -100, 100

_STATUS = {
    "scheduled": TaskResultStatus.READY,
    "queued": TaskResultStatus.READY,
    "failed_retrying": TaskResultStatus.READY,
    "running": TaskResultStatus.RUNNING,
    "succeeded": TaskResultStatus.SUCCESSFUL,
    "dead": TaskResultStatus.FAILED,
    "cancelled": TaskResultStatus.FAILED,
}

# pyjq's error text names these without their module (pyjq/worker/errortext.py).
_PYJQ_JOB_EXCEPTIONS = frozenset({"Retry", "Discard", "JobCancelled"})
_ERROR_TYPE = re.compile(r"^([A-Za-z_][\w.]*)(?::|$)")


def to_jq_priority(priority: int) -> int:
    """The jq priority of a Django priority: the same number."""
    return int(priority)


def from_jq_priority(priority: int | None) -> int:
    """The Django priority of a jq job: the same number, clamped to -100..100."""
    return max(DJANGO_PRIORITY_MIN, min(DJANGO_PRIORITY_MAX, priority or 0))


def task_error(error_text: str) -> TaskError:
    """A TaskError from jq's error text: the class named on its first line, the whole text as traceback."""
    match = _ERROR_TYPE.match(error_text)
    name = match.group(1) if match else "Exception"
    if "." not in name:
        if name in _PYJQ_JOB_EXCEPTIONS:
            name = f"pyjq.job.{name}"
        elif isinstance(getattr(builtins, name, None), type):
            name = f"builtins.{name}"
        else:
            name = "builtins.Exception"  # e.g. jq's own texts ('lease expired ...'): no class to name
    return TaskError(exception_class_path=name, traceback=error_text)


def task_result(
    task: Any,
    *,
    id: str,
    status: Any,
    args: list[Any],
    kwargs: dict[str, Any],
    backend: str,
    enqueued_at: datetime | None = None,
    started_at: datetime | None = None,
    finished_at: datetime | None = None,
    errors: list[Any] | None = None,
    worker_ids: list[str] | None = None,
) -> Any:
    """A TaskResult with the fields both APIs share (last_attempted_at is the start of the last attempt)."""
    return TaskResult(
        task=task,
        id=id,
        status=status,
        enqueued_at=enqueued_at,
        started_at=started_at,
        finished_at=finished_at,
        last_attempted_at=started_at,
        args=args,
        kwargs=kwargs,
        backend=backend,
        errors=errors or [],
        worker_ids=worker_ids or [],
    )


def result_from_status(
    task: Any,
    status: JobStatus,
    backend: str,
    attempts: list[JobAttempt] | None = None,
    *,
    result_is_text: bool = True,
) -> Any:
    """The TaskResult of a job as jq_status (and jq_job_attempts, if read: ``attempts``) report it.

    jq_status does not return the payload or start times: ``args``/``kwargs``
    are empty, ``started_at``/``last_attempted_at`` None. ``worker_ids`` has an
    entry per attempt (so ``attempts`` counts right): the worker of each failed
    attempt jq logged, "" for the others. ``result_is_text``: the status was read
    on Django's connection, whose psycopg adapters load jsonb as JSON text.
    """
    django_status = _STATUS.get(status.status, TaskResultStatus.READY)
    result = task_result(
        task,
        id=str(status.job_id),
        status=django_status,
        args=[],
        kwargs={},
        backend=backend,
        enqueued_at=status.created_at,
        finished_at=status.finished_at,
        errors=_errors(status, attempts),
        worker_ids=_worker_ids(status, attempts or []),
    )
    if django_status == TaskResultStatus.SUCCESSFUL:
        object.__setattr__(result, "_return_value", _return_value(status, result_is_text))
    return result


def _errors(status: JobStatus, attempts: list[JobAttempt] | None) -> list[Any]:
    if attempts:
        return [task_error(a.error) for a in attempts]
    if status.last_error:
        return [task_error(status.last_error)]
    if status.status == "cancelled":
        return [task_error("JobCancelled: the job was cancelled before it ran (jq status cancelled)")]
    return []


def _worker_ids(status: JobStatus, attempts: list[JobAttempt]) -> list[str]:
    by_attempt = {a.attempt: a.worker or "" for a in attempts}
    return [by_attempt.get(n, "") for n in range(1, status.attempts + 1)]


def _return_value(status: JobStatus, is_text: bool) -> Any:
    """The handler's return value jq stored (JobStatus.result), None where jq stores none."""
    value = getattr(status, "result", None)
    if is_text and isinstance(value, str):
        return json.loads(value)
    return value
