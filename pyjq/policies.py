"""Fair claiming and caps: tenant weights and caps, concurrency-key limits, fair or plain queues.

How jq_claim shares a queue is decided in SQL (sql/functions/policies.sql and
claim.sql); each function here is one call of a jq_* admin function on the
caller's connection, in its current transaction, and has an ``_async`` twin:

* ``tenant_policy_set(conn, "emails", "acme", weight=3, max_running=10)``:
  tenant acme gets three shares of the emails queue and at most ten running
  jobs. ``queue="*"`` applies to every queue, ``tenant="*"`` to every tenant
  without a row of its own, ``tenant=None`` to jobs without a tenant. A
  ``None`` weight or cap leaves that field to a less specific row (weight 1,
  no cap when none); ``max_running=0`` pauses the tenant in that queue.
* ``key_limit_set(conn, "sync_account", 2)``: at most two jobs of type
  sync_account that share a ``concurrency_key`` run at once (default 1).
* ``queue_set_fair(conn, "bulk", False)``: plain FIFO (priority, then run_at)
  across tenants in queue bulk; caps still apply.
* ``tenants(conn)``: per queue and tenant with live jobs, the ready,
  scheduled and running counts and the policy in force.

Results are frozen dataclasses (:class:`TenantPolicy`, :class:`TenantPolicyRow`,
:class:`KeyLimit`, :class:`TenantStats`); read their fields as attributes (``row.max_running``).
Errors are jq's SQLSTATEs mapped by :mod:`pyjq.errors` (e.g. a weight of 0
raises :class:`~pyjq.errors.InvalidArgument`).
"""

from __future__ import annotations

import psycopg

from ._adapters import takes_async_connection, takes_connection
from ._calls import expect_row
from ._calls.policies import (
    KEY_LIMIT_DELETE,
    KEY_LIMIT_SET,
    QUEUE_SET_FAIR,
    TENANT_POLICIES,
    TENANT_POLICY_DELETE,
    TENANT_POLICY_SET,
    TENANTS,
    KeyLimit,
    TenantPolicy,
    TenantPolicyRow,
    TenantStats,
)

__all__ = [
    "KeyLimit",
    "TenantPolicy",
    "TenantPolicyRow",
    "TenantStats",
    "key_limit_delete",
    "key_limit_delete_async",
    "key_limit_set",
    "key_limit_set_async",
    "queue_set_fair",
    "queue_set_fair_async",
    "tenant_policies",
    "tenant_policies_async",
    "tenant_policy_delete",
    "tenant_policy_delete_async",
    "tenant_policy_set",
    "tenant_policy_set_async",
    "tenants",
    "tenants_async",
]


@takes_connection
def tenant_policy_set(
    conn: psycopg.Connection,
    queue: str,
    tenant: str | None,
    weight: int | None = None,
    max_running: int | None = None,
) -> TenantPolicy:
    """Set (upsert) a tenant's weight and cap in a queue (jq_tenant_policy_set).

    Returns the row as stored. At least one of weight
    (1..1000) and max_running (0..1000000) must be given.
    """
    row = TENANT_POLICY_SET.run(conn, queue=queue, tenant=tenant, weight=weight, max_running=max_running)
    return expect_row(row, "jq_tenant_policy_set")


@takes_async_connection
async def tenant_policy_set_async(
    conn: psycopg.AsyncConnection,
    queue: str,
    tenant: str | None,
    weight: int | None = None,
    max_running: int | None = None,
) -> TenantPolicy:
    """tenant_policy_set on an async connection."""
    row = await TENANT_POLICY_SET.run_async(conn, queue=queue, tenant=tenant, weight=weight, max_running=max_running)
    return expect_row(row, "jq_tenant_policy_set")


@takes_connection
def tenant_policy_delete(conn: psycopg.Connection, queue: str, tenant: str | None) -> bool:
    """Drop the policy row of (queue, tenant) (jq_tenant_policy_delete); True when one existed."""
    return bool(TENANT_POLICY_DELETE.run(conn, queue=queue, tenant=tenant))


@takes_async_connection
async def tenant_policy_delete_async(conn: psycopg.AsyncConnection, queue: str, tenant: str | None) -> bool:
    """tenant_policy_delete on an async connection."""
    return bool(await TENANT_POLICY_DELETE.run_async(conn, queue=queue, tenant=tenant))


@takes_connection
def tenant_policies(conn: psycopg.Connection) -> list[TenantPolicyRow]:
    """Every tenant policy row (jq_tenant_policies), ordered by queue and tenant;
    tenant None is jobs without a tenant, '*' a default."""
    return TENANT_POLICIES.run(conn)


@takes_async_connection
async def tenant_policies_async(conn: psycopg.AsyncConnection) -> list[TenantPolicyRow]:
    """tenant_policies on an async connection."""
    return await TENANT_POLICIES.run_async(conn)


@takes_connection
def key_limit_set(conn: psycopg.Connection, type: str, max_running: int) -> KeyLimit:
    """Let up to max_running (1..1000000) jobs of a type that share a concurrency_key run at once
    (jq_key_limit_set); returns the row as stored."""
    return expect_row(KEY_LIMIT_SET.run(conn, type=type, max_running=max_running), "jq_key_limit_set")


@takes_async_connection
async def key_limit_set_async(conn: psycopg.AsyncConnection, type: str, max_running: int) -> KeyLimit:
    """key_limit_set on an async connection."""
    row = await KEY_LIMIT_SET.run_async(conn, type=type, max_running=max_running)
    return expect_row(row, "jq_key_limit_set")


@takes_connection
def key_limit_delete(conn: psycopg.Connection, type: str) -> bool:
    """Drop a type's key limit (jq_key_limit_delete): back to 1 per key; True when one existed."""
    return bool(KEY_LIMIT_DELETE.run(conn, type=type))


@takes_async_connection
async def key_limit_delete_async(conn: psycopg.AsyncConnection, type: str) -> bool:
    """key_limit_delete on an async connection."""
    return bool(await KEY_LIMIT_DELETE.run_async(conn, type=type))


@takes_connection
def queue_set_fair(conn: psycopg.Connection, queue: str, fair: bool) -> bool:
    """Fair (tenants take turns, the default) or plain FIFO claiming for a queue (jq_queue_set_fair);
    returns the value set."""
    return bool(QUEUE_SET_FAIR.run(conn, queue=queue, fair=fair))


@takes_async_connection
async def queue_set_fair_async(conn: psycopg.AsyncConnection, queue: str, fair: bool) -> bool:
    """queue_set_fair on an async connection."""
    return bool(await QUEUE_SET_FAIR.run_async(conn, queue=queue, fair=fair))


@takes_connection
def tenants(conn: psycopg.Connection, queue: str | None = None) -> list[TenantStats]:
    """Per (queue, tenant) with live jobs (jq_tenants): counts, and the weight and cap in force."""
    return TENANTS.run(conn, queue=queue)


@takes_async_connection
async def tenants_async(conn: psycopg.AsyncConnection, queue: str | None = None) -> list[TenantStats]:
    """tenants on an async connection."""
    return await TENANTS.run_async(conn, queue=queue)
