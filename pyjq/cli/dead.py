"""``pyjq dead groups`` and ``pyjq dead retry``: the dead-letter table."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime

import click

from .. import client
from .common import CONTEXT_SETTINGS, Timestamp, connect, dsn_option, echo_json, fmt, json_option, table

__all__ = ["dead"]


@click.group(context_settings=CONTEXT_SETTINGS, no_args_is_help=True, short_help="Inspect and requeue dead jobs.")
def dead() -> None:
    """Inspect and requeue dead jobs (those that used up their attempts)."""


@dead.command("groups", short_help="Dead jobs grouped by type and error.")
@click.option("--type", "type_", metavar="TYPE", default=None, help="Only dead jobs of this type.")
@click.option(
    "--since",
    type=Timestamp(allow_ago=True),
    default=None,
    help="Only jobs that died at or after this time: ISO 8601 with offset, or e.g. 2h, 7d ago.",
)
@dsn_option
@json_option
@click.pass_context
def dead_groups(ctx: click.Context, type_: str | None, since: datetime | None, dsn: str | None, as_json: bool) -> None:
    """Dead jobs grouped by type and normalised error, largest group first.

    The ERROR column is the fingerprint that `pyjq dead retry --error` takes.
    """
    with connect(ctx, dsn) as conn:
        groups = client.dead_groups(conn, since=since, type=type_)
    if as_json:
        echo_json([asdict(g) for g in groups])
        return
    if not groups:
        click.echo("no dead jobs")
        return
    table(
        ["TYPE", "COUNT", "FIRST", "LAST", "ERROR"],
        [[g.type, str(g.count), fmt(g.first_failed_at), fmt(g.last_failed_at), g.error] for g in groups],
        right={1},
    )


@dead.command("retry", short_help="Requeue dead jobs of a type; print how many.")
@click.option("--type", "type_", metavar="TYPE", required=True, help="Requeue dead jobs of this type.")
@click.option(
    "--error",
    default=None,
    help="Only this error group: a fingerprint from `pyjq dead groups`, or any raw error message of it.",
)
@click.option(
    "--since",
    type=Timestamp(allow_ago=True),
    default=None,
    help="Only jobs that died at or after this time: ISO 8601 with offset, or e.g. 2h, 7d ago.",
)
@click.option("--limit", type=int, default=None, help="Requeue at most this many (oldest failures first).")
@dsn_option
@json_option
@click.pass_context
def dead_retry(
    ctx: click.Context,
    type_: str,
    error: str | None,
    since: datetime | None,
    limit: int | None,
    dsn: str | None,
    as_json: bool,
) -> None:
    """Requeue matching dead jobs with fresh attempts; print how many."""
    with connect(ctx, dsn) as conn:
        count = client.retry_dead(conn, type=type_, error=error, since=since, limit=limit)
    if as_json:
        echo_json({"requeued": count})
    else:
        click.echo(f"requeued {count} dead job{'' if count == 1 else 's'}")
