"""The test project's one import of the tasks framework: Django 6's django.tasks, or the django-tasks backport."""

try:
    from django.tasks import TaskResultStatus, default_task_backend, task
    from django.tasks.exceptions import InvalidTask, TaskResultDoesNotExist
except ImportError:
    from django_tasks import TaskResultStatus, default_task_backend, task
    from django_tasks.exceptions import InvalidTaskError as InvalidTask
    from django_tasks.exceptions import TaskResultDoesNotExist

__all__ = ["InvalidTask", "TaskResultDoesNotExist", "TaskResultStatus", "default_task_backend", "task"]
