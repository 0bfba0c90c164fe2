"""Job results (issue #18 point 5): a handler's return value is stored with the
job's history record and shown by jq_status, pyjq.status, GET /jobs/{id} and
`pyjq status`; a value over jq.settings.max_result_bytes, or one that is not
JSON, fails its attempt (the job retries) without spoiling the batch it was
written with; results live as long as the history record.

Real workers in this process against the fresh database (no mocks), as in
tests/test_worker.py.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import psycopg
import pytest
from helpers import eventually, invoke_cli, job_status

import pyjq
from pyjq.worker.returned import UnstorableResult, encode


def drain(worker: pyjq.Worker, timeout: float = 30.0) -> pyjq.RunSummary:
    return worker.run_until_empty(timeout=timeout)


def history_result(db: psycopg.Connection, job_id: Any) -> Any:
    row = db.execute("select result from jq.job_history where id = %s", [job_id]).fetchone()
    assert row is not None, f"no history row for {job_id}"
    return row[0]


def make_due(db: psycopg.Connection, job_id: Any) -> None:
    """Bring a job's next attempt forward to now (instead of waiting for its retry delay)."""
    db.execute("update jq.jobs set run_at = now(), deferred = false where id = %s", [job_id])


RESULTS: dict[str, Any] = {
    "an_object": {"pdf": "s3://invoices/42.pdf", "pages": 3, "ok": True, "tags": ["a", "é"]},
    "a_list": [1, 2.5, "three", None, {"four": 4}],
    "a_string": "sent to ada@example.com",
    "an_int": 42,
    "a_float": 2.5,
    "a_bool": False,
    "nothing": None,
}


def test_every_kind_of_result_is_stored_and_shown_everywhere(db, dsn):
    jobs = {name: pyjq.enqueue(db, "produce", {"name": name}).job_id for name in RESULTS}
    threaded = pyjq.enqueue(db, "produce_in_thread", {"name": "an_object"}).job_id
    worker = pyjq.Worker(dsn)

    @worker.handler("produce")
    async def produce(job: pyjq.Job) -> Any:
        return RESULTS[job.payload["name"]]

    @worker.handler("produce_in_thread")
    def produce_in_thread(job: pyjq.Job) -> Any:
        return RESULTS[job.payload["name"]]

    assert drain(worker).succeeded == len(RESULTS) + 1
    for name, job_id in jobs.items():
        found = pyjq.status(db, job_id)
        assert found is not None and found.status == "succeeded"
        assert found.result == RESULTS[name], name
        assert history_result(db, job_id) == RESULTS[name]
    assert pyjq.status(db, threaded).result == RESULTS["an_object"]  # a plain function's value too
    # None stores SQL null, not a JSON null.
    assert db.execute("select result is null from jq.job_history where id = %s", [jobs["nothing"]]).fetchone() == (
        True,
    )

    # pyjq status: the result as JSON on its own line, and in --json.
    out = invoke_cli("status", str(jobs["an_object"]), "--dsn", dsn)
    assert out.exit_code == 0, out.output
    line = next(x for x in out.output.splitlines() if x.startswith("result"))
    assert json.loads(line.split(None, 1)[1]) == RESULTS["an_object"]
    assert "é" in line  # as written, not \u-escaped
    out = invoke_cli("status", str(jobs["a_list"]), "--dsn", dsn, "--json")
    assert json.loads(out.output)["result"] == RESULTS["a_list"]
    out = invoke_cli("status", str(jobs["nothing"]), "--dsn", dsn)
    assert next(x for x in out.output.splitlines() if x.startswith("result")).split() == ["result", "-"]


def test_get_job_returns_the_result(db, dsn):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from pyjq.http import create_app

    done = pyjq.enqueue(db, "produce", {}).job_id
    waiting = pyjq.enqueue(db, "other", {}).job_id
    worker = pyjq.Worker(dsn)

    @worker.handler("produce")
    async def produce(job: pyjq.Job) -> Any:
        return {"rows": 120, "url": "s3://reports/120.csv"}

    assert drain(worker).succeeded == 1
    token = "producer-token-0123456789"
    with TestClient(create_app(dsn, tokens={token: "producer"})) as client:
        headers = {"Authorization": f"Bearer {token}"}
        body = client.get(f"/jobs/{done}", headers=headers).json()
        assert body["status"] == "succeeded"
        assert body["result"] == {"rows": 120, "url": "s3://reports/120.csv"}
        body = client.get(f"/jobs/{waiting}", headers=headers).json()
        assert body["status"] == "queued" and body["result"] is None


def test_an_oversized_result_fails_the_attempt_and_the_job_retries(db, dsn):
    db.execute("update jq.settings set max_result_bytes = 1024")
    job_id = pyjq.enqueue(db, "report", {}).job_id
    worker = pyjq.Worker(dsn)

    @worker.handler("report")
    def report(job: pyjq.Job) -> Any:
        # First attempt: a 2,002-byte JSON string; then a small value.
        return "x" * 2000 if job.attempts == 1 else {"stored_at": "s3://reports/1"}

    first = drain(worker)
    assert (first.succeeded, first.failed_retrying) == (0, 1)
    found = pyjq.status(db, job_id)
    assert found.status == "failed_retrying" and found.result is None
    assert found.last_error == "result of 2,002 bytes exceeds jq.settings.max_result_bytes (1,024)"
    assert worker.stats["limits"] == 1  # the bound was read once, before the first value was written

    make_due(db, job_id)
    assert drain(worker).succeeded == 1
    found = pyjq.status(db, job_id)
    assert (found.status, found.attempts, found.result) == ("succeeded", 2, {"stored_at": "s3://reports/1"})


def _circular() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


@pytest.mark.parametrize(
    "value, error",
    [
        (object(), "result is not JSON-serialisable: TypeError: Object of type object is not JSON serializable"),
        ({"at": datetime(2026, 1, 1, tzinfo=UTC)}, "result is not JSON-serialisable: TypeError: Object of type"),
        (Decimal("1.5"), "result is not JSON-serialisable: TypeError: Object of type Decimal"),
        (float("nan"), "result is not JSON-serialisable: ValueError: Out of range float values"),
        ({"text": "a\x00b"}, "result is not storable: its text holds U+0000 (NUL)"),
        ({"text": "\ud800"}, "result is not JSON-serialisable: UnicodeEncodeError"),
        (_circular(), "result is not JSON-serialisable: ValueError: Circular reference detected"),
    ],
    ids=["object", "datetime", "decimal", "nan", "nul", "lone-surrogate", "circular"],
)
def test_a_result_that_is_not_json_fails_the_attempt(db, dsn, value, error):
    job_id = pyjq.enqueue(db, "odd", {}, max_attempts=2).job_id
    worker = pyjq.Worker(dsn)

    @worker.handler("odd")
    async def odd(job: pyjq.Job) -> Any:
        return value

    assert drain(worker).failed_retrying == 1
    found = pyjq.status(db, job_id)
    assert found.status == "failed_retrying"
    assert found.last_error.startswith(error), found.last_error
    make_due(db, job_id)
    assert drain(worker).dead == 1  # a plain failure: it used its attempts like any other


def test_a_mixed_batch_completes_the_others(db, dsn):
    db.execute("update jq.settings set max_result_bytes = 100")
    small = [pyjq.enqueue(db, "calc", {"n": n}).job_id for n in range(3)]
    big = pyjq.enqueue(db, "calc", {"n": "big"}).job_id
    plain = pyjq.enqueue(db, "calc", {"n": None}).job_id
    worker = pyjq.Worker(dsn, flush_interval=0.5)  # all five outcomes in one batch

    @worker.handler("calc")
    async def calc(job: pyjq.Job) -> Any:
        n = job.payload["n"]
        if n == "big":
            return {"blob": "y" * 200}
        return None if n is None else {"square": n * n}

    summary = drain(worker)
    assert (summary.succeeded, summary.failed_retrying) == (4, 1)
    assert worker.stats["complete"] == 1  # one statement wrote the batch: no split-retry
    for n, job_id in enumerate(small):
        assert pyjq.status(db, job_id).result == {"square": n * n}
    assert pyjq.status(db, plain).status == "succeeded"
    refused = pyjq.status(db, big)
    assert refused.status == "failed_retrying"
    assert refused.last_error == "result of 212 bytes exceeds jq.settings.max_result_bytes (100)"


def test_jq_completes_own_check_catches_a_bound_lowered_after_the_worker_read_it(db, dsn):
    first = pyjq.enqueue(db, "sized", {}).job_id
    worker = pyjq.Worker(dsn, flush_interval=0.0)

    @worker.handler("sized")
    async def sized(job: pyjq.Job) -> Any:
        return {"blob": "z" * 500}

    async def scenario() -> None:
        await eventually(lambda: job_status(dsn, first).status == "succeeded", what="the first job succeeds")
        # The worker now holds the bound of 64 KiB; an admin lowers it to 256 bytes.
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await conn.execute("update jq.settings set max_result_bytes = 256")
            second = (await pyjq.enqueue_async(conn, "sized", {})).job_id
        await eventually(lambda: job_status(dsn, second).status == "failed_retrying", what="the second one fails")
        found = job_status(dsn, second)
        assert found.last_error.startswith(
            f"jq_complete refused the result: result of job {second} is 512 bytes; the limit is 256 bytes"
        ), found.last_error
        # The refusal made the worker read the bound again: the next value is checked before writing.
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            third = (await pyjq.enqueue_async(conn, "sized", {})).job_id
        await eventually(lambda: job_status(dsn, third).status == "failed_retrying", what="the third one fails")
        assert job_status(dsn, third).last_error == "result of 512 bytes exceeds jq.settings.max_result_bytes (256)"

    async def main() -> None:
        run = asyncio.create_task(worker.run_async())
        try:
            await asyncio.wait_for(scenario(), 30)
        finally:
            await worker.stop()
            await run

    asyncio.run(main())
    assert pyjq.status(db, first).result == {"blob": "z" * 500}
    assert worker.stats["limits"] == 2  # at the first value, and again after jq_complete refused one


def test_a_raised_bound_is_read_before_a_value_is_refused(db, dsn):
    db.execute("update jq.settings set max_result_bytes = 256")
    first = pyjq.enqueue(db, "sized", {}).job_id
    worker = pyjq.Worker(dsn, flush_interval=0.0)

    @worker.handler("sized")
    async def sized(job: pyjq.Job) -> Any:
        return {"blob": "z" * 500}

    async def scenario() -> None:
        await eventually(lambda: job_status(dsn, first).status == "failed_retrying", what="the first job fails")
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await conn.execute("update jq.settings set max_result_bytes = 1024")
            second = (await pyjq.enqueue_async(conn, "sized", {})).job_id
        await eventually(lambda: job_status(dsn, second).status == "succeeded", what="the second one succeeds")

    async def main() -> None:
        run = asyncio.create_task(worker.run_async())
        try:
            await asyncio.wait_for(scenario(), 30)
        finally:
            await worker.stop()
            await run

    asyncio.run(main())
    assert worker.stats["limits"] == 2  # once at the first value, once more before refusing the second


def test_results_are_kept_for_the_history_retention_and_removed_with_it(db, dsn):
    job_id = pyjq.enqueue(db, "keep", {}).job_id
    worker = pyjq.Worker(dsn)

    @worker.handler("keep")
    async def keep(job: pyjq.Job) -> Any:
        return ["kept"]

    assert drain(worker).succeeded == 1
    retention = db.execute("select history_retention from jq.settings").fetchone()[0]
    db.execute("update jq.settings set allow_test_clock = true")
    now = datetime.now(UTC)

    db.execute("select set_config('jq.now', %s, false)", [(now + retention - timedelta(days=1)).isoformat()])
    db.execute("select jq.jq_maintain()")
    assert pyjq.status(db, job_id).result == ["kept"]  # within the retention: still there

    db.execute("select set_config('jq.now', %s, false)", [(now + retention + timedelta(days=2)).isoformat()])
    db.execute("select jq.jq_maintain()")
    assert pyjq.status(db, job_id) is None  # the history record went, and its result with it
    db.execute("reset jq.now")


@pytest.mark.parametrize(
    "value",
    [
        {"a": 1, "bb": [1, 2, {"c": None}], "é": "ü"},
        [],
        {},
        'quote " backslash \\ newline \n tab \t bell \x07',
        12345678901234567890,
        -0.5,
        [True, False, None],
        {"nested": {"deeper": {"deepest": ["x" * 100]}}},
    ],
)
def test_the_worker_measures_a_result_as_jq_complete_does(db, value):
    text, size = encode(value)
    assert text is not None
    assert db.execute("select octet_length(%s::jsonb::text)", [text]).fetchone()[0] == size


def test_none_encodes_to_no_result_and_other_objects_are_refused():
    assert encode(None) == (None, 0)
    with pytest.raises(UnstorableResult, match="not JSON-serialisable: TypeError"):
        encode({1, 2})
    assert encode("a\\u0000")[0] == '"a\\\\u0000"'  # an escaped backslash before u0000 is just text
