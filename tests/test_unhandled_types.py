"""Job types nobody handles: the worker registers its types, warns once per (queue, type) that waits
with no running worker handling it, and `pyjq stats` and GET /queues name them (issue 18's case:
a `make_report` job waiting with the README's worker running)."""

from __future__ import annotations

import asyncio
import logging
import re
import sys
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from helpers import eventually, invoke_cli

import pyjq

README = Path(__file__).resolve().parent.parent / "README.md"
WARNING = re.compile(r"jobs of type 'make_report' wait in queue 'default' and no running worker handles them")


def readme_worker_module() -> str:
    """The README's worker example (the python block starting `# jobs.py`)."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    matching = [b for b in blocks if b.startswith("# jobs.py")]
    assert len(matching) == 1, "README.md should hold one `# jobs.py` worker example"
    return matching[0]


def run_with(worker: pyjq.Worker, scenario: Callable[[], Awaitable[Any]], timeout: float = 60.0) -> Any:
    """Run the worker while scenario() runs, then stop it; the scenario's result."""

    async def main() -> Any:
        run = asyncio.create_task(worker.run_async())
        try:
            return await asyncio.wait_for(scenario(), timeout)
        finally:
            await worker.stop()
            await run

    return asyncio.run(main())


def unhandled_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "pyjq.worker" and WARNING.search(r.getMessage())]


def registered_types(db: psycopg.Connection, worker: str) -> list[str] | None:
    row = db.execute("select types from jq.workers where name = %s", [worker]).fetchone()
    return row[0] if row else None


def test_readme_worker_warns_once_and_pyjq_stats_names_the_type(db, dsn, tmp_path, monkeypatch, caplog):
    (tmp_path / "unhandled_readme_jobs.py").write_text(readme_worker_module())
    monkeypatch.setenv("DATABASE_URL", dsn)
    monkeypatch.syspath_prepend(str(tmp_path))
    import unhandled_readme_jobs  # type: ignore[import-not-found]  # the README's module, written above

    worker: pyjq.Worker = unhandled_readme_jobs.worker
    worker.check_unhandled = 0.3  # the default is 30 s
    caplog.set_level(logging.INFO, logger="pyjq.worker")
    report = pyjq.enqueue(db, "make_report", {"report_id": 7})  # no handler anywhere: it waits
    welcome = pyjq.enqueue(db, "send_welcome_email", {"user_id": 1})

    async def scenario() -> str:
        await eventually(lambda: unhandled_warnings(caplog), timeout=20, what="the unhandled-type warning")
        calls = worker.stats.get("unhandled_types", 0)
        await eventually(lambda: worker.stats.get("unhandled_types", 0) >= calls + 3, timeout=20, what="3 more checks")
        result = await asyncio.to_thread(invoke_cli, "stats", "--dsn", dsn)
        assert result.exit_code == 0, result.output
        return result.output

    stats_output = run_with(worker, scenario)
    sys.modules.pop("unhandled_readme_jobs", None)

    warnings = unhandled_warnings(caplog)
    assert len(warnings) == 1, [w.getMessage() for w in warnings]
    assert warnings[0].levelno == logging.WARNING
    assert "registered types are charge_card, send_welcome_email" in warnings[0].getMessage()
    assert "1 waiting" in warnings[0].getMessage()
    assert "unhandled: job types waiting that no running worker of their queue handles" in stats_output
    line = next(line for line in stats_output.splitlines() if "make_report" in line)
    assert line.split()[:3] == ["default", "make_report", "1"] and line.split()[-1] == "1"
    shown = pyjq.status(db, report.job_id)
    assert shown is not None and shown.status == "queued"  # never claimed: nothing handles it
    shown = pyjq.status(db, welcome.job_id)
    assert shown is not None and shown.status == "succeeded"


def test_the_worker_registers_its_types_and_stays_quiet_when_another_handles_them(db, dsn, caplog):
    # Another live worker of the queue handles make_report: nothing to say.
    db.execute(
        "select * from jq.jq_worker_register('reports-worker', '{\"default\": 1}', p_types => array['make_report'])"
    )
    worker = pyjq.Worker(dsn, queues={"default": 2}, check_unhandled=0.2, tick=False)
    worker.handler("send_welcome_email")(lambda job: None)
    worker.handler("charge_card")(lambda job: None)
    caplog.set_level(logging.WARNING, logger="pyjq.worker")
    pyjq.enqueue(db, "make_report", {})

    async def scenario() -> list[str] | None:
        await eventually(lambda: registered_types(db, worker.name), timeout=20, what="the registration")
        await eventually(lambda: worker.stats.get("unhandled_types", 0) >= 3, timeout=20, what="3 checks")
        listed = [w.types for w in pyjq.workers(db) if w.worker == worker.name]
        assert listed == [["charge_card", "send_welcome_email"]]  # jq_workers shows them too
        return registered_types(db, worker.name)

    assert run_with(worker, scenario) == ["charge_card", "send_welcome_email"]
    assert unhandled_warnings(caplog) == []
    assert pyjq.unhandled_types(db) == []


def test_unhandled_types_from_python_and_get_queues(db, dsn):
    pytest.importorskip("fastapi")
    with warnings.catch_warnings():  # starlette nudges towards httpx2; httpx works
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from pyjq.http import create_app

    db.execute(
        "select * from jq.jq_worker_register('mail-worker', '{\"default\": 4, \"urgent\": 1}',"
        " p_types => array['send_welcome_email'])"
    )
    pyjq.enqueue(db, "make_report", {"report_id": 1})
    pyjq.enqueue(db, "make_report", {"report_id": 2})
    pyjq.enqueue(db, "send_welcome_email", {"user_id": 1})
    pyjq.enqueue(db, "charge_card", {"amount": 5}, queue="urgent")

    rows = pyjq.unhandled_types(db)
    assert [(r.queue, r.type, r.waiting, r.workers) for r in rows] == [
        ("default", "make_report", 2, 1),
        ("urgent", "charge_card", 1, 1),
    ]

    token = "admin-token-0123456789"
    with TestClient(create_app(dsn, tokens={token: "admin"})) as client:
        r = client.get("/queues", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    unhandled = r.json()["unhandled"]
    assert [(u["queue"], u["type"], u["waiting"], u["workers"]) for u in unhandled] == [
        ("default", "make_report", 2, 1),
        ("urgent", "charge_card", 1, 1),
    ]
    assert all(u["oldestWaitingAgeSeconds"] >= 0 for u in unhandled)
