"""``pyjq workers``: the registered workers (jq_workers)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime

import click

from .. import registry
from .common import connect, dsn_option, echo_json, fmt_age, json_option, table

__all__ = ["workers"]


@click.command(short_help="Registered workers: state, last beat, running jobs, queues.")
@dsn_option
@json_option
@click.pass_context
def workers(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """The registered workers, newest first: state (alive; silent: no beat for
    jq.settings.worker_gone_after, 15 s by default; gone: declared gone, its jobs
    requeued), how long ago it last beat, running jobs, queues and slots.
    Needs jq_admin."""
    with connect(ctx, dsn) as conn:
        rows = registry.workers(conn)
    if as_json:
        echo_json([asdict(r) for r in rows])
        return
    if not rows:
        click.echo("no registered workers")
        return
    now = datetime.now(UTC)
    table(
        ["WORKER", "STATE", "LAST BEAT", "RUNNING", "QUEUES", "HOST", "PID", "VERSION", "UP"],
        [
            [
                r.worker,
                r.state,
                fmt_age(now - r.last_seen) + " ago",
                str(r.running),
                ",".join(f"{q}={n}" for q, n in r.queues.items()),
                r.host,
                str(r.pid),
                r.version,
                fmt_age(now - r.started_at),
            ]
            for r in rows
        ],
        right={3, 6},
    )
