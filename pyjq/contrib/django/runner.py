"""A pyjq.Worker that runs Django tasks: one handler per task, its type the task's module path.

A handler rebuilds the call from the job's payload (``{"args": [...],
"kwargs": {...}}``), passes a TaskContext first when the task takes one, and
returns the task's return value (made JSON, as the tasks framework does) for
jq to store with the job. A coroutine task runs on the worker's event loop, a
plain one in the worker's threads, between Django's usual connection clean-ups
(``close_old_connections``, what Django does around a request). The tasks
framework's signals are sent: task_started before each attempt, task_finished
after it (status SUCCESSFUL, FAILED on the last attempt, READY when jq will
retry).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from inspect import iscoroutinefunction
from typing import Any

from django.db import close_old_connections
from django.utils import timezone

import pyjq

from .compat import TaskContext, TaskResultStatus, normalize_json, task_finished, task_started
from .results import task_result

__all__ = ["build_worker", "handler_for"]


def build_worker(backend: Any, tasks: Mapping[str, Any], queues: Mapping[str, int], **options: Any) -> pyjq.Worker:
    """A pyjq.Worker on ``backend``'s database with a handler for each of ``tasks`` (module path -> Task)."""
    worker_options = {**backend.worker_options, **options}
    worker_options.setdefault("dsn", backend.dsn)
    worker = pyjq.Worker(queues=dict(queues), **worker_options)
    for path, task in sorted(tasks.items()):
        worker.add_handler(path, handler_for(task, backend.alias))
    return worker


def handler_for(task: Any, backend_alias: str) -> Callable[[pyjq.Job], Any]:
    """The pyjq handler running ``task``: a coroutine function for an async task, else a plain one."""
    if iscoroutinefunction(task.func):

        async def run_async(job: pyjq.Job) -> Any:
            result, args, kwargs = _start(task, job, backend_alias)
            with _reported(result, job):
                return normalize_json(await task.func(*args, **kwargs))

        return run_async

    def run_sync(job: pyjq.Job) -> Any:
        close_old_connections()
        try:
            result, args, kwargs = _start(task, job, backend_alias)
            with _reported(result, job):
                return normalize_json(task.func(*args, **kwargs))
        finally:
            close_old_connections()

    return run_sync


@contextmanager
def _reported(result: Any, job: pyjq.Job) -> Iterator[None]:
    """Send task_finished when the attempt ends, with the status it ended in (inside the except
    clause on failure, where Django's logging receiver reads the exception)."""
    try:
        yield
    except BaseException:
        _finish(result, TaskResultStatus.FAILED if job.is_last_attempt else TaskResultStatus.READY)
        raise
    _finish(result, TaskResultStatus.SUCCESSFUL)


def _start(task: Any, job: pyjq.Job, backend_alias: str) -> tuple[Any, list[Any], dict[str, Any]]:
    """The running attempt's TaskResult (sent with task_started) and the call's arguments."""
    args: list[Any] = list(job.payload.get("args", []))
    kwargs: dict[str, Any] = dict(job.payload.get("kwargs", {}))
    now = timezone.now()
    result = task_result(
        task,
        id=str(job.id),
        status=TaskResultStatus.RUNNING,
        args=args,
        kwargs=kwargs,
        backend=backend_alias,
        enqueued_at=job.created_at,
        started_at=now,
        worker_ids=_worker_ids(job),
    )
    task_started.send(type(task.get_backend()), task_result=result)
    if task.takes_context:
        args = [TaskContext(task_result=result), *args]
    return result, args, kwargs


def _finish(result: Any, status: Any) -> None:
    object.__setattr__(result, "status", status)
    object.__setattr__(result, "finished_at", timezone.now())
    task_finished.send(type(result.task.get_backend()), task_result=result)


def _worker_ids(job: pyjq.Job) -> list[str]:
    """One entry per attempt so far (TaskContext.attempt counts them): this worker for this attempt;
    jq does not tell which workers ran the earlier ones."""
    earlier: Iterable[str] = [""] * (job.attempts - 1)
    return [*earlier, job.worker]
