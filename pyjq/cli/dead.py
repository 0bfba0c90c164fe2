"""``pyjq dead groups`` and ``pyjq dead retry``: the dead-letter table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any, TypeVar

import click

from .. import client
from .._calls.admin import DeadGroup
from ..dead_letters import WINDOWS, dead_retry_hint, window_start
from .common import CONTEXT_SETTINGS, CLIError, Timestamp, connect, dsn_option, echo_json, fmt, json_option, table

__all__ = ["NOTHING_MATCHED", "dead"]

NOTHING_MATCHED = 3  # exit code of `pyjq dead retry` when no dead job matched (1: an error, 2: usage)

F = TypeVar("F", bound=Callable[..., Any])

_ERROR_HELP = (
    "Only the groups this text selects: a fingerprint from `pyjq dead groups`, a raw error message of the group, "
    "or a part of the error, any case (e.g. 'HTTP 503')."
)


def _window_options(func: F) -> F:
    """--window 1h|24h|7d and --since TIMESTAMP (with both, the later start)."""
    func = click.option(
        "--since",
        type=Timestamp(allow_ago=True),
        default=None,
        help="Only jobs that died at or after this time: ISO 8601 with offset, or e.g. 2h, 7d ago.",
    )(func)
    return click.option(
        "--window",
        type=click.Choice(list(WINDOWS)),
        default=None,
        help="Only jobs that died in the last hour, day or week (with --since: the later start).",
    )(func)


def _since(window: str | None, since: datetime | None) -> datetime | None:
    return window_start(window, since)


@click.group(context_settings=CONTEXT_SETTINGS, no_args_is_help=True, short_help="Inspect and requeue dead jobs.")
def dead() -> None:
    """Inspect and requeue dead jobs (those that used up their attempts)."""


@dead.command("groups", short_help="Dead jobs grouped by type and error.")
@click.option("--type", "type_", metavar="TYPE", default=None, help="Only dead jobs of this type.")
@click.option("--error", default=None, help=_ERROR_HELP)
@_window_options
@dsn_option
@json_option
@click.pass_context
def dead_groups(
    ctx: click.Context,
    type_: str | None,
    error: str | None,
    window: str | None,
    since: datetime | None,
    dsn: str | None,
    as_json: bool,
) -> None:
    """Dead jobs grouped by type and normalised error, largest group first.

    The ERROR column is the fingerprint that `pyjq dead retry --error` takes;
    --error here shows the groups such a retry would take.
    """
    since = _since(window, since)
    with connect(ctx, dsn) as conn:
        groups = client.dead_groups(conn, since=since, type=type_, error=error)
    if as_json:
        echo_json([asdict(g) for g in groups])
        return
    if not groups:
        click.echo("no dead jobs" if error is None and type_ is None else "no dead jobs match")
        return
    _group_table(groups)


def _group_table(groups: Sequence[DeadGroup]) -> None:
    table(
        ["TYPE", "COUNT", "FIRST", "LAST", "ERROR"],
        [[g.type, str(g.count), fmt(g.first_failed_at), fmt(g.last_failed_at), g.error] for g in groups],
        right={1},
    )


@dead.command("retry", short_help="Requeue dead jobs of a type; print how many.")
@click.option("--type", "type_", metavar="TYPE", required=True, help="Requeue dead jobs of this type.")
@click.option("--error", default=None, help=_ERROR_HELP)
@_window_options
@click.option("--limit", type=int, default=None, help="Requeue at most this many (oldest failures first).")
@dsn_option
@json_option
@click.pass_context
def dead_retry(
    ctx: click.Context,
    type_: str,
    error: str | None,
    window: str | None,
    since: datetime | None,
    limit: int | None,
    dsn: str | None,
    as_json: bool,
) -> None:
    """Requeue matching dead jobs with fresh attempts; print how many.

    When nothing matched, it lists the closest groups (this type's first,
    then the largest) and exits 3.
    """
    since = _since(window, since)
    with connect(ctx, dsn) as conn:
        count = client.retry_dead(conn, type=type_, error=error, since=since, limit=limit)
        hint = dead_retry_hint(conn, type=type_, since=since) if count == 0 else []
    if as_json:
        echo_json({"requeued": count, "hint": [asdict(g) for g in hint]} if count == 0 else {"requeued": count})
        if count == 0:
            ctx.exit(NOTHING_MATCHED)
        return
    if count:
        click.echo(f"requeued {count} dead job{'' if count == 1 else 's'}")
        return
    _report_nothing_matched(type_, error, hint)


def _report_nothing_matched(type_: str, error: str | None, hint: Sequence[DeadGroup]) -> None:
    wanted = f"type {type_!r}" + (f" and error {error!r}" if error is not None else "")
    if not hint:
        raise CLIError(f"no dead job matched {wanted}", hint="there are no dead jobs", exit_code=NOTHING_MATCHED)
    click.echo("closest dead groups (pass a TYPE and its ERROR, or a part of it, to retry one):")
    table(
        ["TYPE", "COUNT", "ERROR"],
        [[g.type, str(g.count), g.error] for g in hint],
        right={1},
    )
    raise CLIError(
        f"no dead job matched {wanted}",
        hint="see the closest groups above, or `pyjq dead groups`",
        exit_code=NOTHING_MATCHED,
    )
