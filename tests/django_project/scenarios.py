"""The checks of pyjq.contrib.django, run in this Django project: ``python scenarios.py NAME``.

tests/test_django.py runs each one in a subprocess, on Django 5.2 with the
django-tasks backport (the venv's Python) and on Django 6.0 (a python3.12
venv), against a fresh test database named by JQ_DJANGO_DSN. A scenario
asserts what it checks and prints ``ok NAME``; a failure exits non-zero
with its traceback.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path

import django
import psycopg

HERE = Path(__file__).resolve().parent
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jqsite.settings")
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402
from shop.models import Order  # noqa: E402
from shop.tasks import add, flaky, give_up, send_receipt, whoami  # noqa: E402
from tasks_api import InvalidTask, TaskResultDoesNotExist, TaskResultStatus, default_task_backend  # noqa: E402

import pyjq  # noqa: E402


def _side() -> psycopg.Connection:
    """A connection of its own, to see what another session sees."""
    return psycopg.connect(os.environ["JQ_DJANGO_DSN"], autocommit=True)


def _job(job_id: str) -> dict | None:
    with _side() as conn:
        row = conn.execute(
            "select type, queue, priority, run_at, payload from jq.jobs where id = %s", [job_id]
        ).fetchone()
    return None if row is None else dict(zip(["type", "queue", "priority", "run_at", "payload"], row, strict=True))


def _manage(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, str(HERE / "manage.py"), *args], cwd=HERE, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, f"manage.py {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc


# -- enqueue in Django's transaction ----------------------------------------------------------------


def atomic_commit() -> None:
    with transaction.atomic():
        order = Order.objects.create(email="ada@example.com")
        result = send_receipt.enqueue(order.id, copy=True)
        assert _job(result.id) is None, "another session saw the job before the commit"
    job = _job(result.id)
    assert job is not None, "the job did not commit with the block"
    assert job["type"] == "shop.tasks.send_receipt" == send_receipt.module_path
    assert job["payload"] == {"args": [order.id], "kwargs": {"copy": True}}
    assert result.status == TaskResultStatus.READY and result.args == [order.id] and result.kwargs == {"copy": True}
    assert result.backend == "default" and result.enqueued_at is not None
    uuid.UUID(result.id)  # the jq job id is the TaskResult id


def atomic_rollback() -> None:
    class Abort(Exception):
        pass

    try:
        with transaction.atomic():
            order = Order.objects.create(email="bob@example.com")
            result = send_receipt.enqueue(order.id)
            assert default_task_backend.get_result(result.id).status == TaskResultStatus.READY  # seen inside
            raise Abort
    except Abort:
        pass
    assert not Order.objects.exists()
    assert _job(result.id) is None, "the job outlived the rolled-back block"
    try:
        default_task_backend.get_result(result.id)
    except TaskResultDoesNotExist:
        pass
    else:
        raise AssertionError("get_result found a rolled-back job")


def autocommit_outside_atomic() -> None:
    result = send_receipt.enqueue(1)
    assert _job(result.id) is not None, "outside atomic() the job commits at once"


# -- what maps to what --------------------------------------------------------------------------------


def mapping() -> None:
    backend = default_task_backend
    assert backend.supports_defer and backend.supports_async_task
    assert backend.supports_get_result and backend.supports_priority

    job = _job(add.enqueue(1, 2).id)
    assert (job["queue"], job["priority"]) == ("emails", 10), job
    for priority in (-100, 0, 100):
        assert _job(send_receipt.using(priority=priority).enqueue(1).id)["priority"] == priority

    later = timezone.now() + timedelta(hours=1)
    deferred = send_receipt.using(run_after=later, queue_name="emails").enqueue(1)
    job = _job(deferred.id)
    assert job["run_at"] == later and job["queue"] == "emails", job
    assert pyjq.status(_side(), deferred.id).status == "scheduled"
    fetched = backend.get_result(deferred.id)
    assert fetched.status == TaskResultStatus.READY and fetched.task.queue_name == "emails"
    assert fetched.task.func is send_receipt.func

    for bad in ({"queue_name": "not-listed"}, {"priority": 101}):
        try:
            send_receipt.using(**bad)
        except InvalidTask:
            pass
        else:
            raise AssertionError(f"using({bad}) was accepted")
    before = _count_jobs()
    try:
        send_receipt.enqueue(object())
    except TypeError:
        pass
    else:
        raise AssertionError("a payload that is not JSON was accepted")
    assert _count_jobs() == before, "a refused enqueue wrote a job"


def _count_jobs() -> int:
    with _side() as conn:
        return conn.execute("select count(*) from jq.jobs").fetchone()[0]


def results_lookup() -> None:
    backend = default_task_backend
    for missing in (str(uuid.uuid4()), "not-a-uuid"):
        try:
            backend.get_result(missing)
        except TaskResultDoesNotExist:
            pass
        else:
            raise AssertionError(f"get_result({missing!r}) found something")
    with _side() as conn:
        plain = pyjq.enqueue(conn, "send_welcome_email", {"user_id": 1})
    try:
        backend.get_result(str(plain.job_id))
    except TaskResultDoesNotExist:
        pass
    else:
        raise AssertionError("a plain jq job was taken for a task")
    result = send_receipt.enqueue(7)
    assert send_receipt.get_result(result.id).id == result.id

    with _side() as conn:
        assert pyjq.cancel(conn, result.id) == "cancelled"
    result.refresh()
    assert result.status == TaskResultStatus.FAILED and result.is_finished
    assert [e.exception_class_path for e in result.errors] == ["pyjq.job.JobCancelled"], result.errors


def async_api() -> None:
    async def main() -> None:
        result = await add.aenqueue(20, 22)
        fetched = await add.aget_result(result.id)
        assert fetched.status == TaskResultStatus.READY and fetched.id == result.id
        await fetched.arefresh()

    asyncio.run(main())


# -- the commands ---------------------------------------------------------------------------------------


def install_command() -> None:
    out = _manage("jq_install").stdout
    assert f"jq {pyjq.__version__} is installed" in out, out
    assert f"jq {pyjq.__version__} is installed" in _manage("jq_install").stdout  # idempotent
    with _side() as conn:
        assert pyjq.version(conn) == pyjq.__version__


def system_checks() -> None:
    call_command("check", "--fail-level", "WARNING")


def worker_end_to_end() -> None:
    order = Order.objects.create(email="ada@example.com")
    with transaction.atomic():
        receipt = send_receipt.enqueue(order.id)
    summed = add.enqueue(2, 3)
    context = whoami.enqueue(tag="t1")
    failing = flaky.enqueue()
    discarded = give_up.enqueue()

    out = _manage("jq_worker", "--drain", "--drain-timeout", "60").stdout
    assert "5 succeeded" not in out and "3 succeeded, 1 failed (retrying), 1 dead" in out, out

    order.refresh_from_db()
    assert order.paid, "the sync task's ORM update did not happen"
    assert Order.objects.filter(email=f"t1 {context.id} 1").exists(), "the context named another job or attempt"
    for result in (receipt, summed, context):
        result.refresh()
        assert result.status == TaskResultStatus.SUCCESSFUL and result.is_finished, (result.id, result.status)
        assert result.errors == [] and result.attempts == 1 and result.finished_at is not None
    assert receipt.return_value == {"sent_to": "ada@example.com", "copy": False}, receipt.return_value
    assert summed.return_value == 5, summed.return_value
    finished_task = add.get_result(summed.id).task
    assert (finished_task.queue_name, finished_task.priority) == ("emails", 10), "a finished job keeps its task's"
    assert context.return_value == {"id": context.id, "attempt": 1, "tag": "t1"}, context.return_value

    failed = flaky.get_result(failing.id)
    assert failed.status == TaskResultStatus.READY and failed.attempts == 1, "a failed attempt is retried later"
    assert [e.exception_class_path for e in failed.errors] == ["builtins.ValueError"], failed.errors
    assert failed.errors[0].exception_class is ValueError
    assert "the payment provider said no" in failed.errors[0].traceback
    worker_name = out.splitlines()[0].split()[2].rstrip(":")  # "jq worker NAME: queues ..."
    assert failed.worker_ids == [worker_name], (failed.worker_ids, out)

    _errors_as_producer(failing.id)

    dead = give_up.get_result(discarded.id)
    assert dead.status == TaskResultStatus.FAILED and dead.is_finished
    assert dead.errors[0].exception_class is pyjq.Discard, dead.errors
    try:
        dead.return_value  # noqa: B018
    except ValueError:
        pass
    else:
        raise AssertionError("a failed task had a return value")


def framework() -> None:
    from pyjq.contrib.django.compat import TASKS_MODULE

    print(f"django {django.get_version()} tasks {TASKS_MODULE}")


def _errors_as_producer(job_id: str) -> None:
    """A web tier running as jq_producer may not read jq_job_attempts: get_result falls back to the last
    error, in a savepoint, and the caller's transaction goes on."""
    with transaction.atomic():
        with connection.cursor() as cur:
            cur.execute("set local role jq_producer")
        result = flaky.get_result(job_id)
        assert [e.exception_class_path for e in result.errors] == ["builtins.ValueError"], result.errors
        assert result.worker_ids == [""], result.worker_ids
        with connection.cursor() as cur:
            cur.execute("select current_user")
            assert cur.fetchone()[0] == "jq_producer"


SCENARIOS = {
    f.__name__: f
    for f in (
        framework,
        atomic_commit,
        atomic_rollback,
        autocommit_outside_atomic,
        mapping,
        results_lookup,
        async_api,
        install_command,
        system_checks,
        worker_end_to_end,
    )
}

if __name__ == "__main__":
    name = sys.argv[1]
    if name != "install_command":
        call_command("migrate", run_syncdb=True, verbosity=0)
    SCENARIOS[name]()
    print(f"ok {name}")
