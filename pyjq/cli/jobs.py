"""Jobs: ``pyjq enqueue``, ``status``, ``cancel`` and ``stats``."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from typing import Any
from uuid import UUID

import click

from .. import client
from .. import registry as worker_registry
from .common import CLIError, Timestamp, connect, dsn_option, echo_json, fmt, fmt_age, json_option, read_payload, table

__all__ = ["cancel", "enqueue", "stats", "status"]


@click.command(short_help="Enqueue one job of type TYPE.")
@click.argument("type_", metavar="TYPE")
@click.option(
    "--payload",
    default="{}",
    show_default=True,
    metavar="JSON",
    help="Payload: a JSON object, @FILE to read it from a file, or - for stdin.",
)
@click.option("--queue", default="default", show_default=True, help="Queue name.")
@click.option("--priority", type=int, default=0, show_default=True, help="Higher runs first (-32768..32767).")
@click.option(
    "--run-at",
    type=Timestamp(),
    default=None,
    help="Run no earlier than this ISO 8601 time with UTC offset, e.g. 2026-11-01T09:00:00Z.",
)
@click.option(
    "--key",
    "--idempotency-key",
    "key",
    default=None,
    help="Idempotency key: the same key in the same queue within its window returns the first job.",
)
@click.option("--max-attempts", type=int, default=None, help="Attempts before the job is dead-lettered (1..1000).")
@click.option("--tenant", default=None, help="Tenant the job belongs to (the queue is shared fairly between tenants).")
@click.option(
    "--concurrency-key",
    default=None,
    metavar="KEY",
    help="Jobs of this type with the same key run at most N at a time (N = 1 unless set with `pyjq key-limit set`).",
)
@dsn_option
@json_option
@click.pass_context
def enqueue(
    ctx: click.Context,
    type_: str,
    payload: str,
    queue: str,
    priority: int,
    run_at: datetime | None,
    key: str | None,
    max_attempts: int | None,
    tenant: str | None,
    concurrency_key: str | None,
    dsn: str | None,
    as_json: bool,
) -> None:
    """Enqueue one job of type TYPE; print its id, status and whether it was a duplicate."""
    body = read_payload(payload)
    with connect(ctx, dsn) as conn:
        result = client.enqueue(
            conn,
            type_,
            body,
            queue=queue,
            priority=priority,
            run_at=run_at,
            max_attempts=max_attempts,
            idempotency_key=key,
            tenant=tenant,
            concurrency_key=concurrency_key,
        )
    if as_json:
        echo_json(asdict(result))
    else:
        click.echo(f"{result.job_id} {result.status}" + (" (duplicate)" if result.duplicate else ""))


_STATUS_FIELDS = (
    "job_id",
    "type",
    "queue",
    "status",
    "attempts",
    "max_attempts",
    "priority",
    "tenant",
    "run_at",
    "next_attempt_at",
    "created_at",
    "finished_at",
    "cancel_requested",
    "last_error",
    "result",
)


@click.command(short_help="Show the status of job ID.")
@click.argument("job_id", metavar="ID", type=click.UUID)
@dsn_option
@json_option
@click.pass_context
def status(ctx: click.Context, job_id: UUID, dsn: str | None, as_json: bool) -> None:
    """Show where job ID is and how it went (exit 1 when unknown)."""
    with connect(ctx, dsn) as conn:
        found = client.status(conn, job_id)
    if found is None:
        raise CLIError(f"job {job_id} not found")
    fields = asdict(found)
    if as_json:
        echo_json({k: fields.get(k) for k in _STATUS_FIELDS})
        return
    width = max(map(len, _STATUS_FIELDS))
    for name in _STATUS_FIELDS:
        value = fields.get(name)
        if name == "last_error" and value and "\n" in value:
            click.echo(f"{name.ljust(width)}  |")
            for line in value.rstrip("\n").splitlines():
                click.echo(f"    {line}")
        elif name == "result":
            # JSON as the handler returned it; '-' when there is none (JSON null too).
            click.echo(f"{name.ljust(width)}  {'-' if value is None else json.dumps(value, ensure_ascii=False)}")
        else:
            click.echo(f"{name.ljust(width)}  {fmt(value)}")


@click.command(short_help="Cancel job ID.")
@click.argument("job_id", metavar="ID", type=click.UUID)
@dsn_option
@json_option
@click.pass_context
def cancel(ctx: click.Context, job_id: UUID, dsn: str | None, as_json: bool) -> None:
    """Cancel job ID.

    \b
    Prints one of:
      cancelled  it was queued or scheduled and will not run        (exit 0)
      running    cancellation requested; its worker stops it        (exit 0)
      finished   it had already finished (exit 0 if it ended cancelled, else 1)
      not_found  no such job                                         (exit 1)
    """
    with connect(ctx, dsn) as conn:
        result = client.cancel(conn, job_id)
        final = client.status(conn, job_id) if result == "finished" else None
    final_status = final.status if final else None
    code = 0 if result in ("cancelled", "running") or final_status == "cancelled" else 1
    if as_json:
        out: dict[str, Any] = {"job_id": job_id, "result": result}
        if final_status:
            out["status"] = final_status
        echo_json(out)
        ctx.exit(code)
    if result == "cancelled":
        click.echo(f"cancelled: job {job_id} will not run")
    elif result == "running":
        click.echo(f"running: cancellation of job {job_id} requested; its worker stops it cooperatively")
    elif result == "finished":
        message = f"finished: job {job_id} already finished" + (f" ({final_status})" if final_status else "")
        if code:
            click.echo(message + "; nothing to cancel", err=True)
        else:
            click.echo(message)
    else:
        click.echo(f"not_found: no job {job_id}", err=True)
    ctx.exit(code)


@click.command(short_help="Per queue: ready, scheduled, running, oldest ready age, dead.")
@dsn_option
@json_option
@click.pass_context
def stats(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """Per queue: ready, scheduled, running, age of the oldest ready job, dead.

    Then, under "unhandled", the job types waiting in a queue that no running
    worker of it handles (jq_unhandled_types): they are never claimed. In
    --json (the per-queue list), oldest_ready_age is in seconds.
    """
    with connect(ctx, dsn) as conn:
        rows = client.stats(conn)
        unhandled = worker_registry.unhandled_types(conn) if rows else []
    if as_json:
        echo_json([asdict(r) for r in rows])
        return
    if not rows:
        click.echo("no jobs in any queue")
        return
    table(
        ["QUEUE", "READY", "SCHEDULED", "RUNNING", "OLDEST READY", "DEAD"],
        [
            [r.queue, str(r.ready), str(r.scheduled), str(r.running), fmt_age(r.oldest_ready_age), str(r.dead)]
            for r in rows
        ],
        right={1, 2, 3, 4, 5},
    )
    if unhandled:
        click.echo("\nunhandled: job types waiting that no running worker of their queue handles")
        table(
            ["QUEUE", "TYPE", "WAITING", "OLDEST", "WORKERS"],
            [[u.queue, u.type, str(u.waiting), fmt_age(u.oldest_waiting_age), str(u.workers)] for u in unhandled],
            right={2, 3, 4},
        )
