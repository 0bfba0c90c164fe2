"""OpenTelemetry traces (pyjq.tracing, extra pgjq[otel]) with the SDK's in-memory exporter.

Enqueue opens a PRODUCER span and stores its W3C trace context in the job's
metadata; the worker runs each attempt in a CONSUMER span, a child of the
enqueue span on the first attempt and linked to it (a new trace) on a retry.
Without OpenTelemetry nothing is imported and nothing changes (a subprocess
that cannot import it).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import psycopg
import pytest
from fastapi.testclient import TestClient
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

import pyjq
from pyjq.http import create_app

TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"  # the W3C spec's example


@pytest.fixture(scope="module")
def _exporter() -> InMemorySpanExporter:
    # The global provider can be set once per process: reuse an SDK one if a test set it already.
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter


@pytest.fixture
def spans(_exporter: InMemorySpanExporter) -> Iterator[InMemorySpanExporter]:
    _exporter.clear()
    yield _exporter
    _exporter.clear()


def named(exporter: InMemorySpanExporter, name: str) -> list[ReadableSpan]:
    return [s for s in exporter.get_finished_spans() if s.name == name]


def stored_metadata(db: psycopg.Connection, job_id) -> dict | None:
    return db.execute(
        "select metadata from jq.jobs where id = %(id)s union all select metadata from jq.job_history where id = %(id)s"
        " union all select metadata from jq.dead_jobs where id = %(id)s",
        {"id": job_id},
    ).fetchone()[0]


def traceparent_of(span: ReadableSpan) -> str:
    ctx = span.get_span_context()
    return f"00-{ctx.trace_id:032x}-{ctx.span_id:016x}-{ctx.trace_flags:02x}"


# -- producer -------------------------------------------------------------------------------


def test_enqueue_opens_a_producer_span_and_stores_its_trace_context(db, spans):
    with trace.get_tracer("test").start_as_current_span("POST /signup") as request:
        job = pyjq.enqueue(db, "send_welcome_email", {"user_id": 42}, queue="urgent", metadata={"origin": "web"})

    [send] = named(spans, "send urgent")
    assert send.kind is SpanKind.PRODUCER
    assert send.parent is not None and send.parent.span_id == request.get_span_context().span_id
    assert dict(send.attributes or {}) == {
        "messaging.system": "jq",
        "messaging.operation.type": "send",
        "messaging.operation.name": "send",
        "messaging.destination.name": "urgent",
        "messaging.message.id": str(job.job_id),
    }
    assert stored_metadata(db, job.job_id) == {"origin": "web", "traceparent": traceparent_of(send)}


def test_enqueue_async_is_traced_the_same(dsn, spans):
    async def main():
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            return await pyjq.enqueue_async(conn, "report", {}, metadata=None)

    job = asyncio.run(main())
    [send] = named(spans, "send default")
    assert send.attributes["messaging.message.id"] == str(job.job_id)
    with psycopg.connect(dsn, autocommit=True) as conn:
        assert stored_metadata(conn, job.job_id) == {"traceparent": traceparent_of(send)}


def test_enqueue_many_is_one_producer_span_whose_context_every_job_carries(db, spans):
    jobs = pyjq.enqueue_many(
        db, [{"type": "a", "queue": "bulk"}, {"type": "b", "queue": "bulk", "metadata": {"k": "v"}}]
    )
    [send] = named(spans, "send bulk")
    assert send.attributes["messaging.batch.message_count"] == 2
    assert send.attributes["messaging.destination.name"] == "bulk"
    assert [stored_metadata(db, j.job_id) for j in jobs] == [
        {"traceparent": traceparent_of(send)},
        {"k": "v", "traceparent": traceparent_of(send)},
    ]

    pyjq.enqueue_many(db, [{"type": "a", "queue": "one"}, {"type": "a", "queue": "two"}])
    [mixed] = named(spans, "send")
    assert "messaging.destination.name" not in mixed.attributes


def test_a_refused_enqueue_ends_its_span_in_error(db, spans):
    with pytest.raises(pyjq.errors.InvalidArgument):
        pyjq.enqueue(db, "t", {}, metadata={"hops": 3})  # type: ignore[dict-item]
    [send] = named(spans, "send default")
    assert send.status.status_code is StatusCode.ERROR
    assert [e.name for e in send.events] == ["exception"]
    with pytest.raises(pyjq.errors.InvalidArgument, match="metadata must be a JSON object of strings, not array"):
        pyjq.enqueue(db, "t", {}, metadata=["traceparent"])  # type: ignore[arg-type]


# -- consumer -------------------------------------------------------------------------------


def test_first_attempt_is_a_child_of_the_enqueue_span(db, dsn, spans):
    pyjq.enqueue(db, "in_loop", {})
    pyjq.enqueue(db, "in_thread", {})
    worker = pyjq.Worker(dsn)
    tracer = trace.get_tracer("test")

    @worker.handler("in_loop")
    async def in_loop(job: pyjq.Job) -> None:
        with tracer.start_as_current_span("work in_loop"):
            await asyncio.sleep(0)

    @worker.handler("in_thread")
    def in_thread(job: pyjq.Job) -> None:
        with tracer.start_as_current_span("work in_thread"):
            pass

    assert worker.run_until_empty(timeout=30).succeeded == 2
    sends = named(spans, "send default")
    processes = named(spans, "process default")
    assert len(sends) == 2 and len(processes) == 2
    for process in processes:
        job_id = process.attributes["messaging.message.id"]
        [send] = [s for s in sends if s.attributes["messaging.message.id"] == job_id]
        assert process.kind is SpanKind.CONSUMER
        assert process.parent is not None and process.parent.span_id == send.context.span_id
        assert process.context.trace_id == send.context.trace_id
        assert not process.links
        assert process.status.status_code is StatusCode.UNSET
        job_type = process.attributes["jq.job.type"]
        assert dict(process.attributes) == {
            "messaging.system": "jq",
            "messaging.operation.type": "process",
            "messaging.operation.name": "process",
            "messaging.destination.name": "default",
            "messaging.message.id": job_id,
            "messaging.client.id": worker.name,
            "jq.job.type": job_type,
            "jq.attempt": 1,
            "jq.max_attempts": 25,
        }
        # The handler's own spans, from its task or its thread, are children of the attempt.
        [work] = named(spans, f"work {job_type}")
        assert work.parent is not None and work.parent.span_id == process.context.span_id


def test_a_retry_links_to_the_enqueue_span_instead_of_being_its_child(db, dsn, spans):
    job = pyjq.enqueue(db, "flaky", {})
    worker = pyjq.Worker(dsn)

    @worker.handler("flaky")
    def flaky(j: pyjq.Job) -> None:
        if j.attempts == 1:
            raise pyjq.Retry(after=0, reason="upstream said 503")

    assert worker.run_until_empty(timeout=30).succeeded == 1
    [send] = named(spans, "send default")
    first, second = sorted(named(spans, "process default"), key=lambda s: s.attributes["jq.attempt"])
    assert first.parent is not None and first.parent.span_id == send.context.span_id
    assert first.status.status_code is StatusCode.ERROR
    assert second.attributes["jq.attempt"] == 2
    assert second.attributes["messaging.message.id"] == str(job.job_id)
    assert second.parent is None  # a trace of its own ...
    assert second.context.trace_id != send.context.trace_id
    assert [link.context.span_id for link in second.links] == [send.context.span_id]  # ... linked to the enqueue
    assert [link.context.trace_id for link in second.links] == [send.context.trace_id]
    assert second.status.status_code is StatusCode.UNSET


def test_a_failed_attempt_has_error_status_and_the_exception_event(db, dsn, spans):
    pyjq.enqueue(db, "broken", {}, max_attempts=1)
    worker = pyjq.Worker(dsn)

    @worker.handler("broken")
    async def broken(job: pyjq.Job) -> None:
        raise ValueError("the invoice has no lines")

    assert worker.run_until_empty(timeout=30).dead == 1
    [process] = named(spans, "process default")
    assert process.status.status_code is StatusCode.ERROR
    assert process.status.description == "ValueError: the invoice has no lines"
    assert process.attributes["error.type"] == "ValueError"
    [event] = process.events
    assert event.name == "exception"
    assert event.attributes["exception.type"] == "ValueError"
    assert event.attributes["exception.message"] == "the invoice has no lines"


def test_a_timed_out_attempt_has_error_status(db, dsn, spans):
    pyjq.enqueue(db, "slow", {}, max_attempts=1)
    worker = pyjq.Worker(dsn)

    @worker.handler("slow", timeout=0.2)
    async def slow(job: pyjq.Job) -> None:
        await asyncio.sleep(30)

    worker.run_until_empty(timeout=30)
    [process] = named(spans, "process default")
    assert process.status.status_code is StatusCode.ERROR
    assert process.attributes["error.type"] == "TimeoutError"


def test_a_trace_context_set_from_sql_is_continued(db, dsn, spans):
    """Any language can start the trace: it sets metadata.traceparent in jq_enqueue."""
    db.execute(
        "select jq.jq_enqueue('polyglot', '{}', p_metadata => %s::jsonb)", [json.dumps({"traceparent": TRACEPARENT})]
    )
    db.execute("select jq.jq_enqueue('polyglot', '{}')")  # no context: a root span, no link
    worker = pyjq.Worker(dsn)
    seen: list[dict | None] = []

    @worker.handler("polyglot")
    def polyglot(job: pyjq.Job) -> None:
        seen.append(job.metadata)

    worker.run_until_empty(timeout=30)
    assert sorted(seen, key=lambda m: m is None) == [{"traceparent": TRACEPARENT}, None]
    processes = named(spans, "process default")
    [continued] = [s for s in processes if s.parent is not None]
    assert f"{continued.context.trace_id:032x}" == "0af7651916cd43dd8448eb211c80319c"
    assert f"{continued.parent.span_id:016x}" == "b7ad6b7169203331"
    [root] = [s for s in processes if s.parent is None]
    assert not root.links


# -- the HTTP service's POST /jobs ---------------------------------------------------------

HTTP_TOKENS = {"producer-token-0123456789": "producer"}
PRODUCER = {"Authorization": "Bearer producer-token-0123456789"}
TRACESTATE = "congo=t61rcWkgMzE"  # the W3C spec's example


def remote_parent(exporter: InMemorySpanExporter, span: ReadableSpan) -> str | None:
    """The span id, in hex, that span descends from outside the recorded spans (the request's), or None."""
    recorded = {s.context.span_id: s for s in exporter.get_finished_spans()}
    while span.parent is not None and span.parent.span_id in recorded:
        span = recorded[span.parent.span_id]
    return None if span.parent is None else f"{span.parent.span_id:016x}"


def post_job(dsn: str, headers: dict[str, str], body: dict) -> str:
    with TestClient(create_app(dsn, tokens=HTTP_TOKENS)) as client:
        response = client.post("/jobs", json=body, headers=PRODUCER | headers)
    assert response.status_code == 201, response.text
    return response.json()["jobId"]


def test_post_jobs_is_a_producer_span_under_the_request_trace_context(db, dsn, spans):
    job_id = post_job(
        dsn,
        {"traceparent": TRACEPARENT, "tracestate": TRACESTATE},
        {
            "type": "t",
            "queue": "mail",
            "metadata": {"k": "v", "traceparent": "00-" + "1" * 32 + "-" + "2" * 16 + "-01"},
        },
    )
    [send] = named(spans, "send mail")
    assert send.kind == SpanKind.PRODUCER
    # In the request's trace, under its span (directly, or under the server's spans when FastAPI makes them).
    assert f"{send.context.trace_id:032x}" == "0af7651916cd43dd8448eb211c80319c"
    assert remote_parent(spans, send) == "b7ad6b7169203331"
    assert send.attributes["messaging.message.id"] == job_id
    # The request's context wins over the body's traceparent; the caller's other keys stay.
    assert stored_metadata(db, job_id) == {"k": "v", "traceparent": traceparent_of(send), "tracestate": TRACESTATE}


def test_post_jobs_without_trace_headers_starts_a_trace_of_its_own(db, dsn, spans):
    job_id = post_job(dsn, {}, {"type": "t"})
    [send] = named(spans, "send default")
    assert remote_parent(spans, send) is None
    assert f"{send.context.trace_id:032x}" != "0af7651916cd43dd8448eb211c80319c"
    assert stored_metadata(db, job_id) == {"traceparent": traceparent_of(send)}


# -- without OpenTelemetry ------------------------------------------------------------------

# A finder that makes every opentelemetry module unimportable, as if the extra were not installed:
# the scripts below insert it first thing.
_NO_OPENTELEMETRY = textwrap.dedent(
    """
    import json, sys

    class NoOpenTelemetry:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "opentelemetry":
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None
    """
)

_WITHOUT_OTEL = _NO_OPENTELEMETRY + textwrap.dedent(
    """
    sys.meta_path.insert(0, NoOpenTelemetry())
    import psycopg
    import pyjq
    from pyjq import tracing

    dsn = sys.argv[1]
    with psycopg.connect(dsn, autocommit=True) as conn:
        job = pyjq.enqueue(conn, "plain", {}, metadata={"k": "v"})
        pyjq.enqueue_many(conn, [{"type": "plain"}])
        worker = pyjq.Worker(dsn)
        seen = []
        worker.handler("plain")(lambda j: seen.append(j.metadata))
        summary = worker.run_until_empty(timeout=30)
        stored = conn.execute("select metadata from jq.job_history where id = %s", [job.job_id]).fetchone()[0]
    print(json.dumps({
        "active": tracing.active(),
        "succeeded": summary.succeeded,
        "seen": sorted(seen, key=lambda m: m is None),
        "stored": stored,
        "imported": sorted(m for m in sys.modules if m.split(".")[0] == "opentelemetry"),
    }))
    """
)


# POST /jobs with the request's trace context headers, in a process with the OpenTelemetry API
# but no SDK (argv[2] "api"), or the route's two tracing calls around pyjq.enqueue in one without
# OpenTelemetry at all ("none": FastAPI 0.165 and later import it, older ones do not): the
# metadata stored.
_POST_JOBS = _NO_OPENTELEMETRY + textwrap.dedent(
    """
    if sys.argv[2] == "none":
        sys.meta_path.insert(0, NoOpenTelemetry())
    import psycopg
    import pyjq
    from pyjq import tracing

    dsn = sys.argv[1]
    trace = {"traceparent": sys.argv[3], "tracestate": "congo=t61rcWkgMzE"}
    other = "00-" + "1" * 32 + "-" + "2" * 16 + "-01"  # a traceparent in the body
    cases = [
        ({"type": "t", "metadata": {"k": "v", "traceparent": other}}, trace),
        ({"type": "t", "metadata": {"k": "v"}}, {}),
        ({"type": "t"}, {"traceparent": "x" * 513}),
    ]
    if sys.argv[2] == "none":
        posted = []
        with psycopg.connect(dsn, autocommit=True) as conn:
            for body, headers in cases:
                with tracing.continuing(headers):
                    metadata = tracing.passed_through(body.get("metadata"), headers)
                    posted.append(str(pyjq.enqueue(conn, body["type"], metadata=metadata).job_id))
    else:
        from fastapi.testclient import TestClient
        from pyjq.http import create_app

        auth = {"Authorization": "Bearer producer-token-0123456789"}
        with TestClient(create_app(dsn, tokens={"producer-token-0123456789": "producer"})) as client:
            posted = [client.post("/jobs", json=b, headers=auth | h).json()["jobId"] for b, h in cases]
    with psycopg.connect(dsn) as conn:
        stored = [conn.execute("select metadata from jq.jobs where id = %s", [i]).fetchone()[0] for i in posted]
    print(json.dumps({"active": tracing.active(), "stored": stored}))
    """
)


@pytest.mark.processes
@pytest.mark.parametrize("otel", ["none", "api"])
def test_post_jobs_stores_the_request_trace_context_without_an_sdk(dsn, otel):
    done = subprocess.run(
        [sys.executable, "-c", _POST_JOBS, dsn, otel, TRACEPARENT],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "active": otel == "api",
        "stored": [
            # the request's headers as they came (the API's no-op span carries them), over the body's
            {"k": "v", "traceparent": TRACEPARENT, "tracestate": "congo=t61rcWkgMzE"},
            {"k": "v"},  # no headers: the body's metadata as given
            None,  # a header over 512 characters is left out
        ],
    }


@pytest.mark.processes
def test_without_opentelemetry_nothing_is_imported_and_jobs_run(dsn):
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_OTEL, dsn], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "active": False,
        "succeeded": 2,
        "seen": [{"k": "v"}, None],
        "stored": {"k": "v"},
        "imported": [],
    }
