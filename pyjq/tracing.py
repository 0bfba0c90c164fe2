"""OpenTelemetry traces of jobs (extra ``pgjq[otel]``: ``opentelemetry-api``).

The one module of pyjq that imports OpenTelemetry, and only its API: the
application installs and configures the SDK and its exporters. The import
happens on the first enqueue or claimed job; when ``opentelemetry`` is not
installed, every call here is a no-op and nothing is imported.

* Producer: :func:`sending` wraps ``jq_enqueue`` / ``jq_enqueue_many`` in a
  PRODUCER span ``send <queue>`` and writes its W3C trace context into the
  job's metadata (``traceparent``, ``tracestate``: :data:`TRACE_KEYS`). A
  service in another language may set the same two keys itself. The HTTP
  service's POST /jobs continues the request's own trace context headers
  (:func:`continuing`; without OpenTelemetry it stores them as they came:
  :func:`passed_through`).
* Consumer: :func:`processing` runs one attempt in a CONSUMER span
  ``process <queue>``: a child of the enqueue span on the first attempt; on a
  retry a new trace that links to it (attempts may be hours apart, and each
  is an operation of its own: the enqueue's trace stays bounded).

Attributes follow the OpenTelemetry messaging semantic conventions:
``messaging.system`` = ``jq``, ``messaging.operation.type`` and ``.name``
(``send`` / ``process``), ``messaging.destination.name`` = the queue,
``messaging.message.id`` = the job id, ``messaging.client.id`` = the worker,
``messaging.batch.message_count`` for a batch; and jq's own ``jq.job.type``,
``jq.attempt`` (1 on the first run), ``jq.max_attempts``. A failed attempt
sets status ERROR, ``error.type`` and, when it raised, the exception event.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Any
from uuid import UUID

if TYPE_CHECKING:
    from .job import Job

__all__ = [
    "SYSTEM",
    "TRACE_HEADER_MAX",
    "TRACE_KEYS",
    "Attempt",
    "Sending",
    "active",
    "continuing",
    "passed_through",
    "processing",
    "sending",
]

SYSTEM = "jq"  # messaging.system
TRACE_KEYS = ("traceparent", "tracestate")  # the metadata keys jq itself reads and writes


class _Otel:
    """The parts of the OpenTelemetry API pyjq uses, imported once."""

    def __init__(self) -> None:
        from opentelemetry import context, trace
        from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

        from . import __version__

        self.context = context
        self.trace = trace
        # W3C trace context whatever propagators the application configured:
        # the keys in the metadata are part of jq's SQL contract.
        self.propagator = TraceContextTextMapPropagator()
        self.tracer = trace.get_tracer("pyjq", __version__)


_NOT_LOADED: Any = object()
_loaded: _Otel | None = _NOT_LOADED


def _otel() -> _Otel | None:
    """The OpenTelemetry API, or None when it is not installed (looked up once)."""
    global _loaded
    if _loaded is _NOT_LOADED:
        try:
            _loaded = _Otel()
        except ImportError:
            _loaded = None
    return _loaded


def active() -> bool:
    """Whether the OpenTelemetry API is installed (spans are then made; the SDK decides what is kept)."""
    return _otel() is not None


# -- producer -------------------------------------------------------------------------------


class Sending:
    """What :func:`sending` returns; this base, used without OpenTelemetry,
    changes nothing: the metadata passes as given."""

    __slots__ = ()

    def __enter__(self) -> Sending:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    def carrier(self, metadata: Mapping[str, str] | None) -> dict[str, str] | None:
        """The metadata to store: here the caller's, as given (anything but a
        mapping too, for jq_enqueue to refuse with its own message)."""
        return dict(metadata) if isinstance(metadata, Mapping) else metadata

    def sent(self, job_id: UUID) -> None:
        """One job was enqueued (or found: a duplicate) with this id."""

    def sent_batch(self, queues: Iterable[str], count: int) -> None:
        """A batch of ``count`` jobs of these queues was enqueued."""


_NO_SEND = Sending()


class _Send(Sending):
    """The PRODUCER span of one enqueue call, current while the call runs."""

    __slots__ = ("_otel", "_scope", "_span")

    def __init__(self, otel: _Otel, queue: str | None):
        self._otel = otel
        attributes: dict[str, Any] = {
            "messaging.system": SYSTEM,
            "messaging.operation.type": "send",
            "messaging.operation.name": "send",
        }
        if queue is not None:
            attributes["messaging.destination.name"] = queue
        self._scope = otel.tracer.start_as_current_span(
            f"send {queue}" if queue is not None else "send",
            kind=otel.trace.SpanKind.PRODUCER,
            attributes=attributes,
        )
        self._span: Any = None

    def __enter__(self) -> _Send:
        self._span = self._scope.__enter__()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        # The scope records an exception and sets status ERROR itself.
        self._scope.__exit__(exc_type, exc, tb)

    def carrier(self, metadata: Mapping[str, str] | None) -> dict[str, str] | None:
        """The caller's metadata with this span's trace context written into it."""
        if metadata is not None and not isinstance(metadata, Mapping):
            return metadata  # not headers: jq_enqueue refuses it
        carrier = dict(metadata) if metadata is not None else {}
        self._otel.propagator.inject(carrier, context=self._otel.trace.set_span_in_context(self._span))
        return carrier or None  # {} when the span is not sampled-in nor valid: store nothing

    def sent(self, job_id: UUID) -> None:
        self._span.set_attribute("messaging.message.id", str(job_id))

    def sent_batch(self, queues: Iterable[str], count: int) -> None:
        self._span.set_attribute("messaging.batch.message_count", count)
        distinct = set(queues)
        if len(distinct) == 1:
            (queue,) = distinct
            self._span.set_attribute("messaging.destination.name", queue)
            self._span.update_name(f"send {queue}")


# The most of a request's trace context header jq stores (W3C: vendors propagate at least 512
# characters of tracestate; a longer header is left out rather than refused).
TRACE_HEADER_MAX = 512


@contextmanager
def continuing(headers: Mapping[str, str]) -> Iterator[None]:
    """Around an enqueue made for a request (the HTTP service's POST /jobs): with
    OpenTelemetry and no span current (no instrumented server made one), the
    request's W3C trace context headers are the current context, so the
    PRODUCER span is the caller's child. Otherwise nothing changes."""
    otel = _otel()
    if otel is None or otel.trace.get_current_span().get_span_context().is_valid:
        yield
        return
    token = otel.context.attach(otel.propagator.extract(_trace_headers(headers)))
    try:
        yield
    finally:
        otel.context.detach(token)


def passed_through(metadata: Mapping[str, str] | None, headers: Mapping[str, str]) -> Mapping[str, str] | None:
    """The metadata to enqueue for a request: without OpenTelemetry, the
    request's trace context headers as they came, over the metadata's keys of
    the same names, so that a worker with OpenTelemetry continues the caller's
    trace. With it, the PRODUCER span writes its own (:func:`sending`), a child
    of the same headers (:func:`continuing`): either way the request's trace
    context wins."""
    if _otel() is not None:
        return metadata
    found = _trace_headers(headers)
    if not found:
        return metadata
    if metadata is not None and not isinstance(metadata, Mapping):
        return metadata  # not headers: jq_enqueue refuses it
    return dict(metadata or {}) | found


def _trace_headers(headers: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k in TRACE_KEYS if (v := headers.get(k)) is not None and 0 < len(v) <= TRACE_HEADER_MAX}


def sending(queue: str | None = None) -> Sending:
    """A context manager around one enqueue call: ``with sending(queue) as send``,
    then ``send.carrier(metadata)`` for the metadata to store and ``send.sent(job_id)``
    (a batch: ``sending()`` and ``send.sent_batch(queues, count)``)."""
    otel = _otel()
    return _NO_SEND if otel is None else _Send(otel, queue)


# -- consumer -------------------------------------------------------------------------------


class Attempt:
    """What :func:`processing` returns; this base, used without OpenTelemetry, records nothing."""

    __slots__ = ()

    def __enter__(self) -> Attempt:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    def ended(
        self,
        error: BaseException | None,
        *,
        cancelled: bool = False,
        timed_out: bool = False,
        unreadable: str | None = None,
    ) -> None:
        """How the handler ended: the exception it raised, or why it failed without one."""


_NO_PROCESS = Attempt()


class _Process(Attempt):
    """The CONSUMER span of one attempt, current while the handler runs (its
    own spans, from the handler's task or thread, are children of it)."""

    __slots__ = ("_otel", "_span", "_token")

    def __init__(self, otel: _Otel, job: Job):
        self._otel = otel
        parent, links = _origin(otel, job)
        attributes: dict[str, Any] = {
            "messaging.system": SYSTEM,
            "messaging.operation.type": "process",
            "messaging.operation.name": "process",
            "messaging.destination.name": job.queue,
            "messaging.message.id": str(job.id),
            "jq.job.type": job.type,
            "jq.attempt": job.attempts,
            "jq.max_attempts": job.max_attempts,
        }
        if job.worker:
            attributes["messaging.client.id"] = job.worker
        self._span = otel.tracer.start_span(
            f"process {job.queue}",
            context=parent,
            kind=otel.trace.SpanKind.CONSUMER,
            attributes=attributes,
            links=links,
        )
        self._token: Any = None

    def __enter__(self) -> _Process:
        self._token = self._otel.context.attach(self._otel.trace.set_span_in_context(self._span))
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            if exc is not None:  # the worker tore down while the handler ran
                self._fail(type(exc).__name__, f"the worker stopped: {type(exc).__name__}")
        finally:
            self._otel.context.detach(self._token)
            self._span.end()

    def ended(
        self,
        error: BaseException | None,
        *,
        cancelled: bool = False,
        timed_out: bool = False,
        unreadable: str | None = None,
    ) -> None:
        if timed_out:
            self._fail("TimeoutError", "the handler exceeded its timeout")
        elif error is not None:
            self._span.record_exception(error)
            self._fail(type(error).__qualname__, f"{type(error).__name__}: {error}")
        elif cancelled:
            self._fail("cancelled", "the handler was cancelled")
        elif unreadable is not None:
            self._fail("unreadable", unreadable)

    def _fail(self, error_type: str, description: str) -> None:
        self._span.set_attribute("error.type", error_type)
        self._span.set_status(self._otel.trace.Status(self._otel.trace.StatusCode.ERROR, description))


def _origin(otel: _Otel, job: Job) -> tuple[Any, list[Any]]:
    """Parent context and links of an attempt's span, from the trace context in
    the job's metadata: the first attempt is a child of the enqueue span, a
    retry starts a new trace linked to it; without one, whatever is current."""
    carried = otel.propagator.extract(job.metadata or {})
    producer = otel.trace.get_current_span(carried).get_span_context()
    if not producer.is_valid:
        return None, []
    if job.attempts <= 1:
        return carried, []
    return otel.context.Context(), [otel.trace.Link(producer)]


def processing(job: Job) -> Attempt:
    """A context manager around one attempt of ``job``: ``with processing(job) as attempt``,
    then ``attempt.ended(error, cancelled=..., timed_out=..., unreadable=...)``."""
    otel = _otel()
    return _NO_PROCESS if otel is None else _Process(otel, job)
