"""The storage of jq.jobs: GET /storage (viewer); docs/storage.md."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ..auth import Principal
from ..db import Database
from ..models_storage import StorageList, StoragePart
from .common import TokenCheck, error_responses, json_response

__all__ = ["add_storage_routes"]


def add_storage_routes(router: APIRouter, db: Database, viewer: TokenCheck) -> None:
    """Add GET /storage to ``router``."""

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
