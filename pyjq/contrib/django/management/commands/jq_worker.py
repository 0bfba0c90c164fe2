"""``manage.py jq_worker``: a pyjq worker running the project's tasks until SIGTERM/SIGINT, or until drained."""

from __future__ import annotations

import logging
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...discovery import discover_tasks
from ...runner import build_worker
from ._backend import jq_backend


class Command(BaseCommand):
    help = (
        "Run the tasks of the jq tasks backend: every Task in the apps' tasks modules (and --module), "
        "on the backend's QUEUES, until SIGTERM or SIGINT (graceful), or with --drain until none is runnable."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--backend", help="the TASKS alias (default: the one jq backend)")
        parser.add_argument(
            "--queue",
            action="append",
            default=[],
            metavar="NAME[=SLOTS]",
            help="a queue to run (repeatable; default: the backend's QUEUES with OPTIONS['CONCURRENCY'] slots)",
        )
        parser.add_argument("--module", action="append", default=[], help="another module holding tasks")
        parser.add_argument(
            "--drain", action="store_true", help="exit once no job is runnable in the queues and none is running"
        )
        parser.add_argument("--drain-timeout", type=float, default=60.0, help="seconds --drain may take (60)")
        parser.add_argument("--name", help="the worker's name (default host:pid:random)")

    def handle(self, *args: Any, **options: Any) -> None:
        backend = jq_backend(options["backend"])
        tasks = discover_tasks(backend.alias, [*backend.modules, *options["module"]])
        if not tasks:
            raise CommandError(f"no tasks of backend {backend.alias!r} found in the apps' tasks modules or --module")
        queues = _queues(options["queue"], backend)
        extra = {"name": options["name"]} if options["name"] else {}
        worker = build_worker(backend, tasks, queues, **extra)
        if options["verbosity"] > 1:
            logging.getLogger("pyjq").setLevel(logging.DEBUG)
        self.stdout.write(f"jq worker {worker.name}: queues {queues}, tasks {sorted(tasks)}")
        self.stdout.flush()
        summary = worker.run_until_empty(timeout=options["drain_timeout"]) if options["drain"] else worker.run()
        self.stdout.write(
            f"jq worker stopped: {summary.succeeded} succeeded, {summary.failed_retrying} failed (retrying), "
            f"{summary.dead} dead, {summary.cancelled} cancelled"
        )


def _queues(specs: list[str], backend: Any) -> dict[str, int]:
    if not specs:
        if not backend.queues:
            raise CommandError("the backend's QUEUES is empty (any queue): name the queues with --queue")
        return {queue: backend.concurrency for queue in sorted(backend.queues)}
    queues = {}
    for spec in specs:
        name, _, slots = spec.partition("=")
        try:
            queues[name] = int(slots) if slots else backend.concurrency
        except ValueError:
            raise CommandError(f"--queue {spec!r}: SLOTS must be a whole number") from None
    return queues
