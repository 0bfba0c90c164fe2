"""pyjq.contrib.django, the django.tasks backend, in a real Django project (tests/django_project/).

Each check is a scenario of tests/django_project/scenarios.py, run in a
subprocess against a fresh test database, twice: on Django 5.2 LTS with the
django-tasks backport (this venv's Python, pinned by the test extra) and on
Django 6.0's own django.tasks, in a python3.12 venv this file builds once and
keeps in .jq-dev/django6-venv (skipped, saying why, where no python3.12 exists).
Beside them, on both: ``manage.py jq_worker`` as deployed (until SIGTERM) and
``manage.py jq_install`` on a database without jq.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from helpers import job_status, wait_until
from psycopg.conninfo import conninfo_to_dict, make_conninfo

import pyjq

pytestmark = pytest.mark.processes

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "tests" / "django_project"
DJANGO6_VENV = ROOT / ".jq-dev" / "django6-venv"
# What the Django 6 venv holds besides this repository (editable, so it always runs this tree's code).
DJANGO6_REQUIREMENTS = ["django>=6.0,<6.1", "psycopg[binary]>=3.2"]
DJANGO6_STAMP = DJANGO6_VENV / "jq-requirements.txt"

SCENARIOS = [
    "atomic_commit",
    "atomic_rollback",
    "autocommit_outside_atomic",
    "mapping",
    "results_lookup",
    "async_api",
    "system_checks",
    "worker_end_to_end",
]


def _python312() -> str | None:
    """A python3.12 that runs: on PATH, else pyenv's (a pyenv shim on PATH may refuse when 3.12 is not selected)."""
    candidates = [
        shutil.which("python3.12"),
        *sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python3.12")), reverse=True),
    ]
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    return None


def _build_django6_venv(python: str) -> None:
    """A python3.12 venv with Django 6.0, psycopg and this repository, reused while its requirements hold."""
    wanted = "\n".join([*DJANGO6_REQUIREMENTS, f"-e {ROOT}"]) + "\n"
    pip = DJANGO6_VENV / "bin" / "pip"
    if DJANGO6_STAMP.is_file() and DJANGO6_STAMP.read_text() == wanted and pip.exists():
        return
    shutil.rmtree(DJANGO6_VENV, ignore_errors=True)
    steps = [
        [python, "-m", "venv", str(DJANGO6_VENV)],
        [str(pip), "install", "-q", *DJANGO6_REQUIREMENTS],
        [str(pip), "install", "-q", "-e", str(ROOT)],
    ]
    for step in steps:
        proc = subprocess.run(step, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            pytest.fail(f"building {DJANGO6_VENV}: {' '.join(step)} failed:\n{proc.stdout}\n{proc.stderr}")
    DJANGO6_STAMP.write_text(wanted)


def django_python_for(version: str) -> str:
    """The Python that runs the project on ``version``: "django-5.2" this one (the test extra pins
    Django 5.2 and django-tasks), "django-6.0" the python3.12 venv, built on first use; or skip."""
    if version == "django-5.2":
        return sys.executable
    python = _python312()
    if python is None:
        pytest.skip("Django 6.0 needs Python >= 3.12: no python3.12 on PATH or in ~/.pyenv/versions")
    _build_django6_venv(python)
    return str(DJANGO6_VENV / "bin" / "python")


DJANGO_VERSIONS = ["django-5.2", "django-6.0"]


@pytest.fixture(params=DJANGO_VERSIONS)
def django_python(request: pytest.FixtureRequest) -> str:
    return django_python_for(request.param)


def django_env(dsn: str, *paths: Path) -> dict[str, str]:
    """The environment of a process of the test project on the database ``dsn`` (``paths`` first on sys.path)."""
    return {**os.environ, "JQ_DJANGO_DSN": dsn, "PYTHONPATH": os.pathsep.join(map(str, [*paths, PROJECT]))}


def _scenario(python: str, dsn: str, name: str) -> str:
    env = django_env(dsn)
    proc = subprocess.run(
        [python, "scenarios.py", name], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, f"scenario {name} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    assert f"ok {name}" in proc.stdout, proc.stdout
    return proc.stdout


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_django_scenario(django_python: str, dsn: str, scenario: str) -> None:
    _scenario(django_python, dsn, scenario)


def test_the_tasks_framework_each_python_uses(django_python: str, dsn: str, request: pytest.FixtureRequest) -> None:
    out = _scenario(django_python, dsn, "framework")
    expected = {"django-5.2": "django 5.2.", "django-6.0": "django 6.0."}[request.node.callspec.params["django_python"]]
    assert expected in out, out
    assert ("tasks django_tasks" if expected == "django 5.2." else "tasks django.tasks") in out, out


def test_jq_worker_runs_until_sigterm(django_python: str, db: psycopg.Connection, dsn: str) -> None:
    """The command as deployed: it runs jobs enqueued while it runs (here in the wire format, from
    outside Django) and exits 0 on SIGTERM, after its graceful shutdown."""
    worker = subprocess.Popen(
        [django_python, "manage.py", "jq_worker", "--queue", "emails=2"],
        cwd=PROJECT,
        env=django_env(dsn),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        job = pyjq.enqueue(db, "shop.tasks.add", {"args": [40, 2], "kwargs": {}}, queue="emails")
        wait_until(lambda: job_status(dsn, job.job_id).status == "succeeded", timeout=60, what="the task to run")
        worker.send_signal(signal.SIGTERM)
        out, _ = worker.communicate(timeout=60)
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    assert worker.returncode == 0, out
    assert "shop.tasks.add" in out.splitlines()[0] and "1 succeeded" in out, out


@pytest.fixture
def empty_dsn(db: psycopg.Connection, dsn: str) -> Iterator[str]:
    """A database of the test server without jq, for the installer."""
    name = f"{conninfo_to_dict(dsn)['dbname']}_nojq"
    db.execute(f'create database "{name}"')
    yield make_conninfo(dsn, dbname=name)
    db.execute(f'drop database "{name}" with (force)')


def test_django_jq_install_command(django_python: str, empty_dsn: str) -> None:
    _scenario(django_python, empty_dsn, "install_command")


def test_importing_pyjq_imports_no_django() -> None:
    code = "import sys, pyjq, pyjq.contrib; sys.exit('django' in sys.modules or 'django_tasks' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0
