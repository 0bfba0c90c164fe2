"""Every public function keeps working, through statements a driver prepared, across an in-place upgrade
from the last tagged release.

pgx and JDBC prepare every statement by default, psycopg after five executions: a prepared
``select * from jq.jq_x(...)`` fails with "cached plan must not change result type" once the function's
result columns change (on every execution, until the driver prepares it again), and a call by argument
name fails once an argument is renamed. So a public function's arguments and result columns never change
under the same name; a new shape is a new function (``<name>_v2``) beside the old one
(docs/adr/0003-function-versions.md).

The test installs the last release, calls each of its public functions (listed from ``pg_proc``, so a new
one cannot be forgotten) through one connection that prepares every statement (``prepare_threshold=0``),
upgrades the database in place with this tree's installer while that connection stays open, and calls
every public function again through the same connection, reusing the statements prepared before. Each
call runs in a transaction that is rolled back, so no call changes what the next one sees. Every
function the last release had must also keep its identity in ``pg_proc`` (name, argument types, result
columns): a new argument with a default leaves prepared calls working, but drops the grants a DBA gave on
the old function, and kept beside it makes every call ambiguous.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
import pytest
from helpers import checkout_release, psql_install, releases
from psycopg.types.json import Jsonb

LAST_RELEASE, LAST_RELEASE_COMMIT = releases()[-1]

WORKER = "prepared-worker"
SCHEDULE = "prepared-schedule"
SINCE = datetime.now(UTC) - timedelta(days=1)


class Job:
    """A job the fixture makes before the first call, named in SAMPLES and replaced by its id at call time."""

    def __init__(self, name: str) -> None:
        self.name = name


HELD = Job("held")  # claimed by WORKER, lease of an hour
DEAD = Job("dead")  # discarded into jq.dead_jobs

# One valid call of each public function, by name: its arguments in the order of the last release's
# signature, with explicit casts (as a driver binds typed parameters). A function without an entry fails
# the test: add one when you add a function.
SAMPLES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "jq_audit_log": ("%s::timestamptz, %s::text", (SINCE, "retry_dead")),
    "jq_cancel": ("%s::uuid", (HELD,)),
    "jq_claim": ("%s::text, %s::text, %s::integer, %s::interval", ("default", WORKER, 5, timedelta(minutes=5))),
    "jq_complete": ("%s::uuid[], %s::text, %s::jsonb[]", ([HELD], WORKER, [Jsonb({"pdf": "s3://i/42.pdf"})])),
    "jq_dead_delete": ("%s::jsonb, %s::uuid[]", (None, [DEAD])),
    "jq_dead_discard_group": ("%s::text, %s::text", ("prepared_dead", "gave up")),
    "jq_dead_groups": ("%s::timestamptz, %s::text", (SINCE, "prepared_dead")),
    "jq_dead_requeue": ("%s::jsonb", (Jsonb({"type": "prepared_dead"}),)),
    "jq_enqueue": (
        "%s::text, %s::jsonb, %s::text, %s::integer",
        ("prepared_new", Jsonb({"user_id": 42}), "default", 5),
    ),
    "jq_enqueue_many": ("%s::jsonb", (Jsonb([{"type": "prepared_new"}, {"type": "prepared_new", "queue": "bulk"}]),)),
    "jq_fail": ("%s::uuid, %s::text, %s::text", (HELD, WORKER, "HTTP 503")),
    "jq_heartbeat": ("%s::uuid[], %s::text, %s::interval", ([HELD], WORKER, timedelta(minutes=5))),
    "jq_job_attempts": ("%s::uuid", (DEAD,)),
    "jq_job_detail": ("%s::uuid", (HELD,)),
    "jq_jobs": ("%s::jsonb, %s::integer", (Jsonb({"type": "prepared_held"}), 10)),
    "jq_jobs_cancel": ("%s::jsonb, %s::uuid[]", (None, [HELD])),
    "jq_jobs_discard": ("%s::jsonb", (Jsonb({"type": "prepared_held"}),)),
    "jq_jobs_retry": ("%s::jsonb, %s::uuid[], %s::integer", (None, [HELD], 10)),
    "jq_key_limit_delete": ("%s::text", ("prepared_new",)),
    "jq_key_limit_set": ("%s::text, %s::integer", ("prepared_new", 2)),
    "jq_limits": ("", ()),
    "jq_maintain": ("", ()),
    "jq_queue_pause": ("%s::text, %s::text", ("default", "prepared_new")),
    "jq_queue_pauses": ("", ()),
    "jq_queue_resume": ("%s::text", ("default",)),
    "jq_queue_set_fair": ("%s::text, %s::boolean", ("default", False)),
    "jq_release": ("%s::uuid[], %s::text", ([HELD], WORKER)),
    "jq_retry_dead": ("%s::text, %s::text", ("prepared_dead", "gave up")),
    "jq_schedule_delete": ("%s::text", (SCHEDULE,)),
    "jq_schedule_pause": ("%s::text", (SCHEDULE,)),
    "jq_schedule_put": (
        "%s::text, %s::text, %s::text, %s::text, %s::jsonb",
        ("prepared-other", "0 8 * * *", "Asia/Kolkata", "prepared_new", Jsonb({"digest": True})),
    ),
    "jq_schedule_resume": ("%s::text", (SCHEDULE,)),
    "jq_schedules": ("%s::text", (SCHEDULE,)),
    "jq_schedules_due": ("%s::integer", (10,)),
    "jq_schedules_fire_due": ("%s::integer", (10,)),
    "jq_cron_slots": ("%s::text, %s::text, %s::timestamptz, %s::integer", ("0 8 * * *", "Europe/Berlin", SINCE, 3)),
    "jq_schedules_fire": (
        "%s::text[], %s::timestamptz[], %s::timestamptz[], %s::timestamptz[]",
        ([], [], [], []),
    ),
    "jq_set_waiting": ("%s::text[], %s::text, %s::boolean", (["default"], WORKER, True)),
    "jq_stats": ("", ()),
    "jq_status": ("%s::uuid", (HELD,)),
    "jq_storage": ("", ()),
    "jq_tenant_policies": ("", ()),
    "jq_tenant_policy_delete": ("%s::text, %s::text", ("default", "acme")),
    "jq_tenant_policy_set": ("%s::text, %s::text, %s::integer, %s::integer", ("default", "acme", 3, 20)),
    "jq_tenants": ("%s::text", ("default",)),
    "jq_throughput": ("%s::timestamptz, %s::interval", (SINCE, timedelta(hours=1))),
    "jq_tick": ("", ()),
    "jq_unhandled_types": ("", ()),
    "jq_version": ("", ()),
    "jq_worker_beat": ("%s::text", (WORKER,)),
    "jq_worker_deregister": ("%s::text", (WORKER,)),
    "jq_worker_register": (
        "%s::text, %s::jsonb, %s::text, %s::integer, %s::text, %s::text[]",
        (WORKER, Jsonb({"default": 5}), "host-1", 4242, LAST_RELEASE, ["prepared_held"]),
    ),
    "jq_workers": ("", ()),
}

# Every public function of the database: its identity (name and argument types) and result.
PUBLIC_FUNCTIONS = """
select p.proname, p.oid::regprocedure::text, pg_get_function_result(p.oid)
from pg_proc p join pg_namespace n on n.oid = p.pronamespace
where n.nspname = 'jq' and p.proname like 'jq\\_%'
order by 1, 2
"""


def _public_functions(conn: psycopg.Connection) -> dict[str, set[tuple[str, str]]]:
    """Public function name -> {(identity, result)}, one element per overload."""
    found: dict[str, set[tuple[str, str]]] = {}
    for name, identity, result in conn.execute(PUBLIC_FUNCTIONS).fetchall():
        found.setdefault(name, set()).add((identity, result))
    return found


def _make_fixture_jobs(conninfo: str) -> dict[str, UUID]:
    """A held job and a dead job, and a schedule, made with the installed release's own functions."""
    with psycopg.connect(conninfo, autocommit=True) as conn:

        def enqueue(type_: str) -> UUID:
            row = conn.execute("select job_id from jq.jq_enqueue(%s, '{}')", [type_]).fetchone()
            assert row is not None
            return row[0]

        def claim(type_: str) -> None:
            rows = conn.execute(
                "select id from jq.jq_claim('default', %s, 1, interval '1 hour', array[%s])", [WORKER, type_]
            ).fetchall()
            assert len(rows) == 1, f"the fixture could not claim its {type_} job"

        held, dead = enqueue("prepared_held"), enqueue("prepared_dead")
        claim("prepared_held")
        claim("prepared_dead")
        status = conn.execute("select status from jq.jq_fail(%s, %s, 'gave up', null, true)", [dead, WORKER])
        assert status.fetchone() == ("dead",)
        conn.execute("select * from jq.jq_schedule_put(%s, '0 8 * * *', 'UTC', 'prepared_digest')", [SCHEDULE])
    return {HELD.name: held, DEAD.name: dead}


def _call(conn: psycopg.Connection, name: str, jobs: dict[str, UUID]) -> str | None:
    """One call of ``name`` with its sample arguments, in a transaction rolled back; the error, or None."""
    args, params = SAMPLES[name]

    def bound(value: Any) -> Any:
        if isinstance(value, Job):
            return jobs[value.name]
        if isinstance(value, list):
            return [bound(v) for v in value]
        return value

    _libpq(conn, b"begin")
    try:
        conn.execute(f"select * from jq.{name}({args})", [bound(p) for p in params]).fetchall()
    except psycopg.Error as exc:
        return f"{name}: {exc.sqlstate} {str(exc).splitlines()[0]}"
    finally:
        _libpq(conn, b"rollback")
    return None


def _libpq(conn: psycopg.Connection, command: bytes) -> None:
    """A transaction command sent past psycopg, which deallocates every prepared statement at a ROLLBACK it
    sees: the statements prepared before the upgrade must be the ones executed after it."""
    result = conn.pgconn.exec_(command)
    assert result.status == psycopg.pq.ExecStatus.COMMAND_OK, result.get_error_message()


def _call_all(conn: psycopg.Connection, names: set[str], jobs: dict[str, UUID]) -> list[str]:
    return [error for name in sorted(names) if (error := _call(conn, name, jobs)) is not None]


def _prepared(conn: psycopg.Connection) -> dict[str, str]:
    """The connection's prepared statements of jq_* calls: statement text -> name."""
    rows = conn.execute("select statement, name from pg_prepared_statements where statement like '%jq.jq\\_%'")
    return dict(rows.fetchall())


@pytest.fixture
def last_release(empty_database: Callable[[], str], tmp_path: Path) -> str:
    """A database with the last tagged release installed; its conninfo."""
    target = empty_database()
    installed = psql_install(target, checkout_release(LAST_RELEASE_COMMIT, tmp_path / LAST_RELEASE))
    assert installed.returncode == 0, installed.stderr
    return target


def test_every_public_function_survives_an_upgrade_through_prepared_statements(last_release: str) -> None:
    jobs = _make_fixture_jobs(last_release)
    with psycopg.connect(last_release, autocommit=True, prepare_threshold=0) as conn:
        conn.prepared_max = 1000  # keep every statement prepared (psycopg's default keeps 100)
        before = _public_functions(conn)
        assert not sorted(set(before) - set(SAMPLES)), f"{LAST_RELEASE}'s functions without a sample call"
        assert _call_all(conn, set(before), jobs) == [], f"calls refused by {LAST_RELEASE} itself: fix SAMPLES"
        prepared_before = _prepared(conn)
        assert len(prepared_before) >= len(before), "the connection did not prepare every call"

        upgrade = psql_install(last_release, quiet=False)
        assert upgrade.returncode == 0, upgrade.stderr
        assert f"jq upgraded from {LAST_RELEASE} to" in upgrade.stdout + upgrade.stderr

        after = _public_functions(conn)
        missing = sorted(set(after) - set(SAMPLES))
        assert not missing, f"public functions without a sample call in SAMPLES: {missing}"
        stale = sorted(set(SAMPLES) - set(before) - set(after))
        assert not stale, f"SAMPLES names functions neither {LAST_RELEASE} nor this tree has: {stale}"
        failures = _call_all(conn, set(after), jobs)
        changed = sorted(
            f"{identity} -> {result}"
            for name, shapes in before.items()
            for identity, result in shapes
            if (identity, result) not in after.get(name, set())
        )
        reused = _prepared(conn)
    problems = [f"fails after the upgrade: {failure}" for failure in failures]
    problems += [f"changed under the same name: {shape}" for shape in changed]
    assert problems == [], (
        f"calls prepared under {LAST_RELEASE} must keep working after the upgrade; a changed function needs a "
        "_v2 beside the old one (docs/adr/0003-function-versions.md):\n  " + "\n  ".join(problems)
    )
    assert {text: reused.get(text) for text in prepared_before} == prepared_before, (
        "the calls after the upgrade did not reuse the statements prepared before it"
    )
