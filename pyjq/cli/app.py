"""The ``pyjq`` command line: install jq, run a worker, enqueue and inspect jobs.

Every command is one call of a jq_* SQL function (through pyjq's client) on an
autocommit connection, so each command is its own transaction. The database
comes from ``--dsn`` or, when that is absent, the ``DATABASE_URL`` environment
variable (a libpq connection string or a postgresql:// URL).

Errors print one line on stderr (``error: ...``, and a ``hint: ...`` line
when the database gave one) and exit 1 for operational errors, 2 for usage
errors; never a traceback unless ``--traceback`` is given.

Run ``pyjq --help`` or ``pyjq COMMAND --help``; ``python -m pyjq.cli`` works too.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from .. import __version__
from . import attempts, audit, dead, dev, fairness, install, jobs, maintain, operator, schedules, serve, worker, workers
from .common import CONTEXT_SETTINGS, CLIError, describe, dsn_option
from .storage import storage as storage_group

__all__ = ["cli", "main"]


# -- errors ---------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _print_error(message: str, hint: str | None = None) -> None:
    click.echo(f"error: {_one_line(message)}", err=True)
    if hint:
        click.echo(f"hint: {_one_line(hint)}", err=True)


class _Root(click.Group):
    """The top-level group: turns every failure into one stderr line and an exit code."""

    show_traceback = False

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        self.show_traceback = False  # set by the callback when --traceback is given
        try:
            rv = super().main(args, prog_name or "pyjq", complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:  # `pyjq` or `pyjq dead` alone
            click.echo(exc.ctx.get_help() if exc.ctx else self.get_help(click.Context(self)))
            sys.exit(0)
        except click.UsageError as exc:
            _print_error(exc.format_message(), _usage_hint(exc))
            sys.exit(2)
        except click.ClickException as exc:
            _print_error(exc.format_message())
            sys.exit(exc.exit_code)
        except click.Abort:
            _print_error("aborted")
            sys.exit(1)
        except CLIError as exc:
            if self.show_traceback:
                raise
            _print_error(exc.message, exc.hint)
            sys.exit(exc.exit_code)
        except Exception as exc:  # JQError, psycopg.Error, anything else: one line, exit 1
            if self.show_traceback:
                raise
            _print_error(*describe(exc))
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def _usage_hint(exc: click.UsageError) -> str | None:
    if exc.ctx is None or (isinstance(exc, click.BadParameter) and not isinstance(exc, click.MissingParameter)):
        return None
    return f"see `{exc.ctx.command_path} --help`"


# -- the root group ----------------------------------------------------------------


@click.group(cls=_Root, context_settings=CONTEXT_SETTINGS)
@dsn_option
@click.option("--traceback", is_flag=True, help="Show the full Python traceback when a command fails.")
@click.version_option(__version__, "-V", "--version", prog_name="pyjq", message="%(prog)s %(version)s")
def cli(dsn: str | None, traceback: bool) -> None:
    """jq: a background job queue that lives in your PostgreSQL database.

    Every command connects to the database given by --dsn (here or after the
    command), else by the DATABASE_URL environment variable.
    """
    cli.show_traceback = traceback


for _command in (
    install.install,
    install.version,
    worker.worker,
    workers.workers,
    jobs.enqueue,
    jobs.status,
    jobs.cancel,
    jobs.stats,
    dead.dead,
    schedules.schedules,
    fairness.tenants,
    fairness.policy,
    fairness.key_limit,
    fairness.queue,
    maintain.tick,
    maintain.maintain,
    serve.serve,
    dev.dev,
    audit.audit,
    attempts.attempts,
    operator.jobs,
    operator.queues,
):
    cli.add_command(_command)
dead.dead.add_command(operator.dead_requeue)
dead.dead.add_command(operator.dead_delete)
cli.add_command(storage_group)


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Console entry point (``pyjq``)."""
    cli.main(args=argv, prog_name="pyjq")
    raise SystemExit(0)  # not reached: _Root.main always exits
