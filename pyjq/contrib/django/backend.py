"""JQTaskBackend: Django's tasks, enqueued into jq in Django's own transaction.

``TASKS = {"default": {"BACKEND": "pyjq.contrib.django.JQTaskBackend",
"QUEUES": ["default", "emails"], "OPTIONS": {...}}}``. OPTIONS (all optional):

* ``DATABASE``: the DATABASES alias jq is installed in (default ``"default"``);
  enqueue and get_result run on that connection, inside its open transaction;
* ``MAX_ATTEMPTS``: attempts per job (1-1000; default jq's, 25);
* ``CONCURRENCY``: jobs of each queue a ``jq_worker`` runs at once (default 10);
* ``DSN``: the worker's and installer's conninfo (default: from ``DATABASE``);
* ``WORKER``: further keyword arguments of :class:`pyjq.Worker` (``lease``,
  ``poll_interval``, ``shutdown_grace``, ``listen_dsn``, ...);
* ``MODULES``: modules holding tasks besides each app's ``tasks`` module.

A job's type is the task's module path, its payload ``{"args": [...],
"kwargs": {...}}``, its id the TaskResult's id.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

import pyjq
from pyjq._limits import MAX_ATTEMPTS_MAX, MAX_ATTEMPTS_MIN, QUEUE_NAME, TYPE_MAX

from .compat import (
    BaseTaskBackend,
    InvalidTask,
    Task,
    TaskResultDoesNotExist,
    TaskResultStatus,
    normalize_json,
    task_enqueued,
)
from .connection import check_database, raw_connection, worker_dsn
from .results import from_jq_priority, result_from_status, task_result, to_jq_priority

__all__ = ["JQTaskBackend"]

DEFAULT_CONCURRENCY = 10


class JQTaskBackend(BaseTaskBackend):
    supports_defer = True
    supports_async_task = True
    supports_get_result = True
    supports_priority = True

    def __init__(self, alias: str, params: dict[str, Any]) -> None:
        super().__init__(alias, params)
        options = self.options
        self.database: str = options.get("DATABASE", "default")
        self.max_attempts: int | None = options.get("MAX_ATTEMPTS")
        self.concurrency: int = int(options.get("CONCURRENCY", DEFAULT_CONCURRENCY))
        self.worker_options: dict[str, Any] = dict(options.get("WORKER", {}))
        self.modules: list[str] = list(options.get("MODULES", []))
        self._dsn: str | None = options.get("DSN")
        if self.max_attempts is not None and not MAX_ATTEMPTS_MIN <= self.max_attempts <= MAX_ATTEMPTS_MAX:
            raise ImproperlyConfigured(
                f"TASKS[{alias!r}]['OPTIONS']['MAX_ATTEMPTS'] must be {MAX_ATTEMPTS_MIN}-{MAX_ATTEMPTS_MAX}"
            )
        if self.concurrency < 1:
            raise ImproperlyConfigured(f"TASKS[{alias!r}]['OPTIONS']['CONCURRENCY'] must be at least 1")

    @property
    def dsn(self) -> str:
        """The conninfo the worker and the installer connect with."""
        return self._dsn or worker_dsn(self.database)

    # -- validation ----------------------------------------------------------------

    def validate_task(self, task: Any) -> None:
        super().validate_task(task)
        if not QUEUE_NAME.match(task.queue_name):
            raise InvalidTask(f"Queue {task.queue_name!r} is not a jq queue name (1-64 letters, digits and _ . : -).")
        if len(task.module_path) > TYPE_MAX:
            raise InvalidTask(f"jq job types are at most {TYPE_MAX} characters; {task.module_path!r} is longer.")

    def check(self, **kwargs: Any) -> Iterable[checks.CheckMessage]:
        yield from super().check(**kwargs)
        yield from check_database(self.database, self.alias)
        for queue in sorted(self.queues):
            if not QUEUE_NAME.match(queue):
                yield checks.Error(
                    f"TASKS[{self.alias!r}]['QUEUES'] has {queue!r}, not a jq queue name "
                    f"(1-64 letters, digits and _ . : -)",
                    id="pyjq.E004",
                )

    # -- enqueue -------------------------------------------------------------------

    def enqueue(self, task: Any, args: Any, kwargs: Any) -> Any:
        """Write the job in the open transaction of the DATABASE connection (autocommit outside atomic())."""
        self.validate_task(task)
        args, kwargs = normalize_json(list(args)), normalize_json(dict(kwargs))  # TypeError if not JSON
        with transaction.mark_for_rollback_on_error(using=self.database):
            job = pyjq.enqueue(
                raw_connection(self.database),
                task.module_path,
                {"args": args, "kwargs": kwargs},
                queue=task.queue_name,
                priority=to_jq_priority(task.priority),
                run_at=_aware(task.run_after),
                max_attempts=self.max_attempts,
            )
        result = task_result(
            task,
            id=str(job.job_id),
            status=TaskResultStatus.READY,
            args=args,
            kwargs=kwargs,
            backend=self.alias,
            enqueued_at=timezone.now(),
        )
        task_enqueued.send(type(self), task_result=result)
        return result

    # -- results -------------------------------------------------------------------

    def get_result(self, result_id: str) -> Any:
        """The job's TaskResult from jq_status, read in the DATABASE connection's transaction."""
        try:
            job_id = UUID(str(result_id))
        except ValueError:
            raise TaskResultDoesNotExist(f"{result_id!r} is not a jq job id") from None
        with transaction.mark_for_rollback_on_error(using=self.database):
            status = pyjq.status(raw_connection(self.database), job_id)
        if status is None:
            raise TaskResultDoesNotExist(f"no jq job has the id {result_id}")
        task = self._task_of(status)
        attempts = self._failed_attempts(job_id) if status.attempts else []
        return result_from_status(task, status, self.alias, attempts)

    def _failed_attempts(self, job_id: UUID) -> list[pyjq.JobAttempt] | None:
        """The job's logged failed attempts (jq_job_attempts), or None for a role that may not read them
        (jq_producer: jq_worker and jq_admin may), in a savepoint so the caller's transaction goes on."""
        try:
            with transaction.atomic(using=self.database):
                return pyjq.job_attempts(raw_connection(self.database), job_id)
        except pyjq.PermissionDenied:
            return None

    def _task_of(self, status: pyjq.JobStatus) -> Any:
        """The Task the job's type names, with the job's queue and priority."""
        try:
            task = import_string(status.type)
        except ImportError:
            task = None
        if not isinstance(task, Task):
            raise TaskResultDoesNotExist(f"jq job {status.job_id} has type {status.type!r}, which is not a task")
        # jq_status has no priority for a finished job: the task's own then.
        priority = task.priority if status.priority is None else from_jq_priority(status.priority)
        try:
            return task.using(queue_name=status.queue, priority=priority)
        except InvalidTask:  # e.g. a queue the settings no longer list: the task as defined
            return task


def _aware(run_after: datetime | None) -> datetime | None:
    """run_after as jq's run_at; a naive time (USE_TZ = False) is in Django's current time zone."""
    if run_after is None or timezone.is_aware(run_after):
        return run_after
    return timezone.make_aware(run_after)
