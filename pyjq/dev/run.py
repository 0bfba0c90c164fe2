"""`pyjq dev` (and `make run`): the whole system on one machine.

With no database given, a local PostgreSQL cluster is created in ./.jq-dev
(see localpg.py); jq is installed; the HTTP service and a worker start; the
demo (demo.py) plays its story with a live dashboard; a summary is printed.
Ctrl-C stops everything, the local cluster included.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import socket
import threading
import time
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg

import pyjq

from .demo import DemoSize, DemoState, run_demo
from .localpg import LocalPostgres

if TYPE_CHECKING:
    from rich.console import Console  # the `demo` extra

logger = logging.getLogger("pyjq.dev")


def _free_port(preferred: int) -> int:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", preferred))
            return preferred
        except OSError:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]


class _HttpService:
    """uvicorn serving the jq HTTP app on a background thread."""

    def __init__(self, dsn: str, host: str, port: int, token: str):
        import uvicorn  # the `server` extra

        from ..http.app import create_app

        app = create_app(dsn, tokens={token: "admin"})
        self.has_console = getattr(app.state, "console", None) is not None  # Jinja2 installed
        self.server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, name="jq-http", daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def run(
    dsn: str | None,
    *,
    short: bool = False,
    serve: bool = False,
    host: str = "127.0.0.1",
    port: int = 8080,
    folder: Path = Path(".jq-dev"),
    live: bool = True,
    token: str | None = None,
    dead_hold_s: float | None = None,
) -> dict[str, Any]:
    """Run the demo; returns its summary. ``serve`` keeps the worker-less HTTP
    service and the database up after the demo until Ctrl-C. ``token`` is the
    admin token of the HTTP service and its console (default: a new random one);
    the dead webhook group stays on the console's Dead letters page for
    ``dead_hold_s`` (default 8 s, 4 s when short) before the story retries it."""
    from rich.console import Console  # the `demo` extra

    console = Console(soft_wrap=True)
    with ExitStack() as stack:
        if dsn is None:
            console.print(f"[bold]No DATABASE_URL: starting a local PostgreSQL in {folder}/[/bold]")
            dsn = stack.enter_context(LocalPostgres(folder)).dsn
        with psycopg.connect(dsn, autocommit=True) as conn:
            version = pyjq.install(conn)
        console.print(f"jq {version} installed in {_redact(dsn)}")

        token = token or secrets.token_urlsafe(12)
        http = None
        console_url = None
        try:
            http = _HttpService(dsn, host, _free_port(port), token)
        except ImportError as exc:
            console.print(f"[yellow]HTTP service not started ({exc}); pip install 'pgjq[server]'[/yellow]")
        if http is not None:
            http.start()
            stack.callback(http.stop)
            base = f"http://{host}:{http.server.config.port}"
            console.print(f"HTTP service on {base}  (admin token {token})")
            console.print(f"  curl -s -H 'Authorization: Bearer {token}' {base}/queues")
            console.print(
                f"  curl -s -H 'Authorization: Bearer {token}' -H 'Content-Type: application/json' "
                f'-d \'{{"type": "send_welcome_email", "payload": {{"userId": 42}}}}\' {base}/jobs'
            )
            if http.has_console:
                console_url = f"{base}/ui"
                console.print(f"[bold]Console[/bold] on {console_url}/  (log in with the admin token {token})")

        # The worker logs one line per job: keep them off the live display.
        logging.getLogger("pyjq.worker").setLevel(logging.CRITICAL)
        state = DemoState(console_url=console_url)
        if console_url:
            state.dead_hold_s = dead_hold_s if dead_hold_s is not None else (4.0 if short else 8.0)
        summary = asyncio.run(_play(dsn, DemoSize.short() if short else DemoSize(), console, live, state))
        _print_summary(console, summary)
        if console_url:
            console.print(
                f"  console: {console_url}/ (admin token {token}); the dead webhook group was on "
                f"{console_url}/dead before the story retried it"
                + ("" if serve else "; RUN_ARGS=--serve keeps it up after the story")
            )

        if serve and http is not None:
            console.print("[bold]Serving until Ctrl-C[/bold]")
            with suppress(KeyboardInterrupt):
                while True:
                    time.sleep(1)
    return summary


async def _play(dsn: str, size: DemoSize, console: Console, live: bool, state: DemoState) -> dict[str, Any]:
    from rich.live import Live

    from .dashboard import Dashboard

    if not live:
        return await run_demo(dsn, state, size)
    with Live(console=console, refresh_per_second=4, transient=False) as view:
        board = Dashboard(dsn, state, view)
        try:
            return await run_demo(dsn, state, size, on_tick=board.refresh)
        finally:
            with suppress(Exception):
                await board.refresh()
            await board.close()


def _print_summary(console: Console, summary: dict[str, Any]) -> None:
    ok = summary["accounted_for"]
    console.print()
    console.print(
        f"[bold]Summary[/bold] ({summary['elapsed_s']} s): {summary['jobs']} jobs, "
        + (
            "[green]every job accounted for[/green]"
            if ok
            else f"[red]{summary['mismatched']} jobs did not end as expected[/red]"
        )
    )
    for type_, counts in summary["by_type"].items():
        console.print(f"  {type_:22} " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    u = summary["urgent_pickup_ms"]
    if u["count"]:
        console.print(
            f"  urgent pickup during the bulk burst: p50 {u['p50']:.1f} ms, p95 {u['p95']:.1f} ms "
            f"({u['count']} password resets; requirement: p95 < 2 s)"
        )
    p = summary["payments"]
    console.print(
        f"  payments: {p['charge_jobs']} charge jobs, {p['provider_calls']} provider calls, "
        f"{p['charges']} charges (no double charge)"
        if p["charges"] == p["charge_jobs"]
        else f"  payments: [red]{p['charges']} charges for {p['charge_jobs']} jobs[/red]"
    )
    console.print(f"  daily-digest next slot: {summary['digest_next_run_at']}")
    console.print(json.dumps(summary, default=str))


def _redact(dsn: str) -> str:
    return psycopg.conninfo.make_conninfo(dsn, password="***") if "password" in dsn else dsn
