"""What the command modules of ``pyjq`` share: the --dsn and --json options, the
connection, CLIError, timestamp parsing, reading --payload and printing results
(JSON, tables, values).

The command modules import this one and never each other; app.py registers them.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence, Set
from contextlib import contextmanager
from dataclasses import asdict, is_dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

import click
import psycopg
from psycopg.conninfo import conninfo_to_dict

from ..errors import JQError, NotInstalled, from_psycopg

__all__ = [
    "CONTEXT_SETTINGS",
    "DSN_ENV",
    "CLIError",
    "Timestamp",
    "connect",
    "describe",
    "dsn_option",
    "echo_json",
    "fmt",
    "fmt_age",
    "given_dsn",
    "json_option",
    "jsonable",
    "parse_conninfo",
    "read_payload",
    "resolve_dsn",
    "table",
]

DSN_ENV = "DATABASE_URL"
CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

F = TypeVar("F", bound=Callable[..., Any])


# -- errors ---------------------------------------------------------------------


class CLIError(Exception):
    """An error the CLI reports as one line on stderr (plus an optional hint), then exits."""

    def __init__(self, message: str, *, hint: str | None = None, exit_code: int = 1):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.exit_code = exit_code


def describe(exc: BaseException) -> tuple[str, str | None]:
    """(message, hint) for an error raised by pyjq, psycopg or the database."""
    if isinstance(exc, psycopg.Error):
        exc = from_psycopg(exc)
    if isinstance(exc, JQError):
        message = str(exc)
        if exc.sqlstate:
            message = f"{message} ({exc.sqlstate})"
        hint = exc.hint
        if isinstance(exc, NotInstalled):
            hint = "is jq installed in this database? Run `pyjq install` first."
        return message, hint
    if isinstance(exc, psycopg.Error):
        diag = exc.diag
        if diag.message_primary:
            message = diag.message_primary
            if exc.sqlstate:
                message = f"{message} ({exc.sqlstate})"
            return message, diag.message_hint
        # Connection failures: no diagnostics; the first line says what failed,
        # the following ones (libpq's advice) become the hint.
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        if not lines:
            return type(exc).__name__, None
        return lines[0], " ".join(lines[1:]) or None
    return f"{type(exc).__name__}: {exc}", None


# -- options and parameter types ----------------------------------------------------


def dsn_option(func: F) -> F:
    """--dsn, on the root group and on every command that connects."""
    return click.option(
        "--dsn",
        metavar="DSN",
        default=None,
        help=f"PostgreSQL connection string or URL [default: ${DSN_ENV}]; "
        "--dsn '' uses libpq's PG* environment variables.",
    )(func)


def json_option(func: F) -> F:
    """--json: print the result as JSON (into the parameter as_json)."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|secs|m|min|mins|h|hr|hrs|d|day|days|w)\s*$", re.I)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


class Timestamp(click.ParamType):
    """An ISO 8601 timestamp with a UTC offset (or Z); optionally a duration ago (30m, 2h, 7d)."""

    name = "TIMESTAMP"

    def __init__(self, allow_ago: bool = False):
        self.allow_ago = allow_ago

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> datetime:
        if isinstance(value, datetime):
            return value
        text = str(value).strip()
        if self.allow_ago:
            m = _DURATION.match(text)
            if m:
                seconds = float(m.group(1)) * _UNIT_SECONDS[m.group(2)[0].lower()]
                return datetime.now(UTC) - timedelta(seconds=seconds)
        example = "e.g. 2026-11-01T00:05:00+05:30 or 2026-11-01T00:05:00Z"
        if self.allow_ago:
            example += ", or a duration ago such as 30m, 2h, 7d"
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            self.fail(f"{text!r} is not an ISO 8601 timestamp ({example})", param, ctx)
        if parsed.tzinfo is None:
            self.fail(f"{text!r} has no UTC offset; add one ({example})", param, ctx)
        return parsed


# -- the connection -------------------------------------------------------------------


def given_dsn(ctx: click.Context, dsn: str | None) -> str | None:
    """--dsn of the command, else --dsn given before it (pyjq --dsn X COMMAND), else None."""
    parent = ctx.parent
    while dsn is None and parent is not None:
        dsn = parent.params.get("dsn")
        parent = parent.parent
    return dsn


def resolve_dsn(ctx: click.Context, dsn: str | None) -> str:
    """--dsn (see given_dsn), else $DATABASE_URL, else a usage error."""
    dsn = given_dsn(ctx, dsn)
    if dsn is None:
        dsn = os.environ.get(DSN_ENV) or None
    if dsn is None:
        raise CLIError(f"no database given: pass --dsn or set {DSN_ENV}", exit_code=2)
    return dsn


def parse_conninfo(conninfo: str) -> dict[str, Any]:
    """The parameters of a connection string or URL; a usage error when it is malformed."""
    try:
        return conninfo_to_dict(conninfo)
    except psycopg.Error as exc:
        raise CLIError(f"invalid connection string: {describe(exc)[0]}", exit_code=2) from exc


@contextmanager
def connect(ctx: click.Context, dsn: str | None) -> Iterator[psycopg.Connection]:
    """An autocommit connection to the database of resolve_dsn, closed on exit."""
    conninfo = resolve_dsn(ctx, dsn)
    given = parse_conninfo(conninfo)
    extra: dict[str, Any] = {}
    if "application_name" not in given and not os.environ.get("PGAPPNAME"):
        extra["application_name"] = "pyjq-cli"
    if "connect_timeout" not in given and not os.environ.get("PGCONNECT_TIMEOUT"):
        extra["connect_timeout"] = 10
    conn = psycopg.connect(conninfo, autocommit=True, **extra)
    try:
        yield conn
    finally:
        conn.close()


# -- input and output ------------------------------------------------------------------


def read_payload(text: str) -> dict[str, Any]:
    """--payload: JSON text, @FILE, or - for stdin."""
    source = "--payload"
    if text == "-":
        text, source = sys.stdin.read(), "--payload (stdin)"
    elif text.startswith("@"):
        path = Path(text[1:])
        try:
            text = path.read_text()
        except OSError as exc:
            raise CLIError(f"cannot read --payload file {str(path)!r}: {exc.strerror or exc}", exit_code=2) from exc
        source = f"--payload file {str(path)!r}"
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CLIError(f"{source} is not valid JSON: {exc}", exit_code=2) from exc
    if not isinstance(payload, dict):
        raise CLIError(
            f"{source} must be a JSON object, not {type(payload).__name__} (e.g. '{{\"user_id\": 42}}')", exit_code=2
        )
    return payload


def jsonable(value: Any) -> Any:
    """value with datetimes, durations, UUIDs, decimals and dataclasses made JSON-friendly."""
    if is_dataclass(value) and not isinstance(value, type):
        return jsonable(asdict(value))
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def echo_json(value: Any) -> None:
    click.echo(json.dumps(jsonable(value), indent=2, ensure_ascii=False))


def fmt(value: Any) -> str:
    """A value as a table cell: - for None, seconds-precision times, yes/no."""
    if value is None:
        return "-"
    if isinstance(value, datetime):
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, timedelta):
        return fmt_age(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def fmt_age(age: timedelta | None) -> str:
    """A duration, short: 4.2s, 3m07s, 2h05m00s, 1d02h05m."""
    if age is None:
        return "-"
    total = age.total_seconds()
    if total < 60:
        return f"{total:.1f}s"
    seconds = int(total)
    days, seconds = divmod(seconds, 86400)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    if days:
        return f"{days}d{hours:02d}h{minutes:02d}m"
    if hours:
        return f"{hours}h{minutes:02d}m{seconds:02d}s"
    return f"{minutes}m{seconds:02d}s"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: Set[int] = frozenset()) -> None:
    """Print rows under headers in aligned columns; the columns numbered in right are right-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=False))]
        return "  ".join(parts).rstrip()

    click.echo(line(headers))
    for row in rows:
        click.echo(line(row))
