"""The JQTaskBackend a command works with: the one named by --backend, or the only one configured."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from ...compat import task_backends

__all__ = ["jq_backend"]


def jq_backend(alias: str | None) -> Any:
    from ...backend import JQTaskBackend

    aliases = [alias] if alias else list(task_backends.settings)
    found = [a for a in aliases if isinstance(task_backends[a], JQTaskBackend)]
    if alias and not found:
        raise CommandError(f"TASKS[{alias!r}] is not a pyjq.contrib.django.JQTaskBackend")
    if not found:
        raise CommandError("no TASKS backend is a pyjq.contrib.django.JQTaskBackend")
    if len(found) > 1:
        raise CommandError(f"several TASKS backends use jq ({', '.join(found)}): choose one with --backend")
    return task_backends[found[0]]
