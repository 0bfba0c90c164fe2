"""``pyjq worker MODULE:ATTR``: import the application's pyjq.Worker and run it."""

from __future__ import annotations

import importlib
import inspect
import logging
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any

import click
import psycopg
from psycopg.conninfo import conninfo_to_dict

from ..worker import DatabaseUnreachable
from .common import DSN_ENV, CLIError, dsn_option, given_dsn

__all__ = ["ImportTarget", "QueueSlots", "worker"]

_QUEUE_NAME = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")  # what jq_enqueue accepts


class ImportTarget(click.ParamType):
    """MODULE:ATTR, as (module, attr)."""

    name = "MODULE:ATTR"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[str, str]:
        if isinstance(value, tuple):
            return value
        module, sep, attr = str(value).partition(":")
        if not sep or not module or not attr:
            self.fail(f"{value!r} is not MODULE:ATTR, e.g. myapp.jobs:worker", param, ctx)
        return module, attr


class QueueSlots(click.ParamType):
    """NAME=SLOTS for --queue, as (name, slots)."""

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
            self.fail(
                f"{value!r} is not NAME=SLOTS (a queue name of 1-64 letters, digits and _ . : -,"
                " and SLOTS >= 1), e.g. default=10",
                param,
                ctx,
            )
        return name, count


@click.command(short_help="Run a worker (MODULE:ATTR) until SIGTERM/SIGINT.")
@click.argument("target", metavar="MODULE:ATTR", type=ImportTarget())
@dsn_option
@click.option(
    "--queue",
    "queues",
    type=QueueSlots(),
    multiple=True,
    help="Queue to work and its concurrency slots, e.g. --queue default=10; repeat for more. "
    "Replaces the worker's own queues.",
)
@click.option(
    "--listen-dsn",
    metavar="DSN",
    default=None,
    help="A direct connection (not through PgBouncer in transaction mode) for LISTEN/NOTIFY; default the dsn.",
)
@click.option(
    "--no-listen",
    is_flag=True,
    help="No LISTEN connection (the dsn goes through a transaction pooler, and no --listen-dsn): "
    "jobs are found by the safety poll.",
)
@click.option(
    "--connect-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Exit with status 1 when the database cannot be reached within SECONDS at start "
    "[default: keep retrying, each attempt logged].",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"], case_sensitive=False),
    default="info",
    show_default=True,
    help="Logging level (log lines go to stderr).",
)
@click.pass_context
def worker(
    ctx: click.Context,
    target: tuple[str, str],
    dsn: str | None,
    queues: tuple[tuple[str, int], ...],
    listen_dsn: str | None,
    no_listen: bool,
    connect_timeout: float | None,
    log_level: str,
) -> None:
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
    explicit = given_dsn(ctx, dsn)
    if explicit is not None:
        os.environ[DSN_ENV] = explicit
    dsn = explicit if explicit is not None else (os.environ.get(DSN_ENV) or None)
    wanted = dict(queues) if queues else None

    level = getattr(logging, log_level.upper())
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    root.setLevel(level)

    name = f"{target[0]}:{target[1]}"
    obj = _load_target(*target)
    if not callable(getattr(obj, "run", None)) and callable(obj):
        obj, wanted = _call_factory(obj, dsn, wanted)
    if not callable(getattr(obj, "run", None)):
        raise CLIError(
            f"{name} is a {type(obj).__name__}, not a pyjq.Worker (or a callable returning one)", exit_code=2
        )
    if explicit is not None and not _same_database(getattr(obj, "dsn", None), explicit):
        raise CLIError(
            f"the worker {name} was built with a different dsn than --dsn",
            hint="build it from os.environ['DATABASE_URL'], or make ATTR a function taking dsn",
            exit_code=2,
        )
    if wanted:
        _override_queues(obj, wanted)
    _override_connections(obj, listen_dsn=listen_dsn, listen=not no_listen, connect_timeout=connect_timeout)
    try:
        obj.run()
    except DatabaseUnreachable as exc:
        raise CLIError(str(exc), hint="is the server running, and are host and port right?") from exc


def _load_target(module_name: str, attr: str) -> Any:
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise CLIError(
                f"cannot import module {module_name!r}: {exc}",
                hint="run from the directory that contains it, or set PYTHONPATH",
                exit_code=2,
            ) from exc
        raise CLIError(f"importing {module_name!r} failed: {type(exc).__name__}: {exc}") from exc
    except KeyError as exc:
        if exc.args == (DSN_ENV,) and DSN_ENV not in os.environ:
            raise CLIError(
                f"{DSN_ENV} is not set (importing {module_name!r} reads it): set it to the database's"
                " connection string, e.g. postgresql://user@host:5432/app, or pass --dsn",
                exit_code=2,
            ) from None
        raise CLIError(f"importing {module_name!r} failed: KeyError: {exc}") from exc
    except Exception as exc:
        raise CLIError(
            f"importing {module_name!r} failed: {type(exc).__name__}: {exc}",
            hint="pyjq --traceback worker ... shows where",
        ) from exc
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise CLIError(f"module {module_name!r} has no attribute {attr!r}", exit_code=2) from None
    return obj


def _call_factory(
    factory: Callable[..., Any], dsn: str | None, queues: dict[str, int] | None
) -> tuple[Any, dict[str, int] | None]:
    """Call a worker factory; returns the worker and the queues still to apply."""
    params: Mapping[str, inspect.Parameter]
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


def _override_connections(obj: Any, *, listen_dsn: str | None, listen: bool, connect_timeout: float | None) -> None:
    """--listen-dsn, --no-listen and --connect-timeout on a Worker that has not started."""
    given = {"listen_dsn": listen_dsn, "listen": False if not listen else None, "connect_timeout": connect_timeout}
    for attr, value in given.items():
        if value is None:
            continue
        if not hasattr(obj, attr):
            option = "--" + attr.replace("_", "-") if attr != "listen" else "--no-listen"
            raise CLIError(f"{type(obj).__name__} has no {attr} that {option} could set", exit_code=2)
        setattr(obj, attr, value)


def _override_queues(obj: Any, queues: dict[str, int]) -> None:
    """Replace the queues of a Worker that has not started (it reads them when run() starts)."""
    setter = getattr(obj, "set_queues", None)
    if callable(setter):
        setter(queues)
    elif isinstance(getattr(obj, "queues", None), dict):
        obj.queues = dict(queues)
    else:
        raise CLIError(f"{type(obj).__name__} has no queues that --queue could replace", exit_code=2)
