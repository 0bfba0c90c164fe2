"""Fair claiming between tenants, tenant caps and concurrency-key caps (issue #8),
against a real database: several real connections claiming at once, and real
pyjq Workers.

The queue logic is jq_claim's (SQL); these tests drive it through pyjq and
check what callers can rely on: a cap is never exceeded however many sessions
claim at once, no job is lost or run twice, a small tenant is not stuck
behind a big tenant's backlog, and weights share the queue in proportion.
Nothing here asserts on speed; timeouts only bound liveness.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from uuid import UUID

import psycopg
import pytest
from helpers import enqueue_n
from helpers import invoke_cli as run

import pyjq

LIVENESS = 120.0  # seconds a concurrent scenario may take before it is declared stuck


# -- helpers ------------------------------------------------------------------------------


def claim(conn: psycopg.Connection, limit: int = 1, queue: str = "default", worker: str = "w") -> list[tuple]:
    """(id, tenant, type) of the jobs jq_claim hands out, in its order."""
    return conn.execute("select id, tenant, type from jq.jq_claim(%s, %s, %s)", [queue, worker, limit]).fetchall()


def complete(conn: psycopg.Connection, ids: list[UUID], worker: str = "w") -> None:
    done = conn.execute("select * from jq.jq_complete(%s::uuid[], %s)", [ids, worker]).fetchall()
    assert len(done) == len(ids), f"{worker} could not complete its own claims"


class Sampler(threading.Thread):
    """Runs a query returning one integer as fast as it can on its own connection; keeps the max."""

    def __init__(self, dsn: str, query: str, params: list | tuple = ()):
        super().__init__(daemon=True)
        self.dsn, self.query, self.params = dsn, query, params
        self.max = 0
        self.samples = 0
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with psycopg.connect(self.dsn, autocommit=True) as conn:
                while not self.stop.is_set():
                    value = conn.execute(self.query, self.params).fetchone()[0] or 0
                    self.max = max(self.max, value)
                    self.samples += 1
        except BaseException as exc:  # reported by the test
            self.error = exc


def claim_until_done(
    dsn: str, worker: str, remaining: Callable[[psycopg.Connection], int], deadline: float, limit: int = 2
) -> list[UUID]:
    """One claimer on its own connection: claim, hold each job a few ms, complete; until
    remaining() is 0. Returns the ids it claimed."""
    claimed: list[UUID] = []
    rng = random.Random(worker)
    with psycopg.connect(dsn, autocommit=True) as conn:
        while True:
            rows = claim(conn, limit, worker=worker)
            if not rows:
                if remaining(conn) == 0:
                    return claimed
                if time.monotonic() > deadline:
                    raise AssertionError(f"{worker}: jobs left but nothing claimable for {LIVENESS} s")
                time.sleep(0.002)
                continue
            ids = [r[0] for r in rows]
            claimed.extend(ids)
            time.sleep(rng.uniform(0.002, 0.01))  # the "work": others claim meanwhile
            complete(conn, ids, worker)


def run_claimers(dsn: str, n: int, remaining_sql: str, sampler: Sampler) -> list[UUID]:
    """n threads claim with claim_until_done while sampler samples; returns every id claimed."""

    def remaining(conn: psycopg.Connection) -> int:
        return conn.execute(remaining_sql).fetchone()[0]

    deadline = time.monotonic() + LIVENESS
    results: dict[int, list[UUID]] = {}
    errors: list[BaseException] = []

    def body(i: int) -> None:
        try:
            results[i] = claim_until_done(dsn, f"claimer-{i}", remaining, deadline)
        except BaseException as exc:
            errors.append(exc)

    sampler.start()
    threads = [threading.Thread(target=body, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(LIVENESS + 30)
    sampler.stop.set()
    sampler.join(30)
    assert not any(t.is_alive() for t in threads), "a claimer is stuck"
    assert not errors, errors
    assert sampler.error is None, sampler.error
    assert sampler.samples > 10, "the sampler barely ran"
    return [job_id for i in sorted(results) for job_id in results[i]]


def assert_each_done_once(db: psycopg.Connection, expected: list[UUID], claimed: list[UUID]) -> None:
    counts = Counter(claimed)
    twice = [job_id for job_id, c in counts.items() if c > 1]
    assert not twice, f"{len(twice)} jobs were claimed more than once"
    assert set(counts) == set(expected), "claimed jobs differ from the enqueued ones"
    succeeded = db.execute(
        "select count(*), count(distinct id) from jq.job_history where status = 'succeeded' and id = any(%s)",
        [expected],
    ).fetchone()
    assert succeeded == (len(expected), len(expected))
    assert db.execute("select count(*) from jq.jobs where id = any(%s)", [expected]).fetchone()[0] == 0


# -- caps under concurrent claimers ----------------------------------------------------------


def test_tenant_cap_holds_under_eight_concurrent_claimers(db, dsn):
    pyjq.tenant_policy_set(db, "default", "capped", max_running=3)
    capped = enqueue_n(db, 120, tenant="capped")
    # Other tenants' jobs are claimed meanwhile and are not capped.
    others = enqueue_n(db, 60, tenant="free") + enqueue_n(db, 60, tenant=None)

    sampler = Sampler(dsn, "select count(*) from jq.jobs where status = 'processing' and tenant = 'capped'")
    claimed = run_claimers(dsn, 8, "select count(*) from jq.jobs", sampler)

    print(f"tenant cap 3: max {sampler.max} running at once over {sampler.samples} samples")
    assert sampler.max <= 3, f"tenant capped had {sampler.max} running jobs at once; its cap is 3"
    assert sampler.max >= 1
    assert_each_done_once(db, capped + others, claimed)


@pytest.mark.parametrize("limit", [None, 2], ids=["default-limit-1", "key-limit-2"])
def test_concurrency_key_cap_holds_under_eight_concurrent_claimers(db, dsn, limit):
    if limit is not None:
        assert pyjq.key_limit_set(db, "sync_account", limit) == pyjq.KeyLimit("sync_account", limit)
    cap = limit or 1
    keyed = enqueue_n(db, 50, type="sync_account", concurrency_key="acct-1")
    keyed += enqueue_n(db, 50, type="sync_account", concurrency_key="acct-2", tenant="t2")
    # Another type with the same key is a different key space; unkeyed jobs are unlimited.
    other_type = enqueue_n(db, 30, type="other", concurrency_key="acct-1")
    unkeyed = enqueue_n(db, 40, type="sync_account")

    sampler = Sampler(
        dsn,
        "select max(n) from (select count(*) as n from jq.jobs where status = 'processing'"
        " and type = 'sync_account' and concurrency_key is not null"
        " group by concurrency_key) per_key",
    )
    other = Sampler(dsn, "select count(*) from jq.jobs where status = 'processing' and type = 'other'")
    other.start()
    try:
        claimed = run_claimers(dsn, 8, "select count(*) from jq.jobs", sampler)
    finally:
        other.stop.set()
        other.join(30)

    print(f"key limit {cap}: max {sampler.max} running per key over {sampler.samples} samples; other type {other.max}")
    assert sampler.max <= cap, f"{sampler.max} jobs of one concurrency key ran at once; the limit is {cap}"
    assert other.max <= 1, f"{other.max} jobs of type other with key acct-1 ran at once; the limit is 1"
    assert_each_done_once(db, keyed + other_type + unkeyed, claimed)


# -- caps, exactly (one claimer) -----------------------------------------------------------------


def test_tenant_cap_exactly_and_other_tenants_unaffected(db):
    pyjq.tenant_policy_set(db, "default", "capped", max_running=3)
    enqueue_n(db, 10, tenant="capped")
    enqueue_n(db, 10, tenant="free")
    got = claim(db, 20)
    by_tenant = Counter(t for _, t, _ in got)
    assert by_tenant == {"capped": 3, "free": 10}
    assert [r for r in claim(db, 5) if r[1] == "capped"] == []  # at its cap: nothing more
    complete(db, [next(i for i, t, _ in got if t == "capped")])
    assert [t for _, t, _ in claim(db, 5)] == ["capped"]  # one finished, one more may run

    pyjq.tenant_policy_set(db, "default", "capped", max_running=0)  # paused
    complete(db, [i for i, t, _ in got if t == "capped"][1:])
    assert claim(db, 5) == []


def test_concurrency_key_exactly(db):
    enqueue_n(db, 4, type="sync", concurrency_key="k1")
    enqueue_n(db, 4, type="sync", concurrency_key="k2")
    enqueue_n(db, 2, type="other", concurrency_key="k1")

    def running() -> dict[tuple[str, str], int]:
        return {
            (t, k): n
            for t, k, n in db.execute(
                "select type, concurrency_key, count(*) from jq.jobs where status = 'processing' group by 1, 2"
            )
        }

    assert len(claim(db, 10)) == 3  # fewer rows than the limit: the rest waits for its key
    assert running() == {("sync", "k1"): 1, ("sync", "k2"): 1, ("other", "k1"): 1}
    assert claim(db, 10) == []

    pyjq.key_limit_set(db, "sync", 3)
    assert len(claim(db, 10)) == 4  # two more per key of type sync
    assert running() == {("sync", "k1"): 3, ("sync", "k2"): 3, ("other", "k1"): 1}
    assert pyjq.key_limit_delete(db, "sync") is True
    assert pyjq.key_limit_delete(db, "sync") is False
    assert claim(db, 10) == []


# -- fairness with real workers ------------------------------------------------------------------


class Recorder:
    """A handler that records the order jobs were handled in (tenant, job id)."""

    def __init__(self, pause: float = 0.001):
        self.lock = threading.Lock()
        self.order: list[tuple[str | None, UUID]] = []
        self.pause = pause

    def __call__(self, job: pyjq.Job) -> None:
        with self.lock:
            self.order.append((job.tenant, job.id))
        time.sleep(self.pause)


def drain_workers(dsn: str, recorder: Recorder, slots: list[int]) -> list[pyjq.RunSummary]:
    """Run one Worker per entry of slots, concurrently, until the queue is drained."""
    workers = []
    for n, count in enumerate(slots):
        w = pyjq.Worker(
            dsn, queues={"default": count}, name=f"fair-{n}", schedules=False, tick=False, poll_interval=0.5
        )
        w.add_handler("work", recorder)
        workers.append(w)

    async def main() -> list[pyjq.RunSummary]:
        return await asyncio.gather(*(w.drain(timeout=LIVENESS) for w in workers))

    return asyncio.run(main())


def test_small_tenants_are_not_stuck_behind_a_big_backlog(db, dsn):
    a_ids = enqueue_n(db, 2000, tenant="A")
    small = [chr(c) for c in range(ord("B"), ord("K") + 1)]
    small_ids = [job_id for t in small for job_id in enqueue_n(db, 20, tenant=t)]
    assert len(small) == 10

    recorder = Recorder()
    summaries = drain_workers(dsn, recorder, [6, 6])

    order = recorder.order
    last_small = max(i for i, (tenant, _) in enumerate(order) if tenant != "A")
    a_before = sum(1 for tenant, _ in order[: last_small + 1] if tenant == "A")
    print(f"B..K (200 jobs) all handled after {last_small + 1} jobs, {a_before} of them A's")
    assert a_before < 1000, (
        f"{a_before} of A's 2000 jobs ran before B..K's 200 were all handled: "
        "the small tenants waited behind A's backlog"
    )
    # Exactly once, nothing lost.
    assert sum(s.succeeded for s in summaries) == 2200
    assert_each_done_once(db, a_ids + small_ids, [job_id for _, job_id in order])


def test_weights_share_the_queue_in_proportion(db, dsn):
    pyjq.tenant_policy_set(db, "*", "gold", weight=3)
    pyjq.tenant_policy_set(db, "default", "free", weight=1)
    ids = []
    for _ in range(6):  # enqueued interleaved, 100 at a time
        ids += enqueue_n(db, 100, tenant="free")
        ids += enqueue_n(db, 100, tenant="gold")

    recorder = Recorder()
    drain_workers(dsn, recorder, [4])

    first = Counter(tenant for tenant, _ in recorder.order[:200])
    ratio = first["gold"] / max(1, first["free"])
    print(f"weights 3:1, first 200 handled: {dict(first)}")
    assert 2 <= ratio <= 4, f"first 200 handled: {dict(first)} (gold/free {ratio:.2f}); weights are 3:1"
    assert_each_done_once(db, ids, [job_id for _, job_id in recorder.order])


@pytest.mark.parametrize("capped_by", ["tenant", "key"])
def test_worker_claims_capped_jobs_when_the_cap_frees_not_at_its_next_poll(db, dsn, capped_by):
    """The jobs a cap keeps back are claimed as soon as the worker's own job that
    held the cap is written, though no NOTIFY says so: the safety poll (60 s here)
    is far beyond the test's deadline."""
    if capped_by == "tenant":
        pyjq.tenant_policy_set(db, "default", "acme", max_running=2)
        ids = enqueue_n(db, 12, tenant="acme")
    else:
        ids = enqueue_n(db, 12, concurrency_key="account:7")
    recorder = Recorder(pause=0.01)
    worker = pyjq.Worker(dsn, queues={"default": 10}, poll_interval=60.0, schedules=False, tick=False)
    worker.add_handler("work", recorder)

    async def main() -> int:
        run = asyncio.create_task(worker.run_async())
        try:
            deadline = time.monotonic() + 30
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
                while True:
                    left = (await (await conn.execute("select count(*) from jq.jobs")).fetchone())[0]
                    if left == 0 or time.monotonic() > deadline or run.done():
                        return left
                    await asyncio.sleep(0.02)
        finally:
            await worker.stop()
            await run

    left = asyncio.run(main())
    assert left == 0, f"{left} of 12 capped jobs still waiting: the worker waits for its safety poll"
    assert_each_done_once(db, ids, [job_id for _, job_id in recorder.order])


def test_plain_queue_is_fifo_across_tenants(db):
    assert pyjq.queue_set_fair(db, "default", False) is False
    enqueue_n(db, 6, tenant="A")
    enqueue_n(db, 2, tenant="B")
    assert [t for _, t, _ in claim(db, 8)] == ["A"] * 6 + ["B"] * 2
    assert pyjq.queue_set_fair(db, "default", True) is True
    enqueue_n(db, 4, tenant="A")
    enqueue_n(db, 4, tenant="B")
    tenants = [t for _, t, _ in claim(db, 4)]
    assert Counter(tenants) == {"A": 2, "B": 2}


# -- the client wrappers -------------------------------------------------------------------------


def test_enqueue_with_a_concurrency_key(db):
    job = pyjq.enqueue(db, "sync", {"n": 1}, tenant="acme", concurrency_key="acct-9")
    many = pyjq.enqueue_many(db, [{"type": "sync", "concurrency_key": "acct-9"}, {"type": "sync"}])
    rows = db.execute("select id, tenant, concurrency_key from jq.jobs order by created_at, id").fetchall()
    keys = {r[0]: r[2] for r in rows}
    assert keys[job.job_id] == "acct-9"
    assert [keys[r.job_id] for r in many] == ["acct-9", None]

    with pytest.raises(pyjq.InvalidArgument) as exc:
        pyjq.enqueue(db, "sync", concurrency_key="  ")
    assert exc.value.sqlstate == "22023"
    with pytest.raises(pyjq.ValueTooLong):
        pyjq.enqueue(db, "sync", concurrency_key="k" * 256)
    with pytest.raises(pyjq.InvalidArgument) as exc:
        pyjq.enqueue_many(db, [{"type": "sync"}, {"type": "sync", "concurrency_key": ""}])
    assert "jobs[" in str(exc.value) and "concurrency_key" in str(exc.value)


def test_enqueue_async_with_a_concurrency_key(dsn, db):
    async def main() -> pyjq.EnqueueResult:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            return await pyjq.enqueue_async(conn, "sync", concurrency_key="acct-1")

    result = asyncio.run(main())
    assert db.execute("select concurrency_key from jq.jobs where id = %s", [result.job_id]).fetchone()[0] == "acct-1"


def test_policy_wrappers_round_trip(db):
    assert pyjq.tenant_policy_set(db, "default", "acme", weight=3, max_running=10) == pyjq.TenantPolicy(
        queue="default", tenant="acme", weight=3, max_running=10
    )
    assert pyjq.tenant_policy_set(db, "*", "*", max_running=50) == pyjq.TenantPolicy(
        queue="*", tenant="*", weight=None, max_running=50
    )
    assert pyjq.tenant_policy_set(db, "default", None, weight=2).tenant is None
    # Upsert: the row is replaced, a field not given is cleared.
    assert pyjq.tenant_policy_set(db, "default", "acme", weight=5).max_running is None

    rows = pyjq.tenant_policies(db)
    assert [(r.queue, r.tenant, r.weight, r.max_running) for r in rows] == [
        ("*", "*", None, 50),
        ("default", None, 2, None),
        ("default", "acme", 5, None),
    ]
    assert all(r.updated_at is not None for r in rows)

    assert pyjq.tenant_policy_delete(db, "default", None) is True
    assert pyjq.tenant_policy_delete(db, "default", None) is False
    assert len(pyjq.tenant_policies(db)) == 2


def test_tenants_shows_counts_and_the_policy_in_force(db):
    pyjq.tenant_policy_set(db, "*", "*", max_running=7)
    pyjq.tenant_policy_set(db, "default", "acme", weight=4)
    enqueue_n(db, 3, tenant="acme")
    enqueue_n(db, 2, tenant=None)
    pyjq.enqueue(db, "work", tenant="acme", run_at=db.execute("select now() + interval '1 day'").fetchone()[0])
    enqueue_n(db, 1, tenant="zed", queue="other")
    assert claim(db, 1, queue="other")

    rows = {(r.queue, r.tenant): r for r in pyjq.tenants(db)}
    assert set(rows) == {("default", "acme"), ("default", None), ("other", "zed")}
    acme = rows[("default", "acme")]
    assert (acme.ready, acme.scheduled, acme.running, acme.weight, acme.max_running) == (3, 1, 0, 4, 7)
    none = rows[("default", None)]
    assert (none.ready, none.weight, none.max_running) == (2, 1, 7)
    assert rows[("other", "zed")].running == 1
    assert {f.name for f in dataclasses.fields(acme)} == {
        "queue",
        "tenant",
        "ready",
        "scheduled",
        "running",
        "weight",
        "max_running",
        "served",
    }
    assert [r.queue for r in pyjq.tenants(db, "other")] == ["other"]
    assert pyjq.tenants(db, "nope") == []


@pytest.mark.parametrize(
    "call, error, sqlstate",
    [
        (lambda db: pyjq.tenant_policy_set(db, "default", "acme", weight=0), pyjq.InvalidArgument, "22023"),
        (lambda db: pyjq.tenant_policy_set(db, "default", "acme", weight=1001), pyjq.InvalidArgument, "22023"),
        (lambda db: pyjq.tenant_policy_set(db, "default", "acme", max_running=-1), pyjq.InvalidArgument, "22023"),
        (lambda db: pyjq.tenant_policy_set(db, "default", "acme"), pyjq.MissingArgument, "22004"),
        (lambda db: pyjq.tenant_policy_set(db, "no spaces", "acme", weight=1), pyjq.InvalidArgument, "22023"),
        (lambda db: pyjq.tenant_policy_set(db, "q" * 65, "acme", weight=1), pyjq.ValueTooLong, "22001"),
        (lambda db: pyjq.tenant_policy_set(db, "default", " ", weight=1), pyjq.InvalidArgument, "22023"),
        (lambda db: pyjq.tenant_policy_set(db, "default", "t" * 129, weight=1), pyjq.ValueTooLong, "22001"),
        (lambda db: pyjq.key_limit_set(db, "sync", 0), pyjq.InvalidArgument, "22023"),
        (lambda db: pyjq.key_limit_set(db, "sync", None), pyjq.MissingArgument, "22004"),
        (lambda db: pyjq.key_limit_set(db, None, 2), pyjq.MissingArgument, "22004"),
        (lambda db: pyjq.key_limit_set(db, " ", 2), pyjq.InvalidArgument, "22023"),
        (lambda db: pyjq.key_limit_set(db, "t" * 129, 2), pyjq.ValueTooLong, "22001"),
        (lambda db: pyjq.key_limit_delete(db, None), pyjq.MissingArgument, "22004"),
        (lambda db: pyjq.queue_set_fair(db, "default", None), pyjq.MissingArgument, "22004"),
        (lambda db: pyjq.queue_set_fair(db, "*", True), pyjq.InvalidArgument, "22023"),
        (lambda db: pyjq.queue_set_fair(db, "q" * 65, True), pyjq.ValueTooLong, "22001"),
    ],
)
def test_bad_input_raises_the_mapped_exception(db, call, error, sqlstate):
    with pytest.raises(error) as exc:
        call(db)
    assert exc.value.sqlstate == sqlstate
    assert isinstance(exc.value.__cause__, psycopg.Error)
    assert pyjq.tenant_policies(db) == []


def test_policy_functions_need_jq_admin(db, dsn):
    from psycopg.conninfo import make_conninfo

    role = "jq_fairness_test_producer"
    db.execute(f"drop role if exists {role}")
    db.execute(f"create role {role} login")
    db.execute(f"grant jq_producer to {role}")
    try:
        with psycopg.connect(make_conninfo(dsn, user=role), autocommit=True) as conn:
            with pytest.raises(pyjq.PermissionDenied):
                pyjq.tenant_policy_set(conn, "default", "acme", weight=2)
            with pytest.raises(pyjq.PermissionDenied):
                pyjq.tenants(conn)
            # A producer may enqueue with a concurrency key.
            assert not pyjq.enqueue(conn, "sync", concurrency_key="k").duplicate
    finally:
        db.execute(f"drop role if exists {role}")


# -- the command line ----------------------------------------------------------------------------


def test_cli_policy_set_list_delete(db, dsn):
    r = run("policy", "set", "default", "acme", "--weight", "3", "--max-running", "10", "--dsn", dsn)
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == "policy of acme in queue default: weight 3, max running 10"
    r = run("policy", "set", "*", "-", "--max-running", "0", "--dsn", dsn, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {"queue": "*", "tenant": None, "weight": None, "max_running": 0}
    r = run("policy", "set", "default", "--no-tenant", "--weight", "2", "--dsn", dsn)
    assert r.exit_code == 0, r.output
    assert "(no tenant)" in r.stdout

    r = run("policy", "list", "--dsn", dsn)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["QUEUE", "TENANT", "WEIGHT", "MAX", "RUNNING", "UPDATED"]
    assert [line.split()[:4] for line in lines[1:]] == [
        ["*", "-", "-", "0"],
        ["default", "-", "2", "-"],
        ["default", "acme", "3", "10"],
    ]
    listed = json.loads(run("policy", "list", "--dsn", dsn, "--json").stdout)
    assert [(p["queue"], p["tenant"]) for p in listed] == [("*", None), ("default", None), ("default", "acme")]

    r = run("policy", "delete", "default", "acme", "--dsn", dsn)
    assert r.exit_code == 0 and r.stdout.strip() == "deleted policy of acme in queue default"
    r = run("policy", "delete", "default", "acme", "--dsn", dsn)
    assert r.exit_code == 1 and r.stderr.strip() == "error: no policy for acme in queue default"
    r = run("policy", "delete", "*", "--no-tenant", "--dsn", dsn, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout) == {"queue": "*", "tenant": None, "deleted": True}
    assert [(p.queue, p.tenant) for p in pyjq.tenant_policies(db)] == [("default", None)]


def test_cli_policy_errors(dsn):
    r = run("policy", "set", "default", "acme", "--weight", "0", "--dsn", dsn)
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert lines[0] == "error: weight 0 is out of range (22023)"
    assert lines[1].startswith("hint: ")
    r = run("policy", "set", "default", "acme", "--dsn", dsn)
    assert r.exit_code == 2 and "--weight" in r.stderr
    r = run("policy", "set", "default", "--weight", "2", "--dsn", dsn)
    assert r.exit_code == 2 and "TENANT" in r.stderr
    r = run("policy", "set", "default", "acme", "--no-tenant", "--weight", "2", "--dsn", dsn)
    assert r.exit_code == 2
    r = run("policy", "set", "bad queue", "acme", "--weight", "2", "--dsn", dsn)
    assert r.exit_code == 1 and "(22023)" in r.stderr


def test_cli_key_limit_and_queue_fair(db, dsn):
    r = run("key-limit", "set", "sync", "2", "--dsn", dsn)
    assert r.exit_code == 0, r.output
    assert r.stdout.strip() == "key limit of type sync: at most 2 running per concurrency key"
    assert json.loads(run("key-limit", "set", "sync", "4", "--dsn", dsn, "--json").stdout) == {
        "type": "sync",
        "max_running": 4,
    }
    r = run("key-limit", "set", "sync", "0", "--dsn", dsn)
    assert r.exit_code == 1 and r.stderr.startswith("error: max_running 0 is out of range (22023)")
    assert run("key-limit", "delete", "sync", "--dsn", dsn).exit_code == 0
    r = run("key-limit", "delete", "sync", "--dsn", dsn)
    assert r.exit_code == 1 and r.stderr.strip() == "error: type sync has no key limit"

    r = run("queue", "fair", "bulk", "off", "--dsn", dsn)
    assert r.exit_code == 0 and r.stdout.strip() == "queue bulk: fair claiming off (plain FIFO)"
    assert db.execute("select fair from jq.queue_settings where queue = 'bulk'").fetchone()[0] is False
    assert json.loads(run("queue", "fair", "bulk", "ON", "--dsn", dsn, "--json").stdout) == {
        "queue": "bulk",
        "fair": True,
    }
    assert run("queue", "fair", "bulk", "maybe", "--dsn", dsn).exit_code == 2
    r = run("queue", "fair", "*", "on", "--dsn", dsn)
    assert r.exit_code == 1 and "(22023)" in r.stderr


def test_cli_enqueue_concurrency_key_and_tenants(db, dsn):
    r = run("enqueue", "sync", "--tenant", "acme", "--concurrency-key", "acct-1", "--dsn", dsn, "--json")
    assert r.exit_code == 0, r.output
    job_id = json.loads(r.stdout)["job_id"]
    assert db.execute("select tenant, concurrency_key from jq.jobs where id = %s", [job_id]).fetchone() == (
        "acme",
        "acct-1",
    )
    r = run("enqueue", "sync", "--concurrency-key", "", "--dsn", dsn)
    assert r.exit_code == 1 and "(22023)" in r.stderr
    run("enqueue", "sync", "--queue", "other", "--dsn", dsn)

    r = run("tenants", "--dsn", dsn)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].split() == [
        "QUEUE",
        "TENANT",
        "READY",
        "SCHEDULED",
        "RUNNING",
        "WEIGHT",
        "MAX",
        "RUNNING",
        "SERVED",
    ]
    assert [line.split() for line in lines[1:]] == [
        ["default", "acme", "1", "0", "0", "1", "-", "0"],
        ["other", "-", "1", "0", "0", "1", "-", "0"],
    ]
    only = json.loads(run("tenants", "--queue", "other", "--dsn", dsn, "--json").stdout)
    assert only == [
        {
            "queue": "other",
            "tenant": None,
            "ready": 1,
            "scheduled": 0,
            "running": 0,
            "weight": 1,
            "max_running": None,
            "served": 0,
        }
    ]
    r = run("tenants", "--queue", "nope", "--dsn", dsn)
    assert r.exit_code == 0 and r.stdout.strip() == "no live jobs in queue nope"
