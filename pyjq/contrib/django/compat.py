"""One name for each part of the tasks API, from Django 6's ``django.tasks`` or the ``django-tasks`` backport.

Both have the same API (Task, TaskResult, TaskResultStatus READY/RUNNING/FAILED/
SUCCESSFUL, TaskContext, TaskError, BaseTaskBackend, the task_enqueued/started/
finished signals). They differ in module paths and in a few names: the backport
0.12 calls the invalid-task exception ``InvalidTaskError`` (Django 6:
``InvalidTask``) and keeps ``normalize_json`` in ``django_tasks.utils`` (Django 6:
``django.utils.json``). Django 6's own module wins when both are installed.
"""

from __future__ import annotations

from typing import Any

try:  # Django >= 6.0
    from django.tasks import Task, TaskContext, TaskResult, TaskResultStatus, task_backends
    from django.tasks.backends.base import BaseTaskBackend
    from django.tasks.base import TaskError
    from django.tasks.exceptions import InvalidTask, TaskResultDoesNotExist
    from django.tasks.signals import task_enqueued, task_finished, task_started
    from django.utils.json import normalize_json

    TASKS_MODULE = "django.tasks"
except ImportError:  # Django 5.2 with the django-tasks backport
    try:
        from django_tasks import TaskContext, TaskResult, TaskResultStatus, task_backends  # type: ignore[no-redef]
        from django_tasks.backends.base import BaseTaskBackend  # type: ignore[no-redef,assignment]
        from django_tasks.base import Task, TaskError  # type: ignore[no-redef,assignment]
        from django_tasks.exceptions import InvalidTaskError as InvalidTask  # type: ignore[no-redef,assignment]
        from django_tasks.exceptions import TaskResultDoesNotExist  # type: ignore[no-redef,assignment]
        from django_tasks.signals import task_enqueued, task_finished, task_started  # type: ignore[no-redef]
        from django_tasks.utils import normalize_json  # type: ignore[no-redef]
    except ImportError as exc:
        raise ImportError(
            "pyjq.contrib.django needs Django's tasks framework: Django >= 6.0 (django.tasks), or Django 5.2 "
            "with the django-tasks backport (pip install 'pgjq[django]')"
        ) from exc
    TASKS_MODULE = "django_tasks"

__all__ = [
    "TASKS_MODULE",
    "BaseTaskBackend",
    "InvalidTask",
    "Task",
    "TaskContext",
    "TaskError",
    "TaskResult",
    "TaskResultDoesNotExist",
    "TaskResultStatus",
    "module_path",
    "normalize_json",
    "task_backends",
    "task_enqueued",
    "task_finished",
    "task_started",
]


def module_path(obj: Any) -> str:
    """``module.qualname``: how both APIs name a task (``Task.module_path``) and an exception class."""
    return f"{obj.__module__}.{obj.__qualname__}"
