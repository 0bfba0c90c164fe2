"""Fairness: ``pyjq tenants``, ``policy set|delete|list``, ``key-limit set|delete``
and ``queue fair``."""

from __future__ import annotations

import click

from .. import policies
from .common import CONTEXT_SETTINGS, CLIError, connect, dsn_option, echo_json, fmt, json_option, table

__all__ = ["key_limit", "policy", "queue", "tenants"]


_NO_TENANT = "-"


def _tenant_arg(ctx: click.Context, tenant: str | None, no_tenant: bool) -> str | None:
    """TENANT as jq takes it: '-' (or --no-tenant) is None, jobs without a tenant; '*' every tenant."""
    if no_tenant:
        if tenant is not None:
            raise click.UsageError("give TENANT or --no-tenant, not both", ctx)
        return None
    if tenant is None:
        raise click.UsageError("missing argument 'TENANT' (or --no-tenant for jobs without a tenant)", ctx)
    return None if tenant == _NO_TENANT else tenant


def _tenant_text(tenant: str | None) -> str:
    return "(no tenant)" if tenant is None else tenant


def _fmt_cap(value: int | None, default: str) -> str:
    return default if value is None else str(value)


@click.command(short_help="Per queue and tenant: job counts and the weight and cap in force.")
@click.option("--queue", default=None, help="Only this queue.")
@dsn_option
@json_option
@click.pass_context
def tenants(ctx: click.Context, queue: str | None, dsn: str | None, as_json: bool) -> None:
    """Per queue and tenant with live jobs: ready, scheduled and running jobs, the
    weight and max_running in force, and how many jobs the tenant was served
    while tenants shared the queue. TENANT - is jobs without a tenant; MAX
    RUNNING - is no cap.
    """
    with connect(ctx, dsn) as conn:
        rows = policies.tenants(conn, queue)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("no live jobs" + (f" in queue {queue}" if queue else ""))
        return
    table(
        ["QUEUE", "TENANT", "READY", "SCHEDULED", "RUNNING", "WEIGHT", "MAX RUNNING", "SERVED"],
        [
            [
                r.queue,
                fmt(r.tenant),
                str(r.ready),
                str(r.scheduled),
                str(r.running),
                str(r.weight),
                fmt(r.max_running),
                str(r.served),
            ]
            for r in rows
        ],
        right={2, 3, 4, 5, 6, 7},
    )


@click.group(
    context_settings=CONTEXT_SETTINGS, no_args_is_help=True, short_help="Set, list and delete tenant weights and caps."
)
def policy() -> None:
    """Tenant policies: how jq_claim shares a queue between tenants.

    Within a priority, tenants take turns in proportion to their weight
    (default 1); max_running caps a tenant's running jobs (0 pauses it).
    QUEUE '*' applies to every queue; TENANT '*' to every tenant without a
    policy of its own, TENANT '-' (or --no-tenant) to jobs without a tenant.
    A tenant's own policy beats '*', a queue's beats '*', field by field.
    """


@policy.command("set", short_help="Set the weight and/or cap of TENANT in QUEUE.")
@click.argument("queue")
@click.argument("tenant", required=False)
@click.option("--no-tenant", is_flag=True, help="The policy of jobs without a tenant (same as TENANT '-').")
@click.option("--weight", type=int, default=None, help="Shares of the queue, 1..1000 (default 1).")
@click.option(
    "--max-running",
    type=int,
    default=None,
    metavar="N",
    help="At most N running jobs of the tenant in the queue, 0..1000000 (0 pauses it).",
)
@dsn_option
@json_option
@click.pass_context
def policy_set(
    ctx: click.Context,
    queue: str,
    tenant: str | None,
    no_tenant: bool,
    weight: int | None,
    max_running: int | None,
    dsn: str | None,
    as_json: bool,
) -> None:
    """Create or replace the policy of TENANT in QUEUE; print it.

    QUEUE '*' is every queue; TENANT '*' every tenant without a policy of its
    own, TENANT '-' (or --no-tenant) jobs without a tenant. A field not given
    is left to a less specific policy ('*'), else the default (weight 1, no
    cap). Give --weight, --max-running or both.
    """
    tenant_value = _tenant_arg(ctx, tenant, no_tenant)
    if weight is None and max_running is None:
        raise click.UsageError("give --weight, --max-running or both", ctx)
    with connect(ctx, dsn) as conn:
        row = policies.tenant_policy_set(conn, queue, tenant_value, weight=weight, max_running=max_running)
    if as_json:
        echo_json(row)
        return
    click.echo(
        f"policy of {_tenant_text(row.tenant)} in queue {row.queue}: "
        f"weight {_fmt_cap(row.weight, 'inherited')}, "
        f"max running {_fmt_cap(row.max_running, 'inherited')}"
    )


@policy.command("delete", short_help="Delete the policy of TENANT in QUEUE.")
@click.argument("queue")
@click.argument("tenant", required=False)
@click.option("--no-tenant", is_flag=True, help="The policy of jobs without a tenant (same as TENANT '-').")
@dsn_option
@json_option
@click.pass_context
def policy_delete(
    ctx: click.Context, queue: str, tenant: str | None, no_tenant: bool, dsn: str | None, as_json: bool
) -> None:
    """Delete the policy of TENANT in QUEUE (exit 1 when there is none); the
    tenant falls back to a less specific policy, else weight 1 and no cap."""
    tenant_value = _tenant_arg(ctx, tenant, no_tenant)
    with connect(ctx, dsn) as conn:
        found = policies.tenant_policy_delete(conn, queue, tenant_value)
    if as_json:
        echo_json({"queue": queue, "tenant": tenant_value, "deleted": found})
        ctx.exit(0 if found else 1)
    if not found:
        raise CLIError(f"no policy for {_tenant_text(tenant_value)} in queue {queue}")
    click.echo(f"deleted policy of {_tenant_text(tenant_value)} in queue {queue}")


@policy.command("list", short_help="List tenant policies.")
@dsn_option
@json_option
@click.pass_context
def policy_list(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """Every tenant policy, by queue and tenant. TENANT - is jobs without a
    tenant; a - weight or max running is inherited ('*' policy or default)."""
    with connect(ctx, dsn) as conn:
        rows = policies.tenant_policies(conn)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("no tenant policies")
        return
    table(
        ["QUEUE", "TENANT", "WEIGHT", "MAX RUNNING", "UPDATED"],
        [[r.queue, fmt(r.tenant), fmt(r.weight), fmt(r.max_running), fmt(r.updated_at)] for r in rows],
        right={2, 3},
    )


@click.group(
    "key-limit",
    context_settings=CONTEXT_SETTINGS,
    no_args_is_help=True,
    short_help="Set and delete concurrency-key limits per job type.",
)
def key_limit() -> None:
    """Concurrency-key limits: jobs of one type enqueued with the same
    --concurrency-key run at most N at a time (N = 1 when the type has no limit)."""


@key_limit.command("set", short_help="Let N jobs of TYPE per concurrency key run at once.")
@click.argument("type_", metavar="TYPE")
@click.argument("max_running", metavar="N", type=int)
@dsn_option
@json_option
@click.pass_context
def key_limit_set(ctx: click.Context, type_: str, max_running: int, dsn: str | None, as_json: bool) -> None:
    """Let up to N (1..1000000) jobs of TYPE that share a concurrency key run at once."""
    with connect(ctx, dsn) as conn:
        row = policies.key_limit_set(conn, type_, max_running)
    if as_json:
        echo_json(row)
        return
    click.echo(f"key limit of type {row.type}: at most {row.max_running} running per concurrency key")


@key_limit.command("delete", short_help="Delete the key limit of TYPE (back to 1).")
@click.argument("type_", metavar="TYPE")
@dsn_option
@json_option
@click.pass_context
def key_limit_delete(ctx: click.Context, type_: str, dsn: str | None, as_json: bool) -> None:
    """Delete the key limit of TYPE: back to 1 running job per concurrency key
    (exit 1 when it had none)."""
    with connect(ctx, dsn) as conn:
        found = policies.key_limit_delete(conn, type_)
    if as_json:
        echo_json({"type": type_, "deleted": found})
        ctx.exit(0 if found else 1)
    if not found:
        raise CLIError(f"type {type_} has no key limit")
    click.echo(f"deleted key limit of type {type_} (back to 1 running per concurrency key)")


@click.group(context_settings=CONTEXT_SETTINGS, no_args_is_help=True, short_help="Queue settings (fair claiming).")
def queue() -> None:
    """Queue settings."""


@queue.command("fair", short_help="Turn fair claiming of QUEUE on or off.")
@click.argument("queue_name", metavar="QUEUE")
@click.argument("state", type=click.Choice(["on", "off"], case_sensitive=False))
@dsn_option
@json_option
@click.pass_context
def queue_fair(ctx: click.Context, queue_name: str, state: str, dsn: str | None, as_json: bool) -> None:
    """on (the default): within a priority, tenants take turns by weight.
    off: plain FIFO by priority, then run_at, across tenants. Caps apply either way."""
    with connect(ctx, dsn) as conn:
        fair = policies.queue_set_fair(conn, queue_name, state.lower() == "on")
    if as_json:
        echo_json({"queue": queue_name, "fair": fair})
        return
    click.echo(f"queue {queue_name}: " + ("fair claiming on" if fair else "fair claiming off (plain FIFO)"))
