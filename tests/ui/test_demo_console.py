"""`make run` and the console (#17 point 4): the summary prints the dashboard's address, and the dead
webhook group is on the Dead letters page before the story retries it."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from ui_helpers import ADMIN_TOKEN

pytest.importorskip("rich")
pytestmark = pytest.mark.processes


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _watch_dead_letters(base: str, seen: list[str], stop: threading.Event) -> None:
    """Log in to the console once it is up, then look at the Dead letters page until told to stop."""
    with httpx.Client(base_url=base, timeout=5) as client:
        while not stop.is_set():
            try:
                if client.post("/ui/login", data={"token": ADMIN_TOKEN}).status_code == 303:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        while not stop.is_set():
            page = client.get("/ui/dead?window=1h").text
            if "deliver_webhook" in page and "Retry this group" in page:
                seen.append(page)
                return
            time.sleep(0.3)


def test_make_run_prints_the_console_and_shows_the_dead_webhook_group(dsn, capsys, tmp_path: Path):
    from pyjq.dev.run import run

    port = _free_port()
    seen: list[str] = []
    stop = threading.Event()
    watcher = threading.Thread(target=_watch_dead_letters, args=(f"http://127.0.0.1:{port}", seen, stop))
    watcher.start()
    answers: list[dict] = []
    # On a thread of its own: Playwright's sync API (the browser tests) keeps an event loop running on
    # the main thread for the session, and the demo calls asyncio.run.
    story = threading.Thread(
        target=lambda: answers.append(
            run(dsn, short=True, port=port, folder=tmp_path, live=False, token=ADMIN_TOKEN, dead_hold_s=5)
        )
    )
    try:
        story.start()
        story.join(timeout=300)
    finally:
        stop.set()
        watcher.join(timeout=10)
    assert answers, "the demo did not finish"
    summary = answers[0]
    printed = capsys.readouterr().out
    assert summary["accounted_for"], summary
    assert f"Console on http://127.0.0.1:{port}/ui/" in printed
    assert f"console: http://127.0.0.1:{port}/ui/" in printed
    assert seen, "the dead webhook group never showed on the console's Dead letters page"
    assert summary["by_type"]["deliver_webhook"] == {"succeeded": 4}  # shown, then retried
