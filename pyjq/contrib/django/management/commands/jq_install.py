"""``manage.py jq_install``: install or upgrade jq in the backend's database (pyjq.install)."""

from __future__ import annotations

from typing import Any

import psycopg
from django.core.management.base import BaseCommand, CommandParser

import pyjq

from ._backend import jq_backend


class Command(BaseCommand):
    help = "Install jq into the database of the jq tasks backend, or upgrade it in place (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--backend", help="the TASKS alias (default: the one jq backend)")
        parser.add_argument("--dsn", help="conninfo to install with (default: the backend's database)")

    def handle(self, *args: Any, backend: str | None = None, dsn: str | None = None, **options: Any) -> None:
        jq = jq_backend(backend)
        with psycopg.connect(dsn or jq.dsn, autocommit=True) as conn:
            version = pyjq.install(conn)
        self.stdout.write(f"jq {version} is installed")
