"""Fixtures of the console's tests: the app served by uvicorn on a free port against the test's
database, and Debian's chromium driven headless by Playwright (never a downloaded browser).

Without /usr/bin/chromium (tests/harness/ensure-deps.sh installs it as root) the browser tests are
skipped, saying why; the HTTP-level console tests still run.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import TOKENS, ConsoleServer

pytest.importorskip("jinja2")
pytest.importorskip("uvicorn")

CHROMIUM = os.environ.get("JQ_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / ".jq-dev" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def console_server(dsn: str) -> Iterator[ConsoleServer]:
    """The jq app (API and console) served by uvicorn on a thread, against the test's database."""
    import uvicorn

    from pyjq.http import create_app

    app = create_app(dsn, tokens=TOKENS)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="console-test-http", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield ConsoleServer(f"http://127.0.0.1:{port}", app)
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments: Debian's chromium, headless, nothing phoning home."""
    if not (os.access(CHROMIUM, os.X_OK) or shutil.which(CHROMIUM)):
        pytest.skip(f"no chromium at {CHROMIUM}: run tests/harness/ensure-deps.sh as root (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True, "args": CHROMIUM_ARGS}


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def problems(page: Any) -> Iterator[list[str]]:
    """Console errors and uncaught exceptions of the page (a blocked inline script is one)."""
    seen: list[str] = []
    page.on("console", lambda m: seen.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.append(f"page error: {e}"))
    return seen
