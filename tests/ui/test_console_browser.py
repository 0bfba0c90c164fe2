"""The console in a real browser (Debian's chromium, headless, through Playwright): logging in,
every page without a console error (a CSP violation is one), acting on a dead-letter group, what a
viewer sees, the live overview, and escaping. Screenshots of each page go to .jq-dev/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ui_helpers import ADMIN_TOKEN, VIEWER_TOKEN, ConsoleServer, bury, seed

pytest.importorskip("playwright")
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.processes

PAGES = {
    "overview": "/",
    "jobs": "/jobs",
    "dead-letters": "/dead?window=24h",
    "queues": "/queues",
    "schedules": "/schedules",
    "tenants": "/tenants",
    "workers": "/workers",
}


def log_in(page: Page, server: ConsoleServer, token: str) -> None:
    page.goto(server.url("/"))
    expect(page).to_have_url(re.compile(r"/ui/login$"))
    page.fill("#token", token)
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile(r"/ui/$"))


def test_log_in_and_every_page_renders_without_a_console_error(
    page: Page, console_server: ConsoleServer, db, problems: list[str], screenshots: Path
):
    seed(db)
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, console_server, ADMIN_TOKEN)
    for name, path in PAGES.items():
        page.goto(console_server.url(path))
        expect(page.locator("h1")).to_be_visible()
        expect(page.locator("nav a.active")).to_have_count(1)
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(screenshots / f"{name}.png"), full_page=True)
    expect(page.locator("body")).not_to_contain_text("Traceback (most recent call last)x")
    assert problems == []


def test_retry_a_dead_group_and_the_jobs_are_back_in_jq_jobs(
    page: Page, console_server: ConsoleServer, db, problems: list[str]
):
    ids = bury(db, "deliver_webhook", "RuntimeError: HTTP 503 from hooks.example.com", 4)
    log_in(page, console_server, ADMIN_TOKEN)
    page.goto(console_server.url("/dead?window=1h"))
    group = page.locator("article.group", has_text="deliver_webhook")
    expect(group.locator(".count")).to_have_text("4")
    asked: list[str] = []

    def accept(dialog):  # the confirmation shows the count
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    group.get_by_role("button", name=re.compile("Retry this group")).click()
    expect(page.locator(".notice-ok")).to_contain_text("Requeued 4")
    assert "Retry 4 dead deliver_webhook jobs" in asked[0]
    back = db.execute("select count(*) from jq.jobs where id = any(%s)", [ids]).fetchone()[0]
    assert back == 4
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 0
    expect(page.locator("article.group")).to_have_count(0)
    assert problems == []


def test_declining_the_confirmation_changes_nothing(page: Page, console_server: ConsoleServer, db):
    bury(db, "deliver_webhook", "HTTP 503", 2)
    log_in(page, console_server, ADMIN_TOKEN)
    page.goto(console_server.url("/dead"))
    page.once("dialog", lambda d: d.dismiss())
    page.get_by_role("button", name=re.compile("Retry this group")).click()
    page.wait_for_timeout(300)
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 2


def test_a_viewer_sees_everything_and_cannot_act(page: Page, console_server: ConsoleServer, db, problems: list[str]):
    seed(db)
    log_in(page, console_server, VIEWER_TOKEN)
    expect(page.locator(".scope")).to_have_text("viewer")
    for path in PAGES.values():
        page.goto(console_server.url(path))
        expect(page.locator("h1")).to_be_visible()
        # The only form a viewer gets is logging out (and the GET filters).
        expect(page.locator("form[method=post]:not([action$='/logout'])")).to_have_count(0)
    page.goto(console_server.url("/dead?window=all"))
    expect(page.locator("article.group")).to_have_count(3)
    dead_before = db.execute("select count(*) from jq.dead_jobs").fetchone()[0]
    csrf = page.locator("body").get_attribute("data-csrf")
    fingerprint = db.execute("select error from jq.jq_dead_groups() where type = 'deliver_webhook'").fetchone()[0]
    answer = page.request.post(
        console_server.url("/dead/retry"),
        form={"csrf": csrf or "", "type": "deliver_webhook", "error": fingerprint, "window": "all"},
    )
    assert answer.status == 403
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == dead_before
    assert problems == []


def test_a_post_without_the_csrf_token_is_refused(page: Page, console_server: ConsoleServer, db):
    bury(db, "deliver_webhook", "HTTP 503", 1)
    log_in(page, console_server, ADMIN_TOKEN)
    fingerprint = db.execute("select error from jq.jq_dead_groups()").fetchone()[0]
    answer = page.request.post(
        console_server.url("/dead/retry"), form={"type": "deliver_webhook", "error": fingerprint, "window": "all"}
    )
    assert answer.status == 403  # the session cookie alone is not enough
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 1


def test_the_overview_updates_without_reloading(page: Page, console_server: ConsoleServer, db, problems: list[str]):
    import pyjq

    pyjq.enqueue(db, "export_row", {}, queue="bulk")
    log_in(page, console_server, ADMIN_TOKEN)
    ready = page.locator('#queue-table tr[data-queue="bulk"] [data-field="ready"]')
    expect(ready).to_have_text("1")
    page.evaluate("window.__sameDocument = true")
    for i in range(6):
        pyjq.enqueue(db, "export_row", {"n": i}, queue="bulk")
    expect(ready).to_have_text("7", timeout=20_000)
    assert page.evaluate("window.__sameDocument") is True  # no reload happened
    assert problems == []


def test_a_script_in_a_payload_or_error_shows_as_text(page: Page, console_server: ConsoleServer, db):
    script = "<script>document.title='pwned'</script>"
    bury(db, "deliver_webhook", f"RuntimeError: {script}", 1, payload={"note": script})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    log_in(page, console_server, ADMIN_TOKEN)
    page.goto(console_server.url("/dead"))
    expect(page.locator("pre.trace").first).to_contain_text(script)
    assert page.title() != "pwned"
    assert page.locator("script:not([src])").count() == 0
    assert dialogs == []
