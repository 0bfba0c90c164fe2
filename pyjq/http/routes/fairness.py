"""Fairness (admin scope): GET /tenants, tenant policies (GET /tenant-policies, PUT and DELETE
/tenant-policies/{queue}/{tenant}; tenant - : jobs without a tenant) and key limits (PUT and DELETE
/key-limits/{type})."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse, Response

from ..auth import Principal
from ..db import Database
from ..errors import ApiError
from ..fields import KeyLimitType, PolicyQueue, PolicyTenant
from ..models import (
    KeyLimit,
    KeyLimitRequest,
    TenantList,
    TenantPolicy,
    TenantPolicyList,
    TenantPolicyRequest,
    TenantPolicyRow,
    TenantsQuery,
    TenantStats,
)
from .common import TokenCheck, error_responses, json_response

__all__ = ["NO_TENANT", "add_fairness_routes"]

PolicyQueueParam = Annotated[PolicyQueue, Path(description="A queue name, or * for every queue.")]
PolicyTenantParam = Annotated[
    PolicyTenant,
    Path(description="A tenant; * for every tenant without a policy of its own; - for jobs without a tenant."),
]
KeyLimitTypeParam = Annotated[KeyLimitType, Path(description="Job type.")]
NO_TENANT = "-"  # the tenant path segment of jobs without a tenant


def _policy_tenant(tenant: str) -> str | None:
    return None if tenant == NO_TENANT else tenant


def _tenant_label(tenant: str | None) -> str:
    return "jobs without a tenant" if tenant is None else f"tenant {tenant!r}"


def add_fairness_routes(router: APIRouter, db: Database, admin: TokenCheck, viewer: TokenCheck) -> None:
    """Add GET /tenants, the tenant-policy routes and the key-limit routes to ``router``."""

    @router.get(
        "/tenants",
        tags=["fairness"],
        summary="Per queue and tenant: counts and the policy in force",
        response_model=None,
        responses={
            200: {"model": TenantList, "description": "One entry per queue and tenant with live jobs."},
            **error_responses(400, 422),
        },
    )
    async def tenants(query: Annotated[TenantsQuery, Query()], _: Principal = viewer) -> JSONResponse:
        rows = await db.tenants(query.queue)
        return json_response(TenantList(tenants=[TenantStats.model_validate(r, from_attributes=True) for r in rows]))

    @router.get(
        "/tenant-policies",
        tags=["fairness"],
        summary="List tenant policies",
        response_model=None,
        responses={
            200: {"model": TenantPolicyList, "description": "Every policy, by queue and tenant."},
            **error_responses(),
        },
    )
    async def tenant_policies(_: Principal = viewer) -> JSONResponse:
        rows = await db.tenant_policies()
        return json_response(
            TenantPolicyList(policies=[TenantPolicyRow.model_validate(r, from_attributes=True) for r in rows])
        )

    @router.put(
        "/tenant-policies/{queue}/{tenant}",
        tags=["fairness"],
        summary="Set a tenant's weight and cap",
        response_model=None,
        responses={
            200: {
                "model": TenantPolicy,
                "description": "The policy as stored. A field left out is left to a less specific policy (* rows).",
            },
            **error_responses(400, 413, 422),
        },
    )
    async def tenant_policy_put(
        queue: PolicyQueueParam, tenant: PolicyTenantParam, body: TenantPolicyRequest, principal: Principal = admin
    ) -> JSONResponse:
        row = await db.tenant_policy_set(
            queue, _policy_tenant(tenant), weight=body.weight, max_running=body.max_running, actor=principal.name
        )
        return json_response(TenantPolicy.model_validate(row, from_attributes=True))

    @router.delete(
        "/tenant-policies/{queue}/{tenant}",
        tags=["fairness"],
        summary="Delete a tenant policy",
        status_code=204,
        response_model=None,
        response_class=Response,
        responses={
            204: {"description": "Deleted; the tenant falls back to a less specific policy, else weight 1 and no cap."},
            **error_responses(400, 404, 422),
        },
    )
    async def tenant_policy_delete(
        queue: PolicyQueueParam, tenant: PolicyTenantParam, principal: Principal = admin
    ) -> Response:
        who = _policy_tenant(tenant)
        if not await db.tenant_policy_delete(queue, who, actor=principal.name):
            raise ApiError(404, "POLICY_NOT_FOUND", f"No policy for {_tenant_label(who)} in queue {queue!r}.")
        return Response(status_code=204)

    @router.put(
        "/key-limits/{type}",
        tags=["fairness"],
        summary="Set a type's limit per concurrency key",
        response_model=None,
        responses={
            200: {"model": KeyLimit, "description": "The limit as stored."},
            **error_responses(400, 413, 422),
        },
    )
    async def key_limit_put(
        type: KeyLimitTypeParam, body: KeyLimitRequest, principal: Principal = admin
    ) -> JSONResponse:
        row = await db.key_limit_set(type, body.max_running, actor=principal.name)
        return json_response(KeyLimit.model_validate(row, from_attributes=True))

    @router.delete(
        "/key-limits/{type}",
        tags=["fairness"],
        summary="Delete a type's limit per concurrency key",
        status_code=204,
        response_model=None,
        response_class=Response,
        responses={
            204: {"description": "Deleted: back to 1 running job per concurrency key."},
            **error_responses(400, 404, 422),
        },
    )
    async def key_limit_delete(type: KeyLimitTypeParam, principal: Principal = admin) -> Response:
        if not await db.key_limit_delete(type, actor=principal.name):
            raise ApiError(404, "KEY_LIMIT_NOT_FOUND", f"Type {type!r} has no key limit.")
        return Response(status_code=204)
