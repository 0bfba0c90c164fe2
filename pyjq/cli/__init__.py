"""The `pyjq` command. Its implementation needs click, which comes with the `cli`
extra so that the core package depends on psycopg and psycopg_pool only:
pip install 'pgjq[cli]'. This module imports no click, so the entry point
can say so.

Layout: app.py holds the root group and its error handling and registers the
commands; one module per command group (install, worker, jobs, dead,
schedules, fairness, maintain, serve, dev) defines them on top of common.py
(options, connection, output). Command modules import common.py, never each
other.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NoReturn

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Console entry point (``pyjq``): run the command, or exit 2 saying click is missing."""
    try:
        from .app import main as run
    except ModuleNotFoundError as exc:
        if exc.name != "click":
            raise
        sys.stderr.write("error: the pyjq command needs click: pip install 'pgjq[cli]'\n")
        raise SystemExit(2) from None
    run(argv)
