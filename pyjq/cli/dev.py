"""``pyjq dev``: the click wiring of the demo, which lives in pyjq/dev/ (needs the
``demo`` extra), and of ``pyjq dev db``, a development database for your own app
(pyjq/dev/devdb.py; needs only the ``cli`` extra).

``dev`` is a group that runs the demo when no subcommand is given, so that
``pyjq dev [options]`` and ``make run`` stay as they were; ``db`` sits under
``dev`` rather than at the top because it is a development tool (an unprotected
local server), not a command for the databases the other commands manage."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

import click

from ..dev.devdb import DEFAULT_DIR, DevDatabase
from ..dev.localpg import LocalPostgresError
from .common import CLIError

__all__ = ["dev"]


@click.group(
    invoke_without_command=True,
    short_help="The demo: jq on a local PostgreSQL, with a live dashboard; `dev db`: a database for your app.",
)
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

    `pyjq dev db start|stop|status|url` keeps a development PostgreSQL with
    jq installed for your own app instead (see `pyjq dev db --help`).
    """
    if ctx.invoked_subcommand is not None:
        return
    try:
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


# -- pyjq dev db ----------------------------------------------------------------------


def _dir_option(func: Any) -> Any:
    return click.option(
        "--dir",
        "folder",
        type=click.Path(file_okay=False),
        default=str(DEFAULT_DIR),
        show_default=True,
        help="Where the cluster lives (its port and database name are remembered there).",
    )(func)


def _shell_option(func: Any) -> Any:
    return click.option(
        "--shell",
        "--env",
        "as_shell",
        is_flag=True,
        help='Print `export DATABASE_URL=...`, for eval "$(pyjq dev db ... --shell)".',
    )(func)


def _print_url(url: str, as_shell: bool) -> None:
    click.echo(f"export DATABASE_URL={shlex.quote(url)}" if as_shell else url)


def _database(folder: str) -> DevDatabase:
    return DevDatabase(Path(folder))


@dev.group(short_help="A development PostgreSQL with jq for your own app: start, stop, status, url.")
def db() -> None:
    """A local PostgreSQL with jq installed for developing your own app.

    `start` creates the cluster in DIR (initdb from the machine's PostgreSQL,
    as the postgres OS user when run as root; `make deps` installs what is
    missing) or reuses it, starts it, creates the database, installs jq and
    prints its DATABASE_URL. The server keeps running after the command
    exits, until `pyjq dev db stop`. The port is remembered in DIR and is the
    same on every start, unless another process has taken it: then start
    picks a free one and says so. Messages go to stderr, the URL to stdout:

        eval "$(pyjq dev db start --shell)"
    """


@db.command(short_help="Create or reuse the cluster, start it, install jq; print DATABASE_URL.")
@_dir_option
@click.option(
    "--dbname",
    default=None,
    metavar="NAME",
    help="The database to create [default: the one of the last start, else app].",
)
@_shell_option
def start(folder: str, dbname: str | None, as_shell: bool) -> None:
    """Start the development database (creating it the first time) and print its URL."""
    database = _database(folder)
    was_running = database.running()
    try:
        version = database.start(dbname)
    except LocalPostgresError as exc:
        raise CLIError(str(exc), exit_code=1) from exc
    if database.port_moved_from is not None:
        click.echo(
            f"warning: port {database.port_moved_from} (remembered in {database.folder}) is taken by another "
            f"process; using port {database.port()} instead, remembered from now on: DATABASE_URL changed",
            err=True,
        )
    state = "already running" if was_running else "started"
    click.echo(f"PostgreSQL {state} on 127.0.0.1:{database.port()} ({database.data_dir}); jq {version}", err=True)
    click.echo("stop it with: pyjq dev db stop" + _dir_suffix(folder), err=True)
    _print_url(database.url, as_shell)


@db.command(short_help="Stop the development database.")
@_dir_option
def stop(folder: str) -> None:
    """Stop the development database (a fast shutdown; the data stays in DIR)."""
    database = _database(folder)
    if database.stop():
        click.echo(f"stopped PostgreSQL ({database.data_dir})")
    else:
        click.echo(f"not running ({database.folder})")


@db.command(short_help="Say whether the development database runs, on which port, in which folder.")
@_dir_option
def status(folder: str) -> None:
    """Print running or stopped, the port, the folder and the URL. Exits 0 either way."""
    database = _database(folder)
    port = database.port()
    if port is None:
        click.echo(f"stopped: no cluster in {database.folder} yet (pyjq dev db start{_dir_suffix(folder)})")
        return
    click.echo(f"{'running' if database.running() else 'stopped'}")
    click.echo(f"port:   {port}")
    click.echo(f"folder: {database.folder}")
    if database.data_dir.parent != database.folder:
        click.echo(f"data:   {database.data_dir}")
    click.echo(f"url:    {database.url}")


@db.command(short_help="Print DATABASE_URL of the running development database.")
@_dir_option
@_shell_option
def url(folder: str, as_shell: bool) -> None:
    """Print the development database's URL; exit 1 when it is not running."""
    database = _database(folder)
    if not database.running():
        raise CLIError(
            f"the development database in {database.folder} is not running",
            hint=f"start it with: pyjq dev db start{_dir_suffix(folder)}",
        )
    _print_url(database.url, as_shell)


def _dir_suffix(folder: str) -> str:
    return "" if Path(folder) == DEFAULT_DIR else f" --dir {shlex.quote(folder)}"
