"""The `pyjq` command line, against a real PostgreSQL (no mocks).

Most tests drive the click command in-process with CliRunner; a few run the
real console script / ``python -m pyjq.cli`` in a subprocess. Jobs are put in
the states a test needs (running, dead, succeeded) with the jq_* SQL
functions themselves, never by writing the tables.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from uuid import UUID

import psycopg
import pytest
from click.testing import Result
from helpers import invoke_cli as run
from helpers import wait_until as _wait_for

REPO = Path(__file__).resolve().parent.parent


def error_lines(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def job_count(db: psycopg.Connection) -> int:
    return db.execute("select count(*) from jq.jobs").fetchone()[0]


def enqueue_id(dsn: str, *args: str) -> UUID:
    result = run("enqueue", *args, "--dsn", dsn, "--json")
    assert result.exit_code == 0, result.output
    return UUID(json.loads(result.stdout)["job_id"])


def bury(db: psycopg.Connection, type_: str, errors: list[str], queue: str = "default") -> list[UUID]:
    """Put one dead job per error in jq.dead_jobs: enqueue (max_attempts 1), claim, fail."""
    ids = []
    for error in errors:
        job_id = db.execute(
            "select job_id from jq.jq_enqueue(%s, '{}', %s, p_max_attempts => 1)", (type_, queue)
        ).fetchone()[0]
        claimed = db.execute("select id from jq.jq_claim(%s, 'test-worker', 1000)", (queue,)).fetchall()
        assert (job_id,) in claimed
        assert (
            db.execute("select status from jq.jq_fail(%s, 'test-worker', %s)", (job_id, error)).fetchone()[0] == "dead"
        )
        ids.append(job_id)
    return ids


# -- help and connection settings --------------------------------------------------

COMMANDS = [
    [],
    ["install"],
    ["worker"],
    ["enqueue"],
    ["status"],
    ["cancel"],
    ["dead"],
    ["dead", "groups"],
    ["dead", "retry"],
    ["stats"],
    ["maintain"],
    ["tick"],
    ["storage"],
    ["version"],
    ["tenants"],
    ["policy"],
    ["policy", "set"],
    ["policy", "delete"],
    ["policy", "list"],
    ["key-limit"],
    ["key-limit", "set"],
    ["key-limit", "delete"],
    ["queue"],
    ["queue", "fair"],
]
GROUPS = (["dead"], ["policy"], ["key-limit"], ["queue"])


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "pyjq")
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_works_everywhere(command: list[str], flag: str) -> None:
    result = run(*command, flag)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Usage: pyjq " + " ".join(command))
    assert "--dsn" in result.stdout or command in GROUPS
    assert result.stderr == ""


def test_top_level_help_lists_every_command() -> None:
    result = run("--help")
    for name in (
        "install",
        "worker",
        "enqueue",
        "status",
        "cancel",
        "dead",
        "stats",
        "maintain",
        "tick",
        "storage",
        "version",
        "tenants",
        "policy",
        "key-limit",
        "queue",
    ):
        assert f"\n  {name} " in result.stdout


def test_without_any_database_exits_2_with_one_clear_line() -> None:
    result = run("stats")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert error_lines(result) == ["error: no database given: pass --dsn or set DATABASE_URL"]


def test_database_url_is_used_when_dsn_is_absent(db: psycopg.Connection, dsn: str) -> None:
    result = run("enqueue", "via_env", env={"DATABASE_URL": dsn})
    assert result.exit_code == 0, result.output
    job_id = UUID(result.stdout.split()[0])
    assert db.execute("select type from jq.jobs where id = %s", (job_id,)).fetchone()[0] == "via_env"


def test_dsn_beats_database_url(db: psycopg.Connection, dsn: str) -> None:
    bogus = "postgresql://nobody@127.0.0.1:1/nowhere?connect_timeout=2"
    assert run("stats", "--dsn", dsn, env={"DATABASE_URL": bogus}).exit_code == 0
    # --dsn before the command works too.
    assert run("--dsn", dsn, "stats", env={"DATABASE_URL": bogus}).exit_code == 0
    # And without --dsn the (bad) DATABASE_URL really is what gets used.
    result = run("stats", env={"DATABASE_URL": bogus})
    assert result.exit_code == 1
    assert error_lines(result)[0].startswith("error: connection failed")


def test_unreachable_server_is_one_error_line() -> None:
    result = run("stats", "--dsn", "host=127.0.0.1 port=1 dbname=x connect_timeout=2")
    assert result.exit_code == 1
    lines = error_lines(result)
    assert 1 <= len(lines) <= 2
    assert lines[0].startswith("error: connection failed")


def test_malformed_dsn_is_a_usage_error() -> None:
    result = run("stats", "--dsn", "this is not a dsn")
    assert result.exit_code == 2
    assert error_lines(result)[0].startswith("error: invalid connection string")


def test_unknown_command_and_missing_argument_are_usage_errors() -> None:
    for args in (["bogus"], ["stats", "--bogus"], ["status"], ["dead", "retry"]):
        result = run(*args)
        assert result.exit_code == 2, args
        lines = error_lines(result)
        assert lines[0].startswith("error: "), lines
        assert len(lines) <= 2


# -- install, version, maintain ---------------------------------------------------------


def test_install_twice_prints_the_version(db: psycopg.Connection, dsn: str) -> None:
    version = db.execute("select jq.jq_version()").fetchone()[0]
    db.execute("drop schema jq cascade")

    first = run("install", "--dsn", dsn)
    assert first.exit_code == 0, first.output
    assert first.stdout.strip() == f"jq {version} installed"

    second = run("install", "--dsn", dsn)
    assert second.exit_code == 0, second.output
    assert second.stdout.strip() == f"jq {version} installed (already up to date)"
    assert db.execute("select jq.jq_version()").fetchone()[0] == version


def test_version_prints_schema_and_package_versions(db: psycopg.Connection, dsn: str) -> None:
    import pyjq

    schema = db.execute("select jq.jq_version()").fetchone()[0]
    result = run("version", "--dsn", dsn)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"jq schema {schema}", f"pyjq {pyjq.__version__}"]
    as_json = json.loads(run("version", "--dsn", dsn, "--json").stdout)
    assert as_json == {"schema": schema, "pyjq": pyjq.__version__}


def test_commands_on_a_database_without_jq_say_to_install(db: psycopg.Connection, dsn: str) -> None:
    db.execute("drop schema jq cascade")
    result = run("version", "--dsn", dsn)
    assert result.exit_code == 1
    lines = error_lines(result)
    assert lines[0] == 'error: schema "jq" does not exist (3F000)'
    assert "pyjq install" in lines[1]


def test_maintain_prints_its_json(dsn: str) -> None:
    result = run("maintain", "--dsn", dsn)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["skipped"] is False
    assert "keys_purged" in out


# -- enqueue and status ------------------------------------------------------------------


def test_enqueue_then_status_shows_queued(db: psycopg.Connection, dsn: str) -> None:
    result = run("enqueue", "send_welcome_email", "--payload", '{"user_id": 42}', "--dsn", dsn)
    assert result.exit_code == 0, result.output
    job_id, state = result.stdout.split()
    assert state == "queued"
    assert db.execute("select payload from jq.jobs where id = %s", (job_id,)).fetchone()[0] == {"user_id": 42}

    shown = run("status", job_id, "--dsn", dsn)
    assert shown.exit_code == 0, shown.output
    fields = dict(line.split(None, 1) for line in shown.stdout.splitlines())
    assert fields["job_id"] == job_id
    assert fields["status"] == "queued"
    assert fields["type"] == "send_welcome_email"
    assert fields["queue"] == "default"
    assert fields["attempts"] == "0"

    as_json = json.loads(run("status", job_id, "--dsn", dsn, "--json").stdout)
    assert as_json["job_id"] == job_id
    assert as_json["status"] == "queued"
    assert as_json["finished_at"] is None


def test_enqueue_options_reach_the_job(db: psycopg.Connection, dsn: str) -> None:
    result = run(
        "enqueue",
        "report",
        "--payload",
        '{"month": "2026-10"}',
        "--queue",
        "bulk",
        "--priority",
        "-5",
        "--run-at",
        "2099-01-01T09:00:00+02:00",
        "--max-attempts",
        "3",
        "--tenant",
        "acme",
        "--dsn",
        dsn,
        "--json",
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["status"] == "scheduled" and out["duplicate"] is False
    row = db.execute(
        "select queue, priority, run_at = '2099-01-01T07:00:00Z', max_attempts, tenant from jq.jobs where id = %s",
        (out["job_id"],),
    ).fetchone()
    assert row == ("bulk", -5, True, 3, "acme")
    status = json.loads(run("status", out["job_id"], "--dsn", dsn, "--json").stdout)
    assert status["status"] == "scheduled"
    assert status["tenant"] == "acme"


def test_enqueue_payload_from_stdin_and_file(db: psycopg.Connection, dsn: str, tmp_path: Path) -> None:
    result = run("enqueue", "x", "--payload", "-", "--dsn", dsn, input='{"from": "stdin"}')
    assert result.exit_code == 0, result.output
    stdin_id = result.stdout.split()[0]
    path = tmp_path / "payload.json"
    path.write_text('{"from": "file"}')
    file_id = enqueue_id(dsn, "x", "--payload", f"@{path}")
    payloads = dict(db.execute("select id::text, payload->>'from' from jq.jobs").fetchall())
    assert payloads == {stdin_id: "stdin", str(file_id): "file"}


def test_enqueue_with_the_same_key_twice_is_a_duplicate(db: psycopg.Connection, dsn: str) -> None:
    first = run("enqueue", "charge", "--key", "order-17", "--dsn", dsn)
    second = run("enqueue", "charge", "--key", "order-17", "--dsn", dsn)
    assert first.exit_code == 0 and second.exit_code == 0, second.output
    assert first.stdout.split() == [first.stdout.split()[0], "queued"]
    assert second.stdout.split() == [first.stdout.split()[0], "queued", "(duplicate)"]
    again = json.loads(run("enqueue", "charge", "--idempotency-key", "order-17", "--dsn", dsn, "--json").stdout)
    assert again == {"job_id": first.stdout.split()[0], "status": "queued", "duplicate": True}
    assert job_count(db) == 1


@pytest.mark.parametrize(
    "payload, message",
    [
        ("{user_id: 42}", "error: --payload is not valid JSON: "),
        ('{"a": 1', "error: --payload is not valid JSON: "),
        ("[1, 2]", "error: --payload must be a JSON object, not list"),
    ],
)
def test_enqueue_with_bad_payload_inserts_nothing(db: psycopg.Connection, dsn: str, payload: str, message: str) -> None:
    result = run("enqueue", "x", "--payload", payload, "--dsn", dsn)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = error_lines(result)
    assert len(lines) == 1, lines
    assert lines[0].startswith(message)
    assert job_count(db) == 0


def test_enqueue_with_bad_priority_reports_the_sqlstate(db: psycopg.Connection, dsn: str) -> None:
    result = run("enqueue", "x", "--priority", "99999", "--dsn", dsn)
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = error_lines(result)
    assert lines[0] == "error: priority 99999 is out of range (22023)"
    assert len(lines) == 1 or lines[1].startswith("hint: ")
    assert job_count(db) == 0


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--max-attempts", "0"], 1, "error: max_attempts 0 is out of range (22023)"),
        (["--queue", ""], 1, "error: queue ''"),
        (["--priority", "high"], 2, "error: Invalid value for '--priority'"),
        (["--run-at", "tomorrow"], 2, "error: Invalid value for '--run-at': 'tomorrow' is not an ISO 8601 timestamp"),
        (
            ["--run-at", "2099-01-01T09:00:00"],
            2,
            "error: Invalid value for '--run-at': '2099-01-01T09:00:00' has no UTC offset",
        ),
    ],
)
def test_enqueue_rejects_bad_arguments_in_one_line(
    db: psycopg.Connection, dsn: str, args: list[str], code: int, message: str
) -> None:
    result = run("enqueue", "x", *args, "--dsn", dsn)
    assert result.exit_code == code, result.output
    lines = error_lines(result)
    assert lines[0].startswith(message), lines
    assert len(lines) <= 2
    assert job_count(db) == 0


def test_status_of_an_unknown_job(dsn: str) -> None:
    result = run("status", "00000000-0000-4000-8000-000000000000", "--dsn", dsn)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert error_lines(result) == ["error: job 00000000-0000-4000-8000-000000000000 not found"]

    bad = run("status", "not-a-uuid", "--dsn", dsn)
    assert bad.exit_code == 2
    assert error_lines(bad) == ["error: Invalid value for 'ID': 'not-a-uuid' is not a valid UUID."]


def test_status_of_a_failed_job_shows_its_error(db: psycopg.Connection, dsn: str) -> None:
    [job_id] = bury(db, "boom", ['ValueError: nope\n  File "handlers.py", line 3, in boom'])
    result = run("status", str(job_id), "--dsn", dsn)
    assert result.exit_code == 0
    assert "status            dead" in result.stdout
    # A multi-line error is shown indented under its field.
    assert '\n    ValueError: nope\n      File "handlers.py", line 3, in boom\n' in result.stdout
    assert json.loads(run("status", str(job_id), "--dsn", dsn, "--json").stdout)["last_error"].startswith("ValueError")


# -- cancel ------------------------------------------------------------------------------------


def test_cancel(db: psycopg.Connection, dsn: str) -> None:
    queued = enqueue_id(dsn, "x")
    result = run("cancel", str(queued), "--dsn", dsn)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("cancelled")
    assert json.loads(run("status", str(queued), "--dsn", dsn, "--json").stdout)["status"] == "cancelled"

    # Cancelling again: already finished, and it did end cancelled, so that is success.
    again = run("cancel", str(queued), "--dsn", dsn, "--json")
    assert again.exit_code == 0
    assert json.loads(again.stdout) == {"job_id": str(queued), "result": "finished", "status": "cancelled"}

    # A running job: cancellation is requested, exit code 0.
    running = enqueue_id(dsn, "y", "--queue", "work")
    assert db.execute("select id from jq.jq_claim('work', 'w1', 1)").fetchone()[0] == running
    result = run("cancel", str(running), "--dsn", dsn)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("running")
    assert db.execute("select cancel_requested from jq.jobs where id = %s", (running,)).fetchone()[0] is True

    # A job that already succeeded cannot be cancelled: exit 1.
    done = enqueue_id(dsn, "z", "--queue", "other")
    db.execute("select jq.jq_claim('other', 'w1', 1)")
    assert db.execute("select jq.jq_complete(array[%s]::uuid[], 'w1')", (done,)).fetchone()[0] == done
    result = run("cancel", str(done), "--dsn", dsn)
    assert result.exit_code == 1
    assert error_lines(result) == [f"finished: job {done} already finished (succeeded); nothing to cancel"]

    unknown = run("cancel", "00000000-0000-4000-8000-000000000000", "--dsn", dsn)
    assert unknown.exit_code == 1
    assert error_lines(unknown)[0].startswith("not_found")
    unknown_json = run("cancel", "00000000-0000-4000-8000-000000000000", "--dsn", dsn, "--json")
    assert unknown_json.exit_code == 1
    assert json.loads(unknown_json.stdout)["result"] == "not_found"


# -- dead letters and stats ----------------------------------------------------------------------


def test_dead_groups_and_retry(db: psycopg.Connection, dsn: str) -> None:
    bury(db, "charge_card", [f"CardDeclined: card ending 4242 declined for order 1{i}0017" for i in range(3)])
    bury(db, "charge_card", ["TimeoutError: gateway did not answer"])
    bury(db, "send_email", ["SMTPError: 550 mailbox unavailable"], queue="mail")

    result = run("dead", "groups", "--dsn", dsn)
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.split() == ["TYPE", "COUNT", "FIRST", "LAST", "ERROR"]
    assert len(rows) == 3
    assert rows[0].split()[:2] == ["charge_card", "3"]  # largest group first
    assert "CardDeclined: card ending ? declined for order ?" in rows[0]

    groups = json.loads(run("dead", "groups", "--type", "charge_card", "--since", "1h", "--dsn", dsn, "--json").stdout)
    assert [(g["type"], g["count"]) for g in groups] == [("charge_card", 3), ("charge_card", 1)]
    assert run("dead", "groups", "--since", "2999-01-01T00:00:00Z", "--dsn", dsn).stdout.strip() == "no dead jobs"

    fingerprint = groups[0]["error"]
    result = run("dead", "retry", "--type", "charge_card", "--error", fingerprint, "--limit", "2", "--dsn", dsn)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "requeued 2 dead jobs"
    assert db.execute("select count(*) from jq.jobs where type = 'charge_card'").fetchone()[0] == 2

    # The rest of that type (one of the card group, the timeout one), in JSON.
    result = run("dead", "retry", "--type", "charge_card", "--dsn", dsn, "--json")
    assert json.loads(result.stdout) == {"requeued": 2}
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 1
    nothing = run("dead", "retry", "--type", "charge_card", "--dsn", dsn)
    assert nothing.exit_code == 3  # nothing matched: the closest groups, and exit 3
    assert "send_email" in nothing.stdout
    assert error_lines(nothing)[0] == "error: no dead job matched type 'charge_card'"

    # --type is required; a bad --limit is the database's one-line error.
    assert run("dead", "retry", "--dsn", dsn).exit_code == 2
    bad = run("dead", "retry", "--type", "send_email", "--limit", "0", "--dsn", dsn)
    assert bad.exit_code == 1
    assert error_lines(bad)[0] == "error: limit 0 is out of range (22023)"


def test_stats(db: psycopg.Connection, dsn: str) -> None:
    assert run("stats", "--dsn", dsn).stdout.strip() == "no jobs in any queue"
    assert json.loads(run("stats", "--dsn", dsn, "--json").stdout) == []

    for _ in range(3):
        enqueue_id(dsn, "a")
    enqueue_id(dsn, "b", "--run-at", "2099-01-01T00:00:00Z")
    enqueue_id(dsn, "c", "--queue", "urgent")
    enqueue_id(dsn, "c", "--queue", "urgent")
    db.execute("select jq.jq_claim('urgent', 'w1', 1)")
    bury(db, "d", ["x"], queue="bulk")

    result = run("stats", "--dsn", dsn)
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    assert header.split() == ["QUEUE", "READY", "SCHEDULED", "RUNNING", "OLDEST", "READY", "DEAD"]
    table = {r.split()[0]: r.split()[1:] for r in rows}
    assert table["default"][0:3] == ["3", "1", "0"] and table["default"][4] == "0"
    assert table["urgent"][0:3] == ["1", "0", "1"]
    assert table["bulk"] == ["0", "0", "0", "-", "1"]

    as_json = {r["queue"]: r for r in json.loads(run("stats", "--dsn", dsn, "--json").stdout)}
    assert as_json["default"]["ready"] == 3 and as_json["default"]["scheduled"] == 1
    assert isinstance(as_json["default"]["oldest_ready_age"], float)
    assert as_json["bulk"]["dead"] == 1 and as_json["bulk"]["oldest_ready_age"] is None


# -- real processes -------------------------------------------------------------------------------


def _subprocess_env(dsn: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    if dsn is not None:
        env["DATABASE_URL"] = dsn
    return env


def _console_script() -> str | None:
    here = Path(sys.executable).parent / "pyjq"
    return str(here) if here.exists() else shutil.which("pyjq")


@pytest.mark.skipif(_console_script() is None, reason="the pyjq console script is not installed (pip install -e .)")
def test_console_script_in_a_subprocess(db: psycopg.Connection, dsn: str) -> None:
    exe = _console_script()
    env = _subprocess_env(dsn)
    done = subprocess.run(
        [exe, "enqueue", "from_subprocess", "--payload", '{"n": 1}'],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    job_id, state = done.stdout.split()
    assert state == "queued"
    shown = subprocess.run([exe, "status", job_id, "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert json.loads(shown.stdout)["type"] == "from_subprocess"

    bad = subprocess.run(
        [exe, "enqueue", "x", "--priority", "99999"], env=env, capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert bad.stderr.splitlines()[0] == "error: priority 99999 is out of range (22023)"
    assert "Traceback" not in bad.stderr

    nodb = subprocess.run([exe, "stats"], env=_subprocess_env(None), capture_output=True, text=True, timeout=60)
    assert nodb.returncode == 2
    assert nodb.stderr == "error: no database given: pass --dsn or set DATABASE_URL\n"


def test_python_dash_m_in_a_subprocess(db: psycopg.Connection, dsn: str) -> None:
    env = _subprocess_env(None)
    base = [sys.executable, "-m", "pyjq.cli"]
    done = subprocess.run(
        [*base, "enqueue", "via_m", "--dsn", dsn], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[1] == "queued"
    bad = subprocess.run(
        [*base, "enqueue", "x", "--payload", "{nope", "--dsn", dsn], env=env, capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2
    assert len(bad.stderr.splitlines()) == 1 and bad.stderr.startswith("error: --payload is not valid JSON")
    assert job_count(db) == 1
    assert subprocess.run([*base, "--help"], env=env, capture_output=True, timeout=60).returncode == 0


# A None entry in sys.modules makes `import click` raise ModuleNotFoundError(name="click").
_HIDE_CLICK = "import sys; sys.modules['click'] = None; "


@pytest.mark.parametrize(
    "code",
    [
        "from pyjq.cli import main; main()",  # what the console script runs
        "import runpy; runpy.run_module('pyjq.cli', run_name='__main__')",  # python -m pyjq.cli
    ],
    ids=["entry-point", "python-m"],
)
def test_without_click_the_command_says_to_install_the_cli_extra(code: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _HIDE_CLICK + code, "stats"],
        env=_subprocess_env(None),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr == "error: the pyjq command needs click: pip install 'pgjq[cli]'\n"


# -- pyjq worker ----------------------------------------------------------------------------------


def _pyjq_command() -> list[str]:
    """The installed console script when there is one, else python -m pyjq.cli."""
    exe = _console_script()
    return [exe] if exe else [sys.executable, "-m", "pyjq.cli"]


def _write_module(directory: Path, name: str, source: str) -> None:
    (directory / f"{name}.py").write_text(textwrap.dedent(source))


def _job_status(db: psycopg.Connection, job_id: UUID | str) -> str | None:
    row = db.execute("select status from jq.jq_status(%s)", (job_id,)).fetchone()
    return row[0] if row else None


@pytest.mark.parametrize(
    "target, message",
    [
        ("no_colon_here", "error: Invalid value for 'MODULE:ATTR': 'no_colon_here' is not MODULE:ATTR"),
        ("pyjq_cli_no_such_module:worker", "error: cannot import module 'pyjq_cli_no_such_module'"),
        ("json:no_such_attr", "error: module 'json' has no attribute 'no_such_attr'"),
        ("json:__name__", "error: json:__name__ is a str, not a pyjq.Worker"),
    ],
)
def test_worker_with_a_bad_target_is_a_usage_error(dsn: str, target: str, message: str) -> None:
    result = run("worker", target, "--dsn", dsn)
    assert result.exit_code == 2, result.output
    assert error_lines(result)[0].startswith(message), result.stderr


def test_worker_rejects_bad_queue_option(dsn: str) -> None:
    for value in ("default", "default=0", "=3", "bad name=2"):
        result = run("worker", "json:dumps", "--queue", value, "--dsn", dsn)
        assert result.exit_code == 2, value
        assert error_lines(result)[0].startswith("error: Invalid value for '--queue'")


def test_worker_module_that_fails_to_import_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dsn: str
) -> None:
    _write_module(tmp_path, "pyjq_cli_broken_jobs", "raise RuntimeError('settings missing')\n")
    monkeypatch.chdir(tmp_path)
    result = run("worker", "pyjq_cli_broken_jobs:worker", "--dsn", dsn)
    assert result.exit_code == 1
    lines = error_lines(result)
    assert lines[0] == "error: importing 'pyjq_cli_broken_jobs' failed: RuntimeError: settings missing"


def test_worker_built_for_another_database_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dsn: str
) -> None:
    _write_module(
        tmp_path,
        "pyjq_cli_elsewhere_jobs",
        """
        import pyjq
        worker = pyjq.Worker("host=127.0.0.1 dbname=somewhere_else")
    """,
    )
    monkeypatch.chdir(tmp_path)
    result = run("worker", "pyjq_cli_elsewhere_jobs:worker", "--dsn", dsn)
    assert result.exit_code == 2
    assert error_lines(result)[0] == (
        "error: the worker pyjq_cli_elsewhere_jobs:worker was built with a different dsn than --dsn"
    )


def test_worker_without_handlers_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dsn: str) -> None:
    _write_module(
        tmp_path,
        "pyjq_cli_empty_jobs",
        """
        import os, pyjq
        worker = pyjq.Worker(os.environ["DATABASE_URL"])
    """,
    )
    monkeypatch.chdir(tmp_path)
    result = run("worker", "pyjq_cli_empty_jobs:worker", "--dsn", dsn)
    assert result.exit_code == 1
    assert error_lines(result)[0].startswith("error: RuntimeError: no handlers registered")


def test_worker_subprocess_runs_jobs_and_exits_0_on_sigterm(db: psycopg.Connection, dsn: str, tmp_path: Path) -> None:
    """The module builds its Worker from DATABASE_URL, which --dsn sets."""
    import signal

    _write_module(
        tmp_path,
        "cli_jobs",
        """
        import os, pathlib, pyjq
        worker = pyjq.Worker(os.environ["DATABASE_URL"], queues={"default": 2}, poll_interval=0.2,
                             shutdown_grace=5)

        @worker.handler("touch")
        def touch(job):
            pathlib.Path(job.payload["path"]).write_text(str(job.id))
    """,
    )
    ids = [enqueue_id(dsn, "touch", "--payload", json.dumps({"path": str(tmp_path / f"out{i}")})) for i in range(3)]
    proc = subprocess.Popen(
        [*_pyjq_command(), "worker", "cli_jobs:worker", "--dsn", dsn, "--queue", "default=3"],
        cwd=tmp_path,
        env=_subprocess_env(None),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(lambda: all(_job_status(db, i) == "succeeded" for i in ids), what="the jobs to succeed")
        for i, job_id in enumerate(ids):
            assert (tmp_path / f"out{i}").read_text() == str(job_id)
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert "job succeeded" in stderr  # the worker's log lines reach stderr
    assert "queues default=3" in stderr  # --queue replaced the instance's queues
    assert stdout == ""


def test_worker_factory_gets_dsn_and_queue_override(db: psycopg.Connection, dsn: str, tmp_path: Path) -> None:
    """ATTR may be a function; it is given dsn= and queues= (from DATABASE_URL and --queue)."""
    import signal

    _write_module(
        tmp_path,
        "cli_factory_jobs",
        """
        import pyjq

        def make(dsn, queues=None):
            worker = pyjq.Worker(dsn, queues=queues or {"default": 1}, poll_interval=0.2, shutdown_grace=5)

            @worker.handler("ping")
            async def ping(job):
                return None

            return worker
    """,
    )
    job_id = enqueue_id(dsn, "ping", "--queue", "special")
    proc = subprocess.Popen(
        [*_pyjq_command(), "worker", "cli_factory_jobs:make", "--queue", "special=3", "--log-level", "debug"],
        cwd=tmp_path,
        env=_subprocess_env(dsn),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for(lambda: _job_status(db, job_id) == "succeeded", what="the job to succeed")
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    assert "queues special=3" in stderr
