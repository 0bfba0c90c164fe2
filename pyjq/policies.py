"""Fair claiming and caps: tenant weights and caps, concurrency-key limits, fair or plain queues.

How jq_claim shares a queue is decided in SQL (sql/functions/policies.sql and
claim.sql); each function here is one call of a jq_* admin function on the
caller's connection, in its current transaction:

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

Errors are jq's SQLSTATEs mapped by :mod:`pyjq.errors` (e.g. a weight of 0
raises :class:`~pyjq.errors.InvalidArgument`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.rows import dict_row

from .client import _scalar
from .errors import from_psycopg

__all__ = [
    "tenant_policy_set",
    "tenant_policy_delete",
    "tenant_policies",
    "key_limit_set",
    "key_limit_delete",
    "queue_set_fair",
    "tenants",
]


def tenant_policy_set(
    conn: psycopg.Connection,
    queue: str,
    tenant: str | None,
    weight: int | None = None,
    max_running: int | None = None,
) -> dict[str, Any]:
    """Set (upsert) a tenant's weight and cap in a queue (jq_tenant_policy_set).

    Returns the row: {queue, tenant, weight, max_running}. At least one of
    weight (1..1000) and max_running (0..1000000) must be given.
    """
    return _rows(conn, "select * from jq.jq_tenant_policy_set(p_queue => %s::text, p_tenant => %s::text,"
                       " p_weight => %s::integer, p_max_running => %s::integer)",
                 [queue, tenant, weight, max_running])[0]


def tenant_policy_delete(conn: psycopg.Connection, queue: str, tenant: str | None) -> bool:
    """Drop the policy row of (queue, tenant) (jq_tenant_policy_delete); True when one existed."""
    return bool(_scalar(conn, "select jq.jq_tenant_policy_delete(p_queue => %s::text, p_tenant => %s::text)",
                        [queue, tenant]))


def tenant_policies(conn: psycopg.Connection) -> list[dict[str, Any]]:
    """Every tenant policy row (jq_tenant_policies): {queue, tenant, weight, max_running, updated_at},
    ordered by queue and tenant; tenant None is jobs without a tenant, '*' a default."""
    return _rows(conn, "select * from jq.jq_tenant_policies()", [])


def key_limit_set(conn: psycopg.Connection, type: str, max_running: int) -> dict[str, Any]:
    """Let up to max_running (1..1000000) jobs of a type that share a concurrency_key run at once
    (jq_key_limit_set); returns {type, max_running}."""
    return _rows(conn, "select * from jq.jq_key_limit_set(p_type => %s::text, p_max_running => %s::integer)",
                 [type, max_running])[0]


def key_limit_delete(conn: psycopg.Connection, type: str) -> bool:
    """Drop a type's key limit (jq_key_limit_delete): back to 1 per key; True when one existed."""
    return bool(_scalar(conn, "select jq.jq_key_limit_delete(p_type => %s::text)", [type]))


def queue_set_fair(conn: psycopg.Connection, queue: str, fair: bool) -> bool:
    """Fair (tenants take turns, the default) or plain FIFO claiming for a queue (jq_queue_set_fair);
    returns the value set."""
    return bool(_scalar(conn, "select jq.jq_queue_set_fair(p_queue => %s::text, p_fair => %s::boolean)",
                        [queue, fair]))


def tenants(conn: psycopg.Connection, queue: str | None = None) -> list[dict[str, Any]]:
    """Per (queue, tenant) with live jobs (jq_tenants): {queue, tenant, ready, scheduled, running,
    weight, max_running, served}; weight and max_running are the policy in force."""
    return _rows(conn, "select * from jq.jq_tenants(p_queue => %s::text)", [queue])


# -- helpers --------------------------------------------------------------------

def _rows(conn: psycopg.Connection, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
    try:
        with conn.cursor(row_factory=dict_row) as cur:
            cur.execute(sql, params)
            return cur.fetchall()
    except psycopg.Error as exc:
        raise from_psycopg(exc) from exc
