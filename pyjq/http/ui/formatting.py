"""Jinja filters of the console: times in UTC, ages, counts, payloads. Each returns plain text;
the templates' autoescaping makes it safe to show."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

__all__ = ["FILTERS", "age", "count", "pretty_json", "size", "utc"]


def utc(value: datetime | None, seconds: bool = True) -> str:
    """2026-12-01 12:00:03Z (UTC), or an em dash for none."""
    if value is None:
        return "—"
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ" if seconds else "%Y-%m-%d %H:%MZ")


def duration(value: timedelta | float | None) -> str:
    """A short duration: 850 ms, 42 s, 7 min, 3 h 5 min, 2 d 4 h."""
    if value is None:
        return "—"
    seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = seconds / 60
    if minutes < 60:
        return f"{minutes:.0f} min"
    hours, minutes = divmod(int(minutes), 60)
    if hours < 48:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


def age(value: datetime | None, now: datetime | None = None) -> str:
    """How long ago: '7 min ago', or 'in 3 h' for a time ahead."""
    if value is None:
        return "—"
    delta = (now or datetime.now(UTC)) - value
    if delta.total_seconds() < 0:
        return f"in {duration(-delta)}"
    return f"{duration(delta)} ago"


def count(value: int | None) -> str:
    """12 345 (thin-space thousands)."""
    return "—" if value is None else f"{value:,}".replace(",", "\u2009")


def size(value: int | None) -> str:
    """Bytes, short: 0 B, 8 kB, 1.2 MB, 3.4 GB (powers of 1024, as pg_size_pretty)."""
    if value is None:
        return "—"
    amount = float(value)
    for unit in ("B", "kB", "MB", "GB"):
        if amount < 1024 or unit == "GB":
            break
        amount /= 1024
    return f"{amount:.0f} {unit}" if unit in ("B", "kB") else f"{amount:.1f} {unit}"


def pretty_json(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)


def percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f} %"


FILTERS = {
    "utc": utc,
    "age": age,
    "duration": duration,
    "count": count,
    "pretty_json": pretty_json,
    "percent": percent,
    "size": size,
}
