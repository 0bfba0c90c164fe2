"""The README's examples run: the worker module (`# jobs.py`) handles the jobs
the README enqueues, driven by the CLI as the README shows."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pyjq

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_block(marker: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    matching = [b for b in blocks if b.startswith(marker)]
    assert matching, f"no python block starting with {marker!r} in README.md"
    return matching[0]


def test_readme_worker_example_runs_its_jobs(db, dsn, tmp_path, monkeypatch):
    (tmp_path / "readme_jobs.py").write_text(_python_block("# jobs.py"))
    monkeypatch.setenv("DATABASE_URL", dsn)
    monkeypatch.syspath_prepend(str(tmp_path))
    import readme_jobs  # noqa: PLC0415 -- the module under test is written above

    welcome = pyjq.enqueue(db, "send_welcome_email", {"user_id": 42}, priority=5, idempotency_key="welcome:42")
    charge = pyjq.enqueue(db, "charge_card", {"amount": 1250, "flaky": True})
    refused = pyjq.enqueue(db, "charge_card", {"amount": 0})

    summary = readme_jobs.worker.run_until_empty(timeout=30)
    assert pyjq.status(db, welcome.job_id).status == "succeeded"
    assert pyjq.status(db, refused.job_id).status == "dead"
    # The flaky charge asked for a retry in 1 s; once due, it succeeds.
    retry = pyjq.status(db, charge.job_id)
    assert retry.status == "failed_retrying" and summary.failed_retrying == 1
    time.sleep(max(0.0, (retry.next_attempt_at - datetime.now(timezone.utc)).total_seconds()) + 0.05)
    readme_jobs.worker.run_until_empty(timeout=30)
    assert pyjq.status(db, charge.job_id).status == "succeeded"
    sys.modules.pop("readme_jobs", None)


def test_readme_cli_enqueue_and_status(db, dsn):
    out = subprocess.run([sys.executable, "-m", "pyjq.cli", "enqueue", "generate_invoice_pdf",
                          "--payload", '{"invoiceId": "inv_7731"}', "--run-at", "2026-11-01T00:05:00+05:30",
                          "--dsn", dsn], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    job_id, status = out.stdout.split()[:2]
    assert status in ("queued", "scheduled")
    shown = pyjq.status(db, job_id)
    assert shown.type == "generate_invoice_pdf"
    assert shown.run_at.isoformat().startswith("2026-10-31T18:35:00")
