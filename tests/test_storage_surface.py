"""The operator surface of jq.jobs' storage (issue #16): pyjq.storage / storage_rotate, `pyjq storage`
and `pyjq storage rotate`, GET /storage and POST /storage/rotate with their scopes, and the console's
Storage panel, against a real database (no mocks).

Rows land in the generation of the two-second slot they are written in, so a test that needs rows in
a generation other than the current one enqueues and waits for the slot to move on (a few seconds).
No worker runs here: nothing rotates but the calls under test.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import warnings
from collections.abc import Iterator
from uuid import UUID

import psycopg
import pytest
from helpers import enqueue_sql
from helpers import invoke_cli as run

import pyjq
from pyjq.storage import LOCK_HOLDERS_QUERY, blocked_hint

pytest.importorskip("fastapi")
with warnings.catch_warnings():  # starlette nudges towards httpx2; httpx works
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from pyjq.http import create_app

# Generations of a few rows here: emptied and truncated all the same (conftest.rotate_small_generations).
pytestmark = pytest.mark.usefixtures("rotate_small_generations")

# jq.jobs' four partitions, then jq.queue_waiters' three (they rotate with them).
PARTITIONS = ["jobs_g0", "jobs_g1", "jobs_g2", "jobs_waiting"] + [f"queue_waiters_g{g}" for g in range(3)]
ADMIN_TOKEN, VIEWER_TOKEN, PRODUCER_TOKEN = "storage-admin-0123", "storage-viewer-0123", "storage-producer-0123"
TOKENS = {ADMIN_TOKEN: "admin", VIEWER_TOKEN: "viewer", PRODUCER_TOKEN: "producer"}
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
VIEWER = {"Authorization": f"Bearer {VIEWER_TOKEN}"}
PRODUCER = {"Authorization": f"Bearer {PRODUCER_TOKEN}"}


# -- helpers ---------------------------------------------------------------------------------


def current_slot(db: psycopg.Connection) -> int:
    return db.execute("select jq._storage_current()").fetchone()[0]


def generation_of(db: psycopg.Connection, job_id: UUID) -> int:
    return db.execute("select generation from jq.jobs where id = %s", [job_id]).fetchone()[0]


def wait_for_slot_to_leave(db: psycopg.Connection, generation: int) -> None:
    deadline = time.monotonic() + 5
    while current_slot(db) == generation:
        assert time.monotonic() < deadline, "the two-second slot did not move on"
        time.sleep(0.05)


def enqueue_outside_current(db: psycopg.Connection) -> tuple[UUID, int]:
    """A job whose generation no longer takes rows: (its id, its generation)."""
    job_id = enqueue_sql(db, "stored")
    generation = generation_of(db, job_id)
    wait_for_slot_to_leave(db, generation)
    return job_id, generation


def fill_every_generation(db: psycopg.Connection) -> list[UUID]:
    """A job in each of jobs_g0..g2 (enqueued in three slots in a row)."""
    ids: dict[int, UUID] = {}
    while len(ids) < 3:
        job_id = enqueue_sql(db, "stored")
        ids.setdefault(generation_of(db, job_id), job_id)
        wait_for_slot_to_leave(db, generation_of(db, job_id))
    return list(ids.values())


@pytest.fixture
def locked_jobs(connect) -> Iterator[psycopg.Connection]:
    """Another session holding ACCESS SHARE on jq.jobs (and so on every partition), as a pg_dump does."""
    holder = connect(autocommit=False)
    holder.execute("lock table jq.jobs in access share mode")
    yield holder
    holder.rollback()


@pytest.fixture
def client(dsn: str) -> Iterator[TestClient]:
    with TestClient(create_app(dsn, tokens=TOKENS)) as c:
        yield c


def audit_rows(db: psycopg.Connection) -> int:
    return db.execute("select count(*) from jq.jq_audit_log(p_limit => 1000)").fetchone()[0]


# -- the Python API --------------------------------------------------------------------------


def test_storage_lists_the_partitions_with_one_of_each_role(db: psycopg.Connection) -> None:
    parts = pyjq.storage(db)
    assert [p.partition_name for p in parts] == PARTITIONS
    assert [p.generation for p in parts] == [0, 1, 2, 3, 0, 1, 2]
    assert sorted(p.role for p in parts[:4]) == ["current", "oldest", "previous", "waiting"]
    assert parts[current_slot(db)].role == "current"
    assert [p.role for p in parts[4:]] == [p.role for p in parts[:3]]  # the marks' roles are their generation's
    assert all(isinstance(p, pyjq.StoragePart) and p.bytes >= 0 and p.truncations == 0 for p in parts)


def test_storage_rotate_truncates_a_generation_and_keeps_its_job(db: psycopg.Connection) -> None:
    job_id, generation = enqueue_outside_current(db)
    rotations = pyjq.storage_rotate(db)
    assert all(isinstance(r, pyjq.Rotation) for r in rotations)
    by_generation = {r.generation: r for r in rotations}
    assert len(by_generation) == 3 and 3 in by_generation  # the two generations that take no rows, jobs_waiting
    assert (by_generation[generation].outcome, by_generation[generation].moved) == ("truncated", 1)
    assert by_generation[3].outcome == "promoted"
    # The job lives on, in another generation; the partition records its truncation.
    assert pyjq.status(db, job_id).status == "queued"
    assert generation_of(db, job_id) != generation
    part = pyjq.storage(db)[generation]
    assert (part.truncations, part.moved) == (1, 1) and part.truncated_at is not None


def test_async_twins_answer_as_the_sync_functions(dsn: str, db: psycopg.Connection) -> None:
    _, generation = enqueue_outside_current(db)

    async def scenario() -> tuple[list[pyjq.StoragePart], list[pyjq.Rotation]]:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as aconn:
            return await pyjq.storage_async(aconn), await pyjq.storage_rotate_async(aconn)

    parts, rotations = asyncio.run(scenario())
    assert [p.partition_name for p in parts] == PARTITIONS
    assert ("truncated", 1) in [(r.outcome, r.moved) for r in rotations if r.generation == generation]


def test_storage_rotate_refuses_a_connection_inside_a_transaction(connect, db: psycopg.Connection) -> None:
    _, generation = enqueue_outside_current(db)
    conn = connect(autocommit=False)
    conn.execute("select 1")  # a transaction is open now
    with pytest.raises(pyjq.JQError) as raised:
        pyjq.storage_rotate(conn)
    assert raised.value.sqlstate == "25001" and "outside a transaction" in str(raised.value)
    conn.rollback()
    assert pyjq.storage(db)[generation].truncations == 0  # nothing was rotated
    # Idle between transactions, the same connection rotates, and commits at once: no lock is left held.
    assert ("truncated", 1) in [(r.outcome, r.moved) for r in pyjq.storage_rotate(conn) if r.generation == generation]
    assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def test_blocked_hint_only_when_every_generation_that_needed_a_lock_was_busy() -> None:
    R = pyjq.Rotation
    assert blocked_hint([R(0, "current", 0), R(1, "busy", 0), R(2, "busy", 0), R(3, "promoted", 0)])
    assert blocked_hint([R(0, "current", 0), R(1, "busy", 0), R(2, "empty", 0), R(3, "busy", 0)])
    assert not blocked_hint([R(0, "current", 0), R(1, "busy", 0), R(2, "truncated", 4)])
    assert not blocked_hint([R(0, "current", 0), R(1, "empty", 0), R(2, "empty", 0)])
    assert not blocked_hint([R(None, "rotating elsewhere", 0)])


# -- the CLI ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["storage"], ["storage", "rotate"]], ids=" ".join)
def test_cli_storage_help(command: list[str]) -> None:
    result = run(*command, "--help")
    assert result.exit_code == 0 and result.stdout.startswith("Usage: pyjq " + " ".join(command))
    assert "--dsn" in result.stdout and "--json" in result.stdout
    assert "\n  storage " in run("--help").stdout


def test_cli_storage_prints_a_table_and_json(dsn: str, db: psycopg.Connection) -> None:
    result = run("storage", "--dsn", dsn)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == [
        "GENERATION", "PARTITION", "ROLE", "LIVE", "ROWS", "DEAD", "ROWS", "SIZE", "MB",
        "TRUNCATED", "AT", "TRUNCATIONS", "MOVED",
    ]  # fmt: skip
    assert [line.split()[1] for line in lines[1:]] == PARTITIONS
    assert lines[4].split()[:3] == ["3", "jobs_waiting", "waiting"]
    assert re.fullmatch(r"\d+\.\d\d", lines[1].split()[5])  # size in MB
    rows = json.loads(run("storage", "--json", "--dsn", dsn).stdout)
    assert [r["partition_name"] for r in rows] == PARTITIONS
    assert set(rows[0]) == {
        "generation", "partition_name", "role", "live_rows", "dead_rows", "bytes", "truncated_at", "truncations",
        "moved",
    }  # fmt: skip


def test_cli_storage_rotate_prints_each_outcome(dsn: str, db: psycopg.Connection) -> None:
    _, generation = enqueue_outside_current(db)
    result = run("--dsn", dsn, "storage", "rotate")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].split() == ["GENERATION", "OUTCOME", "MOVED"]
    outcomes = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines()[1:]}
    assert outcomes[str(generation)] == ["truncated", "1"]
    assert outcomes["3"] == ["promoted", "0"]
    assert result.stderr == ""
    as_json = json.loads(run("storage", "rotate", "--json", "--dsn", dsn).stdout)
    assert {r["outcome"] for r in as_json} <= {"empty", "current", "promoted"}


def test_cli_storage_rotate_says_what_holds_a_busy_storage(
    dsn: str, db: psycopg.Connection, connect, request: pytest.FixtureRequest
) -> None:
    fill_every_generation(db)
    holder = request.getfixturevalue("locked_jobs")
    result = run("storage", "rotate", "--dsn", dsn)
    assert result.exit_code == 0, result.output
    busy = [line.split() for line in result.stdout.splitlines()[1:] if "busy" in line]
    assert len(busy) == 2, result.stdout  # both generations that no longer take rows
    hint = result.stderr
    assert hint.startswith("hint: ") and "pg_dump" in hint and "transaction left open" in hint
    assert "pg_locks" in hint and "pg_stat_activity" in hint
    # The query the hint gives finds the session that holds the lock.
    pids = [row[0] for row in db.execute(LOCK_HOLDERS_QUERY).fetchall()]
    assert holder.info.backend_pid in pids
    # Once it is gone, the next rotation truncates and gives no hint.
    holder.rollback()
    result = run("storage", "rotate", "--dsn", dsn)
    assert result.exit_code == 0 and "truncated" in result.stdout and result.stderr == ""


# -- HTTP ------------------------------------------------------------------------------------


def test_get_storage_for_viewer_and_admin_not_producer(client: TestClient) -> None:
    for headers in (VIEWER, ADMIN):
        answer = client.get("/storage", headers=headers)
        assert answer.status_code == 200, answer.text
        parts = answer.json()["partitions"]
        assert [p["partitionName"] for p in parts] == PARTITIONS
        assert set(parts[0]) == {
            "generation", "partitionName", "role", "liveRows", "deadRows", "bytes", "truncatedAt", "truncations",
            "moved",
        }  # fmt: skip
    answer = client.get("/storage", headers=PRODUCER)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "FORBIDDEN"
    assert client.get("/storage").status_code == 401


def test_post_storage_rotate_admin_only_and_not_audited(client: TestClient, db: psycopg.Connection) -> None:
    _, generation = enqueue_outside_current(db)
    before = audit_rows(db)
    for headers in (VIEWER, PRODUCER):
        answer = client.post("/storage/rotate", headers=headers)
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "FORBIDDEN"
    assert pyjq.storage(db)[generation].truncations == 0
    answer = client.post("/storage/rotate", headers=ADMIN)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert {"generation": generation, "outcome": "truncated", "moved": 1} in body["rotations"]
    assert body["hint"] is None
    assert audit_rows(db) == before  # routine work, as the workers' own rotations


def test_post_storage_rotate_hints_when_busy(client: TestClient, db: psycopg.Connection, request) -> None:
    fill_every_generation(db)
    request.getfixturevalue("locked_jobs")
    body = client.post("/storage/rotate", headers=ADMIN).json()
    assert [r["outcome"] for r in body["rotations"]].count("busy") == 2
    assert "pg_dump" in body["hint"] and "pg_locks" in body["hint"]


# -- the console -----------------------------------------------------------------------------


def test_overview_shows_the_storage_panel(client: TestClient, db: psycopg.Connection) -> None:
    _, generation = enqueue_outside_current(db)
    pyjq.storage_rotate(db)
    assert client.post("/ui/login", data={"token": VIEWER_TOKEN}, follow_redirects=False).status_code == 303
    page = client.get("/ui/")
    assert page.status_code == 200, page.text
    assert "'unsafe-inline'" not in page.headers["content-security-policy"]
    panel = page.text.split('id="storage-table"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr data-partition="([^"]+)">(.*?)</tr>', panel, flags=re.S)
    assert [name for name, _ in rows] == PARTITIONS
    cells = {name: re.findall(r"<td[^>]*>(.*?)</td>", body, flags=re.S) for name, body in rows}
    assert [name for name, c in cells.items() if "badge" in c[1]] != []  # the current one, marked
    assert sum("current" in c[1] for c in cells.values()) == 2  # one generation: its jobs and its marks
    assert "waiting" in cells["jobs_waiting"][1]
    assert cells[PARTITIONS[generation]][5].endswith("ago")  # truncated just now
    assert cells["jobs_waiting"][5] == "never"
    assert "<script>" not in panel


def test_overview_still_renders_on_a_jq_without_storage(client: TestClient, db: psycopg.Connection) -> None:
    """An HTTP service of 0.6.0 in front of an older jq (upgrade pending): the panel says so, the page works."""
    db.execute("drop function jq.jq_storage()")
    client.post("/ui/login", data={"token": VIEWER_TOKEN}, follow_redirects=False)
    page = client.get("/ui/")
    assert page.status_code == 200, page.text
    panel = page.text.split('id="storage-table"', 1)[1].split("</table>", 1)[0]
    assert "data-partition" not in panel and "arrives with 0.6.0" in panel
