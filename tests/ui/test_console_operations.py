"""The console's operator pages in the browser: filter jobs and open one (payload, attempts,
keys), act on a job, pause a queue and see a real worker stop claiming from it, discard a
dead-letter group."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from ui_helpers import ADMIN_TOKEN, ConsoleServer, bury

import pyjq

pytest.importorskip("playwright")
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.processes


def log_in(page: Page, server: ConsoleServer) -> None:
    page.goto(server.url("/login"))
    page.fill("#token", ADMIN_TOKEN)
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile(r"/ui/$"))


def accept_next_dialog(page: Page) -> list[str]:
    asked: list[str] = []

    def accept(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    return asked


def test_filter_jobs_and_open_one(page: Page, console_server: ConsoleServer, db, problems: list[str]):
    for i in range(3):
        pyjq.enqueue(
            db, "send_invoice", {"account": i, "note": "<b>bold?</b>"}, tenant="acme", idempotency_key=f"inv-{i}"
        )
    pyjq.enqueue(db, "export_row", {"account": 1}, queue="bulk")
    [dead] = bury(db, "send_invoice", "RuntimeError: SMTP 421 try later", 1)
    log_in(page, console_server)
    page.goto(console_server.url("/jobs"))
    expect(page.locator("#job-list tbody tr[data-job]")).to_have_count(5)
    page.fill("#job-filters input[name=type]", "send_invoice")
    page.fill("#job-filters input[name=payload]", '{"account": 1}')
    page.click("#job-filters button[type=submit]")
    rows = page.locator("#job-list tbody tr[data-job]")
    expect(rows).to_have_count(1)
    rows.first.locator("a").click()
    expect(page.locator("h1")).to_contain_text("send_invoice")
    expect(page.locator("pre.json")).to_contain_text('"account": 1')
    expect(page.locator("pre.json")).to_contain_text("<b>bold?</b>")  # as text
    expect(page.locator("dl.facts")).to_contain_text("inv-1")
    expect(page.locator("dl.facts")).to_contain_text("acme")
    # A dead job's page shows its failed attempt with the worker and the error.
    page.goto(console_server.url(f"/jobs/{dead}"))
    expect(page.locator(".timeline li.bad").first).to_contain_text("SMTP 421")
    expect(page.locator(".timeline li.bad").first).to_contain_text("test-worker")
    page.goto(console_server.url("/jobs?status=dead"))
    expect(page.locator("#job-list tbody tr[data-job]")).to_have_count(1)
    assert problems == []


def test_discard_a_job_from_its_page(page: Page, console_server: ConsoleServer, db):
    job = pyjq.enqueue(db, "legacy_sync", {}).job_id
    log_in(page, console_server)
    page.goto(console_server.url(f"/jobs/{job}"))
    asked = accept_next_dialog(page)
    page.get_by_role("button", name="Discard").click()
    expect(page.locator(".notice-ok")).to_contain_text("moved to the dead letters")
    assert asked and str(job) in asked[0]
    assert pyjq.status(db, job).status == "dead"
    actor = db.execute("select actor from jq.audit_log where action = 'jobs_discard'").fetchone()[0]
    assert actor.startswith("admin:")


def test_discard_a_dead_group_after_its_confirmation(page: Page, console_server: ConsoleServer, db):
    bury(db, "deliver_webhook", "RuntimeError: HTTP 410 gone for evt_10001", 3)
    bury(db, "deliver_webhook", "TimeoutError: 10 s", 1)
    log_in(page, console_server)
    page.goto(console_server.url("/dead"))
    group = page.locator("article.group", has_text="HTTP 410 gone")
    asked = accept_next_dialog(page)
    group.get_by_role("button", name=re.compile("Discard this group")).click()
    expect(page.locator(".notice-ok")).to_contain_text("Deleted 3")
    assert "Delete 3 dead deliver_webhook jobs" in asked[0]
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 1


@pytest.fixture
def running_worker(dsn: str) -> Iterator[list[str]]:
    """A real pyjq.Worker on queue 'pausable' in a thread; yields the ids of the jobs it ran."""
    ran: list[str] = []
    worker = pyjq.Worker(dsn, queues={"pausable": 2}, poll_interval=0.2)

    @worker.handler("tick")
    async def tick(job: pyjq.Job) -> None:
        ran.append(str(job.id))

    stopping = threading.Event()

    async def run_until_told() -> None:
        running = asyncio.create_task(worker.run_async())
        while not stopping.is_set() and not running.done():
            await asyncio.sleep(0.1)
        await worker.stop(abort=True)
        await running

    thread = threading.Thread(target=asyncio.run, args=(run_until_told(),), daemon=True)
    thread.start()
    try:
        yield ran
    finally:
        stopping.set()
        thread.join(timeout=30)
        assert not thread.is_alive(), "the worker did not stop"


def test_pause_a_queue_and_the_worker_stops_claiming(
    page: Page, console_server: ConsoleServer, db, running_worker: list[str]
):
    first = pyjq.enqueue(db, "tick", {}, queue="pausable").job_id
    deadline = time.monotonic() + 20
    while str(first) not in running_worker and time.monotonic() < deadline:
        time.sleep(0.1)
    assert str(first) in running_worker, "the worker did not run the first job"
    # A job due tomorrow keeps the queue on the page (jq_stats lists queues with jobs).
    pyjq.enqueue(db, "tick", {"later": True}, queue="pausable", run_at=datetime.now(UTC) + timedelta(days=1))
    log_in(page, console_server)
    page.goto(console_server.url("/queues"))
    row = page.locator('tr[data-queue="pausable"]')
    accept_next_dialog(page)
    row.get_by_role("button", name="Pause").click()
    expect(page.locator(".notice-ok")).to_contain_text("paused")
    expect(page.locator('tr[data-queue="pausable"] .badge')).to_have_text("paused")

    held = [pyjq.enqueue(db, "tick", {"n": n}, queue="pausable").job_id for n in range(3)]
    time.sleep(2.5)  # a dozen of the worker's polls
    assert not {str(h) for h in held} & set(running_worker), "the worker claimed from a paused queue"
    assert all(pyjq.status(db, h).status == "queued" for h in held)

    accept_next_dialog(page)
    page.locator('tr[data-queue="pausable"]').get_by_role("button", name="Resume").click()
    expect(page.locator(".notice-ok")).to_contain_text("resumed")
    deadline = time.monotonic() + 20
    while not {str(h) for h in held} <= set(running_worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert {str(h) for h in held} <= set(running_worker), "the worker did not take the queue up again"
