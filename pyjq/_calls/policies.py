"""Fairness calls: tenant weights and caps, concurrency-key limits, fair or plain
queues, per-tenant figures (sql/functions/policies.sql)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from . import Many, One, Scalar

__all__ = [
    "KEY_LIMIT_DELETE",
    "KEY_LIMIT_SET",
    "QUEUE_SET_FAIR",
    "TENANTS",
    "TENANT_POLICIES",
    "TENANT_POLICY_DELETE",
    "TENANT_POLICY_SET",
    "KeyLimit",
    "TenantPolicy",
    "TenantPolicyRow",
    "TenantStats",
]


@dataclass(frozen=True, slots=True)
class TenantPolicy:
    """A tenant's policy in a queue, as jq_tenant_policy_set wrote it. ``tenant``
    None is jobs without a tenant, '*' every tenant without a row of its own
    (``queue`` '*': every queue); a None ``weight`` or ``max_running`` is left
    to a less specific row."""

    queue: str
    tenant: str | None
    weight: int | None
    max_running: int | None


@dataclass(frozen=True, slots=True)
class TenantPolicyRow(TenantPolicy):
    """A row of jq_tenant_policies: the policy and when it was last set."""

    updated_at: datetime


@dataclass(frozen=True, slots=True)
class KeyLimit:
    type: str
    max_running: int  # jobs of the type sharing one concurrency_key that may run at once


@dataclass(frozen=True, slots=True)
class TenantStats:
    """One (queue, tenant) with live jobs; ``weight`` and ``max_running`` are the policy in force."""

    queue: str
    tenant: str | None
    ready: int
    scheduled: int
    running: int
    weight: int
    max_running: int | None  # None: no cap
    served: int  # jobs given to the tenant while tenants shared the queue


TENANT_POLICY_SET: One[TenantPolicy] = One(
    TenantPolicy,
    "select * from jq.jq_tenant_policy_set(p_queue => %(queue)s::text, p_tenant => %(tenant)s::text,"
    " p_weight => %(weight)s::integer, p_max_running => %(max_running)s::integer)",
)
TENANT_POLICY_DELETE: Scalar[bool] = Scalar(
    "select jq.jq_tenant_policy_delete(p_queue => %(queue)s::text, p_tenant => %(tenant)s::text)"
)
TENANT_POLICIES: Many[TenantPolicyRow] = Many(TenantPolicyRow, "select * from jq.jq_tenant_policies()")
KEY_LIMIT_SET: One[KeyLimit] = One(
    KeyLimit, "select * from jq.jq_key_limit_set(p_type => %(type)s::text, p_max_running => %(max_running)s::integer)"
)
KEY_LIMIT_DELETE: Scalar[bool] = Scalar("select jq.jq_key_limit_delete(p_type => %(type)s::text)")
QUEUE_SET_FAIR: Scalar[bool] = Scalar(
    "select jq.jq_queue_set_fair(p_queue => %(queue)s::text, p_fair => %(fair)s::boolean)"
)
TENANTS: Many[TenantStats] = Many(TenantStats, "select * from jq.jq_tenants(p_queue => %(queue)s::text)")
