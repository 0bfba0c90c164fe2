"""``pyjq maintain``: one run of jq_maintain."""

from __future__ import annotations

import json

import click

from .. import client
from .common import connect, dsn_option

__all__ = ["maintain"]


@click.command(short_help="Run jq_maintain once; print its JSON.")
@dsn_option
@click.pass_context
def maintain(ctx: click.Context, dsn: str | None) -> None:
    """Run jq_maintain once (rotate history, purge expired keys, reap expired leases); print its JSON."""
    with connect(ctx, dsn) as conn:
        result = client.maintain(conn)
    click.echo(json.dumps(result, sort_keys=True))
