"""The story of jq, played against a real database (``pyjq dev`` / ``make run``).

What a mid-sized SaaS asks of its job queue, one scene each:

* signup: a user row and its send_welcome_email job in one transaction; a
  signup that rolls back leaves neither;
* invoice PDFs scheduled a few seconds ahead: they start at their time;
* charge_card passes an idempotency key derived from job.id to a fake payment
  provider that counts charges; the first attempt "crashes" right after
  charging, the retry must not charge twice;
* a webhook endpoint that answers 503: deliveries retry with growing delays,
  end in the dead-letter table, are shown grouped, and once the endpoint is
  back, "retry all of these" requeues the group and they succeed;
* password resets on the urgent queue while a 10,000-job bulk burst drains:
  pickup latency (enqueue commit -> handler start) p50/p95;
* a daily digest schedule at 08:00 Asia/Kolkata with 600 s of jitter.

Every job the demo enqueues is looked up with jq_status at the end: the
summary says how each ended and whether all are accounted for.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo

import psycopg

import pyjq

from .._calls.jobs import STATUS_MANY

URGENT, DEFAULT, BULK = "urgent", "default", "bulk"
QUEUES = {URGENT: 10, DEFAULT: 20, BULK: 20}


@dataclass
class DemoSize:
    bulk_jobs: int = 10_000
    password_resets: int = 40
    reset_every: float = 0.1
    signups: int = 5
    invoices: int = 3
    invoice_delay: float = 3.0
    charges: int = 3
    webhooks: int = 6
    webhook_attempts: int = 3

    @classmethod
    def short(cls) -> DemoSize:
        return cls(bulk_jobs=1_000, password_resets=15, reset_every=0.05, invoice_delay=1.5, webhooks=4)


@dataclass
class DemoState:
    """What the scenes share with the handlers and the dashboard."""

    expected: dict[UUID, str] = field(default_factory=dict)  # job id -> the scene's expected end state
    committed_at: dict[UUID, float] = field(default_factory=dict)  # urgent jobs: enqueue commit time
    started_at: dict[UUID, float] = field(default_factory=dict)  # urgent jobs: handler start
    scheduled_for: dict[UUID, datetime] = field(default_factory=dict)
    invoice_lateness_ms: list[float] = field(default_factory=list)
    webhook_endpoint_up: bool = False
    charge_ids: list[UUID] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    done: Counter = field(default_factory=Counter)
    # The operator console of the HTTP service beside the demo (make run): the dead webhook group is
    # left there for dead_hold_s before the story retries it, so that it can be seen.
    console_url: str | None = None
    dead_hold_s: float = 0.0

    @property
    def urgent_latency_ms(self) -> list[float]:
        """Pickup latency of each urgent job that started: enqueue commit -> handler start."""
        return [
            max(0.0, started - self.committed_at[job_id]) * 1000
            for job_id, started in self.started_at.items()
            if job_id in self.committed_at
        ]

    def say(self, line: str) -> None:
        self.events.append(f"{time.strftime('%H:%M:%S')}  {line}")


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


class FakePaymentProvider:
    """Counts charges by idempotency key in a table, as a payment provider would:
    a key seen before returns the first charge instead of charging again."""

    def __init__(self, dsn: str):
        self.dsn = dsn

    def setup(self, conn: psycopg.Connection) -> None:
        conn.execute(
            "create table if not exists demo_payments ("
            " idempotency_key text primary key, amount_cents integer not null,"
            " calls integer not null default 1, charged_at timestamptz not null default now())"
        )

    def charge(self, key: str, amount_cents: int) -> str:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            row = conn.execute(
                "insert into demo_payments (idempotency_key, amount_cents) values (%s, %s)"
                " on conflict (idempotency_key) do update set calls = demo_payments.calls + 1"
                " returning calls",
                [key, amount_cents],
            ).fetchone()
        return "charged" if _one(row)[0] == 1 else "replayed"


def _one(row: tuple[Any, ...] | None) -> tuple[Any, ...]:
    """The row of a statement that always returns one (an aggregate, INSERT ... RETURNING)."""
    if row is None:
        raise RuntimeError("the demo's statement returned no row")
    return row


def build_worker(dsn: str, state: DemoState, provider: FakePaymentProvider, size: DemoSize) -> pyjq.Worker:
    worker = pyjq.Worker(
        dsn,
        queues=QUEUES,
        poll_interval=1.0,
        lease=timedelta(seconds=30),
        shutdown_grace=5.0,
        name=f"demo-worker-{random.randrange(10**6)}",
    )

    @worker.handler("send_welcome_email")
    async def send_welcome_email(job: pyjq.Job) -> None:
        await asyncio.sleep(0.01)  # the mail provider's round trip
        state.done["send_welcome_email"] += 1

    @worker.handler("generate_invoice_pdf")
    async def generate_invoice_pdf(job: pyjq.Job) -> None:
        due = state.scheduled_for.get(job.id)
        if due is not None:
            state.invoice_lateness_ms.append((datetime.now(UTC) - due).total_seconds() * 1000)
        await asyncio.sleep(0.05)
        state.done["generate_invoice_pdf"] += 1

    @worker.handler("charge_card")
    def charge_card(job: pyjq.Job) -> None:  # a plain function: runs on a thread
        key = f"charge-card-{job.id}"  # stable across every retry of this job
        outcome = provider.charge(key, job.payload["amount_cents"])
        if job.attempts == 1:
            # The worker "crashes" after the provider charged: the retry must not charge again.
            raise RuntimeError("worker crashed after charging (simulated)")
        state.say(f"charge_card {str(job.id)[:8]} attempt {job.attempts}: provider {outcome}")
        state.done["charge_card"] += 1

    @worker.handler("deliver_webhook")
    async def deliver_webhook(job: pyjq.Job) -> None:
        if not state.webhook_endpoint_up:
            # Growing delays: 0.5 s, 1 s, 2 s, ...
            if job.attempts < job.max_attempts:
                state.say(
                    f"deliver_webhook {str(job.id)[:8]} attempt {job.attempts}: HTTP 503, "
                    f"retry in {0.5 * 2 ** (job.attempts - 1):.1f} s"
                )
            raise pyjq.Retry(
                after=timedelta(seconds=0.5 * 2 ** (job.attempts - 1)),
                reason=f"HTTP 503 from hooks.example.com for {job.payload['event']}",
            )
        state.done["deliver_webhook"] += 1

    @worker.handler("send_password_reset")
    async def send_password_reset(job: pyjq.Job) -> None:
        # Matched with the commit time afterwards: the handler can start before the
        # enqueueing coroutine, resumed after the commit, has written it down.
        state.started_at.setdefault(job.id, time.monotonic())
        await asyncio.sleep(0.005)
        state.done["send_password_reset"] += 1

    @worker.handler("export_row")
    async def export_row(job: pyjq.Job) -> None:
        await asyncio.sleep(0.002)  # a bulk data-warehouse write
        state.done["export_row"] += 1

    return worker


# -- the scenes ---------------------------------------------------------------------


async def scene_signups(conn: psycopg.AsyncConnection, state: DemoState, size: DemoSize) -> None:
    await conn.execute("create table if not exists demo_users (id bigserial primary key, email text not null)")
    for i in range(size.signups):
        async with conn.transaction():
            cur = await conn.execute(
                "insert into demo_users (email) values (%s) returning id",
                [f"user{i}-{random.randrange(10**6)}@example.com"],
            )
            user_id = _one(await cur.fetchone())[0]
            job = await pyjq.enqueue_async(
                conn, "send_welcome_email", {"user_id": user_id}, priority=5, idempotency_key=f"welcome:{user_id}"
            )
        state.expected[job.job_id] = "succeeded"
    # A signup that fails after enqueueing: neither the user nor the email exist.
    lost_email = f"rolled-back-{random.randrange(10**6)}@example.com"
    try:
        async with conn.transaction():
            cur = await conn.execute("insert into demo_users (email) values (%s) returning id", [lost_email])
            user_id = _one(await cur.fetchone())[0]
            job = await pyjq.enqueue_async(conn, "send_welcome_email", {"user_id": user_id})
            raise RuntimeError("payment page crashed")
    except RuntimeError:
        pass
    gone = await pyjq.status_async(conn, job.job_id)
    cur = await conn.execute("select count(*) from demo_users where email = %s", [lost_email])
    users = _one(await cur.fetchone())[0]
    state.say(
        f"signup x{size.signups}: user + welcome email in one transaction each; "
        f"a rolled-back signup left {users} user and {'no' if gone is None else 'a'} job"
    )
    if gone is not None or users:
        state.expected[job.job_id] = "absent"  # makes the summary fail loudly


async def scene_invoices(conn: psycopg.AsyncConnection, state: DemoState, size: DemoSize) -> None:
    now = datetime.now(UTC)
    for i in range(size.invoices):
        run_at = now + timedelta(seconds=size.invoice_delay + i * 0.5)
        job = await pyjq.enqueue_async(
            conn,
            "generate_invoice_pdf",
            {"invoiceId": f"inv_{7731 + i}"},
            run_at=run_at,
            priority=1,
            max_attempts=8,
            idempotency_key=f"invoice-pdf:inv_{7731 + i}-{int(now.timestamp())}",
        )
        state.expected[job.job_id] = "succeeded"
        state.scheduled_for[job.job_id] = run_at
    state.say(f"{size.invoices} invoice PDFs scheduled {size.invoice_delay:.1f} s ahead (status: scheduled)")


async def scene_charges(conn: psycopg.AsyncConnection, state: DemoState, size: DemoSize) -> None:
    for i in range(size.charges):
        job = await pyjq.enqueue_async(conn, "charge_card", {"amount_cents": 1000 + i}, max_attempts=5)
        state.expected[job.job_id] = "succeeded"
        state.charge_ids.append(job.job_id)
    state.say(f"{size.charges} card charges enqueued; each first attempt crashes after charging")


async def scene_webhooks(conn: psycopg.AsyncConnection, state: DemoState, size: DemoSize) -> list[UUID]:
    ids = []
    for i in range(size.webhooks):
        job = await pyjq.enqueue_async(
            conn, "deliver_webhook", {"event": f"evt_{i}"}, max_attempts=size.webhook_attempts
        )
        state.expected[job.job_id] = "succeeded"
        ids.append(job.job_id)
    state.say(f"{size.webhooks} webhook deliveries to an endpoint answering 503")
    return ids


async def scene_retry_dead_webhooks(
    conn: psycopg.AsyncConnection, state: DemoState, ids: list[UUID], timeout: float
) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        statuses = [await pyjq.status_async(conn, i) for i in ids]
        if all(s is not None and s.status == "dead" for s in statuses):
            break
        await asyncio.sleep(0.2)
    groups = await pyjq.dead_groups_async(conn, type="deliver_webhook")
    for group in groups:
        state.say(f"dead letters: {group.count} x {group.type} / {group.error!r}")
    if state.console_url and groups:
        state.say(f"open {state.console_url}/dead to see the dead webhook group (retried in {state.dead_hold_s:.0f} s)")
        await asyncio.sleep(state.dead_hold_s)
    state.webhook_endpoint_up = True
    requeued = 0
    for group in groups:
        requeued += await pyjq.retry_dead_async(conn, type="deliver_webhook", error=group.error)
    state.say(f"endpoint is back: retry all of these -> {requeued} requeued")
    return requeued


async def scene_bulk_and_urgent(conn: psycopg.AsyncConnection, state: DemoState, size: DemoSize) -> None:
    for start in range(0, size.bulk_jobs, 1000):
        n = min(1000, size.bulk_jobs - start)
        results = await pyjq.enqueue_many_async(
            conn, [{"type": "export_row", "queue": BULK, "payload": {"row": start + k}} for k in range(n)]
        )
        for r in results:
            state.expected[r.job_id] = "succeeded"
    state.say(f"bulk burst: {size.bulk_jobs} export_row jobs on the bulk queue")
    for i in range(size.password_resets):
        job = await pyjq.enqueue_async(conn, "send_password_reset", {"user_id": i}, queue=URGENT, priority=10)
        state.committed_at[job.job_id] = time.monotonic()  # autocommit: enqueue returned = committed
        state.expected[job.job_id] = "succeeded"
        await asyncio.sleep(size.reset_every)
    state.say(f"{size.password_resets} password resets on the urgent queue during the burst")


def scene_digest_schedule(dsn: str, state: DemoState) -> str:
    with psycopg.connect(dsn, autocommit=True) as conn:
        result = pyjq.schedule_put(
            conn,
            "daily-digest",
            cron="0 8 * * *",
            timezone="Asia/Kolkata",
            type="send_daily_digest",
            payload={"kind": "daily"},
            jitter_seconds=600,
        )
    assert result.next_run_at is not None  # schedule_put computes it
    local = result.next_run_at.astimezone(ZoneInfo("Asia/Kolkata"))
    line = (
        f"schedule daily-digest: 0 8 * * * Asia/Kolkata, jitter 600 s; next slot "
        f"{local:%Y-%m-%d %H:%M %Z} = {result.next_run_at.astimezone(UTC):%H:%M} UTC"
    )
    state.say(line)
    return line


# -- the whole story ------------------------------------------------------------------


async def run_demo(
    dsn: str, state: DemoState, size: DemoSize, *, on_tick: Callable[[], Awaitable[None]] | None = None
) -> dict[str, Any]:
    """Play every scene against ``dsn`` (jq installed) with an in-process worker.
    Returns the summary; ``await on_tick()`` runs a few times a second (the dashboard)."""
    provider = FakePaymentProvider(dsn)
    with psycopg.connect(dsn, autocommit=True) as conn:
        provider.setup(conn)
    worker = build_worker(dsn, state, provider, size)
    worker_task = asyncio.create_task(worker.run_async())
    ticker = asyncio.create_task(_tick(on_tick)) if on_tick else None
    started = time.monotonic()
    try:
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            await scene_signups(conn, state, size)
            await scene_invoices(conn, state, size)
            await scene_charges(conn, state, size)
            webhook_ids = await scene_webhooks(conn, state, size)
            scene_digest_schedule(dsn, state)
            await scene_bulk_and_urgent(conn, state, size)
            await scene_retry_dead_webhooks(conn, state, webhook_ids, timeout=60)
            await _wait_for_expected(conn, state, timeout=120)
            summary = await _summarize(conn, state, time.monotonic() - started)
    finally:
        await worker.stop()
        await worker_task
        if ticker:
            ticker.cancel()
    return summary


async def _tick(on_tick: Callable[[], Awaitable[None]]) -> None:
    while True:
        try:
            await on_tick()
        except psycopg.Error:
            pass  # the dashboard must never stop the story
        await asyncio.sleep(0.25)


async def _wait_for_expected(conn: psycopg.AsyncConnection, state: DemoState, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    ids = [i for i, want in state.expected.items() if want == "succeeded"]
    while time.monotonic() < deadline:
        found = await STATUS_MANY.run_async(conn, job_ids=ids)
        if sum(s.status == "succeeded" for s in found) == len(ids):
            return
        await asyncio.sleep(0.25)


async def _summarize(conn: psycopg.AsyncConnection, state: DemoState, elapsed: float) -> dict[str, Any]:
    ids = list(state.expected)
    found = {s.job_id: s for s in await STATUS_MANY.run_async(conn, job_ids=ids)}
    by_type: dict[str, Counter] = defaultdict(Counter)
    mismatched = 0
    for job_id in ids:
        job = found.get(job_id)
        type_, status = (job.type, job.status) if job else ("(absent)", "absent")
        by_type[type_][status] += 1
        if status != state.expected[job_id]:
            mismatched += 1
    # This run's charges only: the table outlives a run when the database does.
    charge_keys = [f"charge-card-{job_id}" for job_id in state.charge_ids]
    cur = await conn.execute(
        "select count(*), coalesce(sum(calls), 0) from demo_payments where idempotency_key = any(%s::text[])",
        [charge_keys],
    )
    charges, provider_calls = _one(await cur.fetchone())
    digest = next(iter(await pyjq.schedules_async(conn, "daily-digest")), None)
    return {
        "jobs": len(ids),
        "accounted_for": mismatched == 0,
        "mismatched": mismatched,
        "by_type": {t: dict(c) for t, c in sorted(by_type.items())},
        "urgent_pickup_ms": {
            "p50": percentile(state.urgent_latency_ms, 50),
            "p95": percentile(state.urgent_latency_ms, 95),
            "count": len(state.urgent_latency_ms),
        },
        "invoice_start_after_run_at_ms": {"max": max(state.invoice_lateness_ms, default=None)},
        # One charge per charge_card job, although every job called the provider twice.
        "payments": {
            "charge_jobs": sum(by_type.get("charge_card", {}).values()),
            "charges": charges,
            "provider_calls": provider_calls,
        },
        "digest_next_run_at": digest.next_run_at.isoformat() if digest and digest.next_run_at else None,
        "elapsed_s": round(elapsed, 1),
    }
