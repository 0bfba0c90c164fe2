"""The storage of jq.jobs: GET /storage (viewer) and POST /storage/rotate (admin); docs/storage.md.

A rotation is routine work that workers do every two seconds: it is not audited.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ...storage import blocked_hint
from ..auth import Principal
from ..db import Database
from ..models_storage import StorageList, StoragePart, StorageRotation, StorageRotationList
from .common import TokenCheck, error_responses, json_response

__all__ = ["add_storage_routes"]


def add_storage_routes(router: APIRouter, db: Database, admin: TokenCheck, viewer: TokenCheck) -> None:
    """Add GET /storage and POST /storage/rotate to ``router``."""

    @router.get(
        "/storage",
        tags=["operations"],
        summary="The partitions of jq.jobs",
        response_model=None,
        responses={
            200: {
                "model": StorageList,
                "description": "The partitions of jq.jobs, then jq.queue_waiters' (jq_storage).",
            },
            **error_responses(),
        },
    )
    async def storage(_: Principal = viewer) -> JSONResponse:
        rows = await db.storage()
        parts = [StoragePart.model_validate(r, from_attributes=True) for r in rows]
        return json_response(StorageList(partitions=parts))

    @router.post(
        "/storage/rotate",
        tags=["operations"],
        summary="Rotate the generations of jq.jobs once",
        response_model=None,
        responses={
            200: {
                "model": StorageRotationList,
                "description": "What jq_storage_rotate did to each generation, and a hint when all were busy.",
            },
            **error_responses(),
        },
    )
    async def storage_rotate(_: Principal = admin) -> JSONResponse:
        rows = await db.storage_rotate()
        return json_response(
            StorageRotationList(
                rotations=[StorageRotation.model_validate(r, from_attributes=True) for r in rows],
                hint=blocked_hint(rows),
            )
        )
