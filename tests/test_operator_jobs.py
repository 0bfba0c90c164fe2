"""Operator functions on many jobs (#17 points 1a-1c) through pyjq, the HTTP service and the CLI:
listing with keyset pages, pausing queues (a real worker stops claiming and resumes), bulk actions
bounded per call (a bulk retry of 25,000 jobs in bounded calls leaves none twice), SKIP LOCKED, audit."""

from __future__ import annotations

import asyncio
import json
import time
import warnings
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from helpers import enqueue_n, eventually, invoke_cli

import pyjq

TOKENS = {"admin-token-0123456789": "admin", "producer-token-0123456789": "producer"}
ADMIN = {"Authorization": "Bearer admin-token-0123456789"}
PRODUCER = {"Authorization": "Bearer producer-token-0123456789"}


def _audit(db: psycopg.Connection) -> list[tuple[str, str, int]]:
    return db.execute("select action, actor, rows from jq.audit_log order by id").fetchall()


# -- Python API ------------------------------------------------------------------------


def test_jobs_pages_cover_every_job_once_in_both_orders(db):
    ids = set(enqueue_n(db, 23, type="page"))
    for oldest_first in (False, True):
        seen: list[Any] = []
        cursor = None
        while True:
            page = pyjq.jobs(db, filter={"type": "page"}, limit=5, cursor=cursor, oldest_first=oldest_first)
            if not page:
                break
            seen.extend(r.job_id for r in page)
            cursor = page[-1].cursor
        assert len(seen) == 23 and set(seen) == ids
        keys = [(r.created_at, r.job_id) for r in pyjq.jobs(db, filter={"type": "page"}, limit=100)]
        assert keys == sorted(keys, reverse=True)


def test_jobs_filter_by_status_and_time_and_refuses_unknown_keys(db):
    [job] = enqueue_n(db, 1, type="mail")
    pyjq.jobs_discard(db, ids=[job])
    rows = pyjq.jobs(db, filter={"status": ["dead"], "created_after": pyjq.status(db, job).created_at})
    assert [(r.job_id, r.status, r.last_error) for r in rows] == [(job, "dead", "discarded by operator")]
    with pytest.raises(pyjq.InvalidArgument, match="unknown filter key colour"):
        pyjq.jobs(db, filter={"colour": "blue"})


def test_bulk_retry_of_25000_jobs_in_bounded_calls_touches_each_once(db):
    for lo in (1, 10001, 20001):  # jq_enqueue_many takes 10,000 a call
        db.execute(
            "select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 'bulk',"
            " 'queue', 'big', 'run_at', now() + interval '1 day')) from generate_series(%s::int, %s::int) i))",
            [lo, min(lo + 9999, 25000)],
        )
    calls: list[int] = []

    def one_call() -> int:
        calls.append(pyjq.jobs_retry(db, filter={"queue": "big"}, limit=4000))
        return calls[-1]

    total = pyjq.operator.repeat_until_done(one_call)
    assert total == 25000
    assert calls == [4000] * 6 + [1000, 0], "each call bounded by the limit, the last finds nothing"
    # Every job was made ready exactly once: run_at moved to its call's now, none left scheduled.
    counts = db.execute(
        "select count(*) filter (where run_at <= now()), count(distinct id), count(*) from jq.jobs where queue = 'big'"
    ).fetchone()
    assert counts == (25000, 25000, 25000)
    assert [r for r in _audit(db) if r[0] == "jobs_retry"] == [("jobs_retry", db.info.user, n) for n in calls]


def test_bulk_action_skips_a_job_another_transaction_holds(db, connect):
    ids = enqueue_n(db, 3, type="held")
    db.execute("update jq.jobs set run_at = now() + interval '1 hour', deferred = true where type = 'held'")
    holder = connect(autocommit=False)
    holder.execute("select 1 from jq.jobs where id = %s for update", [ids[0]])
    started = time.monotonic()
    assert pyjq.jobs_retry(db, filter={"type": "held"}) == 2
    assert time.monotonic() - started < 2, "the action waited for the held row"
    holder.rollback()
    assert pyjq.jobs_retry(db, ids=ids) == 1, "once released, the held job is retried too"


def test_bulk_needs_exactly_one_of_filter_and_ids(db):
    with pytest.raises(pyjq.InvalidArgument, match="exactly one of filter and ids"):
        pyjq.jobs_cancel(db)
    with pytest.raises(pyjq.InvalidArgument, match="exactly one of filter and ids"):
        pyjq.dead_delete(db, filter={}, ids=[])
    with pytest.raises(pyjq.InvalidArgument, match="limit 0 is out of range"):
        pyjq.dead_requeue(db, filter={}, limit=0)


def test_dead_requeue_and_delete_by_error_substring(db):
    ids = enqueue_n(db, 4, type="deliver_webhook")
    pyjq.jobs_discard(db, ids=ids)
    db.execute(
        "update jq.dead_jobs set last_error = 'RuntimeError: HTTP 503 from hooks.example.com' where id = any(%s)",
        [ids[:3]],
    )
    assert pyjq.dead_requeue(db, filter={"type": "deliver_webhook", "error": "HTTP 503"}) == 3
    assert pyjq.dead_delete(db, filter={"error": "discarded"}) == 1
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 0
    assert db.execute("select count(*) from jq.jobs where attempts = 0").fetchone()[0] == 3


def test_queue_pause_resume_and_pauses(db):
    assert pyjq.queue_pause(db, "mail") is True
    assert pyjq.queue_pause(db, "mail") is False
    assert pyjq.queue_pause(db, "mail", type="digest") is True
    assert [(p.queue, p.type) for p in pyjq.queue_pauses(db)] == [("mail", None), ("mail", "digest")]
    assert [s.paused for s in pyjq.stats(db) if s.queue == "mail"] == [True]
    assert pyjq.queue_resume(db, "mail") is True
    assert [(p.queue, p.type) for p in pyjq.queue_pauses(db)] == [("mail", "digest")]


def test_async_twins(db, dsn):
    enqueue_n(db, 2, type="a")

    async def scenario() -> tuple[int, int, bool]:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            rows = await pyjq.jobs_async(conn, filter={"type": "a"})
            cancelled = await pyjq.jobs_cancel_async(conn, filter={"type": "a"})
            paused = await pyjq.queue_pause_async(conn, "q")
            return len(rows), cancelled, paused

    assert asyncio.run(scenario()) == (2, 2, True)


# -- a real worker and a paused queue ----------------------------------------------------


def test_a_worker_stops_claiming_from_a_paused_queue_and_resumes_promptly(db, dsn):
    worker = pyjq.Worker(dsn, queues={"default": 2}, poll_interval=5.0)
    done: list[int] = []

    @worker.handler("tick")
    async def tick(job: pyjq.Job) -> None:
        done.append(job.payload["i"])

    async def marked() -> bool:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            cur = await conn.execute("select 1 from jq.queue_waiters where worker = %s", [worker.name])
            return bool(await cur.fetchall())

    async def scenario() -> float:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await pyjq.enqueue_async(conn, "tick", {"i": 0})
            await eventually(lambda: done == [0], what="the first job to run")
            assert await pyjq.queue_pause_async(conn, "default")
            for i in range(1, 4):
                await pyjq.enqueue_async(conn, "tick", {"i": i})
            await asyncio.sleep(1.5)  # several claims (each woken by an insert) find the queue paused
            assert done == [0], "a paused queue gave the worker jobs"
            await eventually(marked, what="the idle worker asleep on LISTEN")
            resumed = time.monotonic()
            assert await pyjq.queue_resume_async(conn, "default")
            await eventually(lambda: sorted(done) == [0, 1, 2, 3], timeout=10, what="the jobs after the resume")
            return time.monotonic() - resumed

    latency, summary = _run_with(worker, scenario)
    assert summary.succeeded == 4
    assert latency < 2.0, f"claimed {latency:.2f} s after the resume; the poll interval is 5 s"


def _run_with(worker: pyjq.Worker, scenario: Any, timeout: float = 60.0) -> tuple[Any, pyjq.RunSummary]:
    async def main() -> tuple[Any, pyjq.RunSummary]:
        run = asyncio.create_task(worker.run_async())
        scene = asyncio.create_task(scenario())
        try:
            done, _ = await asyncio.wait({run, scene}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if run in done:
                run.result()
                raise AssertionError("the worker stopped before the scenario ended")
            if scene not in done:
                raise AssertionError(f"scenario did not finish within {timeout} s")
            result = scene.result()
        finally:
            scene.cancel()
            await worker.stop()
            summary = await run
        return result, summary

    return asyncio.run(main())


# -- HTTP --------------------------------------------------------------------------------


@pytest.fixture
def client(dsn: str) -> Iterator[Any]:
    pytest.importorskip("fastapi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from pyjq.http import create_app

    with TestClient(create_app(dsn, tokens=TOKENS)) as c:
        yield c


def test_http_lists_jobs_by_pages_and_filters(db, client):
    enqueue_n(db, 7, type="web", tenant="acme")
    enqueue_n(db, 2, type="other")
    first = client.get("/jobs", params={"type": "web", "limit": 4}, headers=ADMIN)
    assert first.status_code == 200, first.text
    body = first.json()
    assert len(body["jobs"]) == 4 and body["nextCursor"] == body["jobs"][-1]["cursor"]
    rest = client.get("/jobs", params={"type": "web", "limit": 4, "cursor": body["nextCursor"]}, headers=ADMIN).json()
    assert len(rest["jobs"]) == 3 and rest["nextCursor"] is None
    assert {j["jobId"] for j in body["jobs"] + rest["jobs"]} == {str(r.job_id) for r in pyjq.jobs(db, {"type": "web"})}
    tenants = client.get(
        "/jobs", params={"tenant": "acme", "status": ["queued", "dead"], "order": "oldest"}, headers=ADMIN
    ).json()
    assert len(tenants["jobs"]) == 7
    contains = client.get("/jobs", params={"payload": json.dumps({"i": 3})}, headers=ADMIN).json()
    assert len(contains["jobs"]) == 1
    bad = client.get("/jobs", params={"payload": "{not json"}, headers=ADMIN)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "INVALID_ARGUMENT"
    unknown = client.get("/jobs", params={"colour": "blue"}, headers=ADMIN)
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "colour"
    bad_cursor = client.get("/jobs", params={"cursor": "nope"}, headers=ADMIN)
    assert bad_cursor.status_code == 422 and "cursor" in bad_cursor.json()["error"]["message"]


def test_http_bulk_actions_are_audited_with_the_token(db, client):
    ids = enqueue_n(db, 3, type="web")
    answer = client.post("/jobs/discard", json={"ids": [str(i) for i in ids[:2]]}, headers=ADMIN)
    assert answer.status_code == 200 and answer.json() == {"changed": 2}
    answer = client.post(
        "/dead-letter/jobs/requeue", json={"filter": {"error": "discarded"}, "limit": 1}, headers=ADMIN
    )
    assert answer.json() == {"changed": 1}
    assert client.post("/dead-letter/jobs/delete", json={"filter": {}}, headers=ADMIN).json() == {"changed": 1}
    # Left: the job never discarded and the one requeued.
    assert client.post("/jobs/cancel", json={"filter": {"type": "web"}}, headers=ADMIN).json() == {"changed": 2}
    assert client.post("/jobs/retry", json={"filter": {}}, headers=ADMIN).json() == {"changed": 0}
    both = client.post("/jobs/retry", json={"filter": {}, "ids": []}, headers=ADMIN)
    assert both.status_code == 422 and "exactly one" in both.json()["error"]["message"]
    unknown = client.post("/jobs/retry", json={"filter": {"colour": 1}}, headers=ADMIN)
    assert unknown.status_code == 422 and "colour" in unknown.json()["error"]["message"]
    actors = {actor for _, actor, _ in _audit(db)}
    assert len(actors) == 1 and actors.pop().startswith("admin:"), "the token's name is the actor"


def test_http_pause_resume_and_pauses_admin_only(db, client):
    assert client.post("/queues/mail/pause", headers=ADMIN).json() == {"queue": "mail", "type": None, "changed": True}
    typed = client.post("/queues/mail/pause", json={"type": "digest"}, headers=ADMIN).json()
    assert typed == {"queue": "mail", "type": "digest", "changed": True}
    pauses = client.get("/queues/pauses", headers=ADMIN).json()["pauses"]
    assert [(p["queue"], p["type"]) for p in pauses] == [("mail", None), ("mail", "digest")]
    assert pauses[0]["pausedBy"].startswith("admin:")
    assert client.post("/queues/mail/resume", headers=ADMIN).json()["changed"] is True
    assert client.post("/queues/bad queue/pause", headers=ADMIN).status_code == 422
    for method, path in (("get", "/jobs"), ("post", "/queues/mail/pause"), ("get", "/queues/pauses")):
        assert getattr(client, method)(path, headers=PRODUCER).status_code == 403


# -- CLI ---------------------------------------------------------------------------------


def test_cli_jobs_list_retry_all_pages_and_queues(db, dsn):
    db.execute(
        "select count(*) from jq.jq_enqueue_many((select jsonb_agg(jsonb_build_object('type', 'cli',"
        " 'run_at', now() + interval '1 hour')) from generate_series(1, 12) i))"
    )
    listed = invoke_cli("jobs", "list", "--type", "cli", "--status", "scheduled", "--limit", "5", "--dsn", dsn)
    assert listed.exit_code == 0, listed.output
    assert listed.output.count("scheduled") == 5 and "next page: --cursor" in listed.output
    as_json = json.loads(invoke_cli("jobs", "list", "--type", "cli", "--json", "--dsn", dsn).output)
    assert len(as_json["jobs"]) == 12 and as_json["next_cursor"] is None
    retried = invoke_cli("jobs", "retry", "--type", "cli", "--limit", "5", "--all-pages", "--dsn", dsn)
    assert retried.exit_code == 0 and "retry: 12 jobs" in retried.output, retried.output
    assert invoke_cli("jobs", "retry", "--dsn", dsn).exit_code == 2, "no filter, no ids, no --every"
    discarded = invoke_cli("jobs", "discard", "--every", "--json", "--dsn", dsn)
    assert json.loads(discarded.output) == {"changed": 12}
    requeued = invoke_cli("dead", "requeue", "--error", "discarded", "--limit", "10", "--dsn", dsn)
    assert "requeue: 10 jobs" in requeued.output
    assert "delete: 2 jobs" in invoke_cli("dead", "delete", "--every", "--dsn", dsn).output
    assert "paused: queue default" in invoke_cli("queues", "pause", "default", "--dsn", dsn).output
    assert "already paused" in invoke_cli("queues", "pause", "default", "--dsn", dsn).output
    assert "default" in invoke_cli("queues", "pauses", "--dsn", dsn).output
    assert "resumed: queue default" in invoke_cli("queues", "resume", "default", "--dsn", dsn).output
    bad = invoke_cli("jobs", "list", "--id-prefix", "xyz", "--dsn", dsn)
    assert bad.exit_code == 1 and "id_prefix" in bad.output
