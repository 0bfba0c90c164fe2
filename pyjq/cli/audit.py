"""``pyjq audit``: who did what, the operator audit log."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime

import click

from ..audit import audit_log
from .common import CONTEXT_SETTINGS, Timestamp, connect, dsn_option, echo_json, fmt, json_option, table

__all__ = ["audit"]


@click.command("audit", context_settings=CONTEXT_SETTINGS, short_help="Operator actions, newest first.")
@click.option(
    "--since",
    type=Timestamp(allow_ago=True),
    default=None,
    help="Only actions at or after this time: ISO 8601 with offset, or e.g. 2h, 7d ago.",
)
@click.option("--action", default=None, help="Only this action, e.g. retry_dead, schedule_put.")
@click.option("--actor", default=None, help="Only this actor, e.g. admin:3f2a9c1e (a token's name) or a role.")
@click.option("--limit", type=click.IntRange(1, 1000), default=100, show_default=True, help="Rows on the page.")
@click.option("--before", type=int, default=None, metavar="ID", help="The page below this id (the last one shown).")
@dsn_option
@json_option
@click.pass_context
def audit(
    ctx: click.Context,
    since: datetime | None,
    action: str | None,
    actor: str | None,
    limit: int,
    before: int | None,
    dsn: str | None,
    as_json: bool,
) -> None:
    """Operator actions, newest first: when, who, what, on what, how many rows.

    Every state-changing operator function writes one row (retry_dead,
    schedule_put, tenant_policy_set, ...). For the next page pass the last ID
    shown as --before.
    """
    with connect(ctx, dsn) as conn:
        rows = audit_log(conn, since=since, action=action, actor=actor, limit=limit, before=before)
    if as_json:
        echo_json([asdict(r) for r in rows])
        return
    if not rows:
        click.echo("no audit entries")
        return
    table(
        ["ID", "AT", "ACTOR", "ACTION", "ROWS", "TARGET"],
        [[str(r.id), fmt(r.at), r.actor, r.action, str(r.rows), json.dumps(r.target, sort_keys=True)] for r in rows],
        right={0, 4},
    )
    if len(rows) == limit:
        click.echo(f"(more: --before {rows[-1].id})")
