"""`make run`'s demo, in its short mode, against a test database: every job
the story enqueues is accounted for, nothing is charged twice, urgent work
is picked up within the requirement while the bulk burst drains."""

from __future__ import annotations

import asyncio

import pyjq
from pyjq.dev.demo import DemoSize, DemoState, run_demo


def test_the_demo_story_accounts_for_every_job(db, dsn):
    summary = asyncio.run(run_demo(dsn, DemoState(), DemoSize.short()))
    print("demo summary:", summary)

    assert summary["accounted_for"], summary
    size = DemoSize.short()
    assert summary["jobs"] == (
        size.bulk_jobs + size.password_resets + size.signups + size.invoices + size.charges + size.webhooks
    )
    assert summary["by_type"]["deliver_webhook"] == {"succeeded": size.webhooks}  # dead, then retried
    payments = summary["payments"]
    assert payments["charges"] == payments["charge_jobs"] == size.charges
    assert payments["provider_calls"] == 2 * size.charges  # every first attempt "crashed" after charging
    assert summary["urgent_pickup_ms"]["count"] == size.password_resets
    assert summary["urgent_pickup_ms"]["p95"] < 2000  # the product requirement
    assert summary["digest_next_run_at"] is not None
    # The rolled-back signup left no user and no job.
    assert db.execute("select count(*) from demo_users where email like 'rolled-back-%'").fetchone()[0] == 0
    assert not pyjq.dead_groups(db)
