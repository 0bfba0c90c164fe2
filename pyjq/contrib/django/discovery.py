"""Which tasks a jq_worker runs: the Task objects of the apps' ``tasks`` modules and of the named modules.

The tasks framework keeps no registry of tasks, and a worker can only claim
the job types it has handlers for, so the worker imports each installed app's
``tasks`` module (as Django's admin autodiscovers ``admin``), the backend's
``MODULES`` and the command's ``--module`` arguments, and takes every
module-level Task bound to its backend alias.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from django.apps import apps
from django.utils.module_loading import module_has_submodule

from .compat import Task

__all__ = ["discover_tasks"]


def discover_tasks(backend_alias: str, modules: Iterable[str] = ()) -> dict[str, Any]:
    """Module path -> Task, for the tasks of ``backend_alias`` found in the apps and ``modules``."""
    found: dict[str, Any] = {}
    for module in [*_app_task_modules(), *(importlib.import_module(name) for name in modules)]:
        for value in vars(module).values():
            if isinstance(value, Task) and value.backend == backend_alias:
                found.setdefault(value.module_path, value)
    return found


def _app_task_modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"{config.name}.tasks")
        for config in apps.get_app_configs()
        if module_has_submodule(config.module, "tasks")
    ]
