"""Operator commands on many jobs: ``pyjq jobs list|retry|cancel|discard``,
``pyjq queues pause|resume|pauses`` and ``pyjq dead requeue|delete``.

The filter options are jq's filter keys (``--created-after`` is the key
created_after); SQL checks them (jq._job_filter). A bulk command acts on at
most --limit jobs per call and prints how many it changed; --all-pages
repeats the call, each in its own transaction, until it changes none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any, TypeVar
from uuid import UUID

import click

from .. import operator as ops
from .common import (
    CONTEXT_SETTINGS,
    CLIError,
    Timestamp,
    connect,
    dsn_option,
    echo_json,
    fmt,
    json_option,
    read_payload,
    table,
)

__all__ = ["dead_delete", "dead_requeue", "jobs", "queues"]

F = TypeVar("F", bound=Callable[..., Any])

_STATUSES = ("queued", "scheduled", "failed_retrying", "running", "dead", "succeeded", "cancelled")
_TIMES = ("created_after", "created_before", "finished_after", "finished_before")


def filter_options(dead: bool = False) -> Callable[[F], F]:
    """The filter keys as options; ``dead`` adds --error (a substring of a dead job's error)."""

    def decorate(func: F) -> F:
        options = [
            click.option("--queue", default=None, help="Only this queue."),
            click.option("--type", "type_", metavar="TYPE", default=None, help="Only this type."),
            click.option(
                "--status", multiple=True, type=click.Choice(_STATUSES), help="Only these statuses (repeatable)."
            ),
            click.option("--tenant", default=None, help="Only this tenant."),
            click.option("--payload", default=None, metavar="JSON", help="Only payloads containing this object (@>)."),
            *[
                click.option(
                    "--" + key.replace("_", "-"),
                    key,
                    type=Timestamp(allow_ago=True),
                    default=None,
                    help=f"{key.replace('_', ' ').capitalize()}: ISO 8601 with offset, or e.g. 2h, 7d ago.",
                )
                for key in _TIMES
            ],
            click.option("--id-prefix", default=None, metavar="HEX", help="Job ids starting with these hex digits."),
        ]
        if dead:
            options.append(click.option("--error", default=None, help="Only dead jobs whose error contains this text."))
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def _filter(params: dict[str, Any]) -> dict[str, Any]:
    """The filter options given, as jq's filter (unset ones left out)."""
    out: dict[str, Any] = {}
    for key in ("queue", "tenant", "id_prefix", "error", *_TIMES):
        if params.get(key) is not None:
            out[key] = params[key]
    if params.get("type_") is not None:
        out["type"] = params["type_"]
    if params.get("status"):
        out["status"] = list(params["status"])
    if params.get("payload") is not None:
        out["payload"] = read_payload(params["payload"])
    return out


# -- pyjq jobs ------------------------------------------------------------------------


@click.group(context_settings=CONTEXT_SETTINGS, no_args_is_help=True, short_help="List jobs and act on many at once.")
def jobs() -> None:
    """List jobs wherever they are (live, dead, history) and act on many at once."""


@jobs.command("list", short_help="List jobs, newest first, one page.")
@filter_options()
@click.option("--oldest-first", is_flag=True, help="Oldest created first.")
@click.option("--limit", type=int, default=50, show_default=True, help="Jobs per page (1..1000).")
@click.option("--cursor", default=None, help="The next-page cursor printed by the previous page.")
@dsn_option
@json_option
@click.pass_context
def jobs_list(
    ctx: click.Context,
    oldest_first: bool,
    limit: int,
    cursor: str | None,
    dsn: str | None,
    as_json: bool,
    **params: Any,
) -> None:
    """One page of jobs matching the filter, newest created first."""
    with connect(ctx, dsn) as conn:
        rows = ops.jobs(conn, filter=_filter(params), limit=limit, cursor=cursor, oldest_first=oldest_first)
    next_cursor = rows[-1].cursor if len(rows) == limit else None
    if as_json:
        echo_json({"jobs": [asdict(r) for r in rows], "next_cursor": next_cursor})
        return
    if not rows:
        click.echo("no jobs match")
        return
    table(
        ["ID", "STATUS", "TYPE", "QUEUE", "TENANT", "CREATED", "ATTEMPTS", "LAST ERROR"],
        [
            [
                str(r.job_id),
                r.status,
                r.type,
                r.queue,
                fmt(r.tenant),
                fmt(r.created_at),
                f"{r.attempts}/{r.max_attempts}",
                _first_line(r.last_error),
            ]
            for r in rows
        ],
    )
    if next_cursor:
        click.echo(f"next page: --cursor {next_cursor}", err=True)


def _first_line(text: str | None, width: int = 60) -> str:
    if not text:
        return "-"
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= width else line[: width - 1] + "…"


def bulk_command(group: click.Group, name: str, action: Callable[..., int], help_text: str, dead: bool) -> None:
    """Add ``name`` to ``group``: the bulk action by --id or by the filter options."""

    @group.command(name, short_help=help_text, help=help_text + " Prints how many jobs changed.")
    @click.option("--id", "ids", multiple=True, type=click.UUID, help="A job id (repeatable); instead of a filter.")
    @filter_options(dead)
    @click.option("--every", is_flag=True, help="No filter: every job (still at most --limit per call).")
    @click.option("--limit", type=int, default=1000, show_default=True, help="At most this many per call (1..10000).")
    @click.option("--all-pages", is_flag=True, help="Repeat the call until it changes nothing; print the total.")
    @dsn_option
    @json_option
    @click.pass_context
    def command(
        ctx: click.Context,
        ids: tuple[UUID, ...],
        every: bool,
        limit: int,
        all_pages: bool,
        dsn: str | None,
        as_json: bool,
        **params: Any,
    ) -> None:
        flt = _filter(params)
        if ids and (flt or every):
            raise CLIError("give --id or filter options, not both", exit_code=2)
        if not ids and not flt and not every:
            raise CLIError("give --id, filter options, or --every for all jobs", exit_code=2)
        kwargs: dict[str, Any] = {"ids": list(ids)} if ids else {"filter": flt}
        with connect(ctx, dsn) as conn:
            if all_pages:
                total = ops.repeat_until_done(lambda: action(conn, limit=limit, **kwargs))
            else:
                total = action(conn, limit=limit, **kwargs)
        if as_json:
            echo_json({"changed": total})
        else:
            click.echo(f"{name}: {total} job{'' if total == 1 else 's'}")


bulk_command(jobs, "retry", ops.jobs_retry, "Make scheduled and retrying jobs ready now.", dead=False)
bulk_command(jobs, "cancel", ops.jobs_cancel, "Cancel pending jobs; ask running ones to cancel.", dead=False)
bulk_command(jobs, "discard", ops.jobs_discard, "Move pending jobs to the dead letters.", dead=False)

# ``pyjq dead requeue|delete``: added to the ``dead`` group by app.py.
_dead_commands = click.Group("dead-operator")
bulk_command(_dead_commands, "requeue", ops.dead_requeue, "Requeue dead jobs with fresh attempts.", dead=True)
bulk_command(_dead_commands, "delete", ops.dead_delete, "Delete dead jobs for good.", dead=True)
dead_requeue = _dead_commands.commands["requeue"]
dead_delete = _dead_commands.commands["delete"]


# -- pyjq queues ----------------------------------------------------------------------


@click.group(context_settings=CONTEXT_SETTINGS, no_args_is_help=True, short_help="Pause and resume queues.")
def queues() -> None:
    """Pause and resume queues (or one type in a queue)."""


@queues.command("pause", short_help="Pause QUEUE (or one type in it).")
@click.argument("queue")
@click.option("--type", "type_", metavar="TYPE", default=None, help="Only this type in the queue.")
@dsn_option
@json_option
@click.pass_context
def queue_pause(ctx: click.Context, queue: str, type_: str | None, dsn: str | None, as_json: bool) -> None:
    """Claims skip QUEUE (or its jobs of --type) from the next claim on; running jobs finish."""
    with connect(ctx, dsn) as conn:
        changed = ops.queue_pause(conn, queue, type_)
    _say_pause(queue, type_, changed, "paused", as_json)


@queues.command("resume", short_help="Resume QUEUE (or one type in it).")
@click.argument("queue")
@click.option("--type", "type_", metavar="TYPE", default=None, help="Only this type in the queue.")
@dsn_option
@json_option
@click.pass_context
def queue_resume(ctx: click.Context, queue: str, type_: str | None, dsn: str | None, as_json: bool) -> None:
    """Lift a pause; the queue's waiting workers are woken."""
    with connect(ctx, dsn) as conn:
        changed = ops.queue_resume(conn, queue, type_)
    _say_pause(queue, type_, changed, "resumed", as_json)


def _say_pause(queue: str, type_: str | None, changed: bool, done: str, as_json: bool) -> None:
    if as_json:
        echo_json({"queue": queue, "type": type_, "changed": changed})
        return
    what = f"queue {queue}" + (f" type {type_}" if type_ else "")
    click.echo(f"{done}: {what}" if changed else f"{what} was already {done}")


@queues.command("pauses", short_help="What is paused.")
@dsn_option
@json_option
@click.pass_context
def queue_pauses(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """Every paused queue and (queue, type); TYPE - pauses the whole queue."""
    with connect(ctx, dsn) as conn:
        rows = ops.queue_pauses(conn)
    if as_json:
        echo_json([asdict(r) for r in rows])
        return
    if not rows:
        click.echo("nothing is paused")
        return
    table(["QUEUE", "TYPE", "PAUSED AT", "BY"], [[r.queue, fmt(r.type), fmt(r.paused_at), r.paused_by] for r in rows])
