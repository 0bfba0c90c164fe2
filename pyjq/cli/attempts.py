"""``pyjq attempts ID``: each failed attempt of a job."""

from __future__ import annotations

from dataclasses import asdict
from uuid import UUID

import click

from ..attempts import job_attempts
from .common import CONTEXT_SETTINGS, connect, dsn_option, echo_json, fmt, json_option

__all__ = ["attempts"]


@click.command("attempts", context_settings=CONTEXT_SETTINGS, short_help="A job's failed attempts, with errors.")
@click.argument("job_id", metavar="ID", type=click.UUID)
@click.option("--full", is_flag=True, help="Print each error whole (first lines and traceback), not its first line.")
@dsn_option
@json_option
@click.pass_context
def attempts(ctx: click.Context, job_id: UUID, full: bool, dsn: str | None, as_json: bool) -> None:
    """The failed attempts of a job wherever it is (live, dead or finished), oldest first.

    jq keeps the last 10: when, which worker, and the error.
    """
    with connect(ctx, dsn) as conn:
        rows = job_attempts(conn, job_id)
    if as_json:
        echo_json([asdict(r) for r in rows])
        return
    if not rows:
        click.echo("no failed attempts")
        return
    for r in rows:
        lines = r.error.splitlines() or [""]
        click.echo(f"attempt {r.attempt}  {fmt(r.failed_at)}  {r.worker or '-'}  {lines[0]}")
        if full:
            for line in lines[1:]:
                click.echo(f"    {line}")
