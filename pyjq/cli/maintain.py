"""``pyjq tick`` and ``pyjq maintain``: one jq_tick call, one run of jq_maintain."""

from __future__ import annotations

import json

import click

from .. import client
from ..storage import blocked_hint
from ..storage import tick as tick_once
from .common import connect, dsn_option

__all__ = ["maintain", "tick"]


@click.command(short_help="Run jq_tick once; print how soon to call again and what it did.")
@dsn_option
@click.pass_context
def tick(ctx: click.Context, dsn: str | None) -> None:
    """Run jq_tick once: a step of the storage rotation, and the maintenance and schedules when due. Prints
    one JSON object: call_again_after (seconds) and the account of what it did. Workers call it in a loop;
    by hand it shows why a generation stays busy (a hint on stderr says what holds it). A call made before
    the time the last one asked for does nothing ("ran": false) and says how long is left. Needs jq_worker
    or jq_admin."""
    with connect(ctx, dsn) as conn:
        done = tick_once(conn)
    click.echo(json.dumps({"call_again_after": done.call_again_after.total_seconds(), **done.account}, sort_keys=True))
    hint = blocked_hint(done)
    if hint:
        click.echo(f"hint: {hint}", err=True)


@click.command(short_help="Run jq_maintain once; print its JSON.")
@dsn_option
@click.pass_context
def maintain(ctx: click.Context, dsn: str | None) -> None:
    """Run jq_maintain once (rotate history, purge expired keys, reap expired leases); print its JSON."""
    with connect(ctx, dsn) as conn:
        result = client.maintain(conn)
    click.echo(json.dumps(result, sort_keys=True))
