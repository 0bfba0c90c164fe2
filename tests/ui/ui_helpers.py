"""What the console tests share: making dead jobs, logging in over plain HTTP."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
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


def seed(db: psycopg.Connection) -> None:
    """A small, believable queue to look at: live jobs on three queues, finished history, two dead
    groups, a schedule, tenants with a policy and a registered worker."""
    import pyjq

    for i in range(12):
        pyjq.enqueue(db, "export_row", {"row": i}, queue="bulk")
    for i in range(4):
        pyjq.enqueue(db, "send_password_reset", {"user_id": i}, queue="urgent", priority=10)
    for tenant in ("acme", "globex", "acme", "initech"):
        pyjq.enqueue(db, "generate_invoice_pdf", {"invoice": f"inv_{tenant}"}, tenant=tenant)
    _seed_history(db)
    done = db.execute("select id from jq.jq_claim('bulk', 'seed-worker', 5)").fetchall()
    db.execute("select jq.jq_complete(%s::uuid[], 'seed-worker')", [[r[0] for r in done[:4]]])
    bury(
        db,
        "deliver_webhook",
        "RuntimeError: HTTP 503 from hooks.example.com for evt_1\n"
        'Traceback (most recent call last):\n  File "app/hooks.py", line 42, in deliver\n'
        '    raise RuntimeError(f"HTTP {r.status} from {host} for {event}")',
        3,
        queue="webhooks",
    )
    bury(db, "charge_card", "TimeoutError: provider did not answer in 10 s", 1, queue="payments")
    pyjq.schedule_put(
        db,
        "daily-digest",
        cron="0 8 * * *",
        timezone="Asia/Kolkata",
        type="send_daily_digest",
        payload={"kind": "daily"},
        jitter_seconds=600,
    )
    pyjq.tenant_policy_set(db, "default", "acme", weight=3, max_running=5)
    db.execute(
        "select * from jq.jq_worker_register('web-1:4242', '{\"default\": 20, \"urgent\": 10}'::jsonb,"
        " 'web-1', 4242, %s)",
        [pyjq.__version__],
    )


def _seed_history(db: psycopg.Connection) -> None:
    """Jobs finished over the last day (jq's test clock set back), so that the charts have a shape."""
    import pyjq

    now = db.execute("select now()").fetchone()[0]
    try:
        for step in range(30):
            at = now - timedelta(minutes=47 * step + 3)
            db.execute("select set_config('jq.now', %s, false)", [at.isoformat()])
            ok = 3 + (step * 7) % 11
            ids = [pyjq.enqueue(db, "send_welcome_email", {"n": k}, queue="history").job_id for k in range(ok)]
            claimed = db.execute("select id from jq.jq_claim('history', 'seed-worker', 100)").fetchall()
            db.execute("select jq.jq_complete(%s::uuid[], 'seed-worker')", [[r[0] for r in claimed]])
            assert len(claimed) == len(ids)
            if step % 4 == 1:
                bury(db, "sync_crm", "ConnectionError: crm.example.com refused the connection", 1, queue="history")
    finally:
        db.execute("select set_config('jq.now', '', false)")
