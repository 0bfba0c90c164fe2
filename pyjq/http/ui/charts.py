"""The overview's throughput chart, drawn on the server as SVG: geometry computed here, markup in
templates/chart.svg (autoescaped like every template). No chart library, no script."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC

from ..._calls.console import ThroughputBucket

__all__ = ["Chart", "Totals", "build_chart", "totals"]

WIDTH, HEIGHT = 720, 200
LEFT, RIGHT, TOP, BOTTOM = 48, 8, 26, 28  # room for the axis labels


@dataclass(frozen=True, slots=True)
class Bar:
    x: float
    width: float
    y_ok: float
    h_ok: float  # succeeded, stacked under
    y_bad: float
    h_bad: float  # dead
    label: str  # the hover title


@dataclass(frozen=True, slots=True)
class Totals:
    succeeded: int
    dead: int
    cancelled: int
    failed_attempts: int

    @property
    def failure_rate(self) -> float | None:
        """dead / (succeeded + dead): the share of finished jobs that ended dead."""
        finished = self.succeeded + self.dead
        return self.dead / finished if finished else None


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    bars: list[Bar]
    y_max: int
    gridlines: list[tuple[float, str]]  # (y, label)
    x_labels: list[tuple[float, str]]  # (x, label)
    baseline: float
    left: int
    right_edge: int
    title: str


def totals(rows: Sequence[ThroughputBucket]) -> Totals:
    return Totals(
        succeeded=sum(r.succeeded for r in rows),
        dead=sum(r.dead for r in rows),
        cancelled=sum(r.cancelled for r in rows),
        failed_attempts=sum(r.failed_attempts for r in rows),
    )


def _nice_ceiling(value: int) -> int:
    """The smallest 1, 2 or 5 times a power of ten at or above value (at least 1)."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if m * step >= value:
                return m * step
        step *= 10


def build_chart(rows: Sequence[ThroughputBucket], title: str, time_format: str = "%H:%M") -> Chart:
    """Stacked bars per bucket: succeeded (below) and dead (above)."""
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    baseline = TOP + plot_h
    y_max = _nice_ceiling(max((r.succeeded + r.dead for r in rows), default=0))
    slot = plot_w / max(len(rows), 1)
    gap = min(2.0, slot * 0.2)
    bars = []
    for i, r in enumerate(rows):
        h_ok = plot_h * r.succeeded / y_max
        h_bad = plot_h * r.dead / y_max
        bars.append(
            Bar(
                x=round(LEFT + i * slot + gap / 2, 1),
                width=round(max(slot - gap, 1.0), 1),
                y_ok=round(baseline - h_ok, 1),
                h_ok=round(h_ok, 1),
                y_bad=round(baseline - h_ok - h_bad, 1),
                h_bad=round(h_bad, 1),
                label=f"{r.bucket_start.astimezone(UTC):%Y-%m-%d %H:%M}Z: {r.succeeded} succeeded, "
                f"{r.dead} dead, {r.cancelled} cancelled, {r.failed_attempts} failed attempts",
            )
        )
    gridlines = [(round(baseline - plot_h * k / 2, 1), str(y_max * k // 2)) for k in (0, 1, 2)]
    picks = sorted({0, len(rows) // 2, len(rows) - 1}) if rows else []
    x_labels = [
        (round(LEFT + (i + 0.5) * slot, 1), f"{rows[i].bucket_start.astimezone(UTC):{time_format}}") for i in picks
    ]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        bars=bars,
        y_max=y_max,
        gridlines=gridlines,
        x_labels=x_labels,
        baseline=baseline,
        left=LEFT,
        right_edge=WIDTH - RIGHT,
        title=title,
    )
