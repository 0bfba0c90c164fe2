"""The generations of jq.jobs are safe to rotate (docs/storage.md).

A real pyjq.Worker runs in this process and calls jq_tick in a loop while the test ticks too (or
instead), so generations are emptied and truncated underneath the worker; the tests check states
and counts, never durations:

* under load (producers in and out of transactions, retries short and long, jobs held across
  several turns, cancellations) every acknowledged job ends in exactly one place, rolled-back ones
  nowhere, and the held jobs run exactly once although they were moved while running;
* a session holding ACCESS SHARE on jq.jobs (as pg_dump does) makes the tick answer 'busy' while the
  claims go on, and the worker says so once, then once more when it passes; a real pg_dump runs
  beside a worker;
* a held REPEATABLE READ snapshot does not stop the truncations, so the dead row versions it pins
  stay bounded (pgstattuple, beside an ordinary table where they are all kept);
* jq_tick refuses to run under REPEATABLE READ (25001) and changes nothing; it does nothing while a
  pg_dump is connected (TRUNCATE is not MVCC-safe), so a dump whose snapshot predates the tick holds
  every live job;
* the locks: never queued for (a session idle in transaction holding one delays no claim), tried
  again within settings.tick_lock_wait (a statement in flight is waited for), and once one is held
  no other is waited for;
* the moves: a batch a call, a backlog left to the claims until settings.rotation_backlog_wait, and
  a generation autovacuum shrank still truncated for its index pages.

With quick turns (conftest.quick_turns) a generation turns once it is a tenth of a second old, so a
test gets rows out of the current generation in a tick or two (helpers.make_previous): the next tick
empties theirs.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import subprocess
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar
from uuid import UUID

import psycopg
import pytest
from helpers import current_generation, make_previous, pg_tool, stop_turning, tick_now, tick_until, wait_until

import pyjq
import pyjq.worker.tick
from pyjq._calls.admin import TICK

# jq_tick turns every tenth of a second, however few rows a generation holds (conftest.quick_turns).
pytestmark = pytest.mark.usefixtures("quick_turns")

T = TypeVar("T")

GENERATIONS = (0, 1, 2)
PARTITIONS = ("jobs_g0", "jobs_g1", "jobs_g2", "jobs_waiting")


# -- a worker beside a scenario ----------------------------------------------------------


def run_worker_while(worker: pyjq.Worker, scenario: Callable[[], T], timeout: float = 80.0) -> tuple[T, Any]:
    """Run worker.run_async() on this thread's event loop while scenario() runs on a thread
    (it may block: producers, waits); then stop the worker. Returns (scenario's result, RunSummary)."""

    async def main() -> tuple[T, Any]:
        run = asyncio.create_task(worker.run_async())
        scene = asyncio.ensure_future(asyncio.to_thread(scenario))
        try:
            done, _ = await asyncio.wait({run, scene}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if run in done:
                run.result()
                raise AssertionError("the worker stopped before the scenario ended")
            if scene not in done:
                raise AssertionError(f"scenario did not finish within {timeout} s")
            result = scene.result()
        finally:
            await worker.stop()
            summary = await run
        return result, summary

    return asyncio.run(main())


class Loop(threading.Thread):
    """A thread calling step(conn) every `every` seconds on its own autocommit connection until stop();
    an exception of step is kept in .errors (the thread goes on): the test asserts there is none."""

    def __init__(self, dsn: str, every: float, name: str):
        super().__init__(name=name, daemon=True)
        self.dsn = dsn
        self.every = every
        self.errors: list[BaseException] = []
        self._stopping = threading.Event()

    def step(self, conn: psycopg.Connection) -> None:
        raise NotImplementedError

    def run(self) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self._stopping.is_set():
                try:
                    self.step(conn)
                except Exception as exc:  # kept, and raised by stop()
                    self.errors.append(exc)
                self._stopping.wait(self.every)

    def stop(self) -> None:
        self._stopping.set()
        self.join(timeout=30)


class Ticks(Loop):
    """pyjq.tick every ~100 ms, besides the worker's own calls: what each answered."""

    def __init__(self, dsn: str, every: float = 0.1):
        super().__init__(dsn, every, "ticks")
        self.outcomes: Counter[str] = Counter()  # rotation outcome, or "not run" (another session ticked)
        self.moved = 0

    def step(self, conn: psycopg.Connection) -> None:
        account = pyjq.tick(conn).account
        self.outcomes[account.get("rotation", "not run")] += 1
        self.moved += account.get("moved", 0)


class Watcher(Loop):
    """Samples where jobs are: the generations each job was seen in (processing or pending)."""

    def __init__(self, dsn: str, every: float = 0.1):
        super().__init__(dsn, every, "watcher")
        self.seen: defaultdict[UUID, set[tuple[int, str]]] = defaultdict(set)  # id -> {(generation, status)}

    def step(self, conn: psycopg.Connection) -> None:
        for job_id, generation, status in conn.execute("select id, generation, status from jq.jobs"):
            self.seen[job_id].add((generation, status))

    def generations(self, job_id: UUID, status: str | None = None) -> set[int]:
        return {g for g, s in self.seen[job_id] if status is None or s == status}


def places(conn: psycopg.Connection) -> dict[UUID, list[tuple[str, str | None]]]:
    """Every job id jq holds anywhere -> where: ('history', status), ('dead', None), ('jobs', status)."""
    found: dict[UUID, list[tuple[str, str | None]]] = defaultdict(list)
    rows = conn.execute(
        "select id, 'history', status from jq.job_history"
        " union all select id, 'dead', null from jq.dead_jobs"
        " union all select id, 'jobs', status from jq.jobs"
    )
    for job_id, where, status in rows:
        found[job_id].append((where, status))
    return found


def generation_marks(conn: psycopg.Connection) -> dict[int, tuple[datetime | None, int, int]]:
    """jq.storage_generations: generation -> (truncated_at, truncations, moved)."""
    rows = conn.execute("select generation, truncated_at, truncations, moved from jq.storage_generations")
    return {g: (at, n, moved) for g, at, n, moved in rows}


def turns(conn: psycopg.Connection) -> int:
    """How many times jq_tick has turned to the next generation (the sequence jq.storage_turns)."""
    row = conn.execute("select pg_sequence_last_value('jq.storage_turns')").fetchone()
    assert row is not None
    return row[0]


def server_now(conn: psycopg.Connection) -> datetime:
    row = conn.execute("select clock_timestamp()").fetchone()
    assert row is not None
    return row[0]


def jobs_to_empty(db: psycopg.Connection, n: int = 3, **job: Any) -> int:
    """n jobs enqueued now, then ticks until their generation is no longer current, the one the next
    tick empties, and no more turns (helpers.stop_turning); returns it."""
    ids = [r.job_id for r in pyjq.enqueue_many(db, [{"type": "report", **job} for _ in range(n)])]
    [(generation,)] = db.execute("select distinct generation from jq.jobs where id = any(%s)", [ids]).fetchall()
    make_previous(db, generation)
    stop_turning(db)
    return generation


def rotation(done: pyjq.Tick) -> tuple[str | None, int]:
    """What one tick did to the storage: (outcome, rows moved); (None, 0) when it did not run (called
    before the time the last one asked for, or while another session ticked)."""
    return done.account.get("rotation"), done.account.get("moved", 0)


# -- 1. ticks under load: the running count ends exact -----------------------------------------


# What each kind of job must end as: (table, status).
EXPECTED_END = {
    "ok": ("history", "succeeded"),
    "retry_short": ("history", "succeeded"),  # fails once, retried 1 s later: stays in the generations
    "retry_long": ("history", "succeeded"),  # fails once, retried 15 s later: waits in jobs_waiting
    "poison": ("dead", None),  # fails twice (max_attempts 2)
    "hold": ("history", "succeeded"),  # runs 7.5 s, across several rotations
    "cancel_running": ("history", "cancelled"),
    "cancel_pending": ("history", "cancelled"),  # a type no worker handles: pending until cancelled
    "cancel_waiting": ("history", "cancelled"),  # due in 45 s: cancelled while in jobs_waiting
    "far": ("jobs", "pending"),  # due tomorrow: still in jobs_waiting at the end
}
PRODUCED_KINDS = ["ok"] * 5 + ["retry_short", "retry_long", "ok", "poison"]
HOLD_SECONDS = 7.5
LONG_RETRY = timedelta(seconds=15)  # beyond the 10 s horizon set below


@dataclass
class Tally:
    """What the producers were told: acknowledged (committed) ids by kind, and rolled-back ids."""

    kind: dict[UUID, str] = field(default_factory=dict)
    rolled_back: set[UUID] = field(default_factory=set)
    business_rows: set[int] = field(default_factory=set)  # committed orders
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, kinds: dict[UUID, str]) -> None:
        with self.lock:
            self.kind.update(kinds)

    def ids(self, kind: str) -> list[UUID]:
        return [i for i, k in self.kind.items() if k == kind]


def _job(kind: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "payload": {"kind": kind, **extra}, "max_attempts": 2 if kind == "poison" else 5}


def produce(dsn: str, seed: int, rounds: int, tally: Tally) -> None:
    """One producer: rounds of jq_enqueue or jq_enqueue_many, alone or in a transaction with an order
    row; one transaction in four is rolled back after its enqueue returned."""
    rng = random.Random(seed)
    kinds = itertools.cycle(PRODUCED_KINDS[seed % len(PRODUCED_KINDS) :] + PRODUCED_KINDS)
    with psycopg.connect(dsn, autocommit=True) as conn:
        for round_no in range(rounds):
            batch = [next(kinds) for _ in range(rng.randint(1, 12))]
            mode = ("single", "many", "in_transaction", "rolled_back")[round_no % 4]
            if mode in ("single", "many"):
                tally.ack(_enqueue(conn, batch if mode == "many" else batch[:1]))
            else:
                _enqueue_with_order(conn, batch, tally, commit=mode == "in_transaction")
            time.sleep(rng.uniform(0.05, 0.15))


def _enqueue(conn: psycopg.Connection, kinds: list[str], **extra: Any) -> dict[UUID, str]:
    if len(kinds) == 1:
        job = _job(kinds[0], **extra)
        result = pyjq.enqueue(conn, job["type"], job["payload"], max_attempts=job["max_attempts"])
        return {result.job_id: kinds[0]}
    results = pyjq.enqueue_many(conn, [_job(k, **extra) for k in kinds])
    return {r.job_id: k for r, k in zip(results, kinds, strict=True)}


class _RollBack(Exception):
    pass


def _enqueue_with_order(conn: psycopg.Connection, kinds: list[str], tally: Tally, *, commit: bool) -> None:
    enqueued: dict[UUID, str] = {}
    try:
        with conn.transaction():
            row = conn.execute("insert into orders (note) values ('x') returning id").fetchone()
            assert row is not None
            enqueued = _enqueue(conn, kinds, order=row[0])
            if not commit:
                raise _RollBack
    except _RollBack:
        with tally.lock:
            tally.rolled_back.update(enqueued)
        return
    with tally.lock:
        tally.kind.update(enqueued)
        tally.business_rows.add(row[0])


def load_worker(dsn: str, starts: Counter[UUID]) -> pyjq.Worker:
    """A worker with a handler per kind of EXPECTED_END (but cancel_pending and far); counts starts per id."""
    worker = pyjq.Worker(dsn, queues={"default": 30}, heartbeat_interval=1.0, poll_interval=0.5)

    @worker.handler("ok")
    async def ok(job: pyjq.Job) -> None:
        starts[job.id] += 1

    @worker.handler("retry_short")
    async def retry_short(job: pyjq.Job) -> None:
        starts[job.id] += 1
        if job.attempts == 1:
            raise pyjq.Retry(after=timedelta(seconds=1), reason="short")

    @worker.handler("retry_long")
    async def retry_long(job: pyjq.Job) -> None:
        starts[job.id] += 1
        if job.attempts == 1:
            raise pyjq.Retry(after=LONG_RETRY, reason="long")

    @worker.handler("poison")
    async def poison(job: pyjq.Job) -> None:
        starts[job.id] += 1
        if job.attempts == 1:
            raise pyjq.Retry(after=timedelta(seconds=0.5), reason="first")
        raise RuntimeError("poison")

    @worker.handler("hold")
    async def hold(job: pyjq.Job) -> None:
        starts[job.id] += 1
        await asyncio.sleep(HOLD_SECONDS)

    @worker.handler("cancel_running")
    async def cancel_running(job: pyjq.Job) -> None:
        starts[job.id] += 1
        await asyncio.sleep(120)  # until the cancellation cancels this task

    return worker


def enqueue_the_special_jobs(conn: psycopg.Connection, tally: Tally) -> None:
    """The jobs the producers do not make: held, to cancel (running, pending, waiting), due tomorrow."""
    tally.ack(_enqueue(conn, ["hold"] * 4))
    tally.ack(_enqueue(conn, ["cancel_running"] * 3))
    tally.ack(_enqueue(conn, ["cancel_pending"] * 6))
    for kind, due in (("cancel_waiting", timedelta(seconds=45)), ("far", timedelta(days=1))):
        jobs = [{"type": "ok", "run_at": datetime.now(UTC) + due} for _ in range(4)]
        tally.ack({r.job_id: kind for r in pyjq.enqueue_many(conn, jobs)})


def run_producers(dsn: str, tally: Tally, producers: int = 3, rounds: int = 60) -> None:
    threads = [threading.Thread(target=produce, args=(dsn, seed, rounds, tally)) for seed in range(producers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def cancel_the_jobs_to_cancel(conn: psycopg.Connection, tally: Tally, starts: Counter[UUID], watcher: Watcher) -> None:
    """jq_cancel of each, once they have been moved by several rotations."""
    wait_until(lambda: all(starts[i] for i in tally.ids("cancel_running")), what="cancel_running to start")
    for job_id in tally.ids("cancel_running"):
        assert pyjq.cancel(conn, job_id) == "running"
    for job_id in tally.ids("cancel_pending"):
        assert pyjq.cancel(conn, job_id) == "cancelled"
    for job_id in tally.ids("cancel_waiting"):
        assert 3 in watcher.generations(job_id), "not moved to jobs_waiting before its cancellation"
        assert pyjq.cancel(conn, job_id) == "cancelled"


def live_jobs(conn: psycopg.Connection) -> int:
    row = conn.execute("select count(*) from jq.jobs").fetchone()
    assert row is not None
    return row[0]


def assert_every_job_in_its_place(db: psycopg.Connection, tally: Tally) -> None:
    found = places(db)
    assert tally.rolled_back, "no transaction was rolled back: the test lost its point"
    assert not tally.rolled_back & found.keys(), "a rolled-back job exists"
    assert found.keys() == tally.kind.keys(), "jq holds jobs nobody enqueued, or lost acknowledged ones"
    wrong = {i: (tally.kind[i], where) for i, where in found.items() if where != [EXPECTED_END[tally.kind[i]]]}
    assert not wrong, f"{len(wrong)} jobs not in exactly their expected place, e.g. {list(wrong.items())[:5]}"
    assert {r for (r,) in db.execute("select id from orders")} == tally.business_rows
    far = db.execute("select generation from jq.jobs where id = any(%s)", [tally.ids("far")]).fetchall()
    assert far == [(3,)] * len(tally.ids("far"))  # due tomorrow: in jobs_waiting


def assert_moved_alive_and_run_as_often_as_meant(tally: Tally, starts: Counter[UUID], watcher: Watcher) -> None:
    # Held jobs: moved while running (seen processing in two generations or more), run exactly once.
    for job_id in tally.ids("hold"):
        assert len(watcher.generations(job_id, "processing")) >= 2, (job_id, watcher.seen[job_id])
    assert {starts[i] for i in tally.ids("hold")} == {1}
    # Long retries waited in jobs_waiting and came back; short ones never went there.
    for job_id in tally.ids("retry_long"):
        assert 3 in watcher.generations(job_id), (job_id, watcher.seen[job_id])
    assert not any(3 in watcher.generations(i) for i in tally.ids("retry_short"))
    assert all(starts[i] == 2 for i in tally.ids("retry_long") + tally.ids("retry_short") + tally.ids("poison"))
    assert all(len(watcher.generations(i)) >= 2 for i in tally.ids("cancel_pending"))


def test_ticks_under_load_keep_every_job_exactly_once(db, dsn):
    db.execute("update jq.settings set waiting_horizon = interval '10 seconds'")  # its minimum
    turns_before = turns(db)
    db.execute("create table orders (id bigserial primary key, note text not null)")
    began = server_now(db)
    tally = Tally()
    starts: Counter[UUID] = Counter()
    worker = load_worker(dsn, starts)
    ticks, watcher = Ticks(dsn), Watcher(dsn)

    def scenario() -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            enqueue_the_special_jobs(conn, tally)
            run_producers(dsn, tally)
            cancel_the_jobs_to_cancel(conn, tally, starts, watcher)
            left = len(tally.ids("far"))
            wait_until(lambda: live_jobs(conn) == left, timeout=60, what="every job but the far ones to finish")

    ticks.start()
    watcher.start()
    try:
        _, summary = run_worker_while(worker, scenario)
    finally:
        ticks.stop()
        watcher.stop()
    assert not ticks.errors and not watcher.errors, (ticks.errors[:3], watcher.errors[:3])

    assert_every_job_in_its_place(db, tally)
    marks = generation_marks(db)
    assert all((marks[g][0] or began) > began and marks[g][1] >= 2 for g in GENERATIONS), marks
    assert sum(moved for _, _, moved in marks.values()) > 0, marks
    assert worker.stats.get("storage_truncations", 0) > 0 and worker.stats.get("storage_turns", 0) > 0, worker.stats
    assert sum(ticks.outcomes.values()) > 0 and set(ticks.outcomes) <= {
        "truncated", "moving", "turned", "idle", "busy", "not run",
    }, ticks.outcomes  # fmt: skip
    assert_moved_alive_and_run_as_often_as_meant(tally, starts, watcher)
    # No lost lease, and nothing else unusual in the worker's own count.
    assert summary.lease_lost == 0 and summary.released == 0
    assert summary.cancelled == len(tally.ids("cancel_running"))
    print(
        f"\nticks under load: {len(tally.kind)} jobs ({dict(Counter(tally.kind.values()))}),"
        f" {len(tally.rolled_back)} rolled back; per generation (truncations, moved):"
        f" { {g: marks[g][1:] for g in GENERATIONS} }; turns: {turns(db) - turns_before}; the test's ticks:"
        f" {dict(ticks.outcomes)} ({ticks.moved} rows moved); the worker's: {worker.stats.get('tick')} calls,"
        f" {worker.stats.get('storage_truncations')} truncations, {worker.stats.get('storage_turns')} turns"
    )


# -- 2. a session holding ACCESS SHARE on jq.jobs, as pg_dump does -----------------------------------------


def stream_worker(dsn: str, done: set[UUID]) -> pyjq.Worker:
    """A worker whose one handler, "stream", notes the ids it ran."""
    worker = pyjq.Worker(dsn, queues={"default": 10}, poll_interval=0.5)

    @worker.handler("stream")
    async def stream(job: pyjq.Job) -> None:
        done.add(job.id)

    return worker


def enqueue_stream(conn: psycopg.Connection, n: int = 5) -> list[UUID]:
    return [r.job_id for r in pyjq.enqueue_many(conn, [{"type": "stream"} for _ in range(n)])]


def succeeded(conn: psycopg.Connection, ids: list[UUID]) -> int:
    row = conn.execute(
        "select count(*) from jq.job_history where id = any(%s) and status = 'succeeded'", [ids]
    ).fetchone()
    assert row is not None
    return row[0]


def logged(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "pyjq.worker" and text in r.getMessage()]


def answered(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    """The accounts of the worker's jq_tick calls, from its DEBUG lines."""
    return [r.args[1] for r in caplog.records if r.msg == "worker %s: jq_tick: %s" and isinstance(r.args, tuple)]


BUSY_WARNING = "could not be truncated for"
AGAIN = "is truncated again"


def test_a_session_holding_access_share_makes_the_tick_busy_not_the_queue(db, dsn, caplog, monkeypatch):
    monkeypatch.setattr(pyjq.worker.tick, "BUSY_WARN_AFTER", 2.0)  # instead of 10 s
    done: set[UUID] = set()
    worker = stream_worker(dsn, done)
    during: list[UUID] = []

    def scenario() -> tuple[dict, dict, int]:
        with psycopg.connect(dsn, autocommit=True) as conn, psycopg.connect(dsn) as holder:
            holder.execute("lock table jq.jobs in access share mode")  # every partition too, as pg_dump's
            marks = generation_marks(conn)
            # A job stream until the worker has warned (2 s of busy answers once the generation to empty
            # holds rows): the claims go on.
            while not logged(caplog, BUSY_WARNING):
                during.extend(enqueue_stream(conn))
                time.sleep(0.1)
                assert len(during) < 1000, "the worker never warned"
            warned_at = len(answered(caplog))
            wait_until(lambda: succeeded(conn, during) == len(during), what="the jobs enqueued during the hold")
            assert holder.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS  # still holding
            held_marks = generation_marks(conn)
            holder.commit()
            wait_until(lambda: logged(caplog, AGAIN), what="the worker to truncate again")
            return marks, held_marks, warned_at

    with caplog.at_level(logging.DEBUG, logger="pyjq.worker"):
        (marks, held_marks, warned_at), _ = run_worker_while(worker, scenario)

    accounts = answered(caplog)
    held = accounts[:warned_at]
    print(f"\naccess share held: {len(during)} jobs ran meanwhile; ticks: {Counter(a.get('rotation') for a in held)}")
    assert held_marks == marks, "a generation was truncated (or rows moved) under the ACCESS SHARE lock"
    assert {a.get("rotation") for a in held} <= {"busy", "idle", "turned", None}, held
    assert not any(a.get("moved") for a in held), held
    assert held[-1]["rotation"] == "busy", held[-1]
    assert done >= set(during)
    [warning] = logged(caplog, BUSY_WARNING)  # once, however long it lasts
    [again] = logged(caplog, AGAIN)
    generation = warning.split("generation ")[1].split()[0]
    assert f"generation {generation} is truncated again" in again, (warning, again)
    after = generation_marks(db)
    assert after[int(generation)][1] > marks[int(generation)][1], "no truncation after the holder committed"


@pytest.mark.processes
def test_pg_dump_beside_a_worker_succeeds_and_the_jobs_complete(db, dsn, tmp_path):
    done: set[UUID] = set()
    worker = stream_worker(dsn, done)
    dump = tmp_path / "jq.dump"

    def scenario() -> tuple[int, str, list[UUID], int]:
        with psycopg.connect(dsn, autocommit=True) as conn:
            ids = enqueue_stream(conn, 50)
            proc = subprocess.Popen(
                [pg_tool("pg_dump"), "--format=custom", "--file", str(dump), "-d", dsn],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            during = 0
            while proc.poll() is None:  # jobs keep coming while the dump holds its locks
                ids += enqueue_stream(conn)
                during += 1
                time.sleep(0.05)
            _, err = proc.communicate(timeout=120)
            ids += enqueue_stream(conn, 50)
            wait_until(lambda: succeeded(conn, ids) == len(ids), what="every job to complete")
            return proc.returncode, err, ids, during

    (returncode, err, ids, during), summary = run_worker_while(worker, scenario)
    assert returncode == 0, err
    assert during > 0
    assert summary.succeeded == len(ids) and done == set(ids)
    listing = subprocess.run(
        [pg_tool("pg_restore"), "--list", str(dump)], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert all(f"TABLE DATA jq {part}" in listing for part in PARTITIONS), listing[:2000]


# -- 3. a held snapshot does not stop the truncations ------------------------------------------------------


SNAPSHOT_JOBS = 1500
SNAPSHOT_BATCH = 50


def dead_tuples(conn: psycopg.Connection, tables: tuple[str, ...]) -> int:
    """Dead row versions in tables, counted in their pages (pgstattuple), not from the lagging statistics."""
    row = conn.execute(
        "select sum((pgstattuple(t::regclass)).dead_tuple_count) from unnest(%s::text[]) t", [list(tables)]
    ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_held_snapshot_does_not_stop_the_truncations(db, dsn, connect):
    # A turn a second at most, as in production every rotation_turn_after (2 s by default).
    db.execute("update jq.settings set rotation_turn_after = interval '1 second'")
    db.execute("create extension if not exists pgstattuple")
    db.execute("create table report_rows (x integer)")
    db.execute("insert into report_rows values (1)")
    # The control: a queue in one ordinary table, where the held snapshot keeps every dead version.
    db.execute("create table plain_queue (id bigint primary key) with (autovacuum_enabled = off)")
    jq_parts = tuple(f"jq.{p}" for p in PARTITIONS)
    done: set[UUID] = set()
    worker = stream_worker(dsn, done)
    holder = connect(autocommit=False)
    holder.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    hold_began = server_now(db)
    assert holder.execute("select x from report_rows limit 1").fetchone() == (1,)  # the snapshot is taken
    holder_xmin = db.execute(
        "select backend_xmin from pg_stat_activity where pid = %s", [holder.info.backend_pid]
    ).fetchone()
    assert holder_xmin is not None and holder_xmin[0] is not None

    def scenario() -> tuple[list[UUID], int, int]:
        ids: list[UUID] = []
        with psycopg.connect(dsn, autocommit=True) as conn:
            for n in range(0, SNAPSHOT_JOBS, SNAPSHOT_BATCH):
                ids += enqueue_stream(conn, SNAPSHOT_BATCH)
                last = n + SNAPSHOT_BATCH - 1
                conn.execute("insert into plain_queue select generate_series(%s::bigint, %s)", [n, last])
                conn.execute("delete from plain_queue")
                time.sleep(0.25)  # at most 200 jobs a second
            wait_until(lambda: succeeded(conn, ids) == len(ids), timeout=60, what="every job to complete")
            when_done = (server_now(conn), dead_tuples(conn, jq_parts))
            wait_until(
                lambda: all((at or hold_began) > hold_began for at, _, _ in generation_marks(conn).values()),
                what="each generation to be truncated during the hold",
            )
            wait_until(lambda: rotated_since(conn, when_done[0]), what="the generations to be emptied once more")
            return ids, when_done[1], dead_tuples(conn, jq_parts)

    (ids, dead_when_done, dead_at_end), _ = run_worker_while(worker, scenario)
    db.execute("vacuum plain_queue")
    plain_dead = dead_tuples(db, ("plain_queue",))
    still = db.execute("select backend_xmin from pg_stat_activity where pid = %s", [holder.info.backend_pid])
    assert still.fetchone() == holder_xmin, "the snapshot was not held throughout"
    holder.rollback()
    print(
        f"\nheld snapshot: {len(ids)} jobs; dead row versions in jq.jobs {dead_when_done} when the last job"
        f" completed, {dead_at_end} at the end of the hold; in one ordinary table {plain_dead}"
    )
    assert len(ids) == SNAPSHOT_JOBS
    assert plain_dead >= SNAPSHOT_JOBS  # the snapshot pins every one there: it was really held
    # In one table jq.jobs would keep two or three versions per job (insert, claim, move): 6,000 or more.
    assert dead_when_done < SNAPSHOT_JOBS  # the last turns' traffic, whatever the length of the hold
    assert dead_at_end < SNAPSHOT_JOBS / 3


def rotated_since(conn: psycopg.Connection, since: datetime) -> bool:
    """Every generation of jq.jobs empty on disk, or truncated after since."""
    rows = conn.execute(
        "select pg_relation_size(format('jq.jobs_g%%s', g.generation)::regclass) = 0 or g.truncated_at > %s"
        "  from jq.storage_generations g",
        [since],
    )
    return all(ok for (ok,) in rows)


# -- 4. a tick inside a snapshot transaction is refused; a dump is waited for --------------------------


@pytest.mark.parametrize(
    "isolation", [psycopg.IsolationLevel.REPEATABLE_READ, psycopg.IsolationLevel.SERIALIZABLE], ids=lambda i: i.name
)
def test_a_tick_in_a_snapshot_transaction_is_refused_and_changes_nothing(db, connect, isolation):
    generation = jobs_to_empty(db, 20)
    jobs_sql = "select id, generation, status, locked_by from jq.jobs order by id"
    before, marks, turned = db.execute(jobs_sql).fetchall(), generation_marks(db), turns(db)

    conn = connect(autocommit=False)
    conn.isolation_level = isolation
    with pytest.raises(psycopg.errors.ActiveSqlTransaction) as raised:  # pyjq/errors.py maps no class to 25001
        TICK.run(conn)  # pyjq.tick refuses any transaction before it calls (test_storage_surface.py)
    conn.rollback()
    assert raised.value.sqlstate == "25001"
    assert "READ COMMITTED" in str(raised.value)
    assert db.execute(jobs_sql).fetchall() == before and generation_marks(db) == marks and turns(db) == turned

    # The same call outside a transaction moves them all and truncates their generation.
    assert rotation(pyjq.tick(db)) == ("truncated", 20)
    moved_to = {g for (g,) in db.execute("select generation from jq.jobs")}
    assert moved_to == {current_generation(db)} != {generation}, moved_to


def test_a_dump_whose_snapshot_predates_a_tick_still_holds_every_live_job(db, connect):
    generation = jobs_to_empty(db, 5)
    ids = {i for (i,) in db.execute("select id from jq.jobs")}
    # What pg_dump does, in its order: a REPEATABLE READ, READ ONLY transaction, catalog queries (the
    # snapshot), LOCK TABLE ... IN ACCESS SHARE MODE on each table, then COPY of each.
    dump = connect(autocommit=False, application_name="pg_dump")  # as pg_dump names its session
    dump.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    dump.read_only = True
    dump.execute("select count(*) from pg_class")
    between = pyjq.tick(db)  # between the two
    assert (between.account["rotation"], between.account.get("reason")) == ("busy", "pg_dump"), (
        f"no rotation while a pg_dump is connected: {between}"
    )
    dump.execute("lock table jq.jobs in access share mode")
    dumped = {i for (i,) in dump.execute("select id from jq.jobs")}
    dump.rollback()
    dump.close()
    assert dumped == ids, f"the dump holds {len(dumped)} of the {len(ids)} live jobs"
    # The dump's backend leaves pg_stat_activity a moment after its connection closed.
    after = tick_until(db, lambda done: rotation(done)[0] not in ("busy", None), what="the tick once the dump is gone")
    assert rotation(after) == ("truncated", 5) and after.account["generation"] == generation, after


# -- 5. whom the tick waits for ----------------------------------------------------------------------------


class LockProbe(Loop):
    """Every ~2 ms with lock_timeout 20 ms: reads the partition and claims from an empty queue (a claim
    opens every partition). Either times out only when an ACCESS EXCLUSIVE request queues for the
    partition, as every claim and completion would wait then."""

    def __init__(self, dsn: str, partition: str):
        super().__init__(dsn, 0.002, "lock-probe")
        self.partition = partition
        self.reads = 0
        self.claims = 0

    def step(self, conn: psycopg.Connection) -> None:
        conn.execute("set lock_timeout = '20ms'")
        conn.execute(f"select count(*) from jq.{self.partition}")
        self.reads += 1
        conn.execute("select * from jq.jq_claim('probe_q', 'probe', 1)")
        self.claims += 1


def test_a_lock_held_by_an_idle_transaction_is_tried_never_queued_behind(db, dsn, connect):
    """pg_dump, or a session left idle in transaction after reading jq.jobs: the tick tries the lock for
    settings.tick_lock_wait without ever queueing an ACCESS EXCLUSIVE request, which would stall every
    claim behind it, and answers busy."""
    generation = jobs_to_empty(db)
    holder = connect(autocommit=False)
    holder.execute(f"select count(*) from jq.jobs_g{generation}")  # ACCESS SHARE, then idle in transaction
    probe = LockProbe(dsn, f"jobs_g{generation}")
    probe.start()
    wait_until(lambda: probe.claims >= 5, what="the probe to read and claim")
    before = (probe.reads, probe.claims)
    answers = [rotation(tick_now(db)) for _ in range(10)]  # each tries for 50 ms
    during = (probe.reads - before[0], probe.claims - before[1])
    probe.stop()
    holder.rollback()
    assert answers == [("busy", 0)] * 10, answers
    assert not probe.errors, f"a reader or a claim timed out behind the tick's lock request: {probe.errors[0]!r}"
    assert min(during) >= 10, f"the probe read and claimed {during} times while the ticks tried"
    assert rotation(tick_now(db)) == ("truncated", 3), "once the holder is gone"


def tick_beside_a_statement_on(db: psycopg.Connection, dsn: str, partition: str) -> pyjq.Tick:
    """One tick while another session's statement of half a second reads the partition (started
    before the call)."""
    started = threading.Event()

    def statement_in_flight() -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            started.set()
            conn.execute(f"select pg_sleep(0.5), count(*) from jq.{partition}")

    reader = threading.Thread(target=statement_in_flight)
    reader.start()
    started.wait()
    wait_until(
        lambda: db.execute(
            "select exists (select 1 from pg_stat_activity where state = 'active' and query like %s)",
            ["select pg_sleep(0.5)%"],
        ).fetchone()[0],
        what="the statement to be running",
    )
    done = tick_now(db)
    reader.join()
    return done


def test_a_statement_in_flight_is_waited_for_within_tick_lock_wait(db, dsn):
    """A claim of a thousand jobs holds the partitions for tens of milliseconds, back to back with the
    next one: the tick tries the lock again and again for settings.tick_lock_wait (50 ms), never queued.
    A statement that holds it longer leaves the partition busy until a later call; given the time, the
    tick takes the lock as soon as the statement ends."""
    generation = jobs_to_empty(db)
    assert rotation(tick_beside_a_statement_on(db, dsn, f"jobs_g{generation}")) == ("busy", 0)
    db.execute("update jq.settings set tick_lock_wait = interval '1 second'")  # its maximum
    assert rotation(tick_beside_a_statement_on(db, dsn, f"jobs_g{generation}")) == ("truncated", 3)


def test_holding_a_generations_lock_the_tick_waits_for_no_other(db, dsn):
    """A call holds the locks it took until it commits, and every claim waits while it does: once it
    holds the lock of the generation it empties, it takes the others (its waiting marks', jobs_waiting's) only if free
    at once, and leaves the rest to the next call, made at once."""
    generation = jobs_to_empty(db)
    waiting = pyjq.enqueue(db, "report", {}, run_at=datetime.now(UTC) + timedelta(minutes=1)).job_id
    db.execute("update jq.jobs set generation = 3 where id = %s", [waiting])  # as if moved there earlier
    db.execute("update jq.settings set tick_lock_wait = interval '1 second'")  # a statement of 0.5 s: waited for
    done = tick_beside_a_statement_on(db, dsn, "jobs_waiting")
    assert rotation(done) == ("truncated", 3) and done.account["generation"] == generation, done
    assert "promoted" not in done.account and done.call_again_after == timedelta(0), done
    assert db.execute("select generation from jq.jobs where id = %s", [waiting]).fetchone() == (3,)
    again = pyjq.tick(db)
    assert again.account.get("promoted") == 1, again
    assert db.execute("select generation from jq.jobs where id = %s", [waiting]).fetchone() == (current_generation(db),)


# -- 6. what a tick moves ------------------------------------------------------------------------------


def test_a_call_moves_at_most_a_batch_and_the_next_call_goes_on(db):
    """Every claim waits while a call holds the lock of the generation it empties, so a call moves at most
    settings.rotation_move_batch rows (500) and asks to be called again at once; a generation of up to
    rotation_move_limit (2,000) live rows is emptied over a few calls, 'moving' until the last."""
    generation = jobs_to_empty(db, 1_300)
    answers = [pyjq.tick(db) for _ in range(3)]
    assert [rotation(a) for a in answers] == [("moving", 500), ("moving", 500), ("truncated", 300)]
    assert all(a.call_again_after == timedelta(0) for a in answers), answers
    assert db.execute("select count(*) from jq.jobs where generation <> %s", [generation]).fetchone() == (1_300,)


def heap_buffers(conn: psycopg.Connection, partition: str) -> int:
    """Heap pages the partition's scans touched so far (pg_statio_user_tables, flushed)."""
    conn.execute("select pg_stat_force_next_flush()")
    conn.execute("select pg_stat_clear_snapshot()")
    row = conn.execute(
        "select coalesce(heap_blks_hit, 0) + coalesce(heap_blks_read, 0) from pg_statio_user_tables"
        " where schemaname = 'jq' and relname = %s",
        [partition],
    ).fetchone()
    assert row is not None
    return row[0]


def test_a_generation_whose_statistics_say_empty_is_moved_in_one_pass(db):
    """Autovacuum may find a generation empty (just truncated) and it fills again before the next
    analyze: the planner then counts one row in it. The move must not depend on that estimate (a
    delete ... where id in (the pick) ran the pick once per row and held the lock for seconds)."""
    generation = jobs_to_empty(db, 1_500)
    part = f"jobs_g{generation}"
    pages = db.execute("select pg_relation_size(%s::regclass) / 8192", [f"jq.{part}"]).fetchone()[0]
    db.execute(
        "update pg_class set reltuples = 0, relpages = %s where oid = %s::regclass", [max(1, pages), f"jq.{part}"]
    )
    before = heap_buffers(db, part)
    done = pyjq.tick(db)
    touched = heap_buffers(db, part) - before
    assert rotation(done) == ("moving", 500)
    # A few heap pages a row at most (the count of live rows and the pick may fetch each row's page);
    # a pick run once per row would read the partition 500 times: 13,500 pages here.
    assert touched < 3 * 1_500 + 20 * pages, f"the tick touched {touched} heap pages of a {pages}-page partition"


def test_a_backlog_is_left_to_the_claims_and_emptied_once_they_worked_it_down(db):
    """A generation of more live rows than settings.rotation_move_limit is a backlog: the claims are
    taking its rows, and moving them would hold the lock every claim waits for. jq_tick leaves it (and
    turns into no generation meanwhile) until it holds no more than the limit."""
    db.execute("update jq.settings set rotation_move_batch = 50, rotation_move_limit = 100")
    generation = jobs_to_empty(db, 300)
    answers = [tick_now(db) for _ in range(3)]
    assert [rotation(a) for a in answers] == [("backlog", 0)] * 3, answers
    assert db.execute("select count(*) from jq.jobs where generation = %s", [generation]).fetchone() == (300,)

    for _ in range(5):  # the claims take 250
        db.execute("select jq.jq_complete(array(select c.id from jq.jq_claim('default', 'w1', 50) c), 'w1')")
    assert rotation(tick_now(db)) == ("truncated", 50), "no more than the limit: emptied"


def test_a_backlog_that_never_drains_is_moved_after_rotation_backlog_wait(db):
    """Jobs due tomorrow (or a paused queue, a tenant at its cap): the claims never take them. Once the
    generation has waited settings.rotation_backlog_wait since it stopped taking rows, they move a
    batch a call like any other, here into jobs_waiting."""
    db.execute(
        "update jq.settings set rotation_move_batch = 10, rotation_move_limit = 10,"
        " rotation_backlog_wait = interval '2 seconds'"
    )
    generation = jobs_to_empty(db, 25, run_at=datetime.now(UTC) + timedelta(days=1))
    first = tick_now(db)
    assert rotation(first) == ("backlog", 0)
    assert timedelta(0) < first.call_again_after <= timedelta(seconds=2), first
    moved = tick_until(db, lambda done: rotation(done)[0] not in ("backlog", None), timeout=10, what="the wait")
    answers = [moved, pyjq.tick(db), pyjq.tick(db)]
    assert [rotation(a) for a in answers] == [("moving", 10), ("moving", 10), ("truncated", 5)], answers
    assert {g for (g,) in db.execute("select generation from jq.jobs")} == {3}, "due tomorrow: jobs_waiting"
    assert pyjq.storage(db)[generation].moved == 25


def vacuumed_after_a_flood(db: psycopg.Connection, keep: int) -> tuple[int, str]:
    """20,000 jobs written into the current generation, all but the first `keep` on disk deleted, then
    VACUUM, as autovacuum does after a flood: it gives the heap pages after the rows kept back (the
    heap shrinks), and keeps every index page. Returns the generation and its partition."""
    generation = current_generation(db)
    part = f"jq.jobs_g{generation}"
    db.execute(
        "insert into jq.jobs (id, queue, type, run_at, max_attempts, created_at, generation)"
        " select gen_random_uuid(), 'default', 'report', now(), 5, now(), %s from generate_series(1, 20000)",
        [generation],
    )
    db.execute(f"delete from {part} where id not in (select id from {part} order by ctid limit %s)", [keep])
    db.execute(f"vacuum {part}")
    return generation, part


@pytest.mark.parametrize("live", [0, 100], ids=["no_heap_left", "a_small_heap_left"])
def test_a_generation_autovacuum_shrank_is_truncated_for_its_index_pages(db, live):
    """Autovacuum gives a drained generation's heap pages back but keeps every index page its rows
    filled. Judged by its heap alone, such a generation read as empty (no heap page) or small and was
    kept with megabytes of indexes. A generation is left alone only when it is as a truncation left it,
    indexes included (jq._storage_untouched): this one is emptied and truncated."""
    generation, part = vacuumed_after_a_flood(db, keep=live)
    make_previous(db, generation)
    stop_turning(db)
    heap, total = db.execute("select pg_relation_size(%s), pg_total_relation_size(%s)", [part, part]).fetchone()
    assert heap < 262144, f"the heap is {heap} bytes: empty or small by itself"
    assert total > 1 << 20, f"heap and indexes {total} bytes"
    assert not db.execute("select jq._storage_untouched(%s::regclass)", [part]).fetchone()[0]

    assert rotation(pyjq.tick(db)) == ("truncated", live)
    assert db.execute("select jq._storage_untouched(%s::regclass)", [part]).fetchone()[0]
    assert db.execute("select count(*) from jq.jobs where queue = 'default'").fetchone()[0] == live
    truncations = pyjq.storage(db)[generation].truncations
    again = pyjq.tick(db)
    assert rotation(again)[0] == "idle", f"untouched since its truncation: {again}"
    assert pyjq.storage(db)[generation].truncations == truncations
