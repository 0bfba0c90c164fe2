"""The `pyjq` command. Its implementation (pyjq/cli/app.py) needs click, which
comes with the `cli` extra so that the core package depends on psycopg,
psycopg_pool and croniter only: pip install 'pyjq[cli]'."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NoReturn


def main(argv: Sequence[str] | None = None) -> NoReturn:
    try:
        from .app import main as run
    except ModuleNotFoundError as exc:
        if exc.name != "click":
            raise
        sys.stderr.write("error: the pyjq command needs click: pip install 'pyjq[cli]'\n")
        raise SystemExit(2) from None
    run(argv)

