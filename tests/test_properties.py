"""Property-based tests (hypothesis) of jq's SQL functions.

5. Transactional enqueue: random interleavings of business writes, enqueues,
   savepoints, commits, rollbacks and failed statements on several
   connections. A job exists exactly when its transaction committed.
6. Model-based: random sequences of enqueue, claim, complete, fail,
   heartbeat, release, cancel, maintain and clock moves (jq's fake clock,
   ``set jq.now``) on one connection against a small Python model of the job
   state machine; after every step the SQL state equals the model's.
7. Bad input against every public jq_* function: each call succeeds or fails
   with SQLSTATE class 22, 23 or JQ (never an internal error or a bare
   P0001), a failed call changes nothing, and a successful one leaves a state
   that jq_status, jq_stats and jq_dead_groups can still report on. The HTTP
   routes of pyjq.http get the same treatment: 4xx, never 5xx.

Scaled in ``make test``; ``JQ_SOAK=1`` (``make soak``) runs many more examples.
"""

from __future__ import annotations

import json
import os
import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from uuid import UUID

import psycopg
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

import pyjq

SOAK = os.environ.get("JQ_SOAK", "") not in ("", "0")


def _soak(scaled, full):
    return full if SOAK else scaled


FIXTURE_OK = [
    HealthCheck.function_scoped_fixture,
    HealthCheck.too_slow,
    HealthCheck.data_too_large,
    HealthCheck.large_base_example,
]


def _reset(conn: psycopg.Connection) -> None:
    """Empty jq's tables (delete, not truncate: these stay small, and truncating the
    partitioned history costs a hundred times more)."""
    for table in ("jq.jobs", "jq.dead_jobs", "jq.job_history", "jq.idempotency_keys", "jq.queue_waiters"):
        conn.execute(f"delete from {table}")


# -- 5. transactional enqueue ---------------------------------------------------------------------


@dataclass
class Session:
    """The model of one connection's open transaction."""

    items: list[tuple[str, Any]] = field(default_factory=list)  # ("job", id) ("biz", id) ("key", key) ("sp", n)
    aborted: bool = False

    def savepoints(self) -> int:
        return sum(1 for kind, _ in self.items if kind == "sp")

    def pending(self, kind: str) -> list[Any]:
        return [v for k, v in self.items if k == kind]


CONNECTIONS = 3
TX_OPS = st.sampled_from(
    [
        "write",
        "enqueue",
        "enqueue",
        "enqueue_many",
        "enqueue_key",
        "reuse_key",
        "savepoint",
        "rollback_to",
        "fail",
        "commit",
        "commit",
        "rollback",
        "observe",
        "work",
    ]
)


def test_properties_transactional_enqueue(db, connect):
    conns = [connect(autocommit=False) for _ in range(CONNECTIONS)]
    observer = db
    db.execute("create table biz (id bigserial primary key, conn int not null)")

    @settings(max_examples=_soak(25, 400), deadline=None, suppress_health_check=FIXTURE_OK)
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        for c in conns:
            c.rollback()
        _reset(observer)
        observer.execute("delete from biz")
        sessions = [Session() for _ in conns]
        committed_jobs: dict[UUID, int | None] = {}  # job -> its business row
        committed_biz: set[int] = set()
        committed_keys: dict[str, UUID] = {}
        dropped_keys: set[str] = set()  # keys whose transaction rolled back: free again
        done: set[UUID] = set()  # committed jobs claimed and completed by the observer
        sp_serial = 0

        def observe() -> None:
            jobs = {r[0] for r in observer.execute("select id from jq.jobs")}
            assert jobs == set(committed_jobs) - done, "jq.jobs differs from the committed jobs"
            biz = {r[0] for r in observer.execute("select id from biz")}
            assert biz == committed_biz
            for _job_id, row in observer.execute("select id, (payload->>'biz')::bigint from jq.jobs"):
                assert row is None or row in committed_biz, "a committed job points at a missing business row"
            uncommitted = [j for s in sessions for j in s.pending("job")]
            if uncommitted:
                seen = observer.execute(
                    "select s.job_id from unnest(%s::uuid[]) u(id) cross join lateral jq.jq_status(u.id) s",
                    [uncommitted],
                ).fetchall()
                assert seen == [], "another session sees uncommitted jobs"

        def end(k: int, commit: bool) -> None:
            s = sessions[k]
            if commit:
                conns[k].commit()  # on an aborted transaction the server rolls back
            else:
                conns[k].rollback()
            if commit and not s.aborted:
                for kind, value in s.items:
                    if kind == "biz":
                        committed_biz.add(value)
                    elif kind == "job":
                        committed_jobs[value] = None
                    elif kind == "key":
                        committed_keys[value[0]] = value[1]
            else:
                dropped_keys.update(key for key, _ in s.pending("key"))
            sessions[k] = Session()

        steps = data.draw(st.integers(1, _soak(25, 60)), label="steps")
        for _ in range(steps):
            op = data.draw(TX_OPS, label="op")
            k = data.draw(st.integers(0, CONNECTIONS - 1), label="conn")
            conn, s = conns[k], sessions[k]
            note(f"{op} on connection {k}")
            if op == "observe":
                observe()
                continue
            if op == "work":
                # Another worker claims and completes everything it can see.
                ids = [r[0] for r in observer.execute("select id from jq.jq_claim('default', 'obs', 1000)")]
                assert set(ids) == set(committed_jobs) - done, "claim saw other than the committed jobs"
                observer.execute("select jq.jq_complete(%s::uuid[], 'obs')", [ids])
                done.update(ids)
                continue
            if op == "commit":
                end(k, True)
                continue
            if op == "rollback":
                end(k, False)
                continue
            if op == "rollback_to":
                if s.savepoints():
                    conn.execute(f"rollback to savepoint sp{[v for kk, v in s.items if kk == 'sp'][-1]}")
                    last = max(i for i, (kk, _) in enumerate(s.items) if kk == "sp")
                    dropped_keys.update(v[0] for kk, v in s.items[last + 1 :] if kk == "key")
                    del s.items[last + 1 :]
                    s.aborted = False
                continue
            if s.aborted:
                continue  # only a commit, a rollback or a rollback to a savepoint helps now
            if op == "write":
                [(biz_id,)] = conn.execute("insert into biz (conn) values (%s) returning id", [k]).fetchall()
                s.items.append(("biz", biz_id))
            elif op == "enqueue":
                biz = s.pending("biz")[-1] if s.pending("biz") else None
                r = pyjq.enqueue(conn, "order", {"biz": biz})
                assert (r.status, r.duplicate) == ("queued", False)
                s.items.append(("job", r.job_id))
            elif op == "enqueue_many":
                n = data.draw(st.integers(1, 4), label="n")
                rs = pyjq.enqueue_many(conn, [{"type": "order", "payload": {"n": i}} for i in range(n)])
                assert len(rs) == n and not any(r.duplicate for r in rs)
                s.items.extend(("job", r.job_id) for r in rs)
            elif op == "enqueue_key":
                key = f"key-{uuid.uuid4()}"
                r = pyjq.enqueue(conn, "order", {}, idempotency_key=key)
                assert not r.duplicate
                s.items.append(("job", r.job_id))
                s.items.append(("key", (key, r.job_id)))
            elif op == "reuse_key":
                # A key that is free again (its transaction rolled back), committed, or
                # pending in this very transaction; never one another session holds open.
                own = dict(s.pending("key"))
                choices = sorted(dropped_keys - set(committed_keys)) + sorted(committed_keys) + sorted(own)
                others = {key for j, other in enumerate(sessions) if j != k for key, _ in other.pending("key")}
                choices = [c for c in choices if c not in others]
                if not choices:
                    continue
                key = data.draw(st.sampled_from(choices), label="key")
                r = pyjq.enqueue(conn, "order", {}, idempotency_key=key)
                if key in own:
                    assert (r.duplicate, r.job_id) == (True, own[key])
                elif key in committed_keys:
                    assert (r.duplicate, r.job_id) == (True, committed_keys[key])
                else:
                    assert not r.duplicate, "a key of a rolled-back enqueue is still taken"
                    s.items.append(("job", r.job_id))
                    s.items.append(("key", (key, r.job_id)))
                    dropped_keys.discard(key)
            elif op == "savepoint":
                sp_serial += 1
                conn.execute(f"savepoint sp{sp_serial}")
                s.items.append(("sp", sp_serial))
            elif op == "fail":
                with pytest.raises(pyjq.InvalidArgument):
                    pyjq.enqueue(conn, " ", {})  # a blank type: the statement fails, the transaction aborts
                s.aborted = True

        for k in range(CONNECTIONS):
            end(k, data.draw(st.booleans(), label=f"commit {k} at the end"))
        observe()
        # A job exists exactly when its transaction committed: every committed one, and only those.
        statuses = dict(
            observer.execute(
                "select s.job_id, s.status from unnest(%s::uuid[]) u(id) cross join lateral jq.jq_status(u.id) s",
                [list(committed_jobs)],
            )
        )
        assert set(statuses) == set(committed_jobs)
        assert all(statuses[j] == ("succeeded" if j in done else "queued") for j in committed_jobs)

    check()


# -- 6. the model ----------------------------------------------------------------------------------


T0 = datetime(2030, 1, 1, 8, 0, tzinfo=UTC)
WORKERS = ("w1", "w2")
LEASES = (1, 10, 60)


@dataclass
class MJob:
    """jq's view of one job, as the model predicts it."""

    id: UUID
    priority: int
    max_attempts: int
    run_at: datetime
    where: str = "jobs"  # jobs | dead | history
    status: str = "pending"  # in jobs: pending | processing; in history: succeeded | cancelled
    attempts: int = 0
    locked_by: str | None = None
    locked_until: datetime | None = None
    cancel_requested: bool = False
    orphaned: int = 0  # leases lost in a worker holding other jobs too (attempt given back)
    last_error: str | None = None  # exact, or a prefix when it ends in "...": lease-expiry messages
    finished_at: datetime | None = None

    def external(self, now: datetime) -> str:
        if self.where == "dead":
            return "dead"
        if self.where == "history":
            return self.status
        if self.status == "processing":
            return "running"
        if self.attempts > 0:
            return "failed_retrying"
        return "scheduled" if self.run_at > now else "queued"

    def held_by(self, worker: str) -> bool:
        return self.where == "jobs" and self.status == "processing" and self.locked_by == worker


def _retry_bounds(attempts: int) -> tuple[float, float]:
    base = 2.0 ** min(max(attempts, 1), 20)
    return max(1.0, min(3600.0, base * 0.75)), max(1.0, min(3600.0, base * 1.25))


class JobModel(RuleBasedStateMachine):
    """Drives the jq_* functions on one connection and mirrors them in a model."""

    conn: psycopg.Connection  # set by the test

    jobs = Bundle("jobs")

    def __init__(self) -> None:
        super().__init__()
        self.model: dict[UUID, MJob] = {}
        self.now = T0

    # clock

    def _set_clock(self) -> None:
        self.conn.execute("select set_config('jq.now', %s, false)", [self.now.isoformat()])

    @initialize()
    def start(self) -> None:
        _reset(self.conn)
        self._set_clock()

    @rule(seconds=st.sampled_from([0.25, 0.5, 1, 2, 5, 10, 11, 30, 61, 600]))
    def advance_clock(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        self._set_clock()

    # model helpers

    def _reap(self) -> list[UUID]:
        """What jq._reap_expired does (by jq._orphan_jobs' rule): expired leases go to history
        as cancelled (cancel requested); a job its worker held alone has used the attempt
        (dead on the last one, else pending); one whose worker held others too gets the
        attempt back and is orphaned once more."""
        held = {w: sum(1 for j in self.model.values() if j.held_by(w)) for w in WORKERS}
        reaped = []
        for job in self.model.values():
            if job.where == "jobs" and job.status == "processing" and job.locked_until < self.now:
                reaped.append(job.id)
                expired = f'lease expired: worker "{job.locked_by}" did not finish attempt {job.attempts}'
                blamed = job.orphaned >= 10 or held[job.locked_by] <= 1
                if job.cancel_requested:
                    job.where, job.status, job.finished_at = "history", "cancelled", self.now
                elif not blamed:
                    job.status = "pending"
                    job.last_error = (
                        f'lease expired: worker "{job.locked_by}" was lost holding other jobs too; '
                        f"attempt {job.attempts} not counted"
                    )
                    job.attempts, job.orphaned = max(job.attempts - 1, 0), job.orphaned + 1
                elif job.attempts >= job.max_attempts:
                    job.where, job.finished_at = "dead", self.now
                    job.last_error = f"{expired} of {job.max_attempts} ..."
                else:
                    job.status = "pending"
                    job.last_error = f"{expired} ..."
                job.locked_by = job.locked_until = None
        return reaped

    def _known(self) -> list[UUID]:
        return list(self.model)

    # rules

    @rule(
        target=jobs,
        priority=st.sampled_from([-1, 0, 0, 1]),
        delay=st.sampled_from([0, 0, 0, 3, 30]),
        max_attempts=st.sampled_from([1, 2, 3]),
    )
    def enqueue(self, priority: int, delay: int, max_attempts: int) -> UUID:
        run_at = self.now + timedelta(seconds=delay) if delay else None
        [(job_id, status, duplicate)] = self.conn.execute(
            "select * from jq.jq_enqueue('t', '{}', 'q', %s, %s, %s)", [priority, run_at, max_attempts]
        ).fetchall()
        assert (status, duplicate) == ("scheduled" if delay else "queued", False)
        self.model[job_id] = MJob(job_id, priority, max_attempts, run_at or self.now)
        return job_id

    @rule(worker=st.sampled_from(WORKERS), limit=st.integers(1, 3), lease=st.sampled_from(LEASES))
    def claim(self, worker: str, limit: int, lease: int) -> None:
        rows = self.conn.execute(
            "select id, attempts, locked_until from jq.jq_claim('q', %s, %s, %s)",
            [worker, limit, timedelta(seconds=lease)],
        ).fetchall()
        self._reap()
        due = [j for j in self.model.values() if j.where == "jobs" and j.status == "pending" and j.run_at <= self.now]
        held = [j for j in self.model.values() if j.held_by(worker)]
        suspects = [j for j in due if j.orphaned >= 2]
        ready = [j for j in due if j.orphaned < 2]
        if any(j.orphaned >= 2 for j in held):  # isolated: nothing else
            ready = []
        elif not held and suspects:  # idle: one suspect, alone, the oldest
            first = min(j.run_at for j in suspects)
            assert len(rows) == 1 and self.model[rows[0][0]] in suspects, (rows, suspects)
            assert self.model[rows[0][0]].run_at == first, "an isolated claim skipped an older suspect"
            ready = [self.model[rows[0][0]]]
            limit = 1
        claimed = {r[0] for r in rows}
        assert len(claimed) == len(rows) == min(limit, len(ready)), (rows, ready)
        assert claimed <= {j.id for j in ready}, "claimed a job that was not ready"
        key = {j.id: (-j.priority, j.run_at) for j in ready}
        if claimed and len(claimed) < len(ready):
            worst_taken = max(key[i] for i in claimed)
            best_left = min(key[j.id] for j in ready if j.id not in claimed)
            assert worst_taken <= best_left, "claim skipped a job of higher priority or an older run_at"
        for job_id, attempts, locked_until in rows:
            job = self.model[job_id]
            job.status, job.locked_by = "processing", worker
            job.locked_until = self.now + timedelta(seconds=lease)
            job.attempts += 1
            assert (attempts, locked_until) == (job.attempts, job.locked_until)

    @rule(worker=st.sampled_from(WORKERS), ids=st.lists(jobs, max_size=3, unique=True))
    def complete(self, worker: str, ids: list[UUID]) -> None:
        done = {r[0] for r in self.conn.execute("select * from jq.jq_complete(%s::uuid[], %s)", [ids, worker])}
        expect = {i for i in ids if self.model[i].held_by(worker)}
        assert done == expect
        for i in expect:
            job = self.model[i]
            job.where, job.status, job.finished_at = "history", "succeeded", self.now
            job.locked_by = job.locked_until = None

    @rule(
        worker=st.sampled_from(WORKERS),
        job_id=jobs,
        retry_in=st.sampled_from([None, None, 0, 1, 5, 30]),
        discard=st.sampled_from([False] * 5 + [True]),
        error=st.sampled_from(["boom", "  ", "", None, "Timeout after 30s for inv_7731\nTraceback ..."]),
    )
    def fail(self, worker: str, job_id: UUID, retry_in: int | None, discard: bool, error: str | None) -> None:
        [(status, next_at)] = self.conn.execute(
            "select * from jq.jq_fail(%s, %s, %s, %s, %s)",
            [job_id, worker, error, None if retry_in is None else timedelta(seconds=retry_in), discard],
        ).fetchall()
        job = self.model[job_id]
        text = (error or "").strip(" ") or "failed without an error message"
        if not job.held_by(worker):
            assert (status, next_at) == ("lease_lost", None)
            return
        job.locked_by = job.locked_until = None
        job.last_error = text
        if job.cancel_requested:
            assert (status, next_at) == ("cancelled", None)
            job.where, job.status, job.finished_at = "history", "cancelled", self.now
        elif discard or job.attempts >= job.max_attempts:
            assert (status, next_at) == ("dead", None)
            job.where, job.finished_at = "dead", self.now
        else:
            assert status == "failed_retrying"
            if retry_in is not None:
                assert next_at == self.now + timedelta(seconds=retry_in)
            else:
                low, high = _retry_bounds(job.attempts)
                waited = (next_at - self.now).total_seconds()
                assert low - 1e-6 <= waited <= high + 1e-6, f"retry after {waited} s, not in [{low}, {high}]"
            job.status, job.run_at = "pending", next_at

    @rule(
        worker=st.sampled_from(WORKERS),
        ids=st.lists(jobs, max_size=3),
        lease=st.sampled_from(LEASES),
        stranger=st.booleans(),
    )
    def heartbeat(self, worker: str, ids: list[UUID], lease: int, stranger: bool) -> None:
        asked = ids + ([uuid.uuid4()] if stranger else [])
        states = dict(
            self.conn.execute(
                "select * from jq.jq_heartbeat(%s::uuid[], %s, %s)", [asked, worker, timedelta(seconds=lease)]
            ).fetchall()
        )
        expect = {}
        for i in asked:
            job = self.model.get(i)
            if job is not None and job.held_by(worker):
                job.locked_until = self.now + timedelta(seconds=lease)
                expect[i] = "cancel_requested" if job.cancel_requested else "ok"
            else:
                expect[i] = "lost"
        assert states == expect

    @rule(worker=st.sampled_from(WORKERS), ids=st.lists(jobs, max_size=3, unique=True))
    def release(self, worker: str, ids: list[UUID]) -> None:
        got = dict(self.conn.execute("select * from jq.jq_release(%s::uuid[], %s)", [ids, worker]).fetchall())
        expect = {}
        for i in ids:
            job = self.model[i]
            if not job.held_by(worker):
                continue
            job.locked_by = job.locked_until = None
            if job.cancel_requested:
                expect[i] = "cancelled"
                job.where, job.status, job.finished_at = "history", "cancelled", self.now
                job.last_error = "cancelled while its worker shut down"
            else:
                expect[i] = "released"
                job.status, job.attempts = "pending", max(job.attempts - 1, 0)
        assert got == expect

    @rule(job_id=jobs)
    def cancel(self, job_id: UUID) -> None:
        [(answer,)] = self.conn.execute("select jq.jq_cancel(%s)", [job_id]).fetchall()
        job = self.model[job_id]
        if job.where != "jobs":
            assert answer == "finished"
        elif job.status == "pending":
            assert answer == "cancelled"
            job.where, job.status, job.finished_at = "history", "cancelled", self.now
        else:
            assert answer == "running"
            job.cancel_requested = True

    @rule()
    def cancel_unknown(self) -> None:
        assert self.conn.execute("select jq.jq_cancel(%s)", [uuid.uuid4()]).fetchone()[0] == "not_found"

    @rule()
    def maintain(self) -> None:
        [(done,)] = self.conn.execute("select jq.jq_maintain()").fetchall()
        reaped = self._reap()
        assert done["skipped"] is False and done["leases_reaped"] == len(reaped), (done, reaped)

    # the comparison, after every step

    @invariant()
    def sql_state_equals_the_model(self) -> None:
        ids = self._known()
        rows = self.conn.execute(
            "select s.job_id, s.status, s.attempts, s.max_attempts, s.run_at, s.next_attempt_at, s.last_error,"
            " s.finished_at, s.cancel_requested from unnest(%s::uuid[]) u(id)"
            " cross join lateral jq.jq_status(u.id) s",
            [ids],
        ).fetchall()
        got = {r[0]: r[1:] for r in rows}
        assert set(got) == set(ids), "jq_status lost track of a job"
        for i in ids:
            job = self.model[i]
            status, attempts, max_attempts, run_at, next_at, last_error, finished_at, cancel_requested = got[i]
            where = f"job {i} ({job.where}/{job.status})"
            assert status == job.external(self.now), f"{where}: status {status}"
            assert (attempts, max_attempts) == (job.attempts, job.max_attempts), f"{where}: attempts"
            if job.where == "jobs":
                assert run_at == job.run_at, f"{where}: run_at"
                expect_next = job.run_at if job.status == "pending" and job.attempts > 0 else None
                assert next_at == expect_next, f"{where}: next_attempt_at"
                assert finished_at is None and cancel_requested == job.cancel_requested, where
            else:
                assert finished_at == job.finished_at, f"{where}: finished_at {finished_at}"
            if job.last_error is not None and job.last_error.endswith("..."):
                assert (last_error or "").startswith(job.last_error[:-4]), f"{where}: last_error {last_error!r}"
            else:
                assert last_error == job.last_error, f"{where}: last_error {last_error!r} != {job.last_error!r}"
        leases = {r[0]: r[1:] for r in self.conn.execute("select id, status, locked_by, locked_until from jq.jobs")}
        expect = {j.id: (j.status, j.locked_by, j.locked_until) for j in self.model.values() if j.where == "jobs"}
        assert leases == expect, "jq.jobs leases differ from the model"
        counts = self.conn.execute(
            "select (select count(*) from jq.dead_jobs), (select count(*) from jq.job_history)"
        ).fetchone()
        assert counts == (
            sum(j.where == "dead" for j in self.model.values()),
            sum(j.where == "history" for j in self.model.values()),
        )


def test_properties_state_machine_matches_model(db):
    JobModel.conn = db
    run_state_machine_as_test(
        JobModel,
        settings=settings(
            max_examples=_soak(40, 600),
            stateful_step_count=_soak(30, 60),
            deadline=None,
            suppress_health_check=FIXTURE_OK,
        ),
    )


# -- 7. bad input ----------------------------------------------------------------------------------
#
# Every argument is sent as raw bytes turned into its type on the server
# (convert_from(bytes, 'UTF8')::type), the way any driver's text parameters
# arrive: so NUL bytes, invalid UTF-8, invalid JSON and out-of-range numbers
# all reach PostgreSQL. First a sweep: each argument of each function in turn
# gets every edge value of its type while the others stay valid. Then
# hypothesis: random valid values with up to two arguments wild.

# What a call may fail with: invalid input (class 22), a constraint (23), or jq's own codes.
ACCEPTABLE = ("22", "23", "54", "JQ")  # 54: the payload bounds of jq.settings

SQL_META = [
    "'",
    "''",
    "';--",
    "'; drop table jq.jobs; --",
    "\\",
    '"',
    "$$",
    "$1",
    "%s",
    "%(x)s",
    "%%",
    "/*",
    "*/",
    ";",
    "--",
    "jq.jobs",
    "E'\\x00'",
    "\\x00",
    "*",
    "?",
    ":",
    "{}",
    "{a,b}",
    "a,b",
    "NULL",
    "null",
    "DEFAULT",
    "current_user",
    "\u202e",
    "\ufeff",
    "e\u0301",
    "😀",
    "ß",
    "İ",
    "\u2028",
]
ODD_UNICODE = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=30)
# Stand-ins for the seeded jobs' ids, filled in at call time (the seed is redone after a call changes it).
SEEDS = ("@pending", "@running", "@dead", "@finished")


def _raw(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _pick(values: list) -> st.SearchStrategy:
    """sampled_from, without printing megabytes of values when a test fails."""
    return st.integers(0, len(values) - 1).map(values.__getitem__)


def _nested(depth: int, kind: str) -> str:
    if kind == "object":
        return '{"a":' * depth + "1" + "}" * depth
    return '{"a":' + "[" * depth + "1" + "]" * depth + "}"


WILD_TEXT = [_raw(s) for s in SQL_META] + [
    b"",
    b" ",
    b"\t\n",
    b"a\x00b",
    b"\x00",
    b"\xff\xfe",
    b"\xed\xa0\x80",
    b"\xc3",
    b"\xf4\x90\x80\x80",
    _raw("x" * 63),
    _raw("x" * 64),
    _raw("x" * 65),
    _raw("x" * 128),
    _raw("x" * 129),
    _raw("x" * 255),
    _raw("x" * 256),
    _raw("é" * 129),
    _raw("😀" * 65),
    _raw("q" * 3000),
    _raw("'" * 100_000),
]
WILD_JSON = [
    _raw(s)
    for s in [
        "{",
        "}",
        '{"a":}',
        "{'a': 1}",
        "NaN",
        '{"a": NaN}',
        "Infinity",
        '{"a":1}x',
        "",
        '{"a":"\\u0000"}',
        '{"\\u0000":1}',
        '"\\ud800"',
        '{"a":"\\udfff"}',
        "[]",
        "1",
        "null",
        '"x"',
        "true",
        '{"a":1,"a":2}',
        '{"a":1e999}',
        '{"a":-0}',
        '{"a":1' + "0" * 400 + "}",
        '{"a":"\\u202e\\ufeff"}',
        '{"a":"' + "😀" * 1000 + '"}',
        _nested(1000, "object"),
        _nested(3000, "array"),
        json.dumps({"blob": "x" * 6_000_000}),
        json.dumps({f"k{i}": i for i in range(50_000)}),
        "{" + '"a":' * 3 + "1}",
    ]
] + [b'{"a":"\x00"}', b'{"a":"\xff"}']
WILD_INT = [
    _raw(s)
    for s in [
        "0",
        "-1",
        "1001",
        "1000",
        "32767",
        "32768",
        "-32768",
        "-32769",
        str(2**31 - 1),
        str(2**31),
        str(-(2**31)),
        str(-(2**31) - 1),
        str(2**63),
        str(10**30),
        "1.5",
        "1e3",
        "",
        " 7 ",
        "abc",
        "0x10",
        "--1",
        "NaN",
        "1,000",
    ]
]
WILD_INTERVAL = [
    _raw(s)
    for s in [
        "0",
        "-1 second",
        "0.5 seconds",
        "00:00:00.999999",
        "7 days 00:00:01",
        "366 days",
        "1 month",
        "-1 month",
        "178000000 years",
        "2147483647 days",
        "-2147483648 months",
        "P1D",
        "PT5M",
        "infinity",
        "-infinity",
        "abc",
        "",
        "1 fortnight",
        "1 second ago",
        "1e10 seconds",
    ]
]
WILD_TIMESTAMP = [
    _raw(s)
    for s in [
        "infinity",
        "-infinity",
        "epoch",
        "now",
        "today",
        "tomorrow",
        "allballs",
        "4713-01-01 00:00:00+00 BC",
        "4714-11-24 00:00:00+00 BC",
        "4714-11-23 00:00:00+00 BC",
        "294276-12-31 23:59:59+00",
        "294277-01-01 00:00:00+00",
        "10000-01-01",
        "0001-01-01",
        "2026-02-30",
        "2026-10-20T09:00:00+05:30",
        "2026-10-20T09:00:00",
        "2026-13-01",
        "next tuesday-ish",
        "",
        "2026-10-20 25:00",
        "J2451187",
        "2026-10-20T09:00:00+25:00",
    ]
]
WILD_UUID = [
    _raw(s)
    for s in [
        "not-a-uuid",
        "",
        "00000000-0000-0000-0000-000000000000",
        "{" + "0" * 32 + "}",
        "'; drop table jq.jobs; --",
        str(uuid.uuid4()),
        *SEEDS,
    ]
]
WILD_UUID_ARRAY = [
    _raw(s)
    for s in [
        "{}",
        "{NULL}",
        "{garbage}",
        "{{}}",
        "not an array",
        "",
        "{@running,@running}",
        "{@pending,@dead,@finished}",
        "{NULL,@running}",
        "[1:1]={@running}",
        "{{@running},{@pending}}",
        "{" + ",".join(str(uuid.UUID(int=i)) for i in range(20_000)) + "}",
    ]
]
WILD_TEXT_ARRAY = [
    _raw(s)
    for s in [
        "{}",
        "{NULL}",
        '{""}',
        '{" "}',
        "{a,b",
        "not an array",
        "{{a},{b}}",
        "",
        '{"x\\"y"}',
        "{" + "q" * 3000 + "}",
        "{" + ",".join(["q"] * 10_000) + "}",
        '{"; drop table jq.jobs; --"}',
        "{😀}",
    ]
] + [b"{a\x00}"]
WILD_TIMESTAMP_ARRAY = [
    _raw(s)
    for s in [
        "{}",
        "{NULL}",
        "{infinity}",
        "{-infinity}",
        '{"4713-01-01 00:00:00+00 BC"}',
        '{"294276-12-31 23:59:59+00"}',
        "{garbage}",
        "not an array",
        "",
        "{now,now}",
    ]
]
WILD_BOOL = [_raw(s) for s in ["t", "f", "yes", "0", "maybe", ""]]
# jq_complete's p_results (job results, #18 point 5).
WILD_JSON_ARRAY = [
    _raw(s)
    for s in [
        "{}",
        "{NULL}",
        "{NULL,NULL,NULL}",
        '{"{\\"a\\": 1}"}',
        '{"\\"' + "x" * 70000 + '\\""}',
        '{"{\\"a\\":}"}',
        "not an array",
        "",
    ]
]


WILD = {
    "text": WILD_TEXT,
    "jsonb": WILD_JSON,
    "integer": WILD_INT,
    "smallint": WILD_INT,
    "bigint": WILD_INT,
    "interval": WILD_INTERVAL,
    "timestamp with time zone": WILD_TIMESTAMP,
    "uuid": WILD_UUID,
    "uuid[]": WILD_UUID_ARRAY,
    "text[]": WILD_TEXT_ARRAY,
    "timestamp with time zone[]": WILD_TIMESTAMP_ARRAY,
    "boolean": WILD_BOOL,
    "jsonb[]": WILD_JSON_ARRAY,
}

# Valid values by argument name (else by type): the seeded state makes most calls succeed.
VALID_BY_NAME = {
    "p_type": ["t", "other"],
    "p_queue": ["q", "default", "urgent"],
    "p_worker": ["w", "w2"],
    "p_tenant": ["acme"],
    "p_idempotency_key": ["fresh", "k1"],
    "p_error": ["boom", "Timeout after 30s"],
    "p_name": ["daily", "fresh"],
    "p_cron": ["0 8 * * *", "*/5 * * * *", "@daily"],
    "p_timezone": ["UTC", "Asia/Kolkata", "America/New_York"],
    "p_missed": ["latest", "all", "none"],
    "p_payload": ["{}", '{"a": [1, 2]}'],
    "p_jobs": ['[{"type": "t"}]', '[{"type": "t", "queue": "q", "priority": 2}]'],
    "p_priority": ["0", "5", "-5"],
    "p_limit": ["1", "2", "1000"],
    "p_max_attempts": ["3", "1", "1000"],
    "p_jitter_seconds": ["0", "60"],
    "p_lease": ["30 seconds", "5 minutes"],
    "p_retry_in": ["5 seconds", "0"],
    "p_run_at": ["2030-01-01T00:00:00Z", "2020-01-01T00:00:00+05:30"],
    "p_since": ["2020-01-01T00:00:00Z"],
    "p_next_run_at": ["2030-01-01T00:00:00Z"],
    "p_after": ["2026-03-01T00:00:00Z", "2026-11-01T06:10:00Z"],
    "p_count": ["1", "5"],
    "p_job_id": ["@running", "@pending", "@dead"],
    "p_job_ids": ["{@running}", "{@running,@pending}"],
    "p_types": ["{t}", "{t,other}"],
    "p_queues": ["{q}"],
    "p_names": ["{daily}"],
    "p_due_at": ['{"2030-01-01T00:00:00Z"}'],
    "p_slots": ['{"2030-01-01T00:00:00Z"}'],
    "p_discard": ["false", "true"],
    "p_waiting": ["true", "false"],
}
VALID_BY_TYPE = {
    "text": ["t"],
    "jsonb": ["{}"],
    "integer": ["1"],
    "smallint": ["1"],
    "bigint": ["1"],
    "interval": ["1 minute"],
    "timestamp with time zone": ["2030-01-01T00:00:00Z"],
    "uuid": ["@running"],
    "uuid[]": ["{@running}"],
    "text[]": ["{t}"],
    "timestamp with time zone[]": ['{"2030-01-01T00:00:00Z"}'],
    "boolean": ["true"],
    "jsonb[]": ["{NULL}", '{"{\\"rows\\": 1}"}'],
}


def valid_values(sql_type: str, name: str) -> list[bytes]:
    values = VALID_BY_NAME.get(name) or VALID_BY_TYPE.get(sql_type)
    assert values, f"no valid value for {name} {sql_type}: add one"
    return [_raw(v) for v in values]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | ODD_UNICODE,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ODD_UNICODE, inner, max_size=4),
    max_leaves=15,
)
ENQUEUE_MANY_JOB = st.fixed_dictionaries(
    {"type": st.sampled_from(["t", "", " ", "x" * 129]) | ODD_UNICODE},
    optional={
        "payload": st.dictionaries(ODD_UNICODE, JSON_VALUES, max_size=3) | JSON_VALUES,
        "queue": st.sampled_from(["default", "q", "bad queue", "x" * 65]) | ODD_UNICODE,
        "priority": st.integers(-(2**40), 2**40) | st.floats() | st.just("high"),
        "run_at": st.sampled_from(["2026-10-20T09:00:00Z", "infinity", "-infinity", "soon", "294277-01-01T00:00:00Z"])
        | st.integers(),
        "max_attempts": st.integers(-5, 2000) | st.just(1.5),
        "idempotency_key": st.sampled_from(["k0", "k1", "dup", "", "x" * 256]) | st.none(),
        "tenant": st.sampled_from(["acme", "", "x" * 129]) | st.none(),
        "colour": st.just("red"),
    },
)


def wild_strategy(sql_type: str, name: str) -> st.SearchStrategy[bytes | None]:
    """Edge values of the type, plus generated ones."""
    generated: list[st.SearchStrategy] = []
    if sql_type == "text":
        generated = [ODD_UNICODE.map(_raw), st.binary(max_size=20)]
    elif sql_type == "jsonb":
        generated = [
            st.dictionaries(ODD_UNICODE, JSON_VALUES, max_size=5).map(lambda d: _raw(json.dumps(d))),
            JSON_VALUES.map(lambda v: _raw(json.dumps(v))),
        ]
        if name == "p_jobs":
            generated.append(st.lists(ENQUEUE_MANY_JOB, max_size=5).map(lambda xs: _raw(json.dumps(xs))))
    elif sql_type in ("integer", "smallint", "bigint"):
        generated = [st.integers(-(2**64), 2**64).map(lambda i: _raw(str(i)))]
    elif sql_type == "interval":
        generated = [
            st.builds(
                lambda n, unit: _raw(f"{n} {unit}"),
                st.integers(-(10**9), 10**9),
                st.sampled_from(["microseconds", "seconds", "minutes", "hours", "days", "years"]),
            )
        ]
    elif sql_type == "timestamp with time zone":
        generated = [
            st.datetimes(
                min_value=datetime(1, 1, 1),
                max_value=datetime(9999, 12, 31),
                timezones=st.sampled_from([UTC, timezone(timedelta(hours=14))]),
            ).map(lambda d: _raw(d.isoformat()))
        ]
    elif sql_type == "uuid":
        generated = [st.uuids().map(lambda u: _raw(str(u)))]
    elif sql_type in ("uuid[]", "text[]"):
        element = st.sampled_from(SEEDS) | st.uuids().map(str) if sql_type == "uuid[]" else ODD_UNICODE
        generated = [
            st.lists(element, max_size=5).map(
                lambda xs: _raw(
                    "{" + ",".join('"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"' for x in xs) + "}"
                )
            )
        ]
    return st.one_of(_pick(WILD[sql_type]), *generated, st.none())


@dataclass
class Seeded:
    """Jobs in every place, and a schedule, so that bad input meets real rows too."""

    ids: dict[str, UUID]

    def fill(self, raw: bytes) -> bytes:
        for name, job_id in self.ids.items():
            raw = raw.replace(name.encode(), str(job_id).encode())
        return raw


def _seed(conn: psycopg.Connection) -> Seeded:
    _reset(conn)
    # Policies and registrations earlier calls left would change what the seed's claim gets.
    for table in ("jq.tenant_policies", "jq.key_limits", "jq.workers"):
        conn.execute(f"delete from {table}")
    conn.execute("reset jq.now")
    ids = [
        r.job_id
        for r in pyjq.enqueue_many(
            conn,
            [
                {"type": "t", "queue": "q", "priority": p, "idempotency_key": f"k{p}", "tenant": "acme"}
                for p in range(4)
            ],
        )
    ]
    claimed = [r[0] for r in conn.execute("select id from jq.jq_claim('q', 'w', 3)")]
    running, doomed, finished = claimed
    conn.execute("select jq.jq_fail(%s, 'w', 'boom', null, true)", [doomed])
    conn.execute("select jq.jq_complete(array[%s]::uuid[], 'w')", [finished])
    pending = next(i for i in ids if i not in claimed)
    if conn.execute("select to_regproc('jq.jq_schedule_put') is not null").fetchone()[0]:
        conn.execute("delete from jq.schedules")
        conn.execute("select * from jq.jq_schedule_put('daily', '0 8 * * *', 'Asia/Kolkata', 't')")
    return Seeded({"@pending": pending, "@running": running, "@dead": doomed, "@finished": finished})


def public_functions(conn: psycopg.Connection) -> list[tuple[str, list[str], list[str], int]]:
    """Every public jq_* function: (name, argument types, argument names, number of defaults)."""
    return conn.execute(
        "select p.proname, array(select format_type(t, null) from unnest(p.proargtypes) t),"
        "       coalesce(p.proargnames[1:p.pronargs], array[]::text[]), p.pronargdefaults"
        "  from pg_proc p join pg_namespace n on n.oid = p.pronamespace"
        " where n.nspname = 'jq' and p.proname like 'jq\\_%%' order by 1, 2"
    ).fetchall()


TABLES = [
    "jq.jobs",
    "jq.dead_jobs",
    "jq.job_history",
    "jq.idempotency_keys",
    "jq.schedules",
    "jq.queue_waiters",
    "jq.workers",
    "jq.settings",
    "jq.migrations",
]
SNAPSHOT_SQL = "select " + ", ".join(
    f"(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from {table} t)" for table in TABLES
)


class BadInput:
    """Calls one function with raw arguments and checks the outcome."""

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn
        self.seeded = _seed(conn)
        self.snapshot = self._snapshot()
        self.tally: dict[str, list[int]] = {}

    def _snapshot(self) -> tuple:
        return self.conn.execute(SNAPSHOT_SQL).fetchone()

    def call(self, fname: str, types: list[str], args: list[bytes | None], in_hypothesis: bool = False) -> None:
        exprs = [
            "null::" + t if a is None else f"convert_from(%s::bytea, 'UTF8')::{t}"
            for a, t in zip(args, types, strict=False)
        ]  # args may stop short: the rest take their defaults
        params = [self.seeded.fill(a) for a in args if a is not None]
        statement = f"select count(*) from jq.{fname}({', '.join(exprs)})"  # rows are not read
        shown = [p[:120] + (b"..." if len(p) > 120 else b"") for p in params]
        if in_hypothesis:
            note(f"{statement} with {shown}")
        counts = self.tally.setdefault(fname, [0, 0])
        try:
            self.conn.execute(statement, params).fetchone()
        except psycopg.Error as exc:
            counts[1] += 1
            state = exc.sqlstate or "(none)"
            assert state[:2] in ACCEPTABLE and state != "P0001", (
                f"{fname}{tuple(shown)}: SQLSTATE {state} ({type(exc).__name__}: {str(exc).strip()[:300]})"
            )
            assert self._snapshot() == self.snapshot, f"{fname}{tuple(shown)} failed with {state} but changed tables"
            return
        counts[0] += 1
        try:  # the state it left can still be reported on
            self.conn.execute("select count(*) from jq.jq_stats()").fetchone()
            self.conn.execute("select count(*) from jq.jq_dead_groups()").fetchone()
            self.conn.execute("select count(*) from jq.jobs j cross join lateral jq.jq_status(j.id)").fetchone()
        except psycopg.Error as exc:
            raise AssertionError(
                f"after {fname}{tuple(shown)} succeeded, reporting fails: SQLSTATE {exc.sqlstate} "
                f"{str(exc).strip()[:300]}"
            ) from exc
        finally:
            if self._snapshot() != self.snapshot:  # the call changed the seeded state: start again from it
                self.seeded = _seed(self.conn)
                self.snapshot = self._snapshot()


def random_calls(
    checker: BadInput, fname: str, types: list[str], argnames: list[str], valid: list[list[bytes]], required: int
) -> Callable[[], None]:
    """A Hypothesis test calling fname with the first `required` or more arguments, up to two of them wild."""

    @settings(max_examples=_soak(25, 500), deadline=None, suppress_health_check=FIXTURE_OK, database=None)
    @given(data=st.data())
    def calls(data: st.DataObject) -> None:
        supplied = data.draw(st.integers(required, len(types)), label="arguments given")
        wild = data.draw(st.sets(st.integers(0, max(0, supplied - 1)), max_size=min(2, supplied)), label="wild")
        args = [
            data.draw(wild_strategy(t, n) if i in wild else st.sampled_from(valid[i]), label=n)
            for i, (t, n) in enumerate(zip(types[:supplied], argnames, strict=False))
        ]
        checker.call(fname, types, args, in_hypothesis=True)

    return calls


def test_properties_bad_input_to_every_public_function(db, capsys):
    functions = public_functions(db)
    names = {f[0] for f in functions}
    for expected in (
        "jq_enqueue",
        "jq_enqueue_many",
        "jq_claim",
        "jq_complete",
        "jq_fail",
        "jq_heartbeat",
        "jq_release",
        "jq_cancel",
        "jq_status",
        "jq_dead_groups",
        "jq_retry_dead",
        "jq_stats",
        "jq_maintain",
        "jq_version",
        "jq_set_waiting",
    ):
        assert expected in names, f"{expected} not found among {sorted(names)}"
    db.execute("set statement_timeout = '60s'")
    checker = BadInput(db)
    problems: list[str] = []

    for fname, types, argnames, ndefaults in functions:
        argnames = list(argnames) + [f"arg{i}" for i in range(len(argnames), len(types))]
        valid = [valid_values(t, n) for t, n in zip(types, argnames, strict=True)]
        # The sweep: every edge value in every position, the other arguments valid.
        try:
            if ndefaults == len(types):
                checker.call(fname, types, [])
            for i, t in enumerate(types):
                for value in WILD[t] + [None]:
                    args = [v[0] for v in valid]
                    args[i] = value
                    checker.call(fname, types, args)
        except AssertionError as exc:
            problems.append(str(exc))
            continue

        try:
            random_calls(checker, fname, types, argnames, valid, required=len(types) - ndefaults)()
        except AssertionError as exc:
            problems.append(str(exc)[:3000])
    with capsys.disabled():
        print(
            "\nbad input: calls per function (succeeded/failed cleanly): "
            + ", ".join(f"{f} {ok}/{bad}" for f, (ok, bad) in sorted(checker.tally.items()))
        )
    assert not problems, "\n\n".join(problems)


# -- 7b. bad input over HTTP ------------------------------------------------------------------------

HTTP_TOKENS = {"producer-token-properties": "producer", "admin-token-properties": "admin"}
HTTP_PRODUCER = {"Authorization": "Bearer producer-token-properties"}
HTTP_ADMIN = {"Authorization": "Bearer admin-token-properties"}

WILD_STRINGS = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "t",
            "default",
            "q",
            "acme",
            "daily",
            "0 8 * * *",
            "UTC",
            "Mars/Olympus",
            "latest",
            "a\u0000b",
            "\ud800",
            "x" * 64,
            "x" * 65,
            "x" * 128,
            "x" * 129,
            "x" * 255,
            "x" * 256,
            "😀" * 65,
            "infinity",
            "-infinity",
            "0001-01-01T00:00:00Z",
            "0001-01-01T00:00:00+14:00",
            "9999-12-31T23:59:59Z",
            "9999-12-31T23:59:59-14:00",
            "10000-01-01T00:00:00Z",
            "2026-10-20T09:00:00+05:30",
            "2026-10-20T09:00:00",
            "2026-02-30T00:00:00Z",
            *SQL_META,
        ]
    ),
    ODD_UNICODE,
)
WILD_NUMBERS = st.one_of(
    st.sampled_from(
        [0, 1, -1, 25, 1000, 1001, 32767, 32768, -32769, 2**31, 2**63, 10**30, 1.5, -0.0, 1e308, 86400, 86401]
    ),
    st.integers(),
    st.floats(allow_nan=False),
)
WILD_JSON_VALUE = st.one_of(WILD_STRINGS, WILD_NUMBERS, st.none(), st.booleans(), JSON_VALUES)


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


WILD_PAYLOADS = st.one_of(
    st.dictionaries(ODD_UNICODE, JSON_VALUES, max_size=4),
    JSON_VALUES,
    st.sampled_from([10, 500, 990]).map(_deep),
    _pick([{"a": "\u0000"}, {"\u0000": 1}, {"a": "\ud800"}, {"blob": "x" * 2_000_000}]),
)
# Raw bodies: broken JSON, nesting deeper than any parser's recursion, wrong shapes.
WILD_BODIES = _pick(
    [
        b"",
        b"{",
        b"null",
        b"[]",
        b"1",
        b'"x"',
        b"{'type': 't'}",
        b'{"type": "t"}x',
        b"[" * 100_000 + b"]" * 100_000,
        b'{"type": "t", "payload": ' + b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b"}",
        b'{"type": "t", "payload": {"n": 1e5000}}',
        b'{"type": "\\u0000"}',
        b'{"type": "\xff"}',
        b'{"type": "t", "type": "u"}',
    ]
)


def _fields(names: dict[str, st.SearchStrategy]) -> st.SearchStrategy[dict]:
    """Request objects: each field valid, wild, or left out; now and then an unknown one."""
    return st.fixed_dictionaries(
        {}, optional={k: st.one_of(v, WILD_JSON_VALUE) for k, v in names.items()} | {"colour": st.just("red")}
    )


ENQUEUE_BODY = _fields(
    {
        "type": st.sampled_from(["t", "other"]),
        "payload": WILD_PAYLOADS,
        "queue": st.sampled_from(["default", "q"]),
        "priority": st.integers(-5, 5),
        "runAt": st.sampled_from(["2026-10-20T09:00:00+05:30", "2030-01-01T00:00:00Z"]),
        "maxAttempts": st.integers(1, 5),
        "idempotencyKey": st.sampled_from(["k0", "k1", "fresh"]),
        "tenant": st.sampled_from(["acme"]),
    }
)
SCHEDULE_BODY = _fields(
    {
        "cron": st.sampled_from(["0 8 * * *", "@daily"]),
        "timezone": st.sampled_from(["UTC"]),
        "type": st.sampled_from(["t"]),
        "payload": WILD_PAYLOADS,
        "queue": st.sampled_from(["q"]),
        "priority": st.integers(-5, 5),
        "jitterSeconds": st.integers(0, 600),
        "maxAttempts": st.integers(1, 5),
        "missed": st.sampled_from(["latest", "all", "none"]),
    }
)
RETRY_BODY = _fields(
    {
        "type": st.sampled_from(["t"]),
        "error": st.sampled_from(["boom"]),
        "since": st.sampled_from(["2020-01-01T00:00:00Z"]),
        "limit": st.integers(1, 10),
    }
)


def test_properties_bad_input_over_http(db, dsn, capsys):
    pytest.importorskip("fastapi")  # the HTTP service is an optional extra
    from urllib.parse import quote

    with warnings.catch_warnings():  # starlette nudges towards httpx2; httpx works
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from pyjq.http import create_app

    def url(text: str) -> str:  # percent-encoded; a lone surrogate becomes invalid UTF-8
        return quote(text, safe="", errors="surrogatepass")

    seeded = _seed(db)
    snapshot = db.execute(SNAPSHOT_SQL).fetchone()
    statuses: dict[str, dict[int, int]] = {}
    ids = st.one_of(st.sampled_from(list(seeded.ids.values())).map(str), st.uuids().map(str), WILD_STRINGS)

    request = st.one_of(
        st.tuples(
            st.just("POST"),
            st.just("/jobs"),
            ENQUEUE_BODY.map(lambda b: ("json", b)) | WILD_BODIES.map(lambda b: ("raw", b)),
        ),
        st.tuples(st.sampled_from(["GET", "POST"]), ids.map(lambda i: f"/jobs/{url(i)}"), st.none()).map(
            lambda t: (t[0], t[1] + ("/cancel" if t[0] == "POST" else ""), None)
        ),
        st.tuples(
            st.just("PUT"),
            WILD_STRINGS.map(lambda n: f"/schedules/{url(n) or 'x'}"),
            SCHEDULE_BODY.map(lambda b: ("json", b)) | WILD_BODIES.map(lambda b: ("raw", b)),
        ),
        st.tuples(
            st.sampled_from(["GET", "DELETE"]), WILD_STRINGS.map(lambda n: f"/schedules/{url(n) or 'x'}"), st.none()
        ),
        st.tuples(
            st.just("GET"),
            st.tuples(WILD_STRINGS, WILD_STRINGS).map(lambda t: f"/dead-letter?type={url(t[0])}&since={url(t[1])}"),
            st.none(),
        ),
        st.tuples(
            st.just("POST"),
            st.just("/dead-letter/retry"),
            RETRY_BODY.map(lambda b: ("json", b)) | WILD_BODIES.map(lambda b: ("raw", b)),
        ),
    )

    with TestClient(create_app(dsn, tokens=HTTP_TOKENS)) as client:

        @settings(max_examples=_soak(150, 3000), deadline=None, suppress_health_check=FIXTURE_OK, database=None)
        @given(req=request)
        def send(req: tuple) -> None:
            nonlocal seeded, snapshot
            method, path, body = req
            headers = HTTP_ADMIN if not path.startswith("/jobs") else HTTP_PRODUCER
            kwargs: dict[str, Any] = {}
            if body is not None:
                kind, content = body
                if kind == "json":
                    content = json.dumps(content, ensure_ascii=False).encode("utf-8", "surrogatepass")
                kwargs = {"content": content, "headers": dict(headers, **{"Content-Type": "application/json"})}
            else:
                kwargs = {"headers": headers}
            note(f"{method} {path[:200]} {str(body)[:300]}")
            response = client.request(method, path, **kwargs)
            route = f"{method} {path.split('?')[0].split('/')[1]}"
            statuses.setdefault(route, {}).setdefault(response.status_code, 0)
            statuses[route][response.status_code] += 1
            assert response.status_code < 500, f"{method} {path[:200]}: {response.status_code} {response.text[:500]}"
            now = db.execute(SNAPSHOT_SQL).fetchone()
            error = response.json().get("error", {}) if response.status_code >= 400 else {}
            if response.status_code >= 400:
                assert error.get("code") and error.get("message") and error.get("requestId"), response.text[:500]
            # 409 JOB_RUNNING is not a refusal: jq_cancel recorded the cancellation of a running job
            # (cooperative), as documented; every other error must leave the tables as they were.
            if response.status_code >= 400 and error.get("code") != "JOB_RUNNING":
                assert now == snapshot, f"{method} {path[:200]} answered {response.status_code} but changed tables"
            elif now != snapshot:
                db.execute("select count(*) from jq.jq_stats()")
                db.execute("select count(*) from jq.jobs j cross join lateral jq.jq_status(j.id)")
                seeded = _seed(db)
                snapshot = db.execute(SNAPSHOT_SQL).fetchone()

        send()
    with capsys.disabled():
        print(
            "\nbad input over HTTP: answers per route: "
            + ", ".join(f"{r} {dict(sorted(s.items()))}" for r, s in sorted(statuses.items()))
        )
