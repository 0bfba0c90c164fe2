"""What the console tests share: making dead jobs, logging in over plain HTTP."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import httpx
import psycopg
from psycopg.types.json import Jsonb

CSRF_FIELD = re.compile(r'name="csrf" value="([^"]+)"')
ADMIN_TOKEN = "console-admin-token-0123456789"
VIEWER_TOKEN = "console-viewer-token-0123456789"
PRODUCER_TOKEN = "console-producer-token-0123456789"
TOKENS = {ADMIN_TOKEN: "admin", VIEWER_TOKEN: "viewer", PRODUCER_TOKEN: "producer"}


@dataclass
class ConsoleServer:
    """The app served on a free port (the ``console_server`` fixture)."""

    base: str  # http://127.0.0.1:<port>
    app: Any

    def url(self, path: str) -> str:
        return f"{self.base}/ui{path}"


def bury(
    db: psycopg.Connection,
    type_: str,
    error: str,
    count: int = 1,
    payload: dict[str, Any] | None = None,
    queue: str = "default",
) -> list[UUID]:
    """``count`` jobs of ``type_`` that failed their only attempt with ``error``: dead."""
    ids = []
    for _ in range(count):
        job_id = db.execute(
            "select job_id from jq.jq_enqueue(p_type => %s, p_payload => %s, p_queue => %s, p_max_attempts => 1)",
            [type_, Jsonb(payload or {}), queue],
        ).fetchone()[0]
        claimed = db.execute("select id from jq.jq_claim(%s, 'test-worker', 100)", [queue]).fetchall()
        assert job_id in [r[0] for r in claimed]
        for other in (r[0] for r in claimed if r[0] != job_id):
            db.execute("select jq.jq_release(array[%s]::uuid[], 'test-worker')", [other])
        db.execute("select * from jq.jq_fail(%s, 'test-worker', %s)", [job_id, error])
        ids.append(job_id)
    return ids


def login(client: httpx.Client, token: str) -> str:
    """Log ``client`` in with ``token``; returns the session's CSRF token (from a page's form)."""
    answer = client.post("/ui/login", data={"token": token})
    assert answer.status_code == 303, answer.text
    page = client.get("/ui/")
    assert page.status_code == 200, page.text
    found = CSRF_FIELD.search(page.text)
    assert found, "no CSRF field on the overview"
    return found.group(1)
