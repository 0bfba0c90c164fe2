"""The live terminal view of the demo (rich): per-queue counts from jq_stats,
jobs done per queue, urgent pickup latency, and the story's last events."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import psycopg
from rich.console import Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

import pyjq

from .demo import QUEUES, DemoState, percentile

# Which queue each demo job type runs on (for the "done" column).
_QUEUE_OF = {"send_password_reset": "urgent", "export_row": "bulk"}


class Dashboard:
    def __init__(self, dsn: str, state: DemoState, live: Live):
        self.dsn = dsn
        self.state = state
        self.live = live
        self.conn: psycopg.AsyncConnection | None = None
        self.stats: list[dict[str, Any]] = []

    async def refresh(self) -> None:
        if self.conn is None or self.conn.closed:
            self.conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
        self.stats = [asdict(row) for row in await pyjq.stats_async(self.conn)]
        self.live.update(self.render())

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()

    def render(self) -> Group:
        done: dict[str, int] = {q: 0 for q in QUEUES}
        for type_, n in self.state.done.items():
            done[_QUEUE_OF.get(type_, "default")] += n
        table = Table(title="jq queues", expand=False)
        for col in ("queue", "ready", "scheduled / retrying", "running", "done", "dead", "oldest ready"):
            table.add_column(col, justify="right" if col != "queue" else "left")
        by_queue = {r["queue"]: r for r in self.stats}
        for queue in QUEUES:
            r = by_queue.get(queue, {})
            age = r.get("oldest_ready_age")
            table.add_row(
                queue,
                str(r.get("ready", 0)),
                str(r.get("scheduled", 0)),
                str(r.get("running", 0)),
                str(done[queue]),
                str(r.get("dead", 0)),
                f"{age.total_seconds():.2f} s" if age is not None else "-",
            )
        p50 = percentile(self.state.urgent_latency_ms, 50)
        p95 = percentile(self.state.urgent_latency_ms, 95)
        latency = Text(
            f"urgent pickup (enqueue commit -> handler start): "
            f"p50 {_ms(p50)}  p95 {_ms(p95)}  over {len(self.state.urgent_latency_ms)} resets",
            style="bold",
        )
        events = Panel("\n".join(self.state.events[-10:]) or "starting...", title="what is happening")
        return Group(table, latency, events)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"
