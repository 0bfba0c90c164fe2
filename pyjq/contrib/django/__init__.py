"""A ``django.tasks`` backend that keeps Django's tasks in jq (docs/django.md).

Settings::

    INSTALLED_APPS += ["pyjq.contrib.django"]  # the jq_install and jq_worker commands
    TASKS = {"default": {"BACKEND": "pyjq.contrib.django.JQTaskBackend", "QUEUES": ["default"]}}

The same backend serves Django 6's ``django.tasks`` and, on Django 5.2, the
``django-tasks`` backport (module ``django_tasks``): :mod:`.compat` imports
whichever exists. ``JQTaskBackend`` is imported on first use, so that listing
the app in INSTALLED_APPS imports nothing of the tasks framework early.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .backend import JQTaskBackend

__all__ = ["JQTaskBackend"]


def __getattr__(name: str) -> Any:
    if name == "JQTaskBackend":
        from .backend import JQTaskBackend

        return JQTaskBackend
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
