"""``pyjq storage``: the partitions of jq.jobs (jq_storage); docs/storage.md."""

from __future__ import annotations

from dataclasses import asdict

import click

from .._calls.storage import StoragePart
from ..storage import storage as storage_parts
from .common import CONTEXT_SETTINGS, connect, dsn_option, echo_json, fmt, json_option, table

__all__ = ["storage"]

MB = 1024 * 1024
PART_HEADERS = [
    "GENERATION",
    "PARTITION",
    "ROLE",
    "LIVE ROWS",
    "DEAD ROWS",
    "SIZE MB",
    "TRUNCATED AT",
    "TRUNCATIONS",
    "MOVED",
]


@click.command(
    context_settings=CONTEXT_SETTINGS,
    short_help="The partitions of jq.jobs: rows, size, truncations.",
)
@dsn_option
@json_option
@click.pass_context
def storage(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """The partitions of jq.jobs, one per generation: jobs_g0..g2 take new rows
    in turn (ROLE current, previous, oldest), jobs_waiting holds jobs due
    beyond settings.waiting_horizon; then queue_waiters_g0..g2, the waiting
    workers' marks, which rotate with the jobs' generations. Live and dead
    rows are PostgreSQL's statistics (a moment behind); SIZE MB counts
    indexes and TOAST. jq_tick turns to the next generation every
    settings.rotation_turn_after (or sooner when full) and empties the
    oldest; `pyjq tick` runs one call by hand. Needs jq_worker or jq_admin."""
    with connect(ctx, dsn) as conn:
        parts = storage_parts(conn)
    if as_json:
        echo_json([asdict(p) for p in parts])
        return
    _print_parts(parts)


def _print_parts(parts: list[StoragePart]) -> None:
    table(
        PART_HEADERS,
        [
            [
                str(p.generation),
                p.partition_name,
                p.role,
                str(p.live_rows),
                str(p.dead_rows),
                f"{p.bytes / MB:.2f}",
                fmt(p.truncated_at),
                str(p.truncations),
                str(p.moved),
            ]
            for p in parts
        ],
        right={0, 3, 4, 5, 7, 8},
    )
