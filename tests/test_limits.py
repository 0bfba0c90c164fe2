"""pyjq._limits against the installed jq functions: each constant is where SQL
stops accepting, so the Python side (HTTP models, CLI, worker) and SQL cannot
drift apart.

Every check calls the real function on both sides of a boundary: the last
value accepted, the first refused, and the SQLSTATE it is refused with.
The calls go straight to SQL (pyjq._calls, or plain SQL for the worker's
calls), never through Python's own early checks.
"""

from __future__ import annotations

import re
import string
import uuid
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from psycopg.types.json import Jsonb

from pyjq import _limits as limits
from pyjq._calls import admin, jobs, policies, schedules
from pyjq.errors import JQError


def sqlstate(run: Callable[[], Any]) -> str | None:
    """None when the call is accepted, else the SQLSTATE it was refused with."""
    try:
        run()
    except (JQError, psycopg.Error) as exc:
        return exc.sqlstate
    return None


def enqueue(db: psycopg.Connection, **overrides: Any) -> str | None:
    params: dict[str, Any] = {
        "type": "work",
        "payload": Jsonb({}),
        "queue": "default",
        "priority": 0,
        "run_at": None,
        "max_attempts": None,
        "idempotency_key": None,
        "tenant": None,
        "concurrency_key": None,
        "metadata": None,
    }
    params.update(overrides)
    return sqlstate(lambda: jobs.ENQUEUE.run(db, **params))


def schedule_put(db: psycopg.Connection, **overrides: Any) -> str | None:
    params: dict[str, Any] = {
        "name": "digest",
        "cron": "0 8 * * *",
        "timezone": "UTC",
        "type": "work",
        "payload": Jsonb({}),
        "queue": "default",
        "priority": 0,
        "jitter_seconds": 0,
        "max_attempts": None,
        "missed": "latest",
        "next_run_at": None,
    }
    params.update(overrides)
    return sqlstate(lambda: schedules.SCHEDULE_PUT.run(db, **params))


def claim(
    db: psycopg.Connection, *, worker: str = "w", limit: int = 1, lease: timedelta = timedelta(minutes=5)
) -> str | None:
    return sqlstate(
        lambda: db.execute(
            "select * from jq.jq_claim(p_queue => 'default', p_worker => %s, p_limit => %s, p_lease => %s)",
            [worker, limit, lease],
        ).fetchall()
    )


def boundary(check: Callable[[Any], str | None], last_ok: Any, first_refused: Any, code: str) -> None:
    assert check(last_ok) is None, f"{last_ok!r} must be accepted"
    assert check(first_refused) == code, f"{first_refused!r} must be refused with {code}"


# -- text lengths ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argument", "maximum"),
    [
        ("queue", limits.QUEUE_NAME_MAX),
        ("type", limits.TYPE_MAX),
        ("tenant", limits.TENANT_MAX),
        ("idempotency_key", limits.IDEMPOTENCY_KEY_MAX),
        ("concurrency_key", limits.CONCURRENCY_KEY_MAX),
    ],
)
def test_enqueue_text_lengths(db, argument, maximum):
    boundary(lambda n: enqueue(db, **{argument: "q" * n}), maximum, maximum + 1, "22001")


def test_metadata_size(db):
    # {"k": "vv...v"} as jsonb text is the value and 9 bytes around it.
    boundary(
        lambda n: enqueue(db, metadata=Jsonb({"k": "v" * (n - 9)})),
        limits.METADATA_MAX_BYTES,
        limits.METADATA_MAX_BYTES + 1,
        "54000",
    )


def test_worker_name_length(db):
    boundary(lambda n: claim(db, worker="w" * n), limits.WORKER_NAME_MAX, limits.WORKER_NAME_MAX + 1, "22001")


def test_schedule_name_length(db):
    boundary(lambda n: schedule_put(db, name="s" * n), limits.SCHEDULE_NAME_MAX, limits.SCHEDULE_NAME_MAX + 1, "22001")


def test_cron_length(db):
    def cron_of(length: int) -> str:
        # "0 8 * * *" with its minute field padded to the length by repeated zeros: "00,0,0,... 8 * * *".
        width = length - len(" 8 * * *")
        zeros = 1 if width % 2 else 2
        cron = "0" * zeros + ",0" * ((width - zeros) // 2) + " 8 * * *"
        assert len(cron) == length
        return cron

    boundary(lambda n: schedule_put(db, cron=cron_of(n)), limits.CRON_MAX, limits.CRON_MAX + 1, "22001")


def test_timezone_length(db):
    longest = db.execute("select max(char_length(name)) from pg_timezone_names").fetchone()[0]
    assert longest <= limits.TIMEZONE_MAX, "a real time zone name must never be refused for its length"
    assert schedule_put(db, timezone="A" * (limits.TIMEZONE_MAX + 1)) == "22023"


def test_error_text_max_is_accepted_by_sql(db):
    # Not a SQL limit (the HTTP API's own bound): SQL must take any error text up to it.
    assert (
        sqlstate(
            lambda: admin.RETRY_DEAD.run(db, type="work", error="e" * limits.ERROR_TEXT_MAX, since=None, limit=None)
        )
        is None
    )


# -- the queue name pattern --------------------------------------------------------------

QUEUE_NAMES = [
    "default",
    "a",
    "Az09_.:-",
    "emails.eu-1:high",
    "x" * limits.QUEUE_NAME_MAX,
    "",
    " ",
    "two words",
    "a/b",
    "a*",
    "*",
    "é",
    "tab\tq",
    "x" * (limits.QUEUE_NAME_MAX + 1),
]


@pytest.mark.parametrize("name", QUEUE_NAMES)
def test_queue_name_pattern_matches_sql(db, name):
    accepted = enqueue(db, queue=name) is None
    assert accepted == bool(limits.QUEUE_NAME.match(name)), name
    # The same rule for tenant policies and fair queues ('*' aside, a wildcard there).
    if name != "*":
        policy = sqlstate(
            lambda: policies.TENANT_POLICY_SET.run(db, queue=name, tenant="t", weight=1, max_running=None)
        )
        assert (policy is None) == accepted, name


def test_queue_name_characters_match_sql(db):
    # Every printable ASCII character, and a few others, inside a queue name.
    for char in string.printable + "é\u00a0ü\u2028":
        name = f"q{char}q"
        assert (enqueue(db, queue=name) is None) == bool(limits.QUEUE_NAME.match(name)), repr(char)


@pytest.mark.parametrize("name", ["digest", "digest:user-42", "9.a_b-c:d", "d" * limits.SCHEDULE_NAME_MAX])
def test_schedule_name_pattern_is_accepted_by_sql(db, name):
    assert re.match(limits.SCHEDULE_NAME_PATTERN, name)
    assert schedule_put(db, name=name) is None


# -- numbers ---------------------------------------------------------------------------


def test_priority_bounds(db):
    boundary(lambda p: enqueue(db, priority=p), limits.PRIORITY_MIN, limits.PRIORITY_MIN - 1, "22023")
    boundary(lambda p: enqueue(db, priority=p), limits.PRIORITY_MAX, limits.PRIORITY_MAX + 1, "22023")


def test_max_attempts_bounds(db):
    boundary(lambda n: enqueue(db, max_attempts=n), limits.MAX_ATTEMPTS_MIN, limits.MAX_ATTEMPTS_MIN - 1, "22023")
    boundary(lambda n: enqueue(db, max_attempts=n), limits.MAX_ATTEMPTS_MAX, limits.MAX_ATTEMPTS_MAX + 1, "22023")
    boundary(lambda n: schedule_put(db, max_attempts=n), limits.MAX_ATTEMPTS_MAX, limits.MAX_ATTEMPTS_MAX + 1, "22023")


def test_jitter_seconds_bounds(db):
    boundary(
        lambda s: schedule_put(db, jitter_seconds=s), limits.JITTER_SECONDS_MIN, limits.JITTER_SECONDS_MIN - 1, "22023"
    )
    boundary(
        lambda s: schedule_put(db, jitter_seconds=s), limits.JITTER_SECONDS_MAX, limits.JITTER_SECONDS_MAX + 1, "22023"
    )


def test_claim_limit_bounds(db):
    boundary(lambda n: claim(db, limit=n), limits.CLAIM_LIMIT_MIN, limits.CLAIM_LIMIT_MIN - 1, "22023")
    boundary(lambda n: claim(db, limit=n), limits.CLAIM_LIMIT_MAX, limits.CLAIM_LIMIT_MAX + 1, "22023")


def test_schedules_fire_due_limit_bounds(db):
    def due(n: int) -> str | None:
        return sqlstate(lambda: schedules.SCHEDULES_FIRE_DUE.run(db, limit=n))

    boundary(due, 1, 0, "22023")
    boundary(due, limits.SCHEDULES_DUE_LIMIT_MAX, limits.SCHEDULES_DUE_LIMIT_MAX + 1, "22023")


def test_retry_dead_limit_bounds(db):
    def retry(n: int) -> str | None:
        return sqlstate(lambda: admin.RETRY_DEAD.run(db, type=None, error=None, since=None, limit=n))

    boundary(retry, limits.RETRY_DEAD_LIMIT_MIN, limits.RETRY_DEAD_LIMIT_MIN - 1, "22023")
    boundary(retry, limits.INTEGER_MAX, limits.INTEGER_MAX + 1, "22003")  # beyond integer: the cast refuses


def test_enqueue_many_batch_size(db):
    def batch(n: int) -> str | None:
        return sqlstate(lambda: jobs.ENQUEUE_MANY.run(db, jobs=Jsonb([{"type": "work"}] * n)))

    boundary(batch, limits.ENQUEUE_MANY_MAX, limits.ENQUEUE_MANY_MAX + 1, "22023")


def test_tenant_weight_and_cap_bounds(db):
    def policy(weight: int | None = None, max_running: int | None = None) -> str | None:
        return sqlstate(
            lambda: policies.TENANT_POLICY_SET.run(
                db, queue="default", tenant="acme", weight=weight, max_running=max_running
            )
        )

    boundary(lambda w: policy(weight=w), limits.WEIGHT_MIN, limits.WEIGHT_MIN - 1, "22023")
    boundary(lambda w: policy(weight=w), limits.WEIGHT_MAX, limits.WEIGHT_MAX + 1, "22023")
    boundary(lambda n: policy(max_running=n), limits.TENANT_MAX_RUNNING_MIN, limits.TENANT_MAX_RUNNING_MIN - 1, "22023")
    boundary(lambda n: policy(max_running=n), limits.TENANT_MAX_RUNNING_MAX, limits.TENANT_MAX_RUNNING_MAX + 1, "22023")


def test_key_limit_bounds(db):
    def key_limit(n: int) -> str | None:
        return sqlstate(lambda: policies.KEY_LIMIT_SET.run(db, type="sync", max_running=n))

    boundary(key_limit, limits.KEY_MAX_RUNNING_MIN, limits.KEY_MAX_RUNNING_MIN - 1, "22023")
    boundary(key_limit, limits.KEY_MAX_RUNNING_MAX, limits.KEY_MAX_RUNNING_MAX + 1, "22023")


# -- intervals and timestamps ------------------------------------------------------------------


def test_lease_bounds(db):
    step = timedelta(milliseconds=1)
    boundary(lambda lease: claim(db, lease=lease), limits.LEASE_MIN, limits.LEASE_MIN - step, "22023")
    boundary(lambda lease: claim(db, lease=lease), limits.LEASE_MAX, limits.LEASE_MAX + step, "22023")


def test_retry_in_bounds(db):
    def fail(retry_in: timedelta) -> str | None:
        # An unknown job: the arguments are checked first, then the job is simply not held ('lease_lost').
        return sqlstate(
            lambda: db.execute(
                "select * from jq.jq_fail(p_job_id => %s, p_worker => 'w', p_error => 'e', p_retry_in => %s)",
                [uuid.uuid4(), retry_in],
            ).fetchall()
        )

    step = timedelta(microseconds=1)
    boundary(fail, limits.RETRY_IN_MIN, limits.RETRY_IN_MIN - step, "22023")
    boundary(fail, limits.RETRY_IN_MAX, limits.RETRY_IN_MAX + step, "22023")


def test_run_at_bounds(db):
    step = timedelta(microseconds=1)
    boundary(lambda at: enqueue(db, run_at=at), limits.RUN_AT_MIN, limits.RUN_AT_MIN - step, "22023")
    boundary(lambda at: enqueue(db, run_at=at), limits.RUN_AT_MAX, limits.RUN_AT_MAX + step, "22023")
