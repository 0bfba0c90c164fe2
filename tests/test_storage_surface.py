"""The operator surface of jq.jobs' storage and of the periodic call: pyjq.storage and pyjq.tick (and
their async twins), `pyjq storage` and `pyjq tick`, GET /storage with its scopes, and the console's
Storage panel, against a real database (no mocks).

No worker runs here: nothing ticks but the test and the calls under test. With quick turns
(conftest.quick_turns) a test gets a job out of the current generation in a tick or two
(helpers.make_previous): the next tick empties its generation.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import warnings
from collections.abc import Iterator
from datetime import timedelta
from uuid import UUID

import psycopg
import pytest
from helpers import current_generation, enqueue_sql, make_previous, stop_turning, tick_until
from helpers import invoke_cli as run

import pyjq
from pyjq.storage import LOCK_HOLDERS_QUERY, blocked_hint

pytest.importorskip("fastapi")
with warnings.catch_warnings():  # starlette nudges towards httpx2; httpx works
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from pyjq.http import create_app

# jq_tick turns every tenth of a second, however few rows a generation holds.
pytestmark = pytest.mark.usefixtures("quick_turns")

# jq.jobs' four partitions, then jq.queue_waiters' three (they rotate with them).
PARTITIONS = ["jobs_g0", "jobs_g1", "jobs_g2", "jobs_waiting"] + [f"queue_waiters_g{g}" for g in range(3)]
ADMIN_TOKEN, VIEWER_TOKEN, PRODUCER_TOKEN = "storage-admin-0123", "storage-viewer-0123", "storage-producer-0123"
TOKENS = {ADMIN_TOKEN: "admin", VIEWER_TOKEN: "viewer", PRODUCER_TOKEN: "producer"}
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
VIEWER = {"Authorization": f"Bearer {VIEWER_TOKEN}"}
PRODUCER = {"Authorization": f"Bearer {PRODUCER_TOKEN}"}


# -- helpers ---------------------------------------------------------------------------------


def generation_of(db: psycopg.Connection, job_id: UUID) -> int:
    return db.execute("select generation from jq.jobs where id = %s", [job_id]).fetchone()[0]


def enqueue_to_empty(db: psycopg.Connection) -> tuple[UUID, int]:
    """A job in a generation that is no longer current, the one the next tick empties (and no more
    turns): (its id, its generation)."""
    job_id = enqueue_sql(db, "stored")
    generation = generation_of(db, job_id)
    make_previous(db, generation)
    stop_turning(db)
    return job_id, generation


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


# -- the Python API --------------------------------------------------------------------------


def test_storage_lists_the_partitions_with_one_of_each_role(db: psycopg.Connection) -> None:
    parts = pyjq.storage(db)
    assert [p.partition_name for p in parts] == PARTITIONS
    assert [p.generation for p in parts] == [0, 1, 2, 3, 0, 1, 2]
    assert sorted(p.role for p in parts[:4]) == ["current", "oldest", "previous", "waiting"]
    assert parts[current_generation(db)].role == "current"
    assert [p.role for p in parts[4:]] == [p.role for p in parts[:3]]  # the marks' roles are their generation's
    assert all(isinstance(p, pyjq.StoragePart) and p.bytes >= 0 and p.truncations == 0 for p in parts)


def test_the_roles_follow_the_turns(db: psycopg.Connection) -> None:
    before = {p.generation: p.role for p in pyjq.storage(db)[:3]}
    [current] = [g for g, role in before.items() if role == "current"]
    tick_until(db, lambda _: current_generation(db) == (current + 2) % 3, what="two turns")
    after = {p.generation: p.role for p in pyjq.storage(db)[:3]}
    assert after[current] == "oldest" and after[(current + 2) % 3] == "current", (before, after)


def test_tick_truncates_a_generation_and_keeps_its_job(db: psycopg.Connection) -> None:
    job_id, generation = enqueue_to_empty(db)
    done = pyjq.tick(db)
    assert isinstance(done, pyjq.Tick) and isinstance(done.call_again_after, timedelta)
    assert {k: done.account.get(k) for k in ("ran", "rotation", "generation", "moved")} == {
        "ran": True,
        "rotation": "truncated",
        "generation": generation,
        "moved": 1,
    }, done.account
    assert done.call_again_after == timedelta(0), "more to do: call again at once"
    # The job lives on, in the current generation; the partition records its truncation.
    assert pyjq.status(db, job_id).status == "queued"
    assert generation_of(db, job_id) == current_generation(db) != generation
    part = pyjq.storage(db)[generation]
    assert (part.truncations, part.moved) == (1, 1) and part.truncated_at is not None


def test_async_twins_answer_as_the_sync_functions(dsn: str, db: psycopg.Connection) -> None:
    _, generation = enqueue_to_empty(db)

    async def scenario() -> tuple[list[pyjq.StoragePart], pyjq.Tick]:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as aconn:
            return await pyjq.storage_async(aconn), await pyjq.tick_async(aconn)

    parts, done = asyncio.run(scenario())
    assert [p.partition_name for p in parts] == PARTITIONS
    assert (done.account["rotation"], done.account["generation"], done.account["moved"]) == ("truncated", generation, 1)


@pytest.mark.parametrize("asynchronous", [False, True], ids=["tick", "tick_async"])
def test_tick_refuses_a_connection_inside_a_transaction(
    dsn: str, connect, db: psycopg.Connection, asynchronous: bool
) -> None:
    _, generation = enqueue_to_empty(db)

    async def tick_async_in_a_transaction() -> None:
        async with await psycopg.AsyncConnection.connect(dsn) as aconn:
            await aconn.execute("select 1")  # a transaction is open now
            await pyjq.tick_async(aconn)

    conn = connect(autocommit=False)
    with pytest.raises(pyjq.JQError) as raised:
        if asynchronous:
            asyncio.run(tick_async_in_a_transaction())
        else:
            conn.execute("select 1")  # a transaction is open now
            pyjq.tick(conn)
    assert raised.value.sqlstate == "25001" and "outside a transaction" in str(raised.value)
    conn.rollback()
    assert pyjq.storage(db)[generation].truncations == 0  # nothing was done
    # Idle between transactions, the same connection ticks, and commits at once: no lock is left held.
    done = pyjq.tick(conn)
    assert (done.account["rotation"], done.account["moved"]) == ("truncated", 1)
    assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def test_blocked_hint_only_when_the_tick_found_a_generation_busy() -> None:
    def answer(**account: object) -> pyjq.Tick:
        return pyjq.Tick(timedelta(seconds=0.25), {"ran": True, **account})

    hint = blocked_hint(answer(rotation="busy", generation=1))
    assert hint is not None and "pg_dump" in hint and hint.endswith("\n" + LOCK_HOLDERS_QUERY)
    for account in ({"rotation": "truncated", "moved": 4}, {"rotation": "idle"}, {"rotation": "backlog"}, {}):
        assert blocked_hint(answer(**account)) is None, account
    assert blocked_hint(pyjq.Tick(timedelta(seconds=0.25), {"ran": False})) is None  # another session ticks


# -- the CLI ---------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["storage"], ["tick"]], ids=" ".join)
def test_cli_help(command: list[str]) -> None:
    result = run(*command, "--help")
    assert result.exit_code == 0 and result.stdout.startswith("Usage: pyjq " + " ".join(command))
    assert "--dsn" in result.stdout
    assert ("--json" in result.stdout) == (command == ["storage"])
    assert f"\n  {command[0]} " in run("--help").stdout


def test_cli_storage_rotate_is_gone(dsn: str) -> None:
    result = run("storage", "rotate", "--dsn", dsn)
    assert result.exit_code == 2 and "rotate" in result.stderr, result.output


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


def test_cli_tick_prints_one_json_object(dsn: str, db: psycopg.Connection) -> None:
    _, generation = enqueue_to_empty(db)
    result = run("--dsn", dsn, "tick")
    assert result.exit_code == 0, result.output
    done = json.loads(result.stdout)
    assert {k: done.get(k) for k in ("call_again_after", "ran", "rotation", "generation", "moved")} == {
        "call_again_after": 0.0,
        "ran": True,
        "rotation": "truncated",
        "generation": generation,
        "moved": 1,
    }, done
    assert result.stderr == ""
    again = json.loads(run("tick", "--dsn", dsn).stdout)
    assert again["rotation"] in ("idle", "turned") and isinstance(again["call_again_after"], float), again


def test_cli_tick_says_what_holds_a_busy_generation(
    dsn: str, db: psycopg.Connection, request: pytest.FixtureRequest
) -> None:
    _, generation = enqueue_to_empty(db)
    holder = request.getfixturevalue("locked_jobs")
    result = run("tick", "--dsn", dsn)
    assert result.exit_code == 0, result.output
    done = json.loads(result.stdout)
    assert (done["rotation"], done["generation"], done.get("moved")) == ("busy", generation, None), done
    hint = result.stderr
    assert hint.startswith("hint: ") and "pg_dump" in hint and "transaction left open" in hint
    assert "pg_locks" in hint and "pg_stat_activity" in hint
    # The query the hint gives finds the session that holds the lock.
    pids = [row[0] for row in db.execute(LOCK_HOLDERS_QUERY).fetchall()]
    assert holder.info.backend_pid in pids
    # A call before the time the busy one asked for does nothing, and gives no hint.
    early = run("tick", "--dsn", dsn)
    assert early.exit_code == 0 and early.stderr == "", early.output
    assert json.loads(early.stdout)["ran"] is False
    assert 0 < json.loads(early.stdout)["call_again_after"] <= done["call_again_after"]
    # Once the holder is gone, the next tick when due truncates and gives no hint.
    holder.rollback()
    time.sleep(done["call_again_after"])
    result = run("tick", "--dsn", dsn)
    assert result.exit_code == 0 and json.loads(result.stdout)["rotation"] == "truncated" and result.stderr == ""


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


def test_post_storage_rotate_is_gone(client: TestClient, db: psycopg.Connection) -> None:
    """Workers tick; an operator who wants one call by hand runs `pyjq tick` (test_http.py checks the
    documented routes)."""
    _, generation = enqueue_to_empty(db)
    answer = client.post("/storage/rotate", headers=ADMIN)
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "NOT_FOUND", answer.text
    assert pyjq.storage(db)[generation].truncations == 0


# -- the console -----------------------------------------------------------------------------


def test_overview_shows_the_storage_panel(client: TestClient, db: psycopg.Connection) -> None:
    _, generation = enqueue_to_empty(db)
    assert pyjq.tick(db).account["rotation"] == "truncated"
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
