"""``pyjq storage`` and ``pyjq storage rotate``: the partitions of jq.jobs (jq_storage) and one
rotation of them (jq_storage_rotate); docs/storage.md."""

from __future__ import annotations

from dataclasses import asdict

import click

from .._calls.storage import Rotation, StoragePart
from ..storage import blocked_hint, storage_rotate
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


@click.group(
    context_settings=CONTEXT_SETTINGS,
    invoke_without_command=True,
    short_help="The partitions of jq.jobs: rows, size, truncations; `storage rotate`.",
)
@dsn_option
@json_option
@click.pass_context
def storage(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """The partitions of jq.jobs, one per generation: jobs_g0..g2 take new rows
    in turn (two seconds each; ROLE current, previous, oldest), jobs_waiting
    holds jobs due beyond settings.waiting_horizon; then queue_waiters_g0..g2,
    the waiting workers' marks, which rotate with the jobs' generations. Live and dead rows are
    PostgreSQL's statistics (a moment behind); SIZE MB counts indexes and
    TOAST. Workers rotate every slot, so each generation holds about one
    slot of rows; `pyjq storage rotate` runs one rotation by hand.
    Needs jq_worker or jq_admin."""
    if ctx.invoked_subcommand is not None:
        return
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


@storage.command("rotate", short_help="Run jq_storage_rotate once; print each generation's outcome.")
@dsn_option
@json_option
@click.pass_context
def rotate(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """Run one rotation (jq_storage_rotate): each generation that no longer
    takes rows is emptied (live jobs move to the current one) and truncated;
    waiting jobs due within the horizon come back. Prints each outcome:
    truncated, moving (rows left to move), empty (untouched since its
    truncation), small (under settings.rotation_min_bytes on disk, indexes
    included: kept), current, draining (a backlog; left to the claims), busy
    (another session holds a lock on it), promoted (jobs_waiting), or
    rotating elsewhere (a worker is rotating right now). Exits 0 whatever the
    outcomes; when every generation that needed truncating was busy, a hint
    on stderr says what holds it and how to find it. Needs jq_worker or jq_admin."""
    with connect(ctx, dsn) as conn:
        rotations = storage_rotate(conn)
    if as_json:
        echo_json([asdict(r) for r in rotations])
    else:
        _print_rotations(rotations)
    hint = blocked_hint(rotations)
    if hint:
        click.echo(f"hint: {hint}", err=True)


def _print_rotations(rotations: list[Rotation]) -> None:
    table(
        ["GENERATION", "OUTCOME", "MOVED"],
        [[fmt(r.generation), r.outcome, str(r.moved)] for r in rotations],
        right={0, 2},
    )
