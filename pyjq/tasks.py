"""Task objects: a job type bound to its handler, the shape of its payload and its defaults.

    tasks = pyjq.TaskRegistry()       # importable by producers that run no worker

    @tasks.task("send_welcome_email", queue="urgent", priority=5, max_attempts=8, timeout=30)
    def send_welcome_email(user_id: int, locale: str = "en") -> None:
        ...

    send_welcome_email.enqueue(conn, user_id=42)           # checked, then jq_enqueue in conn's transaction
    send_welcome_email.enqueue(conn, user_id=42, run_at=tomorrow, idempotency_key="welcome:42")
    worker.add_tasks(tasks)                                # a worker runs them (or: @worker.task(...))

The payload is checked before anything is written, against one of three shapes:

* keyword arguments bound against the handler's signature: unknown and missing
  fields are refused, and fields annotated with a JSON type (``int``, ``float``,
  ``str``, ``bool``, ``None``, ``list[...]``, ``dict[str, ...]``, unions of them)
  must hold one; other annotations are not checked;
* a dataclass: the handler takes one parameter annotated with it; enqueue takes
  an instance or its fields, the payload is ``dataclasses.asdict``;
* a pydantic model (only when the application uses pydantic: pyjq never imports
  it): validated with ``model_validate``, stored as ``model_dump(mode="json")``.

Every value must be JSON. A payload that does not fit raises
:class:`pyjq.TaskPayloadError` naming the task and the field; nothing is written.
The worker checks a job's payload the same way before calling the handler: one
that does not fit (enqueued by hand or by another language) is dead-lettered at
once. A handler parameter annotated :class:`pyjq.Job` receives the job itself.

Per-call options are the keyword arguments of ``pyjq.enqueue``: ``queue``,
``priority``, ``run_at``, ``max_attempts``, ``idempotency_key``, ``tenant``,
``concurrency_key``; so no payload field of a keyword-argument task may be named
like one (a model's field may: pass an instance). A task is still a function:
calling it runs the handler directly (for tests).
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import sys
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any, Generic, Literal, ParamSpec, TypeVar

import psycopg

from ._limits import TYPE_MAX
from .client import EnqueueResult, enqueue, enqueue_async, enqueue_many, enqueue_many_async
from .errors import TaskPayloadError
from .job import Discard, Job
from .retry import RetryPolicy

__all__ = ["OPTION_NAMES", "Task", "TaskRegistry"]

P = ParamSpec("P")
R = TypeVar("R")

OPTION_NAMES = frozenset(
    {"queue", "priority", "run_at", "max_attempts", "idempotency_key", "tenant", "concurrency_key"}
)
_UNCHECKED: Any = object()  # an annotation that is not checked


# -- the payload's shape ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class _Field:
    annotation: Any  # _UNCHECKED when there is none, or it is not a JSON type
    required: bool


@dataclasses.dataclass(frozen=True, slots=True)
class _Shape:
    """How a payload maps onto the handler's arguments."""

    kind: Literal["kwargs", "dataclass", "pydantic"]
    fields: dict[str, _Field]  # kwargs and dataclass shapes
    extra: bool  # kwargs shape with **kwargs: other fields are accepted
    model: type | None  # dataclass and pydantic shapes
    model_param: str | None  # the handler parameter the model instance goes to
    job_param: str | None  # the handler parameter annotated pyjq.Job, if any


def _shape_of(fn: Callable[..., Any], task: str) -> _Shape:
    """Read the handler's signature once, when the task is made."""
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # an annotation that does not resolve here: check names only
        hints = {}
    params = list(inspect.signature(fn).parameters.values())
    job_param = next((p.name for p in params if hints.get(p.name) is Job), None)
    params = [p for p in params if p.name != job_param]
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.VAR_POSITIONAL):
            raise ValueError(f"task {task!r}: the handler's parameter {p.name!r} must be passable by keyword")
    named = [p for p in params if p.kind is not p.VAR_KEYWORD]
    if len(named) == 1 and _is_model(hints.get(named[0].name)):
        model = hints[named[0].name]
        kind: Literal["dataclass", "pydantic"] = "dataclass" if dataclasses.is_dataclass(model) else "pydantic"
        fields = _dataclass_fields(model) if kind == "dataclass" else {}
        return _Shape(kind, fields, False, model, named[0].name, job_param)
    for p in named:
        if p.name in OPTION_NAMES:
            raise ValueError(
                f"task {task!r}: a payload field may not be named {p.name!r} (an enqueue option); "
                "rename it, or take the payload as a dataclass"
            )
    fields = {
        p.name: _Field(_checked(hints.get(p.name, _UNCHECKED)), p.default is inspect.Parameter.empty) for p in named
    }
    return _Shape("kwargs", fields, len(named) < len(params), None, None, job_param)


def _dataclass_fields(model: Any) -> dict[str, _Field]:
    try:
        hints = typing.get_type_hints(model)
    except Exception:
        hints = {}
    return {
        f.name: _Field(
            _checked(hints.get(f.name, _UNCHECKED)),
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
        )
        for f in dataclasses.fields(model)
        if f.init
    }


def _pydantic_base() -> type | None:
    """pydantic.BaseModel when the application has imported pydantic (never imported here)."""
    module = sys.modules.get("pydantic")
    return getattr(module, "BaseModel", None) if module is not None else None


def _is_model(annotation: Any) -> bool:
    if not isinstance(annotation, type):
        return False
    base = _pydantic_base()
    return dataclasses.is_dataclass(annotation) or (base is not None and issubclass(annotation, base))


# -- checking values -------------------------------------------------------------------

_JSON_CLASSES = (int, float, str, bool, list, dict, type(None))


def _checked(annotation: Any) -> Any:
    """The annotation if it is one that _fits checks, else _UNCHECKED."""
    if annotation is None or annotation in _JSON_CLASSES:
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [_checked(a) for a in typing.get_args(annotation)]
        return _UNCHECKED if _UNCHECKED in args else annotation
    if origin in (list, dict, Literal, typing.Annotated):
        return annotation
    return _UNCHECKED


def _fits(value: Any, annotation: Any) -> bool:
    """Whether value is of the (checked) annotation's JSON type."""
    if annotation is _UNCHECKED or annotation is typing.Any:
        return True
    if annotation is None or annotation is type(None):
        return value is None
    if annotation is bool:
        return isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if annotation is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(annotation, type):
        return isinstance(value, annotation)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, a) for a in args)
    if origin is Literal:
        return value in args
    if origin is typing.Annotated:
        return _fits(value, _checked(args[0]))
    if origin is list:
        return isinstance(value, list) and (not args or all(_fits(v, _checked(args[0])) for v in value))
    if origin is dict:
        return isinstance(value, dict) and (not args or all(_fits(v, _checked(args[-1])) for v in value.values()))
    return True


def _describe(annotation: Any) -> str:
    return annotation.__name__ if isinstance(annotation, type) else str(annotation).replace("typing.", "")


def _check_json(task: str, name: str, value: Any) -> None:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TaskPayloadError(task, name, f"{type(value).__name__} value is not JSON ({exc})") from None


def _check_fields(task: str, shape: _Shape, payload: Mapping[str, Any], *, from_json: bool = False) -> dict[str, Any]:
    """Unknown, missing and mistyped fields, and (unless the payload was read from jq) values that
    are not JSON, in field order."""
    for name in payload:
        if not isinstance(name, str):
            raise TaskPayloadError(task, str(name), "field names must be strings")
        if name not in shape.fields and not shape.extra:
            known = ", ".join(shape.fields) or "none"
            raise TaskPayloadError(task, name, f"unexpected field (the task takes: {known})")
    for name, spec in shape.fields.items():
        if name not in payload:
            if spec.required:
                raise TaskPayloadError(task, name, "missing (required)")
            continue
        value = payload[name]
        if not _fits(value, spec.annotation):
            raise TaskPayloadError(
                task, name, f"expected {_describe(spec.annotation)}, got {type(value).__name__} {value!r:.60}"
            )
    if not from_json:
        for name, value in payload.items():
            _check_json(task, name, value)
    return dict(payload)


def _pydantic_error(task: str, exc: Exception) -> TaskPayloadError:
    errors_of = getattr(exc, "errors", None)  # pydantic.ValidationError.errors()
    errors = errors_of() if callable(errors_of) else []
    if not errors:
        return TaskPayloadError(task, None, str(exc))
    first = errors[0]
    field = ".".join(str(part) for part in first.get("loc", ())) or None
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return TaskPayloadError(task, field, f"{first.get('msg', 'invalid')}{more}")


# -- tasks -----------------------------------------------------------------------------


class Task(Generic[P, R]):
    """A job type with its handler and defaults; see the module docstring.

    Made by ``TaskRegistry.task`` or ``Worker.task``. Calling the task calls the
    handler; ``enqueue``, ``enqueue_async`` and ``enqueue_many`` enqueue jobs
    of its type after checking their payloads.
    """

    def __init__(
        self,
        fn: Callable[P, R],
        name: str | None = None,
        *,
        queue: str = "default",
        priority: int = 0,
        max_attempts: int | None = None,
        timeout: float | timedelta | None = None,
        retry: RetryPolicy | None = None,
    ):
        name = name if name is not None else getattr(fn, "__name__", None)
        if not isinstance(name, str) or not name.strip() or len(name) > TYPE_MAX:
            raise ValueError(f"task name {name!r} must be a non-empty string of at most {TYPE_MAX} characters")
        if retry is not None and not isinstance(retry, RetryPolicy):
            raise TypeError(f"task {name!r}: retry must be a pyjq.RetryPolicy, not {retry!r}")
        if isinstance(timeout, timedelta):
            timeout = timeout.total_seconds()
        if timeout is not None and timeout <= 0:
            raise ValueError(f"task {name!r}: timeout must be positive")
        self.fn = fn
        self.name = name
        self.queue = queue
        self.priority = priority
        self.max_attempts = max_attempts if max_attempts is not None else (retry.max_attempts if retry else None)
        self.timeout: float | None = timeout
        self.retry = retry
        self._shape = _shape_of(fn, name)
        self.is_async = inspect.iscoroutinefunction(fn)

    def __repr__(self) -> str:
        return f"<pyjq.Task {self.name!r} queue={self.queue!r} priority={self.priority}>"

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.fn(*args, **kwargs)

    # -- payloads --------------------------------------------------------------------

    def payload(self, *model: Any, **fields: Any) -> dict[str, Any]:
        """The checked payload, as it would be stored: from the fields, a mapping of them, or a model instance."""
        shape = self._shape
        if model:
            if len(model) > 1 or fields:
                raise TypeError(f"task {self.name!r}: pass one payload object or keyword fields, not both")
            given = model[0]
            if shape.model is not None and isinstance(given, shape.model):
                return self._dump(given)
            if not isinstance(given, Mapping):
                expected = shape.model.__name__ if shape.model is not None else "keyword fields or a mapping"
                raise TaskPayloadError(self.name, None, f"expected {expected}, got {type(given).__name__}")
            fields = dict(given)
        if shape.kind == "kwargs":
            return _check_fields(self.name, shape, fields)
        return self._dump(self._model(fields))

    def _model(self, fields: Mapping[str, Any]) -> Any:
        """A model instance from its fields (TaskPayloadError when they do not fit)."""
        shape = self._shape
        assert shape.model is not None
        if shape.kind == "dataclass":
            _check_fields(self.name, shape, fields)
            try:
                return shape.model(**fields)
            except Exception as exc:  # the dataclass's own checks (__post_init__)
                raise TaskPayloadError(self.name, None, f"{type(exc).__name__}: {exc}") from exc
        try:
            return shape.model.model_validate(dict(fields))  # type: ignore[attr-defined]
        except Exception as exc:
            raise _pydantic_error(self.name, exc) from exc

    def _dump(self, instance: Any) -> dict[str, Any]:
        if self._shape.kind == "dataclass":
            return _check_fields(self.name, self._shape, dataclasses.asdict(instance))
        dumped: dict[str, Any] = instance.model_dump(mode="json")
        return dumped

    # -- enqueueing --------------------------------------------------------------------

    def _options(self, given: dict[str, Any]) -> dict[str, Any]:
        """pyjq.enqueue's keyword arguments: the task's defaults, then what this call gave."""
        options = {"queue": self.queue, "priority": self.priority, "max_attempts": self.max_attempts}
        options.update({k: v for k, v in given.items() if v is not None})
        return options

    def enqueue(
        self,
        conn: psycopg.Connection,
        /,
        *payload: Any,
        queue: str | None = None,
        priority: int | None = None,
        run_at: datetime | None = None,
        max_attempts: int | None = None,
        idempotency_key: str | None = None,
        tenant: str | None = None,
        concurrency_key: str | None = None,
        **fields: Any,
    ) -> EnqueueResult:
        """Check the payload, then enqueue one job in the connection's transaction (pyjq.enqueue)."""
        checked = self.payload(*payload, **fields)
        options = self._options(
            dict(queue=queue, priority=priority, run_at=run_at, max_attempts=max_attempts,
                 idempotency_key=idempotency_key, tenant=tenant, concurrency_key=concurrency_key)
        )  # fmt: skip
        return enqueue(conn, self.name, checked, **options)

    async def enqueue_async(
        self,
        conn: psycopg.AsyncConnection,
        /,
        *payload: Any,
        queue: str | None = None,
        priority: int | None = None,
        run_at: datetime | None = None,
        max_attempts: int | None = None,
        idempotency_key: str | None = None,
        tenant: str | None = None,
        concurrency_key: str | None = None,
        **fields: Any,
    ) -> EnqueueResult:
        """:meth:`enqueue` on an async connection."""
        checked = self.payload(*payload, **fields)
        options = self._options(
            dict(queue=queue, priority=priority, run_at=run_at, max_attempts=max_attempts,
                 idempotency_key=idempotency_key, tenant=tenant, concurrency_key=concurrency_key)
        )  # fmt: skip
        return await enqueue_async(conn, self.name, checked, **options)

    def _many(self, payloads: Iterable[Any], options: dict[str, Any]) -> list[dict[str, Any]]:
        """jq_enqueue_many's jobs, every payload checked before any is written."""
        shared = self._options(options)
        return [{"type": self.name, "payload": self.payload(p), **shared} for p in payloads]

    def enqueue_many(
        self,
        conn: psycopg.Connection,
        payloads: Iterable[Any],
        *,
        queue: str | None = None,
        priority: int | None = None,
        run_at: datetime | None = None,
        max_attempts: int | None = None,
        tenant: str | None = None,
        concurrency_key: str | None = None,
    ) -> list[EnqueueResult]:
        """Enqueue one job per payload (a mapping of fields or a model instance) in one call; all are
        checked first, and the options apply to every job."""
        jobs = self._many(
            payloads,
            dict(queue=queue, priority=priority, run_at=run_at, max_attempts=max_attempts,
                 tenant=tenant, concurrency_key=concurrency_key),
        )  # fmt: skip
        return enqueue_many(conn, jobs)

    async def enqueue_many_async(
        self,
        conn: psycopg.AsyncConnection,
        payloads: Iterable[Any],
        *,
        queue: str | None = None,
        priority: int | None = None,
        run_at: datetime | None = None,
        max_attempts: int | None = None,
        tenant: str | None = None,
        concurrency_key: str | None = None,
    ) -> list[EnqueueResult]:
        """:meth:`enqueue_many` on an async connection."""
        jobs = self._many(
            payloads,
            dict(queue=queue, priority=priority, run_at=run_at, max_attempts=max_attempts,
                 tenant=tenant, concurrency_key=concurrency_key),
        )  # fmt: skip
        return await enqueue_many_async(conn, jobs)

    # -- running (the worker's side) -----------------------------------------------------

    def arguments(self, job: Job) -> dict[str, Any]:
        """The handler's keyword arguments for a job; raises pyjq.Discard when its payload does not fit."""
        shape = self._shape
        try:
            if shape.kind == "kwargs":
                kwargs = _check_fields(self.name, shape, job.payload, from_json=True)
            else:
                assert shape.model_param is not None
                kwargs = {shape.model_param: self._model(job.payload)}
        except TaskPayloadError as exc:
            raise Discard(f"payload does not fit the task: {exc}") from exc
        if shape.job_param is not None:
            kwargs[shape.job_param] = job
        return kwargs

    @property
    def handler(self) -> Callable[[Job], Any]:
        """The worker's handler of this task's jobs: a coroutine function when the task's is one."""
        fn: Callable[..., Any] = self.fn
        if self.is_async:

            async def run_async(job: Job) -> Any:
                return await fn(**self.arguments(job))

            return run_async

        def run(job: Job) -> Any:
            return fn(**self.arguments(job))

        return run


class TaskRegistry:
    """Tasks by name: define them once, import the registry where jobs are enqueued (no worker
    needed there) and hand it to the workers that run them (``worker.add_tasks(registry)``)."""

    def __init__(self) -> None:
        self._tasks: dict[str, Task[Any, Any]] = {}

    def task(
        self,
        name: str | None = None,
        *,
        queue: str = "default",
        priority: int = 0,
        max_attempts: int | None = None,
        timeout: float | timedelta | None = None,
        retry: RetryPolicy | None = None,
    ) -> Callable[[Callable[P, R]], Task[P, R]]:
        """Decorator making a function a :class:`Task` of this registry (name: the function's by default)."""

        def make(fn: Callable[P, R]) -> Task[P, R]:
            task = Task(
                fn, name, queue=queue, priority=priority, max_attempts=max_attempts, timeout=timeout, retry=retry
            )
            self.add(task)
            return task

        return make

    def add(self, task: Task[Any, Any]) -> None:
        if task.name in self._tasks:
            raise ValueError(f"a task named {task.name!r} is already registered")
        self._tasks[task.name] = task

    def __getitem__(self, name: str) -> Task[Any, Any]:
        return self._tasks[name]

    def __contains__(self, name: object) -> bool:
        return name in self._tasks

    def __iter__(self) -> Iterator[Task[Any, Any]]:
        return iter(list(self._tasks.values()))

    def __len__(self) -> int:
        return len(self._tasks)

    def __repr__(self) -> str:
        return f"<pyjq.TaskRegistry {sorted(self._tasks)!r}>"
