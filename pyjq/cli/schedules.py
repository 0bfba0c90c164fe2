"""``pyjq schedules put|list|delete|pause|resume``: recurring schedules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click
import psycopg

from .. import scheduler as schedules_api
from .common import CONTEXT_SETTINGS, CLIError, connect, dsn_option, echo_json, fmt, json_option, read_payload, table

__all__ = ["schedules"]


@click.group(
    context_settings=CONTEXT_SETTINGS,
    no_args_is_help=True,
    short_help="Create, list, pause, resume and delete recurring schedules.",
)
def schedules() -> None:
    """Recurring schedules: a cron expression in a named IANA timezone, with
    jitter; every worker's scheduler fires each slot exactly once."""


@schedules.command("put", short_help="Create or update schedule NAME.")
@click.argument("name")
@click.option(
    "--cron",
    required=True,
    help="Five fields: minute hour day-of-month month day-of-week, e.g. '0 8 * * *' (08:00 daily); "
    "or @hourly, @daily, @weekly, @monthly, @yearly.",
)
@click.option(
    "--timezone",
    "--tz",
    "timezone_",
    required=True,
    metavar="ZONE",
    help="IANA time zone the cron is read in, e.g. Europe/Berlin, America/New_York, UTC.",
)
@click.option("--type", "type_", metavar="TYPE", required=True, help="Type of the job each slot enqueues.")
@click.option(
    "--payload",
    default="{}",
    show_default=True,
    metavar="JSON",
    help="Payload of each job: a JSON object, @FILE to read it from a file, or - for stdin.",
)
@click.option("--queue", default="default", show_default=True, help="Queue the jobs go to.")
@click.option("--priority", type=int, default=0, show_default=True, help="Higher runs first (-32768..32767).")
@click.option(
    "--jitter",
    "jitter_seconds",
    type=int,
    default=0,
    show_default=True,
    metavar="SECONDS",
    help="Spread each slot's job over [0, SECONDS) after the slot (0..86400), the same offset "
    "for the same name and slot.",
)
@click.option("--max-attempts", type=int, default=None, help="Attempts per job before it is dead-lettered (1..1000).")
@click.option(
    "--missed",
    type=click.Choice(["latest", "all", "none"]),
    default="latest",
    show_default=True,
    help="Slots no scheduler fired in time: fire the latest only, all of them, or none.",
)
@dsn_option
@json_option
@click.pass_context
def schedules_put(
    ctx: click.Context,
    name: str,
    cron: str,
    timezone_: str,
    type_: str,
    payload: str,
    queue: str,
    priority: int,
    jitter_seconds: int,
    max_attempts: int | None,
    missed: str,
    dsn: str | None,
    as_json: bool,
) -> None:
    """Create or update schedule NAME; print whether it was created and its next run.

    jq checks the cron and timezone and computes the next run before
    anything is written. Updating a schedule with the same cron and timezone
    keeps its next run; a paused schedule stays paused.
    """
    body = read_payload(payload)
    with connect(ctx, dsn) as conn:
        result = schedules_api.schedule(
            conn,
            name,
            cron=cron,
            timezone=timezone_,
            type=type_,
            payload=body,
            queue=queue,
            priority=priority,
            jitter_seconds=jitter_seconds,
            max_attempts=max_attempts,
            missed=missed,
        )
    if as_json:
        echo_json(asdict(result))
        return
    click.echo(
        f"{'created' if result.created else 'updated'} schedule {result.name}; "
        f"next run {_fmt_slot(result.next_run_at, timezone_)}"
    )


def _fmt_slot(moment: datetime | None, zone: str) -> str:
    """A slot in UTC and in the schedule's timezone: 2026-03-08 07:00:00+00:00 (08:00 Europe/Berlin)."""
    if moment is None:
        return "-"
    try:
        local = moment.astimezone(ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError):
        return fmt(moment)
    return f"{fmt(moment.astimezone(UTC))} ({local:%Y-%m-%d %H:%M} {zone})"


@schedules.command("list", short_help="List schedules (or only NAME).")
@click.argument("name", required=False)
@dsn_option
@json_option
@click.pass_context
def schedules_list(ctx: click.Context, name: str | None, dsn: str | None, as_json: bool) -> None:
    """List every schedule by name, or only NAME (exit 1 when it does not exist).

    NEXT RUN is in UTC, with the local time in the schedule's timezone.
    """
    with connect(ctx, dsn) as conn:
        rows = schedules_api.list_schedules(conn, name)
    if name is not None and not rows:
        raise CLIError(f"schedule {name} not found")
    if as_json:
        echo_json([asdict(r) for r in rows])
        return
    if not rows:
        click.echo("no schedules")
        return
    table(
        ["NAME", "CRON", "TIMEZONE", "TYPE", "QUEUE", "JITTER", "MISSED", "STATE", "NEXT RUN", "LAST SLOT"],
        [
            [
                r.name,
                r.cron,
                r.timezone,
                r.type,
                r.queue,
                f"{r.jitter_seconds}s",
                r.missed,
                "paused" if r.paused else "active",
                _fmt_slot(r.next_run_at, r.timezone),
                fmt(r.last_slot_at),
            ]
            for r in rows
        ],
    )


def _schedule_action(
    ctx: click.Context,
    name: str,
    dsn: str | None,
    as_json: bool,
    action: Callable[[psycopg.Connection, str], bool],
    done: str,
) -> None:
    with connect(ctx, dsn) as conn:
        found = action(conn, name)
    if as_json:
        echo_json({"name": name, done: found})
        ctx.exit(0 if found else 1)
    if not found:
        raise CLIError(f"schedule {name} not found")
    click.echo(f"{done} schedule {name}")


@schedules.command("delete", short_help="Delete schedule NAME.")
@click.argument("name")
@dsn_option
@json_option
@click.pass_context
def schedules_delete(ctx: click.Context, name: str, dsn: str | None, as_json: bool) -> None:
    """Delete schedule NAME (exit 1 when it does not exist). Jobs it already enqueued stay."""
    _schedule_action(ctx, name, dsn, as_json, schedules_api.unschedule, "deleted")


@schedules.command("pause", short_help="Pause schedule NAME.")
@click.argument("name")
@dsn_option
@json_option
@click.pass_context
def schedules_pause(ctx: click.Context, name: str, dsn: str | None, as_json: bool) -> None:
    """Pause schedule NAME: none of its slots fires until it is resumed (exit 1 when it does not exist)."""
    _schedule_action(ctx, name, dsn, as_json, schedules_api.pause_schedule, "paused")


@schedules.command("resume", short_help="Resume schedule NAME.")
@click.argument("name")
@dsn_option
@json_option
@click.pass_context
def schedules_resume(ctx: click.Context, name: str, dsn: str | None, as_json: bool) -> None:
    """Resume schedule NAME from now on; slots that passed while it was paused
    do not fire (exit 1 when it does not exist)."""
    _schedule_action(ctx, name, dsn, as_json, schedules_api.resume_schedule, "resumed")
