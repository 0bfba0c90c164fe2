"""The ``pyjq`` command line: install jq, run a worker, enqueue and inspect jobs.

Every command is one call of a jq_* SQL function (through pyjq's client) on an
autocommit connection, so each command is its own transaction. The database
comes from ``--dsn`` or, when that is absent, the ``DATABASE_URL`` environment
variable (a libpq connection string or a postgresql:// URL).

Errors print one line on stderr (``error: ...``, and a ``hint: ...`` line
when the database gave one) and exit 1 for operational errors, 2 for usage
errors; never a traceback unless ``--traceback`` is given.

Run ``pyjq --help`` or ``pyjq COMMAND --help``; ``python -m pyjq.cli`` works too.
"""

from __future__ import annotations

import importlib
import inspect
import json
import logging
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, NoReturn
from uuid import UUID
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click
import psycopg
from psycopg.conninfo import conninfo_to_dict

from . import __version__
from . import client
from . import policies
from . import scheduler as schedules_api
from .errors import JQError, NotInstalled, from_psycopg
from .install import install as _install

__all__ = ["cli", "main"]

DSN_ENV = "DATABASE_URL"
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


# -- errors ---------------------------------------------------------------------

class CLIError(Exception):
    """An error the CLI reports as one line on stderr (plus an optional hint), then exits."""

    def __init__(self, message: str, *, hint: str | None = None, exit_code: int = 1):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.exit_code = exit_code


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _describe(exc: BaseException) -> tuple[str, str | None]:
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


def _print_error(message: str, hint: str | None = None) -> None:
    click.echo(f"error: {_one_line(message)}", err=True)
    if hint:
        click.echo(f"hint: {_one_line(hint)}", err=True)


class _Root(click.Group):
    """The top-level group: turns every failure into one stderr line and an exit code."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        self.show_traceback = False  # set by the callback when --traceback is given
        try:
            rv = super().main(args, prog_name or "pyjq", complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:  # `pyjq` or `pyjq dead` alone
            click.echo(exc.ctx.get_help() if exc.ctx else self.get_help(click.Context(self)))
            sys.exit(0)
        except click.UsageError as exc:
            _print_error(exc.format_message(), _usage_hint(exc))
            sys.exit(2)
        except click.ClickException as exc:
            _print_error(exc.format_message())
            sys.exit(exc.exit_code)
        except click.Abort:
            _print_error("aborted")
            sys.exit(1)
        except CLIError as exc:
            if self.show_traceback:
                raise
            _print_error(exc.message, exc.hint)
            sys.exit(exc.exit_code)
        except Exception as exc:  # JQError, psycopg.Error, anything else: one line, exit 1
            if self.show_traceback:
                raise
            _print_error(*_describe(exc))
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def _usage_hint(exc: click.UsageError) -> str | None:
    if exc.ctx is None or (isinstance(exc, click.BadParameter) and not isinstance(exc, click.MissingParameter)):
        return None
    return f"see `{exc.ctx.command_path} --help`"


# -- options and parameter types ----------------------------------------------------

def _dsn_option(func: Callable) -> Callable:
    return click.option(
        "--dsn",
        metavar="DSN",
        default=None,
        help=f"PostgreSQL connection string or URL [default: ${DSN_ENV}]; "
             "--dsn '' uses libpq's PG* environment variables.",
    )(func)


def _json_option(func: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|secs|m|min|mins|h|hr|hrs|d|day|days|w)\s*$", re.I)
_QUEUE_NAME = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")  # what jq_enqueue accepts
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
                return datetime.now(timezone.utc) - timedelta(seconds=seconds)
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


class ImportTarget(click.ParamType):
    name = "MODULE:ATTR"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[str, str]:
        if isinstance(value, tuple):
            return value
        module, sep, attr = str(value).partition(":")
        if not sep or not module or not attr:
            self.fail(f"{value!r} is not MODULE:ATTR, e.g. myapp.jobs:worker", param, ctx)
        return module, attr


class QueueSlots(click.ParamType):
    name = "NAME=SLOTS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[str, int]:
        if isinstance(value, tuple):
            return value
        name, sep, slots = str(value).partition("=")
        try:
            count = int(slots)
        except ValueError:
            count = 0
        name = name.strip()
        if not sep or count < 1 or not _QUEUE_NAME.match(name):
            self.fail(f"{value!r} is not NAME=SLOTS (a queue name of 1-64 letters, digits and _ . : -,"
                      " and SLOTS >= 1), e.g. default=10", param, ctx)
        return name, count


# -- helpers ----------------------------------------------------------------------

def _given_dsn(ctx: click.Context, dsn: str | None) -> str | None:
    """--dsn of the command, else --dsn given before it (pyjq --dsn X COMMAND), else None."""
    parent = ctx.parent
    while dsn is None and parent is not None:
        dsn = parent.params.get("dsn")
        parent = parent.parent
    return dsn


def _resolve_dsn(ctx: click.Context, dsn: str | None) -> str:
    """--dsn (see _given_dsn), else $DATABASE_URL, else a usage error."""
    dsn = _given_dsn(ctx, dsn)
    if dsn is None:
        dsn = os.environ.get(DSN_ENV) or None
    if dsn is None:
        raise CLIError(f"no database given: pass --dsn or set {DSN_ENV}", exit_code=2)
    return dsn


@contextmanager
def _connect(ctx: click.Context, dsn: str | None) -> Iterator[psycopg.Connection]:
    conninfo = _resolve_dsn(ctx, dsn)
    extra: dict[str, Any] = {}
    try:
        given = conninfo_to_dict(conninfo)
    except psycopg.Error as exc:
        raise CLIError(f"invalid connection string: {_describe(exc)[0]}", exit_code=2) from exc
    if "application_name" not in given and not os.environ.get("PGAPPNAME"):
        extra["application_name"] = "pyjq-cli"
    if "connect_timeout" not in given and not os.environ.get("PGCONNECT_TIMEOUT"):
        extra["connect_timeout"] = 10
    conn = psycopg.connect(conninfo, autocommit=True, **extra)
    try:
        yield conn
    finally:
        conn.close()


def _jsonable(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _echo_json(value: Any) -> None:
    click.echo(json.dumps(_jsonable(value), indent=2, ensure_ascii=False))


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, datetime):
        return value.isoformat(sep=" ", timespec="seconds")
    if isinstance(value, timedelta):
        return _fmt_age(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _fmt_age(age: timedelta | None) -> str:
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


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: set[int] = frozenset()) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return "  ".join(parts).rstrip()

    click.echo(line(headers))
    for row in rows:
        click.echo(line(row))


def _read_payload(text: str) -> dict[str, Any]:
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
        raise CLIError(f"{source} must be a JSON object, not {type(payload).__name__}"
                       f" (e.g. '{{\"user_id\": 42}}')", exit_code=2)
    return payload


# -- the commands -------------------------------------------------------------------

@click.group(cls=_Root, context_settings=CONTEXT_SETTINGS)
@_dsn_option
@click.option("--traceback", is_flag=True, help="Show the full Python traceback when a command fails.")
@click.version_option(__version__, "-V", "--version", prog_name="pyjq", message="%(prog)s %(version)s")
def cli(dsn: str | None, traceback: bool) -> None:
    """jq: a background job queue that lives in your PostgreSQL database.

    Every command connects to the database given by --dsn (here or after the
    command), else by the DATABASE_URL environment variable.
    """
    cli.show_traceback = traceback


@cli.command(short_help="Install or upgrade jq in the database.")
@_dsn_option
@click.pass_context
def install(ctx: click.Context, dsn: str | None) -> None:
    """Install jq into the database, or upgrade it in place (safe to re-run).

    Applies sql/install.sql in one transaction and prints the installed
    schema version.
    """
    with _connect(ctx, dsn) as conn:
        before = None
        if conn.execute("select to_regprocedure('jq.jq_version()')").fetchone()[0] is not None:
            before = client.version(conn)
        after = _install(conn)
    if before is None:
        click.echo(f"jq {after} installed")
    elif before != after:
        click.echo(f"jq upgraded from {before} to {after}")
    else:
        click.echo(f"jq {after} installed (already up to date)")


@cli.command(short_help="Run a worker (MODULE:ATTR) until SIGTERM/SIGINT.")
@click.argument("target", metavar="MODULE:ATTR", type=ImportTarget())
@_dsn_option
@click.option("--queue", "queues", type=QueueSlots(), multiple=True,
              help="Queue to work and its concurrency slots, e.g. --queue default=10; repeat for more. "
                   "Replaces the worker's own queues.")
@click.option("--log-level", type=click.Choice(["debug", "info", "warning", "error"], case_sensitive=False),
              default="info", show_default=True, help="Logging level (log lines go to stderr).")
@click.pass_context
def worker(ctx: click.Context, target: tuple[str, str], dsn: str | None,
           queues: tuple[tuple[str, int], ...], log_level: str) -> None:
    """Run the pyjq.Worker at MODULE:ATTR until SIGTERM or SIGINT.

    ATTR is a pyjq.Worker, or a callable returning one; the callable is given
    dsn=... and queues=... when it takes parameters of those names. MODULE is
    imported with the current directory on sys.path.

    --dsn (or DATABASE_URL) is exported as DATABASE_URL before MODULE is
    imported, so a module that builds its Worker from os.environ["DATABASE_URL"]
    uses it. Without either, the Worker's own dsn is used.

    The first signal stops claiming, gives running jobs the worker's grace
    period, hands back the rest and exits 0; a second signal exits at once.

    \b
    Example, myapp/jobs.py:
        import os, pyjq
        worker = pyjq.Worker(os.environ["DATABASE_URL"], queues={"default": 10})
        @worker.handler("send_welcome_email")
        def send_welcome_email(job): ...
    then:
        pyjq worker myapp.jobs:worker --queue default=20
    """
    explicit = _given_dsn(ctx, dsn)
    if explicit is not None:
        os.environ[DSN_ENV] = explicit
    dsn = explicit if explicit is not None else (os.environ.get(DSN_ENV) or None)
    wanted = dict(queues) if queues else None

    level = getattr(logging, log_level.upper())
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=level, stream=sys.stderr,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    root.setLevel(level)

    name = f"{target[0]}:{target[1]}"
    obj = _load_target(*target)
    if not callable(getattr(obj, "run", None)) and callable(obj):
        obj, wanted = _call_factory(obj, dsn, wanted)
    if not callable(getattr(obj, "run", None)):
        raise CLIError(f"{name} is a {type(obj).__name__}, not a pyjq.Worker (or a callable returning one)",
                       exit_code=2)
    if explicit is not None and not _same_database(getattr(obj, "dsn", None), explicit):
        raise CLIError(f"the worker {name} was built with a different dsn than --dsn",
                       hint="build it from os.environ['DATABASE_URL'], or make ATTR a function taking dsn",
                       exit_code=2)
    if wanted:
        _override_queues(obj, wanted)
    obj.run()


def _load_target(module_name: str, attr: str) -> Any:
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise CLIError(f"cannot import module {module_name!r}: {exc}",
                           hint="run from the directory that contains it, or set PYTHONPATH",
                           exit_code=2) from exc
        raise CLIError(f"importing {module_name!r} failed: {type(exc).__name__}: {exc}") from exc
    except Exception as exc:
        raise CLIError(f"importing {module_name!r} failed: {type(exc).__name__}: {exc}",
                       hint="pyjq --traceback worker ... shows where") from exc
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise CLIError(f"module {module_name!r} has no attribute {attr!r}", exit_code=2) from None
    return obj


def _call_factory(factory: Callable[..., Any], dsn: str | None,
                  queues: dict[str, int] | None) -> tuple[Any, dict[str, int] | None]:
    """Call a worker factory; returns the worker and the queues still to apply."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        params = {}
    kwargs: dict[str, Any] = {}
    if dsn is not None and "dsn" in params:
        kwargs["dsn"] = dsn
    if queues and "queues" in params:
        kwargs["queues"] = queues
        queues = None
    return factory(**kwargs), queues


def _same_database(a: str | None, b: str) -> bool:
    if a is None:
        return True  # nothing to compare: not a pyjq.Worker
    if a == b:
        return True
    try:
        return conninfo_to_dict(a) == conninfo_to_dict(b)
    except psycopg.Error:
        return False


def _override_queues(obj: Any, queues: dict[str, int]) -> None:
    """Replace the queues of a Worker that has not started (it reads them when run() starts)."""
    setter = getattr(obj, "set_queues", None)
    if callable(setter):
        setter(queues)
    elif isinstance(getattr(obj, "queues", None), dict):
        obj.queues = dict(queues)
    else:
        raise CLIError(f"{type(obj).__name__} has no queues that --queue could replace", exit_code=2)


@cli.command(short_help="Enqueue one job of type TYPE.")
@click.argument("type_", metavar="TYPE")
@click.option("--payload", default="{}", show_default=True, metavar="JSON",
              help="Payload: a JSON object, @FILE to read it from a file, or - for stdin.")
@click.option("--queue", default="default", show_default=True, help="Queue name.")
@click.option("--priority", type=int, default=0, show_default=True, help="Higher runs first (-32768..32767).")
@click.option("--run-at", type=Timestamp(), default=None,
              help="Run no earlier than this ISO 8601 time with UTC offset, e.g. 2026-11-01T09:00:00Z.")
@click.option("--key", "--idempotency-key", "key", default=None,
              help="Idempotency key: the same key in the same queue within its window returns the first job.")
@click.option("--max-attempts", type=int, default=None, help="Attempts before the job is dead-lettered (1..1000).")
@click.option("--tenant", default=None, help="Tenant the job belongs to (the queue is shared fairly between tenants).")
@click.option("--concurrency-key", default=None, metavar="KEY",
              help="Jobs of this type with the same key run at most N at a time "
                   "(N = 1 unless set with `pyjq key-limit set`).")
@_dsn_option
@_json_option
@click.pass_context
def enqueue(ctx: click.Context, type_: str, payload: str, queue: str, priority: int, run_at: datetime | None,
            key: str | None, max_attempts: int | None, tenant: str | None, concurrency_key: str | None,
            dsn: str | None, as_json: bool) -> None:
    """Enqueue one job of type TYPE; print its id, status and whether it was a duplicate."""
    body = _read_payload(payload)
    with _connect(ctx, dsn) as conn:
        result = client.enqueue(conn, type_, body, queue=queue, priority=priority, run_at=run_at,
                                max_attempts=max_attempts, idempotency_key=key, tenant=tenant,
                                concurrency_key=concurrency_key)
    if as_json:
        _echo_json(asdict(result))
    else:
        click.echo(f"{result.job_id} {result.status}" + (" (duplicate)" if result.duplicate else ""))


_STATUS_FIELDS = ("job_id", "type", "queue", "status", "attempts", "max_attempts", "priority", "tenant",
                  "run_at", "next_attempt_at", "created_at", "finished_at", "cancel_requested", "last_error")


@cli.command(short_help="Show the status of job ID.")
@click.argument("job_id", metavar="ID", type=click.UUID)
@_dsn_option
@_json_option
@click.pass_context
def status(ctx: click.Context, job_id: UUID, dsn: str | None, as_json: bool) -> None:
    """Show where job ID is and how it went (exit 1 when unknown)."""
    with _connect(ctx, dsn) as conn:
        found = client.status(conn, job_id)
    if found is None:
        raise CLIError(f"job {job_id} not found")
    fields = asdict(found)
    if as_json:
        _echo_json({k: fields.get(k) for k in _STATUS_FIELDS})
        return
    width = max(map(len, _STATUS_FIELDS))
    for name in _STATUS_FIELDS:
        value = fields.get(name)
        if name == "last_error" and value and "\n" in value:
            click.echo(f"{name.ljust(width)}  |")
            for line in value.rstrip("\n").splitlines():
                click.echo(f"    {line}")
        else:
            click.echo(f"{name.ljust(width)}  {_fmt(value)}")


@cli.command(short_help="Cancel job ID.")
@click.argument("job_id", metavar="ID", type=click.UUID)
@_dsn_option
@_json_option
@click.pass_context
def cancel(ctx: click.Context, job_id: UUID, dsn: str | None, as_json: bool) -> None:
    """Cancel job ID.

    \b
    Prints one of:
      cancelled  it was queued or scheduled and will not run        (exit 0)
      running    cancellation requested; its worker stops it        (exit 0)
      finished   it had already finished (exit 0 if it ended cancelled, else 1)
      not_found  no such job                                         (exit 1)
    """
    with _connect(ctx, dsn) as conn:
        result = client.cancel(conn, job_id)
        final = client.status(conn, job_id) if result == "finished" else None
    final_status = final.status if final else None
    code = 0 if result in ("cancelled", "running") or final_status == "cancelled" else 1
    if as_json:
        out: dict[str, Any] = {"job_id": job_id, "result": result}
        if final_status:
            out["status"] = final_status
        _echo_json(out)
        ctx.exit(code)
    if result == "cancelled":
        click.echo(f"cancelled: job {job_id} will not run")
    elif result == "running":
        click.echo(f"running: cancellation of job {job_id} requested; its worker stops it cooperatively")
    elif result == "finished":
        message = f"finished: job {job_id} already finished" + (f" ({final_status})" if final_status else "")
        if code:
            click.echo(message + "; nothing to cancel", err=True)
        else:
            click.echo(message)
    else:
        click.echo(f"not_found: no job {job_id}", err=True)
    ctx.exit(code)


@cli.group(context_settings=CONTEXT_SETTINGS, no_args_is_help=True, short_help="Inspect and requeue dead jobs.")
def dead() -> None:
    """Inspect and requeue dead jobs (those that used up their attempts)."""


@dead.command("groups", short_help="Dead jobs grouped by type and error.")
@click.option("--type", "type_", metavar="TYPE", default=None, help="Only dead jobs of this type.")
@click.option("--since", type=Timestamp(allow_ago=True), default=None,
              help="Only jobs that died at or after this time: ISO 8601 with offset, or e.g. 2h, 7d ago.")
@_dsn_option
@_json_option
@click.pass_context
def dead_groups(ctx: click.Context, type_: str | None, since: datetime | None, dsn: str | None,
                as_json: bool) -> None:
    """Dead jobs grouped by type and normalised error, largest group first.

    The ERROR column is the fingerprint that `pyjq dead retry --error` takes.
    """
    with _connect(ctx, dsn) as conn:
        groups = client.dead_groups(conn, since=since, type=type_)
    if as_json:
        _echo_json([asdict(g) for g in groups])
        return
    if not groups:
        click.echo("no dead jobs")
        return
    _table(["TYPE", "COUNT", "FIRST", "LAST", "ERROR"],
           [[g.type, str(g.count), _fmt(g.first_failed_at), _fmt(g.last_failed_at), g.error] for g in groups],
           right={1})


@dead.command("retry", short_help="Requeue dead jobs of a type; print how many.")
@click.option("--type", "type_", metavar="TYPE", required=True, help="Requeue dead jobs of this type.")
@click.option("--error", default=None,
              help="Only this error group: a fingerprint from `pyjq dead groups`, or any raw error message of it.")
@click.option("--since", type=Timestamp(allow_ago=True), default=None,
              help="Only jobs that died at or after this time: ISO 8601 with offset, or e.g. 2h, 7d ago.")
@click.option("--limit", type=int, default=None, help="Requeue at most this many (oldest failures first).")
@_dsn_option
@_json_option
@click.pass_context
def dead_retry(ctx: click.Context, type_: str, error: str | None, since: datetime | None, limit: int | None,
               dsn: str | None, as_json: bool) -> None:
    """Requeue matching dead jobs with fresh attempts; print how many."""
    with _connect(ctx, dsn) as conn:
        count = client.retry_dead(conn, type=type_, error=error, since=since, limit=limit)
    if as_json:
        _echo_json({"requeued": count})
    else:
        click.echo(f"requeued {count} dead job{'' if count == 1 else 's'}")


@cli.group(context_settings=CONTEXT_SETTINGS, no_args_is_help=True,
           short_help="Create, list, pause, resume and delete recurring schedules.")
def schedules() -> None:
    """Recurring schedules: a cron expression in a named IANA timezone, with
    jitter; every worker's scheduler fires each slot exactly once."""


@schedules.command("put", short_help="Create or update schedule NAME.")
@click.argument("name")
@click.option("--cron", required=True,
              help="Five fields: minute hour day-of-month month day-of-week, e.g. '0 8 * * *' (08:00 daily); "
                   "or @hourly, @daily, @weekly, @monthly, @yearly.")
@click.option("--timezone", "--tz", "timezone_", required=True, metavar="ZONE",
              help="IANA time zone the cron is read in, e.g. Europe/Berlin, America/New_York, UTC.")
@click.option("--type", "type_", metavar="TYPE", required=True, help="Type of the job each slot enqueues.")
@click.option("--payload", default="{}", show_default=True, metavar="JSON",
              help="Payload of each job: a JSON object, @FILE to read it from a file, or - for stdin.")
@click.option("--queue", default="default", show_default=True, help="Queue the jobs go to.")
@click.option("--priority", type=int, default=0, show_default=True, help="Higher runs first (-32768..32767).")
@click.option("--jitter", "jitter_seconds", type=int, default=0, show_default=True, metavar="SECONDS",
              help="Spread each slot's job over [0, SECONDS) after the slot (0..86400), the same offset "
                   "for the same name and slot.")
@click.option("--max-attempts", type=int, default=None, help="Attempts per job before it is dead-lettered (1..1000).")
@click.option("--missed", type=click.Choice(["latest", "all", "none"]), default="latest", show_default=True,
              help="Slots no scheduler fired in time: fire the latest only, all of them, or none.")
@_dsn_option
@_json_option
@click.pass_context
def schedules_put(ctx: click.Context, name: str, cron: str, timezone_: str, type_: str, payload: str, queue: str,
                  priority: int, jitter_seconds: int, max_attempts: int | None, missed: str, dsn: str | None,
                  as_json: bool) -> None:
    """Create or update schedule NAME; print whether it was created and its next run.

    The cron and timezone are checked (croniter, zoneinfo, then SQL) before
    anything is written. Updating a schedule with the same cron and timezone
    keeps its next run; a paused schedule stays paused.
    """
    body = _read_payload(payload)
    with _connect(ctx, dsn) as conn:
        result = schedules_api.schedule(conn, name, cron=cron, timezone=timezone_, type=type_, payload=body,
                                        queue=queue, priority=priority, jitter_seconds=jitter_seconds,
                                        max_attempts=max_attempts, missed=missed)
    if as_json:
        _echo_json(asdict(result))
        return
    click.echo(f"{'created' if result.created else 'updated'} schedule {result.name}; "
               f"next run {_fmt_slot(result.next_run_at, timezone_)}")


def _fmt_slot(moment: datetime | None, zone: str) -> str:
    """A slot in UTC and in the schedule's timezone: 2026-03-08 07:00:00+00:00 (08:00 Europe/Berlin)."""
    if moment is None:
        return "-"
    try:
        local = moment.astimezone(ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError):
        return _fmt(moment)
    return f"{_fmt(moment.astimezone(timezone.utc))} ({local:%Y-%m-%d %H:%M} {zone})"


@schedules.command("list", short_help="List schedules (or only NAME).")
@click.argument("name", required=False)
@_dsn_option
@_json_option
@click.pass_context
def schedules_list(ctx: click.Context, name: str | None, dsn: str | None, as_json: bool) -> None:
    """List every schedule by name, or only NAME (exit 1 when it does not exist).

    NEXT RUN is in UTC, with the local time in the schedule's timezone.
    """
    with _connect(ctx, dsn) as conn:
        rows = schedules_api.list_schedules(conn, name)
    if name is not None and not rows:
        raise CLIError(f"schedule {name} not found")
    if as_json:
        _echo_json([asdict(r) for r in rows])
        return
    if not rows:
        click.echo("no schedules")
        return
    _table(["NAME", "CRON", "TIMEZONE", "TYPE", "QUEUE", "JITTER", "MISSED", "STATE", "NEXT RUN", "LAST SLOT"],
           [[r.name, r.cron, r.timezone, r.type, r.queue, f"{r.jitter_seconds}s", r.missed,
             "paused" if r.paused else "active", _fmt_slot(r.next_run_at, r.timezone), _fmt(r.last_slot_at)]
            for r in rows])


def _schedule_action(ctx: click.Context, name: str, dsn: str | None, as_json: bool,
                     action: Callable[[psycopg.Connection, str], bool], done: str) -> None:
    with _connect(ctx, dsn) as conn:
        found = action(conn, name)
    if as_json:
        _echo_json({"name": name, done: found})
        ctx.exit(0 if found else 1)
    if not found:
        raise CLIError(f"schedule {name} not found")
    click.echo(f"{done} schedule {name}")


@schedules.command("delete", short_help="Delete schedule NAME.")
@click.argument("name")
@_dsn_option
@_json_option
@click.pass_context
def schedules_delete(ctx: click.Context, name: str, dsn: str | None, as_json: bool) -> None:
    """Delete schedule NAME (exit 1 when it does not exist). Jobs it already enqueued stay."""
    _schedule_action(ctx, name, dsn, as_json, schedules_api.unschedule, "deleted")


@schedules.command("pause", short_help="Pause schedule NAME.")
@click.argument("name")
@_dsn_option
@_json_option
@click.pass_context
def schedules_pause(ctx: click.Context, name: str, dsn: str | None, as_json: bool) -> None:
    """Pause schedule NAME: none of its slots fires until it is resumed (exit 1 when it does not exist)."""
    _schedule_action(ctx, name, dsn, as_json, schedules_api.pause_schedule, "paused")


@schedules.command("resume", short_help="Resume schedule NAME.")
@click.argument("name")
@_dsn_option
@_json_option
@click.pass_context
def schedules_resume(ctx: click.Context, name: str, dsn: str | None, as_json: bool) -> None:
    """Resume schedule NAME from now on; slots that passed while it was paused
    do not fire (exit 1 when it does not exist)."""
    _schedule_action(ctx, name, dsn, as_json, schedules_api.resume_schedule, "resumed")


# -- fairness: tenants, policies, key limits, fair queues ---------------------------------

_NO_TENANT = "-"


def _tenant_arg(ctx: click.Context, tenant: str | None, no_tenant: bool) -> str | None:
    """TENANT as jq takes it: '-' (or --no-tenant) is None, jobs without a tenant; '*' every tenant."""
    if no_tenant:
        if tenant is not None:
            raise click.UsageError("give TENANT or --no-tenant, not both", ctx)
        return None
    if tenant is None:
        raise click.UsageError("missing argument 'TENANT' (or --no-tenant for jobs without a tenant)", ctx)
    return None if tenant == _NO_TENANT else tenant


def _tenant_text(tenant: str | None) -> str:
    return "(no tenant)" if tenant is None else tenant


def _fmt_cap(value: int | None, default: str) -> str:
    return default if value is None else str(value)


@cli.command(short_help="Per queue and tenant: job counts and the weight and cap in force.")
@click.option("--queue", default=None, help="Only this queue.")
@_dsn_option
@_json_option
@click.pass_context
def tenants(ctx: click.Context, queue: str | None, dsn: str | None, as_json: bool) -> None:
    """Per queue and tenant with live jobs: ready, scheduled and running jobs, the
    weight and max_running in force, and how many jobs the tenant was served
    while tenants shared the queue. TENANT - is jobs without a tenant; MAX
    RUNNING - is no cap.
    """
    with _connect(ctx, dsn) as conn:
        rows = policies.tenants(conn, queue)
    if as_json:
        _echo_json(rows)
        return
    if not rows:
        click.echo("no live jobs" + (f" in queue {queue}" if queue else ""))
        return
    _table(["QUEUE", "TENANT", "READY", "SCHEDULED", "RUNNING", "WEIGHT", "MAX RUNNING", "SERVED"],
           [[r["queue"], _fmt(r["tenant"]), str(r["ready"]), str(r["scheduled"]), str(r["running"]),
             str(r["weight"]), _fmt(r["max_running"]), str(r["served"])] for r in rows],
           right={2, 3, 4, 5, 6, 7})


@cli.group(context_settings=CONTEXT_SETTINGS, no_args_is_help=True,
           short_help="Set, list and delete tenant weights and caps.")
def policy() -> None:
    """Tenant policies: how jq_claim shares a queue between tenants.

    Within a priority, tenants take turns in proportion to their weight
    (default 1); max_running caps a tenant's running jobs (0 pauses it).
    QUEUE '*' applies to every queue; TENANT '*' to every tenant without a
    policy of its own, TENANT '-' (or --no-tenant) to jobs without a tenant.
    A tenant's own policy beats '*', a queue's beats '*', field by field.
    """


@policy.command("set", short_help="Set the weight and/or cap of TENANT in QUEUE.")
@click.argument("queue")
@click.argument("tenant", required=False)
@click.option("--no-tenant", is_flag=True, help="The policy of jobs without a tenant (same as TENANT '-').")
@click.option("--weight", type=int, default=None, help="Shares of the queue, 1..1000 (default 1).")
@click.option("--max-running", type=int, default=None, metavar="N",
              help="At most N running jobs of the tenant in the queue, 0..1000000 (0 pauses it).")
@_dsn_option
@_json_option
@click.pass_context
def policy_set(ctx: click.Context, queue: str, tenant: str | None, no_tenant: bool, weight: int | None,
               max_running: int | None, dsn: str | None, as_json: bool) -> None:
    """Create or replace the policy of TENANT in QUEUE; print it.

    QUEUE '*' is every queue; TENANT '*' every tenant without a policy of its
    own, TENANT '-' (or --no-tenant) jobs without a tenant. A field not given
    is left to a less specific policy ('*'), else the default (weight 1, no
    cap). Give --weight, --max-running or both.
    """
    tenant_value = _tenant_arg(ctx, tenant, no_tenant)
    if weight is None and max_running is None:
        raise click.UsageError("give --weight, --max-running or both", ctx)
    with _connect(ctx, dsn) as conn:
        row = policies.tenant_policy_set(conn, queue, tenant_value, weight=weight, max_running=max_running)
    if as_json:
        _echo_json(row)
        return
    click.echo(f"policy of {_tenant_text(row['tenant'])} in queue {row['queue']}: "
               f"weight {_fmt_cap(row['weight'], 'inherited')}, "
               f"max running {_fmt_cap(row['max_running'], 'inherited')}")


@policy.command("delete", short_help="Delete the policy of TENANT in QUEUE.")
@click.argument("queue")
@click.argument("tenant", required=False)
@click.option("--no-tenant", is_flag=True, help="The policy of jobs without a tenant (same as TENANT '-').")
@_dsn_option
@_json_option
@click.pass_context
def policy_delete(ctx: click.Context, queue: str, tenant: str | None, no_tenant: bool, dsn: str | None,
                  as_json: bool) -> None:
    """Delete the policy of TENANT in QUEUE (exit 1 when there is none); the
    tenant falls back to a less specific policy, else weight 1 and no cap."""
    tenant_value = _tenant_arg(ctx, tenant, no_tenant)
    with _connect(ctx, dsn) as conn:
        found = policies.tenant_policy_delete(conn, queue, tenant_value)
    if as_json:
        _echo_json({"queue": queue, "tenant": tenant_value, "deleted": found})
        ctx.exit(0 if found else 1)
    if not found:
        raise CLIError(f"no policy for {_tenant_text(tenant_value)} in queue {queue}")
    click.echo(f"deleted policy of {_tenant_text(tenant_value)} in queue {queue}")


@policy.command("list", short_help="List tenant policies.")
@_dsn_option
@_json_option
@click.pass_context
def policy_list(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """Every tenant policy, by queue and tenant. TENANT - is jobs without a
    tenant; a - weight or max running is inherited ('*' policy or default)."""
    with _connect(ctx, dsn) as conn:
        rows = policies.tenant_policies(conn)
    if as_json:
        _echo_json(rows)
        return
    if not rows:
        click.echo("no tenant policies")
        return
    _table(["QUEUE", "TENANT", "WEIGHT", "MAX RUNNING", "UPDATED"],
           [[r["queue"], _fmt(r["tenant"]), _fmt(r["weight"]), _fmt(r["max_running"]), _fmt(r["updated_at"])]
            for r in rows],
           right={2, 3})


@cli.group("key-limit", context_settings=CONTEXT_SETTINGS, no_args_is_help=True,
           short_help="Set and delete concurrency-key limits per job type.")
def key_limit() -> None:
    """Concurrency-key limits: jobs of one type enqueued with the same
    --concurrency-key run at most N at a time (N = 1 when the type has no limit)."""


@key_limit.command("set", short_help="Let N jobs of TYPE per concurrency key run at once.")
@click.argument("type_", metavar="TYPE")
@click.argument("max_running", metavar="N", type=int)
@_dsn_option
@_json_option
@click.pass_context
def key_limit_set(ctx: click.Context, type_: str, max_running: int, dsn: str | None, as_json: bool) -> None:
    """Let up to N (1..1000000) jobs of TYPE that share a concurrency key run at once."""
    with _connect(ctx, dsn) as conn:
        row = policies.key_limit_set(conn, type_, max_running)
    if as_json:
        _echo_json(row)
        return
    click.echo(f"key limit of type {row['type']}: at most {row['max_running']} running per concurrency key")


@key_limit.command("delete", short_help="Delete the key limit of TYPE (back to 1).")
@click.argument("type_", metavar="TYPE")
@_dsn_option
@_json_option
@click.pass_context
def key_limit_delete(ctx: click.Context, type_: str, dsn: str | None, as_json: bool) -> None:
    """Delete the key limit of TYPE: back to 1 running job per concurrency key
    (exit 1 when it had none)."""
    with _connect(ctx, dsn) as conn:
        found = policies.key_limit_delete(conn, type_)
    if as_json:
        _echo_json({"type": type_, "deleted": found})
        ctx.exit(0 if found else 1)
    if not found:
        raise CLIError(f"type {type_} has no key limit")
    click.echo(f"deleted key limit of type {type_} (back to 1 running per concurrency key)")


@cli.group(context_settings=CONTEXT_SETTINGS, no_args_is_help=True, short_help="Queue settings (fair claiming).")
def queue() -> None:
    """Queue settings."""


@queue.command("fair", short_help="Turn fair claiming of QUEUE on or off.")
@click.argument("queue_name", metavar="QUEUE")
@click.argument("state", type=click.Choice(["on", "off"], case_sensitive=False))
@_dsn_option
@_json_option
@click.pass_context
def queue_fair(ctx: click.Context, queue_name: str, state: str, dsn: str | None, as_json: bool) -> None:
    """on (the default): within a priority, tenants take turns by weight.
    off: plain FIFO by priority, then run_at, across tenants. Caps apply either way."""
    with _connect(ctx, dsn) as conn:
        fair = policies.queue_set_fair(conn, queue_name, state.lower() == "on")
    if as_json:
        _echo_json({"queue": queue_name, "fair": fair})
        return
    click.echo(f"queue {queue_name}: " + ("fair claiming on" if fair else "fair claiming off (plain FIFO)"))


@cli.command(short_help="Per queue: ready, scheduled, running, oldest ready age, dead.")
@_dsn_option
@_json_option
@click.pass_context
def stats(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """Per queue: ready, scheduled, running, age of the oldest ready job, dead.

    In --json, oldest_ready_age is in seconds.
    """
    with _connect(ctx, dsn) as conn:
        rows = client.stats(conn)
    if as_json:
        _echo_json([asdict(r) for r in rows])
        return
    if not rows:
        click.echo("no jobs in any queue")
        return
    _table(["QUEUE", "READY", "SCHEDULED", "RUNNING", "OLDEST READY", "DEAD"],
           [[r.queue, str(r.ready), str(r.scheduled), str(r.running), _fmt_age(r.oldest_ready_age), str(r.dead)]
            for r in rows],
           right={1, 2, 3, 4, 5})


@cli.command(short_help="Run jq_maintain once; print its JSON.")
@_dsn_option
@click.pass_context
def maintain(ctx: click.Context, dsn: str | None) -> None:
    """Run jq_maintain once (rotate history, purge expired keys, reap expired leases); print its JSON."""
    with _connect(ctx, dsn) as conn:
        result = client.maintain(conn)
    click.echo(json.dumps(result, sort_keys=True))


@cli.command(short_help="Print the installed jq schema and pyjq versions.")
@_dsn_option
@_json_option
@click.pass_context
def version(ctx: click.Context, dsn: str | None, as_json: bool) -> None:
    """Print the jq schema version installed in the database and the pyjq package version."""
    with _connect(ctx, dsn) as conn:
        schema = client.version(conn)
    if as_json:
        _echo_json({"schema": schema, "pyjq": __version__})
    else:
        click.echo(f"jq schema {schema}")
        click.echo(f"pyjq {__version__}")


@cli.command(short_help="Serve the HTTP API (needs pyjq[server]).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0 for all).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@_dsn_option
@click.option("--max-body", type=click.IntRange(min=1), default=1024 * 1024, show_default=True, metavar="BYTES",
              help="Largest request body; a larger one gets 413.")
@click.option("--log-level", type=click.Choice(["debug", "info", "warning", "error"], case_sensitive=False),
              default="info", show_default=True, help="Logging level (log lines go to stderr).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, dsn: str | None, max_body: int, log_level: str) -> None:
    """Serve the jq HTTP API with uvicorn until SIGTERM or SIGINT.

    Bearer tokens come from JQ_API_TOKENS (comma-separated token:scope, scope
    producer or admin) or from the file named by JQ_API_TOKENS_FILE (the same
    entries, by commas or lines). Without any token it refuses to start.

    \b
    Example:
        JQ_API_TOKENS='s3cret-producer:producer,s3cret-admin:admin' \\
            pyjq serve --host 0.0.0.0 --port 8000 --dsn "$DATABASE_URL"
    """
    conninfo = _resolve_dsn(ctx, dsn)
    try:
        conninfo_to_dict(conninfo)
    except psycopg.Error as exc:
        raise CLIError(f"invalid connection string: {_describe(exc)[0]}", exit_code=2) from exc
    try:
        import uvicorn

        from .http import TokenConfigError, create_app, load_tokens
    except ModuleNotFoundError as exc:
        raise CLIError(f"pyjq serve needs {exc.name}: pip install 'pyjq[server]'", exit_code=2) from exc
    try:
        tokens = load_tokens()
    except TokenConfigError as exc:
        raise CLIError(str(exc), exit_code=2) from exc
    if not tokens:
        raise CLIError("no API tokens: set JQ_API_TOKENS (token:scope,...) or JQ_API_TOKENS_FILE",
                       hint="scope is producer (enqueue, status, cancel) or admin (everything)", exit_code=2)
    app = create_app(conninfo, tokens=tokens, max_body_bytes=max_body)
    uvicorn.run(app, host=host, port=port, log_level=log_level.lower(), server_header=False)


@cli.command(short_help="The demo: jq on a local PostgreSQL, with a live dashboard.")
@click.option("--dsn", "dsn", envvar=None, default=None, metavar="DSN",
              help="Run against this database instead of a local cluster [default: $DATABASE_URL, else local].")
@click.option("--short", is_flag=True, help="A quicker story (1,000 bulk jobs instead of 10,000).")
@click.option("--serve", is_flag=True, help="Keep the HTTP service and database up after the demo, until Ctrl-C.")
@click.option("--port", type=click.IntRange(0, 65535), default=8080, show_default=True,
              help="Port of the HTTP service (another free one if taken).")
@click.option("--folder", type=click.Path(file_okay=False), default=".jq-dev", show_default=True,
              help="Where the local cluster lives.")
@click.option("--no-live", is_flag=True, help="No live dashboard (for logs and CI).")
@click.pass_context
def dev(ctx: click.Context, dsn: str | None, short: bool, serve: bool, port: int, folder: str,
        no_live: bool) -> None:
    """Play jq's story end to end and print a summary.

    With no --dsn and no DATABASE_URL, a PostgreSQL cluster is created in
    FOLDER (initdb from the machine's PostgreSQL, as the postgres OS user
    when run as root; `make deps` installs what is missing) and started; jq
    is installed; the HTTP service and a worker start; the demo enqueues
    signups, scheduled invoices, card charges, failing webhooks, a bulk burst
    with urgent password resets, and a daily digest schedule. Ctrl-C stops
    everything, the local cluster included. Exits 1 if a job did not end as
    the story expects.
    """
    try:
        from .dev.localpg import LocalPostgresError
        from .dev.run import run
    except ModuleNotFoundError as exc:
        raise CLIError(f"pyjq dev needs {exc.name}: pip install 'pyjq[demo]'", exit_code=2) from exc
    dsn = dsn or ctx.find_root().params.get("dsn") or os.environ.get("DATABASE_URL") or None
    try:
        summary = run(dsn, short=short, serve=serve, port=port, folder=Path(folder), live=not no_live)
    except LocalPostgresError as exc:
        raise CLIError(str(exc), exit_code=1) from exc
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    if not summary["accounted_for"]:
        raise SystemExit(1)


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Console entry point (``pyjq``)."""
    cli.main(args=argv, prog_name="pyjq")
    raise SystemExit(0)  # not reached: _Root.main always exits


