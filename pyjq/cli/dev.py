"""``pyjq dev``: the click wiring of the demo, which lives in pyjq/dev/ (needs the
``demo`` extra)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from .common import CLIError

__all__ = ["dev"]


@click.command(short_help="The demo: jq on a local PostgreSQL, with a live dashboard.")
@click.option(
    "--dsn",
    "dsn",
    envvar=None,
    default=None,
    metavar="DSN",
    help="Run against this database instead of a local cluster [default: $DATABASE_URL, else local].",
)
@click.option("--short", is_flag=True, help="A quicker story (1,000 bulk jobs instead of 10,000).")
@click.option("--serve", is_flag=True, help="Keep the HTTP service and database up after the demo, until Ctrl-C.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8080,
    show_default=True,
    help="Port of the HTTP service (another free one if taken).",
)
@click.option(
    "--folder",
    type=click.Path(file_okay=False),
    default=".jq-dev",
    show_default=True,
    help="Where the local cluster lives.",
)
@click.option("--no-live", is_flag=True, help="No live dashboard (for logs and CI).")
@click.pass_context
def dev(ctx: click.Context, dsn: str | None, short: bool, serve: bool, port: int, folder: str, no_live: bool) -> None:
    """Play jq's story end to end and print a summary.

    With no --dsn and no DATABASE_URL, a PostgreSQL cluster is created in
    FOLDER (initdb from the machine's PostgreSQL, as the postgres OS user
    when run as root; `make deps` installs what is missing) and started; jq
    is installed; the HTTP service and a worker start; the demo enqueues
    signups, scheduled invoices, card charges, failing webhooks, a bulk burst
    with urgent password resets, and a daily digest schedule. Ctrl-C stops
    everything, the local cluster included. Exits 1 if a job did not end as
    the story expects.
    """
    try:
        from ..dev.localpg import LocalPostgresError
        from ..dev.run import run
    except ModuleNotFoundError as exc:
        raise CLIError(f"pyjq dev needs {exc.name}: pip install 'pgjq[demo]'", exit_code=2) from exc
    dsn = dsn or ctx.find_root().params.get("dsn") or os.environ.get("DATABASE_URL") or None
    try:
        summary = run(dsn, short=short, serve=serve, port=port, folder=Path(folder), live=not no_live)
    except LocalPostgresError as exc:
        raise CLIError(str(exc), exit_code=1) from exc
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    if not summary["accounted_for"]:
        raise SystemExit(1)
