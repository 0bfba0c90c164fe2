"""`pyjq dev db`: a development PostgreSQL for your own app (pyjq/dev/devdb.py).

Real servers, started by the real command in a subprocess: the test checks that
the server outlives the command, keeps its port across stop/start, and moves
(saying so) only when another process holds that port. As root the clusters run
as the postgres OS user the harness created (`make deps`).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

import pyjq
from pyjq.dev.devdb import DevDatabase

pytestmark = pytest.mark.processes


def pyjq_dev_db(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m pyjq.cli dev db ARGS`, as a user's shell would run it."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run(
        [sys.executable, "-m", "pyjq.cli", "dev", "db", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder for the cluster under /tmp (as root the postgres user must reach it;
    pytest's tmp_path is private to root); the server is stopped and all removed after."""
    parent = Path(tempfile.mkdtemp(prefix="jq-devdb-test.", dir="/tmp"))
    parent.chmod(0o755)
    folder = parent / "db"
    try:
        yield folder
    finally:
        database = DevDatabase(folder)
        if (folder / "cluster-location").exists():  # not expected under /tmp, but never left behind
            shutil.rmtree(database.data_dir.parent, ignore_errors=True)
        database.stop()
        shutil.rmtree(parent, ignore_errors=True)


def start(folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    done = pyjq_dev_db("start", "--dir", str(folder), *extra)
    assert done.returncode == 0, done.stderr
    return done


def test_start_url_status_stop_and_start_again_on_the_same_port(folder: Path) -> None:
    url = start(folder).stdout.strip()
    assert url.startswith("postgresql://postgres@127.0.0.1:") and url.endswith("/app")

    # The command has exited; the server is still up, with jq installed.
    with psycopg.connect(url, connect_timeout=10) as conn:
        assert pyjq.installed_version(conn)
    # A connection the server closes first leaves its port in TIME_WAIT after the
    # stop below: that must not count as taken (the port moved on every restart).
    with psycopg.connect(url, autocommit=True) as conn, pytest.raises(psycopg.OperationalError):
        conn.execute("select pg_terminate_backend(pg_backend_pid())")

    assert pyjq_dev_db("url", "--dir", str(folder)).stdout == f"{url}\n"
    assert pyjq_dev_db("url", "--dir", str(folder), "--shell").stdout == f"export DATABASE_URL={url}\n"
    status = pyjq_dev_db("status", "--dir", str(folder)).stdout
    port = url.rsplit(":", 1)[1].split("/")[0]
    assert status.splitlines()[0] == "running"
    assert f"port:   {port}" in status and f"folder: {folder}" in status

    stopped = pyjq_dev_db("stop", "--dir", str(folder))
    assert stopped.returncode == 0 and stopped.stdout.startswith("stopped")
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=5).close()
    not_running = pyjq_dev_db("url", "--dir", str(folder))
    assert not_running.returncode == 1 and not_running.stdout == ""
    assert "not running" in not_running.stderr and "pyjq dev db start" in not_running.stderr
    assert pyjq_dev_db("status", "--dir", str(folder)).stdout.splitlines()[0] == "stopped"

    again = start(folder, "--env")
    assert again.stdout == f"export DATABASE_URL={url}\n"
    assert "warning" not in again.stderr
    assert pyjq_dev_db("stop", "--dir", str(folder)).returncode == 0
    assert pyjq_dev_db("stop", "--dir", str(folder)).stdout.startswith("not running")


def test_a_taken_port_moves_to_a_free_one_and_says_so(folder: Path) -> None:
    first = start(folder).stdout.strip()
    old_port = int(first.rsplit(":", 1)[1].split("/")[0])
    assert pyjq_dev_db("stop", "--dir", str(folder)).returncode == 0

    with socket.socket() as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # despite TIME_WAIT left by the server
        squatter.bind(("127.0.0.1", old_port))
        squatter.listen()
        moved = start(folder)
    url = moved.stdout.strip()
    new_port = int(url.rsplit(":", 1)[1].split("/")[0])
    assert new_port != old_port
    assert f"port {old_port}" in moved.stderr and "is taken" in moved.stderr
    assert f"using port {new_port}" in moved.stderr
    with psycopg.connect(url, connect_timeout=10) as conn:
        assert pyjq.installed_version(conn)

    # The new port is the remembered one from now on.
    assert pyjq_dev_db("stop", "--dir", str(folder)).returncode == 0
    assert start(folder).stdout.strip() == url


def test_a_cluster_for_another_database_name_keeps_it(folder: Path) -> None:
    url = start(folder, "--dbname", "shop").stdout.strip()
    assert url.endswith("/shop")
    assert pyjq_dev_db("url", "--dir", str(folder)).stdout.strip() == url


def test_status_of_a_folder_without_a_cluster_says_how_to_start(tmp_path: Path) -> None:
    done = pyjq_dev_db("status", "--dir", str(tmp_path / "none"))
    assert done.returncode == 0
    assert done.stdout.startswith("stopped: no cluster") and "pyjq dev db start --dir" in done.stdout
