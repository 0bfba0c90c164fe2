"""Task objects (pyjq.tasks) and retry policies (pyjq.retry), against a real database.

The payload checks run before anything is written (each refusal is checked to
leave jq.jobs empty); the worker honours a task's defaults, timeout and retry
policy. Workers run with drain/run_until_empty in this process.
"""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pydantic
import pytest

import pyjq
from pyjq.retry import RetryDecision

# -- the tasks under test ----------------------------------------------------------------

tasks = pyjq.TaskRegistry()


@tasks.task("send_welcome_email", queue="urgent", priority=5, max_attempts=8, timeout=30)
def send_welcome_email(user_id: int, locale: str = "en", tags: list[str] | None = None) -> str:
    return f"welcome {user_id} {locale}"


@dataclasses.dataclass
class Report:
    report_id: int
    format: str = "pdf"

    def __post_init__(self) -> None:
        if self.format not in ("pdf", "csv"):
            raise ValueError(f"unknown format {self.format!r}")


@tasks.task("make_report")
def make_report(report: Report, job: pyjq.Job) -> None:
    pass


class Signup(pydantic.BaseModel):
    email: str
    plan: str = "free"
    seats: int = 1


@tasks.task("provision_account", queue="bulk")
async def provision_account(signup: Signup) -> None:
    pass


def jobs_written(db: psycopg.Connection) -> int:
    row = db.execute("select count(*) from jq.jobs").fetchone()
    assert row is not None
    return int(row[0])


def row_of(db: psycopg.Connection, job_id: Any) -> dict[str, Any]:
    cur = db.execute(
        "select type, queue, priority, max_attempts, payload, tenant, concurrency_key, idempotency_key, run_at"
        " from jq.jobs where id = %s",
        [job_id],
    )
    values = cur.fetchone()
    assert values is not None and cur.description is not None
    return dict(zip([c.name for c in cur.description], values, strict=True))


# -- checking payloads (no database) ----------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "field", "problem"),
    [
        ({}, "user_id", "missing"),
        ({"user_id": "42"}, "user_id", "expected int, got str"),
        ({"user_id": True}, "user_id", "expected int, got bool"),
        ({"user_id": 1, "colour": "red"}, "colour", "unexpected field"),
        ({"user_id": 1, "tags": ["a", 2]}, "tags", "expected list[str] | None"),
        ({"user_id": 1, "locale": datetime(2026, 1, 1)}, "locale", "expected str"),
    ],
)
def test_keyword_payload_is_checked_against_the_signature(fields: dict[str, Any], field: str, problem: str):
    with pytest.raises(pyjq.TaskPayloadError, match=problem) as caught:
        send_welcome_email.payload(**fields)
    assert caught.value.task == "send_welcome_email" and caught.value.field == field
    assert f"task 'send_welcome_email', field '{field}'" in str(caught.value)
    assert isinstance(caught.value, pyjq.InvalidArgument)


def test_keyword_payload_values_must_be_json():
    t = pyjq.Task(lambda when, **extra: None, "untyped")
    assert t.payload(when="2026-01-01", more=[1, {"a": None}]) == {"when": "2026-01-01", "more": [1, {"a": None}]}
    with pytest.raises(pyjq.TaskPayloadError, match="datetime value is not JSON") as caught:
        t.payload(when=datetime.now(UTC))
    assert caught.value.field == "when"
    with pytest.raises(pyjq.TaskPayloadError, match="not JSON"):
        t.payload(when=float("nan"))


def test_a_field_named_like_an_enqueue_option_is_refused_when_the_task_is_made():
    with pytest.raises(ValueError, match="may not be named 'priority'"):
        pyjq.Task(lambda priority: None, "clash")


def test_dataclass_payload_from_an_instance_or_its_fields():
    assert make_report.payload(Report(7)) == {"report_id": 7, "format": "pdf"}
    assert make_report.payload(report_id=7, format="csv") == {"report_id": 7, "format": "csv"}
    with pytest.raises(pyjq.TaskPayloadError, match="missing") as caught:
        make_report.payload(format="csv")
    assert caught.value.field == "report_id"
    with pytest.raises(pyjq.TaskPayloadError, match="unknown format 'xls'") as caught:
        make_report.payload(report_id=7, format="xls")  # the dataclass's own check
    assert caught.value.task == "make_report" and caught.value.field is None
    with pytest.raises(pyjq.TaskPayloadError, match="expected Report, got Signup"):
        make_report.payload(Signup(email="a@example.com"))


def test_pydantic_payload_is_validated_by_the_model():
    assert provision_account.payload(email="a@example.com") == {"email": "a@example.com", "plan": "free", "seats": 1}
    assert provision_account.payload(Signup(email="b@example.com", seats=3))["seats"] == 3
    with pytest.raises(pyjq.TaskPayloadError, match="valid integer") as caught:
        provision_account.payload(email="a@example.com", seats="many")
    assert (caught.value.task, caught.value.field) == ("provision_account", "seats")


@pytest.mark.processes
def test_pyjq_tasks_never_imports_pydantic():
    code = (
        "import sys, dataclasses, pyjq, pyjq.tasks\n"
        "@dataclasses.dataclass\nclass P:\n    n: int\n"
        "t = pyjq.Task(lambda p: None, 'x')\n"
        "t2 = pyjq.TaskRegistry().task('y')(lambda p: None)\n"
        "pyjq.Task.__init__  # noqa\n"
        "sys.exit('pydantic' in sys.modules)\n"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_task_is_still_its_function():
    assert send_welcome_email(3, locale="fr") == "welcome 3 fr"
    assert list(tasks) == [send_welcome_email, make_report, provision_account]
    assert tasks["make_report"] is make_report and "nope" not in tasks


# -- retry policies (no database) -------------------------------------------------------


def test_retry_policy_backoff_doubles_up_to_its_cap():
    policy = pyjq.RetryPolicy(backoff_base=5, backoff_cap=60, jitter=0)
    assert [policy.delay(n) for n in range(1, 7)] == [timedelta(seconds=s) for s in (5, 10, 20, 40, 60, 60)]
    assert pyjq.RetryPolicy().delay(3) is None  # jq's own jq.retry_delay
    spread = {pyjq.RetryPolicy(backoff_base=100).delay(1) for _ in range(50)}
    assert all(timedelta(seconds=75) <= d <= timedelta(seconds=125) for d in spread if d) and len(spread) > 1


def test_retry_policy_decides_which_exceptions_retry():
    policy = pyjq.RetryPolicy(backoff_base=1, jitter=0, retry_on=(ConnectionError,), discard_on=ConnectionResetError)
    assert policy.decide(ConnectionRefusedError(), 2) == RetryDecision(timedelta(seconds=2), False)
    assert policy.decide(ConnectionResetError(), 2) == RetryDecision(None, True)  # discard_on first
    assert policy.decide(KeyError("x"), 1) == RetryDecision(None, True)  # not in retry_on
    assert pyjq.RetryPolicy().decide(KeyError("x"), 1) == RetryDecision(None, False)
    with pytest.raises(TypeError):
        pyjq.RetryPolicy(retry_on=("ValueError",))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        pyjq.RetryPolicy(backoff_base=10, backoff_cap=5)


# -- enqueueing ---------------------------------------------------------------------------


def test_enqueue_uses_the_task_defaults(db):
    queued = send_welcome_email.enqueue(db, user_id=42)
    row = row_of(db, queued.job_id)
    assert (row["type"], row["queue"], row["priority"], row["max_attempts"]) == ("send_welcome_email", "urgent", 5, 8)
    assert row["payload"] == {"user_id": 42}
    assert queued.status == "queued" and not queued.duplicate


def test_enqueue_takes_per_call_overrides(db):
    later = datetime.now(UTC) + timedelta(hours=1)
    queued = send_welcome_email.enqueue(
        db,
        user_id=43,
        locale="de",
        queue="default",
        priority=1,
        max_attempts=3,
        run_at=later,
        idempotency_key="welcome:43",
        tenant="acme",
        concurrency_key="user:43",
    )
    row = row_of(db, queued.job_id)
    assert (row["queue"], row["priority"], row["max_attempts"], row["tenant"], row["concurrency_key"]) == (
        "default",
        1,
        3,
        "acme",
        "user:43",
    )
    assert row["payload"] == {"user_id": 43, "locale": "de"} and row["run_at"] == later
    assert queued.status == "scheduled"
    again = send_welcome_email.enqueue(db, user_id=43, queue="default", idempotency_key="welcome:43")
    assert again.duplicate and again.job_id == queued.job_id


def test_a_bad_payload_writes_nothing(db):
    with pytest.raises(pyjq.TaskPayloadError):
        send_welcome_email.enqueue(db, user_id="not a number")
    with pytest.raises(pyjq.TaskPayloadError):
        make_report.enqueue(db, report_id=1, format="xls")
    with pytest.raises(pyjq.TaskPayloadError):
        send_welcome_email.enqueue_many(db, [{"user_id": 1}, {"user_id": 2}, {"user": 3}])
    assert jobs_written(db) == 0


def test_enqueue_a_model_instance(db):
    queued = make_report.enqueue(db, Report(9, "csv"), priority=2)
    assert row_of(db, queued.job_id)["payload"] == {"report_id": 9, "format": "csv"}
    queued = provision_account.enqueue(db, Signup(email="c@example.com"))
    row = row_of(db, queued.job_id)
    assert row["queue"] == "bulk" and row["payload"] == {"email": "c@example.com", "plan": "free", "seats": 1}


def test_enqueue_many_in_one_call(db):
    results = make_report.enqueue_many(db, [Report(1), {"report_id": 2}, Report(3, "csv")], tenant="t1")
    assert [r.status for r in results] == ["queued"] * 3
    payloads = db.execute(
        "select payload->>'report_id', tenant from jq.jobs where type = 'make_report' order by 1"
    ).fetchall()
    assert payloads == [("1", "t1"), ("2", "t1"), ("3", "t1")]


def test_enqueue_async_and_enqueue_many_async(dsn, db):
    async def main() -> None:
        async with await psycopg.AsyncConnection.connect(dsn) as conn:
            async with conn.transaction():
                await send_welcome_email.enqueue_async(conn, user_id=5, priority=9)
                await provision_account.enqueue_many_async(conn, [Signup(email="x@example.com"), {"email": "y"}])
            with pytest.raises(pyjq.TaskPayloadError):
                await send_welcome_email.enqueue_async(conn, locale="en")

    asyncio.run(main())
    rows = db.execute("select type, priority from jq.jobs order by type").fetchall()
    assert rows == [("provision_account", 0), ("provision_account", 0), ("send_welcome_email", 9)]


def test_enqueue_rolls_back_with_the_transaction(db):
    with pytest.raises(RuntimeError), db.transaction():
        send_welcome_email.enqueue(db, user_id=1)
        raise RuntimeError("the business change failed")
    assert jobs_written(db) == 0


# -- the worker runs tasks ------------------------------------------------------------------


def test_worker_runs_tasks_with_their_arguments(db, dsn):
    seen: list[Any] = []
    worker = pyjq.Worker(dsn, queues={"default": 2, "bulk": 2})

    @worker.task("greet")
    def greet(name: str, job: pyjq.Job, punctuation: str = "!") -> None:
        seen.append((f"hello {name}{punctuation}", job.type, job.attempts))

    @worker.task("provision_async", queue="bulk")
    async def provision(signup: Signup) -> None:
        seen.append(signup)

    greet.enqueue(db, name="ada")
    provision.enqueue(db, email="ada@example.com", seats=2)
    summary = worker.run_until_empty(timeout=30)
    assert summary.succeeded == 2
    assert ("hello ada!", "greet", 1) in seen
    assert Signup(email="ada@example.com", seats=2) in seen


def test_worker_registers_a_registry(db, dsn):
    worker = pyjq.Worker(dsn, queues={"urgent": 2, "default": 2, "bulk": 1})
    worker.add_tasks(tasks)
    assert worker.types == ["make_report", "provision_account", "send_welcome_email"]
    send_welcome_email.enqueue(db, user_id=1)
    make_report.enqueue(db, Report(1))
    assert worker.run_until_empty(timeout=30).succeeded == 2


def test_plain_enqueue_and_handlers_keep_working_beside_tasks(db, dsn):
    worker = pyjq.Worker(dsn)
    worker.add_tasks([make_report])
    ran: list[dict[str, Any]] = []
    worker.handler("plain")(lambda job: ran.append(job.payload))
    pyjq.enqueue(db, "plain", {"a": 1})
    pyjq.enqueue(db, "make_report", {"report_id": 4})  # a task's type, enqueued without the task
    assert worker.run_until_empty(timeout=30).succeeded == 2
    assert ran == [{"a": 1}]


def test_a_payload_that_does_not_fit_is_dead_lettered_at_once(db, dsn):
    worker = pyjq.Worker(dsn)
    worker.add_tasks([make_report])
    bad = pyjq.enqueue(db, "make_report", {"report": 4}, max_attempts=5)  # by hand, not through the task
    assert worker.run_until_empty(timeout=30).dead == 1
    shown = pyjq.status(db, bad.job_id)
    assert shown is not None and shown.status == "dead" and shown.attempts == 1
    assert shown.last_error is not None and "payload does not fit the task" in shown.last_error
    assert "field 'report'" in shown.last_error


# -- retry policies, honoured by the worker ----------------------------------------------------


def test_an_exception_in_retry_on_retries_after_the_policys_delay(db, dsn):
    worker = pyjq.Worker(dsn)

    @worker.task("flaky", retry=pyjq.RetryPolicy(backoff_base=120, jitter=0, retry_on=(ConnectionError,)))
    def flaky() -> None:
        raise ConnectionRefusedError("provider down")

    queued = flaky.enqueue(db)
    before = datetime.now(UTC)
    assert worker.run_until_empty(timeout=30).failed_retrying == 1
    shown = pyjq.status(db, queued.job_id)
    assert shown is not None and shown.status == "failed_retrying" and shown.next_attempt_at is not None
    wait = shown.next_attempt_at - before
    assert timedelta(seconds=119) <= wait <= timedelta(seconds=180), wait  # the policy's 120 s, not jq's ~2 s


def test_an_exception_in_discard_on_dies_at_once(db, dsn):
    worker = pyjq.Worker(dsn)

    @worker.task("strict", max_attempts=8, retry=pyjq.RetryPolicy(discard_on=(ValueError,)))
    def strict(n: int) -> None:
        raise ValueError(f"{n} is not acceptable")

    @worker.task("picky", max_attempts=8, retry=pyjq.RetryPolicy(retry_on=(ConnectionError,)))
    def picky() -> None:
        raise KeyError("not a retryable error")

    first, second = strict.enqueue(db, n=3), picky.enqueue(db)
    assert worker.run_until_empty(timeout=30).dead == 2
    for queued, error in ((first, "ValueError: 3 is not acceptable"), (second, "KeyError")):
        shown = pyjq.status(db, queued.job_id)
        assert shown is not None and (shown.status, shown.attempts, shown.max_attempts) == ("dead", 1, 8)
        assert shown.last_error is not None and error in shown.last_error


def test_max_attempts_come_from_the_task(db, dsn):
    worker = pyjq.Worker(dsn)
    calls: list[int] = []

    @worker.task("twice", retry=pyjq.RetryPolicy(max_attempts=2, backoff_base=0, jitter=0))
    def twice(job: pyjq.Job) -> None:
        calls.append(job.attempts)
        raise ConnectionError("still down")

    queued = twice.enqueue(db)
    assert row_of(db, queued.job_id)["max_attempts"] == 2
    for _ in range(2):
        worker.run_until_empty(timeout=30)
    shown = pyjq.status(db, queued.job_id)
    assert shown is not None and (shown.status, shown.attempts) == ("dead", 2)
    assert calls == [1, 2]


def test_the_task_timeout_fails_the_attempt_and_the_policy_decides(db, dsn):
    worker = pyjq.Worker(dsn)

    @worker.task("slow", timeout=0.2)
    async def slow() -> None:
        await asyncio.sleep(10)

    @worker.task("slow_discard", timeout=timedelta(milliseconds=200), retry=pyjq.RetryPolicy(discard_on=TimeoutError))
    async def slow_discard() -> None:
        await asyncio.sleep(10)

    retried, discarded = slow.enqueue(db), slow_discard.enqueue(db)
    summary = worker.run_until_empty(timeout=30)
    assert (summary.failed_retrying, summary.dead) == (1, 1)
    shown = pyjq.status(db, retried.job_id)
    assert shown is not None and shown.status == "failed_retrying"
    assert shown.last_error is not None and "exceeded its timeout of 0.2 s" in shown.last_error
    shown = pyjq.status(db, discarded.job_id)
    assert shown is not None and shown.status == "dead"
