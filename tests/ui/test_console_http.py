"""The console over plain HTTP (no browser): login and its cookie, scopes, CSRF, the headers every
response carries, escaping, and that the console is absent without Jinja2."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest
from ui_helpers import ADMIN_TOKEN, PRODUCER_TOKEN, VIEWER_TOKEN, ConsoleServer, bury, login

import pyjq

pytestmark = pytest.mark.processes

PAGES = ["/", "/jobs", "/dead", "/dead?window=1h", "/dead?window=7d", "/queues", "/schedules", "/tenants", "/workers"]


@pytest.fixture
def client(console_server: ConsoleServer):
    with httpx.Client(base_url=console_server.base, follow_redirects=False, timeout=10) as c:
        yield c


def test_login_sets_a_strict_httponly_session_cookie_and_logout_ends_it(client):
    assert client.get("/ui/").headers["location"] == "/ui/login"
    answer = client.post("/ui/login", data={"token": ADMIN_TOKEN})
    assert answer.status_code == 303 and answer.headers["location"] == "/ui/"
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/ui" in cookie
    assert "secure" not in cookie  # plain http here; https gets Secure
    assert ADMIN_TOKEN not in answer.headers["set-cookie"]  # a random session id, not the token
    csrf = login(client, ADMIN_TOKEN)
    assert client.get("/ui/workers").status_code == 200
    assert client.post("/ui/logout", data={"csrf": csrf}).status_code == 303
    assert client.get("/ui/workers").status_code == 303  # back to the login form


def test_a_https_request_gets_a_secure_cookie(client):
    answer = client.post("/ui/login", data={"token": ADMIN_TOKEN}, headers={"X-Forwarded-Proto": "https"})
    assert "secure" in answer.headers["set-cookie"].lower()


def test_producer_and_unknown_tokens_get_no_console(client):
    assert client.post("/ui/login", data={"token": PRODUCER_TOKEN}).status_code == 403
    assert client.post("/ui/login", data={"token": "not-a-token"}).status_code == 401
    assert "set-cookie" not in client.post("/ui/login", data={"token": "not-a-token"}).headers


@pytest.mark.parametrize("token", [ADMIN_TOKEN, VIEWER_TOKEN])
def test_every_page_renders_with_the_security_headers(client, db, token):
    bury(db, "deliver_webhook", "RuntimeError: HTTP 503 from hooks.example.com", 2)
    login(client, token)
    for path in [*PAGES, "/api/overview", "/chart/1h.svg", "/chart/24h.svg"]:
        answer = client.get(f"/ui{path}")
        assert answer.status_code == 200, (path, answer.text[:500])
        csp = answer.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "'unsafe-inline'" not in csp
        assert answer.headers["x-content-type-options"] == "nosniff"
    # The JSON API's responses carry them too.
    assert "content-security-policy" in client.get("/healthz").headers


def test_csrf_missing_or_wrong_is_refused_and_changes_nothing(client, db):
    bury(db, "deliver_webhook", "HTTP 503", 3)
    csrf = login(client, ADMIN_TOKEN)
    fingerprint = db.execute("select error from jq.jq_dead_groups()").fetchone()[0]
    form = {"type": "deliver_webhook", "error": fingerprint, "window": "all"}
    assert client.post("/ui/dead/retry", data=form).status_code == 403
    assert client.post("/ui/dead/retry", data={**form, "csrf": csrf[:-2] + "xx"}).status_code == 403
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 3
    # Another origin, even with the token, is refused.
    other = client.post("/ui/dead/retry", data={**form, "csrf": csrf}, headers={"Origin": "http://evil.example"})
    assert other.status_code == 403
    assert client.post("/ui/dead/retry", data={**form, "csrf": csrf}).status_code == 303
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 0
    assert db.execute("select count(*) from jq.jobs where type = 'deliver_webhook'").fetchone()[0] == 3
    actor = db.execute("select actor from jq.audit_log order by id desc limit 1").fetchone()
    assert actor is None or actor[0].startswith("admin:")  # jq_retry_dead audits once opsdead's SQL is in


def test_a_viewer_sees_no_buttons_and_its_posts_are_refused(client, db):
    bury(db, "deliver_webhook", "HTTP 503", 2)
    csrf = login(client, VIEWER_TOKEN)
    page = client.get("/ui/dead?window=all").text
    assert "deliver_webhook" in page and "Retry this group" not in page
    answer = client.post("/ui/dead/retry", data={"type": "deliver_webhook", "error": "HTTP #", "csrf": csrf})
    assert answer.status_code == 403
    assert db.execute("select count(*) from jq.dead_jobs").fetchone()[0] == 2
    # The JSON API: read-only admin routes admit a viewer token, changing ones do not.
    bearer = {"Authorization": f"Bearer {VIEWER_TOKEN}"}
    for path in ("/queues", "/workers", "/dead-letter", "/schedules", "/tenants", "/tenant-policies", "/audit"):
        assert client.get(path, headers=bearer).status_code == 200, path
    retry = client.post("/dead-letter/retry", json={"type": "deliver_webhook"}, headers=bearer)
    assert retry.status_code == 403
    assert client.post("/jobs", json={"type": "x", "payload": {}}, headers=bearer).status_code == 403


def test_payload_and_error_text_never_render_as_html(client, db):
    script = "<script>alert('jq')</script>"
    bury(db, "deliver_webhook", f"RuntimeError: {script}", 1, payload={"note": script})
    html = {"html": "<img src=x onerror=alert(1)>"}
    pyjq.schedule_put(db, "xss", cron="0 8 * * *", timezone="Asia/Kolkata", type=f"t{script}", payload=html)
    login(client, ADMIN_TOKEN)
    for path in ("/dead?window=all", "/schedules"):
        text = client.get(f"/ui{path}").text
        assert "<script>alert" not in text and "<img src=x" not in text, path
        assert "&lt;script&gt;" in text or "&lt;img" in text, path


def test_without_jinja2_the_api_serves_and_the_console_is_absent(dsn):
    code = (
        "import sys; sys.modules['jinja2'] = None\n"
        "from fastapi.testclient import TestClient\n"
        "from pyjq.http import create_app\n"
        f"app = create_app({dsn!r}, tokens={{'t0123456789': 'admin'}})\n"
        "with TestClient(app) as c:\n"
        "    assert c.get('/healthz').status_code == 200\n"
        "    assert c.get('/ui/login').status_code == 404\n"
        "assert 'pyjq.http.ui' not in sys.modules\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_schedule_and_policy_actions_call_jq_and_say_what_they_did(client, db):
    pyjq.schedule_put(db, "digest", cron="0 8 * * *", timezone="Asia/Kolkata", type="send_daily_digest")
    csrf = login(client, ADMIN_TOKEN)
    referer = {"Referer": f"{client.base_url}/ui/schedules"}
    assert client.post("/ui/schedules/digest/pause", data={"csrf": csrf}, headers=referer).status_code == 303
    assert pyjq.schedules(db)[0].paused
    assert "Schedule digest paused." in client.get("/ui/schedules").text  # the notice, shown once
    assert "Schedule digest paused." not in client.get("/ui/schedules").text
    client.post("/ui/schedules/digest/resume", data={"csrf": csrf})
    assert not pyjq.schedules(db)[0].paused
    client.post("/ui/schedules/digest/run", data={"csrf": csrf})
    assert db.execute("select count(*) from jq.jobs where type = 'send_daily_digest'").fetchone()[0] == 1
    client.post("/ui/schedules/missing/pause", data={"csrf": csrf})
    assert "No schedule &#39;missing&#39;" in client.get("/ui/schedules").text

    form = {"csrf": csrf, "queue": "default", "tenant": "acme", "weight": "4", "max_running": ""}
    client.post("/ui/tenants/policy", data=form)
    assert [(p.tenant, p.weight, p.max_running) for p in pyjq.tenant_policies(db)] == [("acme", 4, None)]
    client.post("/ui/tenants/policy", data={**form, "weight": "heavy"})
    assert "The weight must be a whole number" in client.get("/ui/tenants").text
    client.post("/ui/tenants/policy", data={**form, "weight": "0"})  # jq refuses: its message is shown
    page = client.get("/ui/tenants").text
    assert "notice-error" in page


def test_a_jobs_page_shows_payload_keys_lease_and_every_failed_attempt(client, db):
    job = pyjq.enqueue(
        db,
        "send_invoice",
        {"account": 42, "note": "<b>x</b>"},
        tenant="acme",
        idempotency_key="invoice:42",
        max_attempts=5,
    ).job_id
    db.execute("select * from jq.jq_claim('default', 'host-1:4242', 1)")
    db.execute("select * from jq.jq_fail(%s, 'host-1:4242', 'SMTPError: 421 try later', '0 s')", [job])
    db.execute("select * from jq.jq_claim('default', 'host-2:77', 1)")
    login(client, ADMIN_TOKEN)
    page = client.get(f"/ui/jobs/{job}").text
    assert "running" in page and "acme" in page and "invoice:42" in page
    assert "host-2:77" in page  # the lease holder
    assert "SMTPError: 421 try later" in page and "host-1:4242" in page  # the failed attempt and its worker
    assert "&#34;account&#34;: 42" in page and "&lt;b&gt;x&lt;/b&gt;" in page  # pretty-printed, escaped
    assert "invoice:42" in client.get(f"/ui/jobs?id={job}").text  # the lookup form opens it too
    assert "No job" in client.get("/ui/jobs/00000000-0000-0000-0000-000000000000").text
