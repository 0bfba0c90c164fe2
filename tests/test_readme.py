"""The documentation cannot drift silently.

The README's Python examples run (the install, the transactional enqueue and
the worker module `# jobs.py`, driven as the README shows), its CLI enqueue
runs, every relative link in README.md and docs/*.md resolves (file and
heading), the README links every page of docs/, and every jq_* function
installed in the database has a row in docs/sql-api.md (and every row names
an installed function), and the queries of docs/operations.md run as jq_admin.
"""

from __future__ import annotations

import re
import runpy
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
import test_django
from psycopg.conninfo import conninfo_to_dict

import pyjq

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
SQL_API = DOCS / "sql-api.md"
DOC_FILES = [README, *sorted(DOCS.glob("*.md"))]

FENCED = re.compile(r"^```.*?^```", flags=re.S | re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _code_blocks(path: Path, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", path.read_text(), flags=re.S | re.M)


# Every Python block of the README is one of these, each run by a test below.
PYTHON_EXAMPLES = {
    "install": lambda block: "pyjq.install(" in block,
    "enqueue": lambda block: "pyjq.enqueue(" in block and "conn.transaction()" in block,
    "worker": lambda block: block.startswith("# jobs.py"),
    "tasks": lambda block: block.startswith("# tasks.py"),
    "django": lambda block: block.startswith("# settings.py"),
    "sqlalchemy": lambda block: "pyjq.enqueue(session" in block,
}


def _status(conn: psycopg.Connection, job_id: object) -> pyjq.JobStatus:
    shown = pyjq.status(conn, str(job_id))
    assert shown is not None, f"job {job_id} not found"
    return shown


def _python_example(name: str) -> str:
    matching = [b for b in _code_blocks(README, "python") if PYTHON_EXAMPLES[name](b)]
    assert len(matching) == 1, f"README.md should hold one {name} example, found {len(matching)}"
    return matching[0]


def test_readme_python_blocks_are_all_tested():
    for block in _code_blocks(README, "python"):
        kinds = [name for name, is_kind in PYTHON_EXAMPLES.items() if is_kind(block)]
        assert len(kinds) == 1, f"README python block not run by tests/test_readme.py:\n{block}"


def test_readme_install_example(db, dsn, capsys):
    exec(compile(_python_example("install"), "README.md:install", "exec"), {"dsn": dsn})
    assert capsys.readouterr().out.strip().splitlines()[-1] == pyjq.version(db)


def test_readme_enqueue_example(db, dsn, capsys):
    db.execute("create table users (id bigint generated always as identity primary key, email text not null)")
    exec(compile(_python_example("enqueue"), "README.md:enqueue", "exec"), {"dsn": dsn})
    first, second = capsys.readouterr().out.splitlines()
    job_id, status, duplicate = first.split()
    assert (status, duplicate, second) == ("queued", "False", "queued")
    user_id = db.execute("select id from users where email = 'ada@example.com'").fetchone()[0]
    shown = _status(db, job_id)
    assert shown.type == "send_welcome_email" and shown.priority == 5
    again = pyjq.enqueue(db, "send_welcome_email", {"user_id": user_id}, idempotency_key=f"welcome:{user_id}")
    assert again.duplicate and str(again.job_id) == job_id


def test_readme_worker_example_runs_its_jobs(db, dsn, tmp_path, monkeypatch):
    (tmp_path / "readme_jobs.py").write_text(_python_example("worker"))
    monkeypatch.setenv("DATABASE_URL", dsn)
    monkeypatch.syspath_prepend(str(tmp_path))
    import readme_jobs  # type: ignore[import-not-found]  # the module under test, written above

    welcome = pyjq.enqueue(db, "send_welcome_email", {"user_id": 42}, priority=5, idempotency_key="welcome:42")
    charge = pyjq.enqueue(db, "charge_card", {"amount": 1250, "flaky": True})
    refused = pyjq.enqueue(db, "charge_card", {"amount": 0})

    summary = readme_jobs.worker.run_until_empty(timeout=30)
    assert _status(db, welcome.job_id).status == "succeeded"
    assert _status(db, refused.job_id).status == "dead"
    # The flaky charge asked for a retry in 1 s; once due, it succeeds.
    retry = _status(db, charge.job_id)
    assert retry.status == "failed_retrying" and summary.failed_retrying == 1
    assert retry.next_attempt_at is not None
    time.sleep(max(0.0, (retry.next_attempt_at - datetime.now(UTC)).total_seconds()) + 0.05)
    readme_jobs.worker.run_until_empty(timeout=30)
    assert _status(db, charge.job_id).status == "succeeded"
    sys.modules.pop("readme_jobs", None)


def test_readme_tasks_example_enqueues_checks_and_runs(db, dsn, tmp_path, monkeypatch, capsys):
    path = tmp_path / "readme_tasks.py"
    path.write_text(_python_example("tasks"))
    monkeypatch.setenv("DATABASE_URL", dsn)
    runpy.run_path(str(path), run_name="__main__")  # as `python tasks.py`
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "task 'send_welcome_email', field 'user_id': expected int, got str '42'"
    assert set(out[1:3]) == {"welcome mail to user 42 (en)", "invoice inv_7731: 1250 cents"}
    assert out[3].startswith("RunSummary(succeeded=2, failed_retrying=0, dead=0")
    rows = db.execute("select type, queue, status, max_attempts, idempotency_key from jq.job_history order by type")
    assert rows.fetchall() == [
        ("generate_invoice_pdf", "default", "succeeded", 25, None),
        ("send_welcome_email", "urgent", "succeeded", 8, "welcome:42"),
    ]
    assert db.execute("select count(*) from jq.jobs").fetchone() == (0,)  # the refused payload wrote nothing


def test_readme_sqlalchemy_example(db, dsn, monkeypatch):
    from sqlalchemy.engine import URL

    params = conninfo_to_dict(dsn)
    url = URL.create(
        "postgresql",
        username=params.get("user"),
        password=params.get("password"),
        host=params.get("host"),
        port=int(params["port"]) if params.get("port") else None,
        database=params["dbname"],
    )
    monkeypatch.setenv("DATABASE_URL", url.render_as_string(hide_password=False))
    # dont_inherit: not this file's `from __future__ import annotations`, which SQLAlchemy could not resolve here
    code = compile(_python_example("sqlalchemy"), "README.md:sqlalchemy", "exec", dont_inherit=True)
    exec(code, {"__name__": "readme_sqlalchemy"})
    assert [r[0] for r in db.execute("select email from orders")] == ["ada@example.com"]
    jobs = db.execute("select payload from jq.jobs where type = 'send_receipt'").fetchall()
    assert jobs == [({"order_id": 1},)], "the committed order's job, and not the rolled-back one's"


def _readme_django_project(tmp_path: Path, version: str) -> Path:
    """The README's Django files (one block, a '# path.py' line before each) as a project on the test one."""
    files: dict[str, list[str]] = {}
    for line in _python_example("django").splitlines():
        header = re.match(r"^# (\S+\.py)\b", line)
        if header:
            current = files.setdefault(header.group(1), [])
        current.append(line)
    assert sorted(files) == ["settings.py", "shop/checkout.py", "shop/tasks.py"], sorted(files)
    tasks = "\n".join(files["shop/tasks.py"])
    if version == "django-5.2":  # the one change the README's comment names
        tasks = tasks.replace("from django.tasks import task", "from django_tasks import task", 1)
    shop = tmp_path / "shop"
    shop.mkdir()
    (shop / "__init__.py").write_text("")
    shutil.copy(test_django.PROJECT / "shop" / "models.py", shop / "models.py")
    (shop / "tasks.py").write_text(tasks + "\n")
    (shop / "checkout.py").write_text("\n".join(files["shop/checkout.py"]) + "\n")
    shutil.copy(test_django.PROJECT / "manage.py", tmp_path / "manage.py")  # so that its shop is this one
    settings = "from jqsite.settings import *  # DATABASES of the test project\n\n"
    (tmp_path / "readme_settings.py").write_text(settings + "\n".join(files["settings.py"]) + "\n")
    return tmp_path


@pytest.mark.processes
@pytest.mark.parametrize("version", test_django.DJANGO_VERSIONS)
def test_readme_django_example(db, dsn, tmp_path, version):
    python = test_django.django_python_for(version)
    project = _readme_django_project(tmp_path, version)
    env = {**test_django.django_env(dsn, project), "DJANGO_SETTINGS_MODULE": "readme_settings"}

    def run(*args: str) -> str:
        proc = subprocess.run([python, *args], cwd=project, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, f"{args} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        return proc.stdout

    checkout = (
        "import django; django.setup(); from django.core.management import call_command; "
        "call_command('migrate', run_syncdb=True, verbosity=0); "
        "from shop.checkout import checkout; print(checkout('ada@example.com'))"
    )
    job_id = run("-c", checkout).split()[-1]
    shown = _status(db, job_id)
    assert (shown.type, shown.queue, shown.priority) == ("shop.tasks.send_receipt", "emails", 10)
    assert shown.max_attempts == 10
    assert "1 succeeded" in run("manage.py", "jq_worker", "--drain")
    result = (
        "import django; django.setup(); from shop.tasks import send_receipt; "
        f"r = send_receipt.get_result('{job_id}'); print(r.status, r.attempts, r.return_value)"
    )
    assert run("-c", result).strip() == "SUCCESSFUL 1 receipt for order 1 sent"


def test_readme_cli_enqueue_and_status(db, dsn):
    lines = [
        line
        for block in _code_blocks(README, "sh")
        for line in block.splitlines()
        if line.startswith("pyjq enqueue generate_invoice_pdf")
    ]
    assert len(lines) == 1, "README.md should show one `pyjq enqueue generate_invoice_pdf` command"
    args = shlex.split(lines[0], comments=True)[1:]
    out = subprocess.run(
        [sys.executable, "-m", "pyjq.cli", *args, "--dsn", dsn], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    job_id, status = out.stdout.split()[:2]
    assert status in ("queued", "scheduled")
    shown = _status(db, job_id)
    assert shown.type == "generate_invoice_pdf"
    assert shown.run_at.isoformat().startswith("2026-10-31T18:35:00")


def _anchors(path: Path) -> set[str]:
    """GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens, -1 -2 for repeats."""
    seen: Counter[str] = Counter()
    anchors = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", FENCED.sub("", path.read_text()), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower()).replace(" ", "-")
        anchors.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return anchors


def _relative_links(path: Path) -> list[str]:
    return [t for t in LINK.findall(FENCED.sub("", path.read_text())) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("doc", DOC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(doc: Path) -> None:
    broken = []
    for target in _relative_links(doc):
        file_part, _, anchor = target.partition("#")
        linked = (doc.parent / file_part).resolve() if file_part else doc
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            broken.append(f"{target}: no heading #{anchor} in {linked.relative_to(ROOT)}")
    assert not broken, f"broken links in {doc.relative_to(ROOT)}: {broken}"


def test_readme_links_every_doc():
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in _relative_links(README)}
    unlinked = [p.name for p in DOCS.glob("*.md") if p.resolve() not in linked]
    assert not unlinked, f"docs/ pages the README does not link: {unlinked}"


def _sql_api_rows() -> set[str]:
    """Function names documented in a table row of docs/sql-api.md (first cell: `jq_name(...)`)."""
    names = set()
    for line in SQL_API.read_text().splitlines():
        if line.startswith("| `jq_"):
            first_cell = line.split("|")[1]
            names.update(re.findall(r"`(jq_\w+)\(", first_cell))
    return names


def test_sql_api_has_a_row_for_every_installed_function(db):
    installed = {
        name
        for (name,) in db.execute(
            "select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace"
            " where n.nspname = 'jq' and p.proname like 'jq\\_%'"
        )
    }
    documented = _sql_api_rows()
    assert installed, "no jq_* functions found: is jq installed?"
    assert not installed - documented, f"no row in docs/sql-api.md for {sorted(installed - documented)}"
    assert not documented - installed, f"rows for functions not installed: {sorted(documented - installed)}"


OPERATIONS = DOCS / "operations.md"


@pytest.mark.parametrize("block", _code_blocks(OPERATIONS, "sql"), ids=lambda b: b.splitlines()[0][:40])
def test_operations_queries_run_as_admin(db: psycopg.Connection, block: str) -> None:
    """The queries an operator copies at 3 a.m. run as jq_admin (grants: as the installer's role)."""
    with db.transaction(force_rollback=True):
        if block.lstrip().startswith("grant "):
            db.execute("create role my_web_app; create role my_worker")
        else:
            db.execute("set local role jq_admin")
        for statement in filter(str.strip, re.sub(r"--[^\n]*", "", block).split(";")):
            db.execute(statement)


def test_install_lines_name_this_distribution() -> None:
    """Every `pip install` line in the README and docs installs this project: from the clone
    ('.[extra]') or by the distribution name in pyproject.toml ('pyjq' on PyPI is another project)."""
    import tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    name = pyproject["project"]["name"]
    extras = set(pyproject["project"]["optional-dependencies"])
    assert name != "pyjq"
    seen = 0
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in doc.read_text().splitlines():
            for target in re.findall(r"pip install\s+(?:-e\s+)?'?([^\s'`]+)'?", line):
                seen += 1
                base, _, extra = target.partition("[")
                assert base in (".", name), f"{doc.name}: {line.strip()!r} installs {base!r}, not {name!r}"
                for e in extra.rstrip("]").split(","):
                    assert not e or e in extras, f"{doc.name}: {line.strip()!r} names extra {e!r}"
    assert seen >= 3
