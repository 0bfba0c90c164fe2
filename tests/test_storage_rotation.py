"""The generations of jq.jobs are safe to rotate (docs/storage.md, issue #16 points 3 and 6).

A real pyjq.Worker runs in this process while jq_storage_rotate empties and
truncates generations underneath it, and the tests check states and counts,
never durations:

* under load (producers in and out of transactions, retries short and long,
  jobs held across several rotations, cancellations) every acknowledged job
  ends in exactly one place, rolled-back ones nowhere, and the held jobs run
  exactly once although they were moved while running;
* a session holding ACCESS SHARE on jq.jobs (as pg_dump does) makes rotation
  answer 'busy' without stalling the queue; a real pg_dump runs beside a worker;
* a held REPEATABLE READ snapshot does not stop the truncations, so the dead
  row versions it pins stay bounded (pgstattuple, beside an ordinary table
  where they are all kept);
* rotation refuses to run under REPEATABLE READ (25001) and changes nothing;
* a generation full of jobs due beyond the horizon is emptied over a few calls ('moving'), and a dump
  whose snapshot predates a rotation holds every live job (the rotation waits while a pg_dump is
  connected: TRUNCATE is not MVCC-safe).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import random
import shutil
import subprocess
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

import psycopg
import pytest
from helpers import wait_until

import pyjq
from pyjq._calls.storage import STORAGE_ROTATE, Rotation

# Generations of a few rows here: emptied and truncated all the same (conftest.rotate_small_generations).
pytestmark = pytest.mark.usefixtures("rotate_small_generations")

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


class Rotator(Loop):
    """jq_storage_rotate through pyjq every ~100 ms, besides the worker's own calls."""

    def __init__(self, dsn: str, every: float = 0.1):
        super().__init__(dsn, every, "rotator")
        self.outcomes: Counter[str] = Counter()
        self.moved = 0

    def step(self, conn: psycopg.Connection) -> None:
        for row in STORAGE_ROTATE.run(conn):
            self.outcomes[row.outcome] += 1
            self.moved += row.moved


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


def server_now(conn: psycopg.Connection) -> datetime:
    row = conn.execute("select clock_timestamp()").fetchone()
    assert row is not None
    return row[0]


# -- 1. rotation under load: the running count ends exact -----------------------------------------


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


def test_rotation_under_load_keeps_every_job_exactly_once(db, dsn):
    db.execute("update jq.settings set waiting_horizon = interval '10 seconds'")  # its minimum
    # Slots ended early by the worker (jq_storage_turn) too, once a generation holds 64 kB of heap.
    db.execute("update jq.settings set rotation_turn_bytes = 65536")
    turns_before = slot_turns(db)
    db.execute("create table orders (id bigserial primary key, note text not null)")
    began = server_now(db)
    tally = Tally()
    starts: Counter[UUID] = Counter()
    worker = load_worker(dsn, starts)
    rotator, watcher = Rotator(dsn), Watcher(dsn)

    def scenario() -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            enqueue_the_special_jobs(conn, tally)
            run_producers(dsn, tally)
            cancel_the_jobs_to_cancel(conn, tally, starts, watcher)
            left = len(tally.ids("far"))
            wait_until(lambda: live_jobs(conn) == left, timeout=60, what="every job but the far ones to finish")

    rotator.start()
    watcher.start()
    try:
        _, summary = run_worker_while(worker, scenario)
    finally:
        rotator.stop()
        watcher.stop()
    assert not rotator.errors and not watcher.errors, (rotator.errors[:3], watcher.errors[:3])

    assert_every_job_in_its_place(db, tally)
    marks = generation_marks(db)
    assert all((marks[g][0] or began) > began and marks[g][1] >= 2 for g in GENERATIONS), marks
    assert sum(moved for _, _, moved in marks.values()) > 0, marks
    assert rotator.outcomes["truncated"] > 0, rotator.outcomes
    assert slot_turns(db) > turns_before, "the worker ended no slot early"
    assert_moved_alive_and_run_as_often_as_meant(tally, starts, watcher)
    # No lost lease, and nothing else unusual in the worker's own count.
    assert summary.lease_lost == 0 and summary.released == 0
    assert summary.cancelled == len(tally.ids("cancel_running"))
    print(
        f"\nrotation under load: {len(tally.kind)} jobs ({dict(Counter(tally.kind.values()))}),"
        f" {len(tally.rolled_back)} rolled back; per generation (truncations, moved):"
        f" { {g: marks[g][1:] for g in GENERATIONS} }; the test's rotations: {dict(rotator.outcomes)};"
        f" slots ended early: {slot_turns(db) - turns_before}"
    )


def slot_turns(conn: psycopg.Connection) -> int:
    """How many slots jq_storage_turn has ended early (migration 16)."""
    row = conn.execute("select pg_sequence_last_value('jq.storage_slot_turns')").fetchone()
    assert row is not None
    return row[0]


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


def sleep_to_mid_slot() -> None:
    """To the middle of the next two-second slot (this host's clock, as the worker's): a call of
    jq_storage_rotate from the test then never meets the worker's own, made just after each boundary."""
    time.sleep(2.0 - time.time() % 2.0 + 1.0)


def each_warned_generation_truncated_again(caplog: pytest.LogCaptureFixture) -> bool:
    warned = [w.split("generation ")[1].split()[0] for w in logged(caplog, BUSY_WARNING)]
    again = logged(caplog, "truncated again")
    return bool(warned) and all(any(f"generation {g} truncated again" in line for line in again) for g in warned)


def logged(caplog: pytest.LogCaptureFixture, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "pyjq.worker" and text in r.getMessage()]


BUSY_WARNING = "could not be truncated 5 times in a row"


def test_a_session_holding_access_share_makes_rotation_busy_not_the_queue(db, dsn, caplog):
    done: set[UUID] = set()
    worker = stream_worker(dsn, done)
    during: list[UUID] = []
    outcomes: list[Rotation] = []

    def scenario() -> tuple[dict, dict]:
        with psycopg.connect(dsn, autocommit=True) as conn, psycopg.connect(dsn) as holder:
            holder.execute("lock table jq.jobs in access share mode")  # every partition too, as pg_dump's
            marks = generation_marks(conn)
            # Until the worker has warned (5 busy calls of one generation, about 14 s): a job stream, and
            # now and then a rotation of the test's own.
            while not logged(caplog, BUSY_WARNING):
                during.extend(enqueue_stream(conn))
                if len(during) % 20 == 0:
                    sleep_to_mid_slot()
                    outcomes.extend(STORAGE_ROTATE.run(conn))
                else:
                    time.sleep(0.25)
                assert len(during) < 1000, "the worker never warned"
            wait_until(lambda: succeeded(conn, during) == len(during), what="the jobs enqueued during the hold")
            assert holder.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS  # still holding
            held_marks = generation_marks(conn)
            holder.commit()
            wait_until(lambda: each_warned_generation_truncated_again(caplog), what="the worker to truncate again")
            return marks, held_marks

    with caplog.at_level(logging.DEBUG, logger="pyjq.worker"):
        (marks, held_marks), _ = run_worker_while(worker, scenario)

    print(f"\naccess share held: {len(during)} jobs ran meanwhile; rotations: {Counter(r.outcome for r in outcomes)}")
    assert held_marks == marks, "a generation was truncated (or rows moved) under the ACCESS SHARE lock"
    tried = [r for r in outcomes if r.generation in GENERATIONS]
    assert tried and all(r.moved == 0 for r in outcomes), outcomes
    assert {r.outcome for r in tried} <= {"busy", "current", "empty"}, tried
    assert any(r.outcome == "busy" for r in tried), tried
    after = generation_marks(db)
    assert any(after[g][1] > marks[g][1] for g in GENERATIONS), "no truncation after the holder committed"
    warnings = logged(caplog, BUSY_WARNING)  # one per generation refused five times in a row
    generations = [w.split("generation ")[1].split()[0] for w in warnings]
    assert warnings and len(set(generations)) == len(generations), warnings
    again = logged(caplog, "truncated again")
    assert all(any(f"generation {g} truncated again" in line for line in again) for g in generations), again


def _pg_tool(name: str) -> str:
    """A PostgreSQL client program of the test server's version, as tests/test_install.py finds them."""
    pgbin = os.environ.get("JQ_TEST_PGBIN")
    if pgbin and Path(pgbin, name).exists():
        return str(Path(pgbin, name))
    found = shutil.which(name)
    assert found, f"{name} is not installed"
    return found


@pytest.mark.processes
def test_pg_dump_beside_a_worker_succeeds_and_the_jobs_complete(db, dsn, tmp_path):
    done: set[UUID] = set()
    worker = stream_worker(dsn, done)
    dump = tmp_path / "jq.dump"

    def scenario() -> tuple[int, str, list[UUID], int]:
        with psycopg.connect(dsn, autocommit=True) as conn:
            ids = enqueue_stream(conn, 50)
            proc = subprocess.Popen(
                [_pg_tool("pg_dump"), "--format=custom", "--file", str(dump), "-d", dsn],
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
        [_pg_tool("pg_restore"), "--list", str(dump)], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert all(f"TABLE DATA jq {part}" in listing for part in PARTITIONS), listing[:2000]


# -- 3. a held snapshot does not stop the truncations ------------------------------------------------------


SNAPSHOT_JOBS = 3000
SNAPSHOT_BATCH = 50


def dead_tuples(conn: psycopg.Connection, tables: tuple[str, ...]) -> int:
    """Dead row versions in tables, counted in their pages (pgstattuple), not from the lagging statistics."""
    row = conn.execute(
        "select sum((pgstattuple(t::regclass)).dead_tuple_count) from unnest(%s::text[]) t", [list(tables)]
    ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_held_snapshot_does_not_stop_the_truncations(db, dsn, connect):
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
                time.sleep(0.25)  # at most 200 jobs a second: a two-second generation takes a seventh of them
            wait_until(lambda: succeeded(conn, ids) == len(ids), timeout=60, what="every job to complete")
            when_done = (server_now(conn), dead_tuples(conn, jq_parts))
            wait_until(
                lambda: all((at or hold_began) > hold_began for at, _, _ in generation_marks(conn).values()),
                what="each generation to be truncated during the hold",
            )
            wait_until(lambda: rotated_since(conn, when_done[0]), what="the generations to be rotated once more")
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
    assert dead_when_done < SNAPSHOT_JOBS  # the last slots' traffic, whatever the length of the hold
    assert dead_at_end < SNAPSHOT_JOBS / 3


def rotated_since(conn: psycopg.Connection, since: datetime) -> bool:
    """Every generation of jq.jobs empty on disk, or truncated after since."""
    rows = conn.execute(
        "select pg_relation_size(format('jq.jobs_g%%s', g.generation)::regclass) = 0 or g.truncated_at > %s"
        "  from jq.storage_generations g",
        [since],
    )
    return all(ok for (ok,) in rows)


# -- 4. rotation inside a snapshot transaction is refused ------------------------------------------------


def current_slot(conn: psycopg.Connection) -> int:
    row = conn.execute("select jq._storage_current()").fetchone()
    assert row is not None
    return row[0]


@pytest.mark.parametrize(
    "isolation", [psycopg.IsolationLevel.REPEATABLE_READ, psycopg.IsolationLevel.SERIALIZABLE], ids=lambda i: i.name
)
def test_rotation_in_a_snapshot_transaction_is_refused_and_changes_nothing(db, connect, isolation):
    pyjq.enqueue_many(db, [{"type": "idle"} for _ in range(20)])
    [(generation,)] = db.execute("select distinct generation from jq.jobs").fetchall()
    wait_until(lambda: current_slot(db) != generation, what="the jobs' generation to stop taking rows")
    jobs_sql = "select id, generation, status, locked_by from jq.jobs order by id"
    before, marks = db.execute(jobs_sql).fetchall(), generation_marks(db)

    conn = connect(autocommit=False)
    conn.isolation_level = isolation
    with pytest.raises(psycopg.errors.ActiveSqlTransaction) as raised:  # pyjq/errors.py maps no class to 25001
        STORAGE_ROTATE.run(conn)
    conn.rollback()
    assert raised.value.sqlstate == "25001"
    assert "READ COMMITTED" in str(raised.value)
    assert db.execute(jobs_sql).fetchall() == before and generation_marks(db) == marks

    # The same call outside a transaction moves them all and truncates their generation.
    rows = {r.generation: r for r in STORAGE_ROTATE.run(db)}
    assert (rows[generation].outcome, rows[generation].moved) == ("truncated", 20)
    moved_to = {g for (g,) in db.execute("select generation from jq.jobs")}
    assert len(moved_to) == 1 and generation not in moved_to, moved_to


# -- 5. a generation whose live rows never drain --------------------------------------------------------


def test_a_generation_holding_more_waiting_jobs_than_the_move_limit_is_emptied_all_the_same(db):
    # The same as 2,001 jobs for tomorrow enqueued within one two-second slot under the default limit of 2,000.
    db.execute("update jq.settings set rotation_move_limit = 10")  # its minimum
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    pyjq.enqueue_many(db, [{"type": "report", "run_at": tomorrow} for _ in range(11)])
    [(generation,)] = db.execute("select distinct generation from jq.jobs").fetchall()
    seen: list[str] = []
    while len(seen) < 3 and "truncated" not in seen:  # three calls that found it not current: two turns
        sleep_to_mid_slot()
        outcome = {r.generation: r.outcome for r in STORAGE_ROTATE.run(db)}.get(generation, "current")
        if outcome != "current":
            seen.append(outcome)
    assert "truncated" in seen, seen
    assert {g for (g,) in db.execute("select generation from jq.jobs")} == {3}


def test_a_dump_whose_snapshot_predates_a_rotation_still_holds_every_live_job(db, connect):
    ids = [r.job_id for r in pyjq.enqueue_many(db, [{"type": "report"} for _ in range(5)])]
    [(generation,)] = db.execute("select distinct generation from jq.jobs").fetchall()
    wait_until(lambda: current_slot(db) != generation, what="the jobs' generation to stop taking rows")
    # What pg_dump does, in its order: a REPEATABLE READ, READ ONLY transaction, catalog queries (the
    # snapshot), LOCK TABLE ... IN ACCESS SHARE MODE on each table, then COPY of each.
    dump = connect(autocommit=False, application_name="pg_dump")  # as pg_dump names its session
    dump.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    dump.read_only = True
    dump.execute("select count(*) from pg_class")
    rotated = {r.generation: (r.outcome, r.moved) for r in STORAGE_ROTATE.run(db)}  # between the two
    assert rotated[generation] == ("busy", 0), "no rotation while a pg_dump is connected"
    dump.execute("lock table jq.jobs in access share mode")
    dumped = {i for (i,) in dump.execute("select id from jq.jobs")}
    dump.rollback()
    dump.close()
    assert dumped == set(ids), f"the dump holds {len(dumped)} of the {len(ids)} live jobs"
    wait_until(
        lambda: {r.generation: r.outcome for r in STORAGE_ROTATE.run(db)}.get(generation) in ("truncated", "current"),
        what="the rotation to go on once the dump is gone",
    )


def test_refused_locks_are_counted_and_the_count_resets_on_truncation(db, connect):
    """Each 'busy' adds one to jq.storage_generations.refused; a truncation resets it."""
    pyjq.enqueue_many(db, [{"type": "report"} for _ in range(3)])
    [(generation,)] = db.execute("select distinct generation from jq.jobs").fetchall()
    holder = connect(autocommit=False)
    holder.execute("lock table jq.jobs in access share mode")
    busy = 0
    while busy < 4:
        sleep_to_mid_slot()
        outcome = {r.generation: r.outcome for r in STORAGE_ROTATE.run(db)}.get(generation, "current")
        if outcome != "current":
            assert outcome == "busy", outcome
            busy += 1
    refused = db.execute("select refused from jq.storage_generations where generation = %s", [generation]).fetchone()
    assert refused == (4,)
    holder.rollback()
    wait_until(
        lambda: {r.generation: r.outcome for r in STORAGE_ROTATE.run(db)}.get(generation) == "truncated",
        what="the truncation once the lock is free",
    )
    refused = db.execute("select refused from jq.storage_generations where generation = %s", [generation]).fetchone()
    assert refused == (0,)


# -- 6. whom the rotation waits for --------------------------------------------------------------------


def jobs_in_a_generation_just_left(db: psycopg.Connection, n: int = 3) -> int:
    """n jobs enqueued now, then the middle of the next slot: their generation is the one just left,
    which jq_storage_rotate tries, with a second to spare before it takes rows again."""
    pyjq.enqueue_many(db, [{"type": "report"} for _ in range(n)])
    [(generation,)] = db.execute("select distinct generation from jq.jobs").fetchall()
    sleep_to_mid_slot()
    assert current_slot(db) != generation
    return generation


class LockProbe(Loop):
    """Reads the partition every ~2 ms with lock_timeout 20 ms: it times out only when an ACCESS
    EXCLUSIVE request queues for the partition, as claims and completions would wait then."""

    def __init__(self, dsn: str, partition: str):
        super().__init__(dsn, 0.002, "lock-probe")
        self.partition = partition
        self.reads = 0

    def step(self, conn: psycopg.Connection) -> None:
        conn.execute("set lock_timeout = '20ms'")
        conn.execute(f"select count(*) from jq.{self.partition}")
        self.reads += 1


def test_a_lock_held_by_an_idle_transaction_is_refused_without_queueing_behind_it(db, dsn, connect):
    """pg_dump, or a session left idle in transaction after reading jq.jobs: the rotation answers busy at
    once, and never queues an ACCESS EXCLUSIVE request that would stall every claim behind it."""
    generation = jobs_in_a_generation_just_left(db)
    holder = connect(autocommit=False)
    holder.execute(f"select count(*) from jq.jobs_g{generation}")  # ACCESS SHARE, then idle in transaction
    probe = LockProbe(dsn, f"jobs_g{generation}")
    probe.start()
    wait_until(lambda: probe.reads >= 5, what="the probe to read")
    outcomes = [{r.generation: r.outcome for r in STORAGE_ROTATE.run(db)}.get(generation) for _ in range(10)]
    reads = probe.reads
    wait_until(lambda: probe.reads >= reads + 5, what="the probe to read after the rotations")
    probe.stop()
    holder.rollback()
    assert outcomes == ["busy"] * 10, outcomes
    assert not probe.errors, f"a reader timed out behind the rotation's lock request: {probe.errors[0]!r}"


def rotate_beside_a_statement_on(db: psycopg.Connection, dsn: str, generation: int) -> dict[int, tuple[str, int]]:
    """One jq_storage_rotate call while another session's statement of 200 ms reads the generation
    (started before the call): each generation's (outcome, moved)."""
    started = threading.Event()

    def statement_in_flight() -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            started.set()
            conn.execute(f"select pg_sleep(0.2), count(*) from jq.jobs_g{generation}")

    reader = threading.Thread(target=statement_in_flight)
    reader.start()
    started.wait()
    wait_until(
        lambda: db.execute(
            "select exists (select 1 from pg_stat_activity where state = 'active' and query like %s)",
            ["select pg_sleep(0.2)%"],
        ).fetchone()[0],
        what="the statement to be running",
    )
    rows = {r.generation: (r.outcome, r.moved) for r in STORAGE_ROTATE.run(db)}
    reader.join()
    return rows


def test_a_statement_in_flight_is_waited_for_and_the_generation_truncated(db, dsn):
    """A claim of a thousand jobs holds the partitions for tens of milliseconds, back to back with the
    next one. The rotation takes the lock only if it is free at once, then, refused in a row, waits 50 ms,
    then up to 250 ms for the statements in flight (a worker calls again 0.5 s later) instead of giving up
    again. Each statement here holds the partition for 200 ms, at most 200 ms of it left when the rotation
    asks."""
    generation = jobs_in_a_generation_just_left(db)

    def rotate_beside_a_statement_in_flight() -> tuple[str, int]:
        return rotate_beside_a_statement_on(db, dsn, generation)[generation]

    assert rotate_beside_a_statement_in_flight() == ("busy", 0)  # no wait
    assert rotate_beside_a_statement_in_flight() == ("busy", 0)  # 50 ms
    assert rotate_beside_a_statement_in_flight() == ("truncated", 3)  # up to 250 ms


def test_holding_one_generations_lock_the_rotation_waits_for_no_other(db, dsn):
    """A call holds the locks it took until it commits, and every claim waits while it does: once it
    holds the oldest generation's, it takes the previous one's only if free at once. Here the previous
    generation was refused twice (so alone it would be waited for up to 250 ms) and a statement of
    200 ms holds it: it is left busy, the oldest is truncated."""
    pyjq.enqueue_many(db, [{"type": "report"} for _ in range(3)])
    [(oldest,)] = db.execute("select distinct generation from jq.jobs").fetchall()
    sleep_to_mid_slot()
    pyjq.enqueue_many(db, [{"type": "report"} for _ in range(2)])
    [(previous,)] = db.execute("select distinct generation from jq.jobs where generation <> %s", [oldest]).fetchall()
    sleep_to_mid_slot()
    assert (current_slot(db) + 1) % 3 == oldest and (current_slot(db) + 2) % 3 == previous
    db.execute("update jq.storage_generations set refused = 2 where generation = %s", [previous])
    rows = rotate_beside_a_statement_on(db, dsn, previous)
    assert rows[oldest] == ("truncated", 3)
    assert rows[previous] == ("busy", 0)


def count_stood_still(db: psycopg.Connection, generation: int) -> None:
    """As if the rotation had seen the generation's live rows stand still for 10 s: a generation of
    more than one call's moves (500) is emptied only then (else 'draining': the claims may be at it)."""
    db.execute(
        "update jq.storage_generations g set live_at = clock_timestamp() - interval '11 s',"
        " live_rows = (select count(*) from jq.jobs j where j.generation = g.generation)"
        " where g.generation = %s",
        [generation],
    )


def test_a_call_moves_at_most_500_rows_and_the_next_call_goes_on(db):
    """The lock is held while rows move, so a call moves at most 500 (about 5 ms); a generation of
    up to rotation_move_limit (2,000) live rows is emptied over a few calls, 'moving' until the last."""
    generation = jobs_in_a_generation_just_left(db, 1_300)
    count_stood_still(db, generation)
    outcomes = [{r.generation: (r.outcome, r.moved) for r in STORAGE_ROTATE.run(db)}[generation] for _ in range(3)]
    assert outcomes == [("moving", 500), ("moving", 500), ("truncated", 300)]
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
    delete ... where id in (the pick) ran the pick once per row and held the lock 10 s in figure f)."""
    generation = jobs_in_a_generation_just_left(db, 1_500)
    part = f"jobs_g{generation}"
    pages = db.execute("select pg_relation_size(%s::regclass) / 8192", [f"jq.{part}"]).fetchone()[0]
    db.execute(
        "update pg_class set reltuples = 0, relpages = %s where oid = %s::regclass", [max(1, pages), f"jq.{part}"]
    )
    count_stood_still(db, generation)
    before = heap_buffers(db, part)
    rows = {r.generation: (r.outcome, r.moved) for r in STORAGE_ROTATE.run(db)}
    touched = heap_buffers(db, part) - before
    assert rows[generation] == ("moving", 500)
    assert touched < 20 * pages + 2_000, f"the move touched {touched} heap pages of a {pages}-page partition"


def flush_statistics(conn: psycopg.Connection) -> None:
    """This session's counts into the shared statistics now (else at most once a second)."""
    conn.execute("select pg_stat_force_next_flush()")
    conn.execute("select pg_stat_clear_snapshot()")


def test_a_mostly_dead_backlog_is_left_to_the_claims_while_they_work_it_down(db):
    """A backlog that is mostly dead row versions is emptied over calls only when the claims are not
    working it down (a paused queue): moving the rows the claims are about to take held the lock for
    500 rows every 0.15 s, and every claim waited (urgent pickups' p99 in figure e). The count tells:
    it is emptied once its live rows have stood still for 10 s."""
    db.execute("update jq.settings set rotation_move_limit = 100")
    pyjq.enqueue_many(db, [{"type": "report", "payload": {"pad": "x" * 400}} for _ in range(3_000)])
    [(generation,)] = db.execute("select distinct generation from jq.jobs").fetchall()
    sleep_to_mid_slot()
    assert current_slot(db) != generation
    flush_statistics(db)
    part = f"jq.jobs_g{generation}"

    def rotate() -> tuple[str, int]:
        rows = {r.generation: (r.outcome, r.moved) for r in STORAGE_ROTATE.run(db)}
        return rows[generation]

    def noted() -> int | None:
        row = db.execute("select live_rows from jq.storage_generations where generation = %s", [generation])
        return row.fetchone()[0]

    assert rotate() == ("draining", 0), "3,000 live jobs: a backlog"
    assert noted() == 1_001, "counted up to ten times the move limit, and one"

    for _ in range(5):  # claims take 2,500, at most 1,000 a call
        db.execute("select jq.jq_complete(array(select c.id from jq.jq_claim('default', 'w1', 500) c), 'w1')")
    flush_statistics(db)  # else they may still say over 1,000 (about a second behind): draining all the same
    assert db.execute("select pg_relation_size(%s::regclass)", [part]).fetchone()[0] > 1 << 20
    assert rotate() == ("draining", 0), "mostly dead now, but fewer than noted: the claims are at it"
    assert noted() == 500
    assert rotate() == ("draining", 0), "no fewer, but for under 10 s"

    db.execute(
        "update jq.storage_generations set live_at = live_at - interval '11 s' where generation = %s", [generation]
    )
    assert rotate() == ("moving", 100), "no fewer for 10 s: emptied, the move limit per call"
    assert noted() == -1, "being emptied"
    assert rotate() == ("moving", 100), "the next call goes on"
    assert db.execute("select count(*) from jq.jobs where generation = %s", [generation]).fetchone()[0] == 300


def vacuumed_after_a_flood(db: psycopg.Connection, keep: int) -> tuple[int, str]:
    """20,000 jobs written into the current generation, all but the first `keep` on disk deleted, then
    VACUUM, as autovacuum does after a flood: it gives the heap pages after the rows kept back (the
    heap shrinks), and keeps every index page. Returns the generation and its partition."""
    generation = current_slot(db)
    part = f"jq.jobs_g{generation}"
    db.execute(
        "insert into jq.jobs (id, queue, type, run_at, max_attempts, created_at, generation)"
        " select gen_random_uuid(), 'default', 'report', now(), 5, now(), %s from generate_series(1, 20000)",
        [generation],
    )
    db.execute(f"delete from {part} where id not in (select id from {part} order by ctid limit %s)", [keep])
    db.execute(f"vacuum {part}")
    return generation, part


def test_a_backlog_autovacuum_cleaned_is_emptied_for_its_bloated_indexes(db):
    """Autovacuum frees a generation's dead heap rows but not the index pages they filled: figure f
    once ended with 2.2 MB of heap and 7 MB of indexes for 10,000 live rows, and a rule that looked
    at the heap alone kept it for ever. Heap, indexes and TOAST together decide whether it is mostly
    dead (over twice its live rows' bytes)."""
    db.execute("update jq.settings set rotation_move_limit = 200")
    generation, part = vacuumed_after_a_flood(db, keep=2_000)
    sleep_to_mid_slot()
    assert current_slot(db) != generation
    heap, total = db.execute("select pg_relation_size(%s), pg_total_relation_size(%s)", [part, part]).fetchone()
    assert heap < 1 << 20, f"the heap is {heap} bytes: not mostly dead by itself"
    assert total > 2 << 20, f"heap and indexes {total} bytes for 2,000 live rows"

    def rotate() -> tuple[str, int]:
        rows = {r.generation: (r.outcome, r.moved) for r in STORAGE_ROTATE.run(db)}
        return rows[generation]

    assert rotate() == ("draining", 0), "2,000 live jobs, first seen: a backlog"
    count_stood_still(db, generation)
    assert rotate() == ("moving", 200), "stood still 10 s and mostly dead index entries: emptied"


@pytest.mark.parametrize("live", [0, 100], ids=["no_heap_left", "a_small_heap_left"])
def test_a_generation_autovacuum_shrank_is_truncated_for_its_index_pages(db, live):
    """Autovacuum gives a drained generation's heap pages back but keeps every index page its rows
    filled. Judged by its heap alone, such a generation read as empty (no heap page) or small (under
    rotation_min_bytes) and was kept with megabytes of indexes: figure f at 2,000,000 jobs ended at
    9.68x the fresh size, two generations of no heap page and 13.9 and 17.6 MB of indexes. Judged by
    its size on disk, it is emptied and truncated."""
    db.execute("update jq.settings set rotation_min_bytes = 262144")  # the default, not the module's 0
    generation, part = vacuumed_after_a_flood(db, keep=live)
    sleep_to_mid_slot()
    assert current_slot(db) != generation
    heap, total = db.execute("select pg_relation_size(%s), pg_total_relation_size(%s)", [part, part]).fetchone()
    assert heap < 262144, f"the heap is {heap} bytes: empty or small by itself"
    assert total > 1 << 20, f"heap and indexes {total} bytes"
    assert not db.execute("select jq._storage_untouched(%s::regclass)", [part]).fetchone()[0]

    outcome = {r.generation: (r.outcome, r.moved) for r in STORAGE_ROTATE.run(db)}[generation]

    assert outcome == ("truncated", live)
    assert db.execute("select jq._storage_untouched(%s::regclass)", [part]).fetchone()[0]
    assert db.execute("select count(*) from jq.jobs where queue = 'default'").fetchone()[0] == live
    again = {r.generation: r.outcome for r in STORAGE_ROTATE.run(db)}[generation]
    assert again == "empty", "untouched since its truncation"
