"""Recurring schedules against a real PostgreSQL: firing exactly once per slot
with schedulers racing (and beside a scheduler of 0.5.0, which computed the
slots in Python), a crash mid-tick, time zones and DST with a moved clock
(never by sleeping), jitter, missed slots, the Python API and the CLI.

The slots are computed in SQL (jq_schedules_fire_due); tests/cron_reference.py
is the Python reference they are checked against (tests/test_cron_slots.py).

The clock: each Scheduler here gets ``clock=``, which sets ``jq.now`` inside
its tick's transaction, so every SQL function sees the same "now". Schedules
are put with SQL's clock moved the same way (``set jq.now``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from cron_reference import CronTimes, cron_times, parse_cron
from croniter import croniter
from helpers import invoke_cli as _cli
from psycopg_pool import AsyncConnectionPool

import pyjq
from pyjq.scheduler import Scheduler, schedule_key, schedule_offset


def at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


class Clock:
    """A movable clock for Scheduler(clock=...)."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def set(self, now: datetime | str) -> None:
        self.now = at(now) if isinstance(now, str) else now


def set_sql_clock(conn: psycopg.Connection, now: datetime | str) -> None:
    moment = at(now) if isinstance(now, str) else now
    conn.execute("select set_config('jq.now', %s, false)", [moment.isoformat()])


def jobs(conn: psycopg.Connection, like: str = "schedule:%") -> list[tuple[str, datetime]]:
    return conn.execute(
        "select idempotency_key, run_at from jq.jobs where idempotency_key like %s order by run_at, 1", [like]
    ).fetchall()


def slots_of(conn: psycopg.Connection, name: str) -> list[str]:
    prefix = f"schedule:{name}:"
    return [k[len(prefix) :] for k, _ in jobs(conn, prefix + "%")]


def walk(conn: psycopg.Connection, scheduler: Scheduler, clock: Clock, start: str, end: str, step: timedelta) -> None:
    """Move the clock from start to end in steps, ticking at every step."""
    moment, stop = at(start), at(end)
    while moment <= stop:
        clock.set(moment)
        scheduler.run_pending(conn)
        moment += step


# -- the cron grammar: the reference and SQL agree, and mean what croniter means --------------


def _random_field(rng: random.Random, lo: int, hi: int, names: tuple[str, ...] | None) -> str:
    def value(v: int) -> str:
        index = v - 1 if names and names[0] == "jan" else v
        if names and index < len(names) and rng.random() < 0.3:
            return names[index].upper() if rng.random() < 0.5 else names[index]
        return str(v)

    items = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        kind = rng.random()
        a, b = sorted(rng.sample(range(lo, hi + 1), 2))
        if kind < 0.25:
            item = "*"
        elif kind < 0.5:
            item = value(a)
        elif kind < 0.75:
            item = f"{value(a)}-{value(b)}"
        else:
            item = rng.choice(["*", f"{a}-{b}", str(a)])
        if rng.random() < 0.3:
            item += f"/{rng.randint(1, hi - lo + 1)}"
        items.append(item)
    return ",".join(items)


def test_python_and_sql_read_every_cron_alike(db: psycopg.Connection) -> None:
    rng = random.Random(5)
    months = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    weekdays = ("sun", "mon", "tue", "wed", "thu", "fri", "sat")
    exprs = [
        "0 8 * * *",
        "@hourly",
        "@weekly",
        " @Daily ",
        "0 0 29 2 *",
        "0 0 31 2 *",
        "5-5 * * * *",
        "0 0 * * 7",
        "0 0 * * 0-7/2",
        "* * * * * *",
        "0 25 * * *",
        "a b c d e",
        "*/0 * * * *",
    ]
    exprs.extend(
        " ".join(
            [
                _random_field(rng, 0, 59, None),
                _random_field(rng, 0, 23, None),
                _random_field(rng, 1, 31, None),
                _random_field(rng, 1, 12, months),
                _random_field(rng, 0, 7, weekdays),
            ]
        )
        for _ in range(400)
    )
    # A sprinkle of broken ones.
    exprs += [e.replace("-", "--", 1) for e in exprs[20:40]] + [e + " *" for e in exprs[40:50]]
    valid = 0
    for expr in exprs:
        try:
            py = parse_cron(expr)
            py_error = None
        except pyjq.JQError as exc:
            py, py_error = None, exc.sqlstate
        try:
            with db.transaction():
                row = db.execute("select * from jq._cron_parse(%s)", [expr]).fetchone()
            sql, sql_error = tuple(tuple(v) for v in row), None
        except psycopg.Error as exc:
            sql, sql_error = None, exc.sqlstate
        assert (py_error, py) == (sql_error, sql), expr
        if py is not None:
            valid += 1
            # What croniter makes of the explicit lists is what the fields say.
            times = CronTimes(expr, "UTC")
            expanded = croniter.expand(times.expr)[0]
            full = [range(60), range(24), range(1, 32), range(1, 13), range(7)]
            got = [
                tuple(full[i]) if f == ["*"] else tuple(sorted({int(v) % 7 if i == 4 else int(v) for v in f}))
                for i, f in enumerate(expanded)
            ]
            assert tuple(got) == py, expr
    assert valid > 150


def test_python_and_sql_derive_the_same_key_and_jitter(db: psycopg.Connection) -> None:
    rng = random.Random(7)
    for _ in range(200):
        name = "".join(rng.choice("abcxyz:-_0123456789é") for _ in range(rng.randint(1, 128)))
        slot = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=rng.randint(0, 10**6))
        jitter = rng.choice([0, 1, 60, 600, 86400])
        key, offset = db.execute(
            "select jq._schedule_key(%s, %s), jq._schedule_offset(%s, %s, %s)", [name, slot, name, slot, jitter]
        ).fetchone()
        assert key == schedule_key(name, slot)
        assert offset == schedule_offset(name, slot, jitter)
        assert timedelta(0) <= offset < timedelta(seconds=max(jitter, 1))


# -- the Python API -------------------------------------------------------------------


def test_schedule_checks_cron_and_timezone_before_writing(db: psycopg.Connection) -> None:
    for cron in ["0 8 * *", "0 24 * * *", "0 0 31 2 *", "0 0 L * *", "* * * * * *", ""]:
        with pytest.raises(pyjq.InvalidArgument) as err:
            pyjq.schedule(db, "d", cron=cron, timezone="UTC", type="t")
        assert "cron" in str(err.value)
    for zone in ["Mars/Olympus_Mons", "+05:30", "localtime", "asia/kolkata"]:
        with pytest.raises(pyjq.InvalidArgument) as err:
            pyjq.schedule(db, "d", cron="0 8 * * *", timezone=zone, type="t")
        assert "timezone" in str(err.value)
    with pytest.raises(pyjq.InvalidArgument):
        pyjq.schedule(db, "d", cron="0 8 * * *", timezone="UTC", type="t", missed="sometimes")
    with pytest.raises(pyjq.InvalidArgument):  # checked by SQL
        pyjq.schedule(db, "d", cron="0 8 * * *", timezone="UTC", type="t", jitter_seconds=86401)
    with pytest.raises(pyjq.ValueTooLong):
        pyjq.schedule(db, "n" * 129, cron="0 8 * * *", timezone="UTC", type="t")
    assert pyjq.list_schedules(db) == []


def test_schedule_computes_next_run_at_in_the_timezone(db: psycopg.Connection) -> None:
    now = at("2026-03-01T00:00:00Z")
    first = pyjq.schedule(
        db,
        "digest",
        cron="0 8 * * *",
        timezone="Asia/Kolkata",
        type="send_digest",
        payload={"user_id": 42},
        jitter_seconds=600,
        now=now,
    )
    assert first == pyjq.ScheduleResult("digest", True, at("2026-03-01T02:30:00Z"))
    again = pyjq.schedule(
        db,
        "digest",
        cron="0 8 * * *",
        timezone="Asia/Kolkata",
        type="send_digest",
        payload={"user_id": 43},
        now=now + timedelta(days=3),
    )
    assert again == pyjq.ScheduleResult("digest", False, at("2026-03-01T02:30:00Z")), (
        "the same cron and timezone keep the pending slot"
    )
    moved = pyjq.schedule(db, "digest", cron="0 8 * * *", timezone="Europe/Berlin", type="send_digest", now=now)
    assert moved.next_run_at == at("2026-03-01T07:00:00Z")
    [row] = pyjq.list_schedules(db)
    assert (row.name, row.timezone, row.payload, row.jitter_seconds, row.paused) == (
        "digest",
        "Europe/Berlin",
        {},
        0,
        False,
    )
    assert pyjq.pause_schedule(db, "digest") and pyjq.list_schedules(db, "digest")[0].paused
    assert pyjq.resume_schedule(db, "digest") and not pyjq.list_schedules(db, "digest")[0].paused
    assert pyjq.unschedule(db, "digest") is True
    assert pyjq.unschedule(db, "digest") is False
    assert pyjq.pause_schedule(db, "digest") is False and pyjq.resume_schedule(db, "digest") is False


# -- firing: time zones and DST --------------------------------------------------------


def test_kolkata_0800_fires_at_0230_utc(db: psycopg.Connection) -> None:
    set_sql_clock(db, "2026-03-01T00:00:00Z")
    db.execute("select jq.jq_schedule_put('kolkata', '0 8 * * *', 'Asia/Kolkata', 'send_digest')")
    clock = Clock(at("2026-03-01T02:29:59Z"))
    scheduler = Scheduler(clock=clock)
    assert scheduler.tick(db) == 0
    assert pyjq.list_schedules(db, "kolkata")[0].next_run_at == at("2026-03-01T02:30:00Z")
    clock.set("2026-03-01T02:30:01Z")
    assert scheduler.tick(db) == 1
    assert jobs(db) == [("schedule:kolkata:2026-03-01T02:30:00Z", at("2026-03-01T02:30:00Z"))]
    assert pyjq.list_schedules(db, "kolkata")[0].next_run_at == at("2026-03-02T02:30:00Z")


def test_new_york_spring_forward_fires_a_missing_0230_once_at_0300_edt(db: psycopg.Connection) -> None:
    # 2026-03-08: clocks jump from 02:00 EST to 03:00 EDT, so 02:30 does not exist.
    set_sql_clock(db, "2026-03-06T12:00:00Z")
    db.execute("select jq.jq_schedule_put('ny', '30 2 * * *', 'America/New_York', 't')")
    clock = Clock(at("2026-03-06T12:00:00Z"))
    walk(db, Scheduler(clock=clock), clock, "2026-03-06T12:00:00Z", "2026-03-09T12:00:00Z", timedelta(minutes=5))
    assert slots_of(db, "ny") == [
        "2026-03-07T07:30:00Z",  # 02:30 EST
        "2026-03-08T07:00:00Z",  # the missing 02:30: 03:00 EDT, the first instant after the gap
        "2026-03-09T06:30:00Z",  # 02:30 EDT
    ]


def test_new_york_fall_back_fires_each_day_once(db: psycopg.Connection) -> None:
    # 2026-11-01: clocks fall back from 02:00 EDT to 01:00 EST, so 01:00-01:59
    # happens twice (and 02:30 once, in EST).
    set_sql_clock(db, "2026-10-30T12:00:00Z")
    db.execute("select jq.jq_schedule_put('ny-0230', '30 2 * * *', 'America/New_York', 't')")
    db.execute("select jq.jq_schedule_put('ny-0130', '30 1 * * *', 'America/New_York', 't')")
    db.execute("select jq.jq_schedule_put('ny-hourly', '0 * * * *', 'America/New_York', 't')")
    clock = Clock(at("2026-10-30T12:00:00Z"))
    walk(db, Scheduler(clock=clock), clock, "2026-10-30T12:00:00Z", "2026-11-02T12:00:00Z", timedelta(minutes=5))
    assert slots_of(db, "ny-0230") == ["2026-10-31T06:30:00Z", "2026-11-01T07:30:00Z", "2026-11-02T07:30:00Z"]
    assert slots_of(db, "ny-0130") == [
        "2026-10-31T05:30:00Z",
        "2026-11-01T05:30:00Z",  # 01:30 EDT, the first occurrence; not again at 06:30Z (01:30 EST)
        "2026-11-02T06:30:00Z",
    ]
    hourly = slots_of(db, "ny-hourly")
    assert "2026-11-01T05:00:00Z" in hourly and "2026-11-01T06:00:00Z" not in hourly, "01:00 fires once, at 01:00 EDT"
    assert "2026-11-01T07:00:00Z" in hourly  # 02:00 EST
    assert len(hourly) == len(set(hourly))


def test_croniter_alone_would_fire_a_repeated_time_twice() -> None:
    """Why the reference (and jq) wrap croniter's matches in the DST rule: aware iteration repeats
    01:30 on fall-back day."""
    from zoneinfo import ZoneInfo

    it = croniter("30 1 * * *", datetime(2026, 10, 31, 12, tzinfo=ZoneInfo("America/New_York")))
    raw = [it.get_next(datetime).astimezone(UTC) for _ in range(2)]
    assert raw == [at("2026-11-01T05:30:00Z"), at("2026-11-01T06:30:00Z")]
    ours = CronTimes("30 1 * * *", "America/New_York").iter_after(at("2026-10-31T16:00:00Z"))
    assert [next(ours) for _ in range(2)] == [at("2026-11-01T05:30:00Z"), at("2026-11-02T06:30:00Z")]


# -- firing: exactly once per slot ------------------------------------------------------


def test_three_schedulers_racing_fire_every_slot_exactly_once(db: psycopg.Connection, connect) -> None:
    set_sql_clock(db, "2026-03-01T07:59:00Z")
    db.execute("""select count(*) from generate_series(1, 600) g,
                  jq.jq_schedule_put('every-minute-' || g, '* * * * *', 'UTC', 't', p_jitter_seconds => 30,
                                     p_next_run_at => '2026-03-01 08:00Z')""")
    clock = Clock(at("2026-03-01T08:00:00Z"))
    schedulers = [Scheduler(batch_size=50, clock=clock) for _ in range(3)]
    conns = [connect() for _ in schedulers]
    barrier = threading.Barrier(3)
    errors: list[BaseException] = []

    def race(scheduler: Scheduler, conn: psycopg.Connection) -> None:
        try:
            for _ in range(5):  # five slots: 08:00 .. 08:04
                barrier.wait()
                while scheduler.tick_result(conn).jobs:
                    pass
                barrier.wait()
                if scheduler is schedulers[0]:
                    clock.set(clock.now + timedelta(minutes=1))
        except BaseException as exc:  # reported below
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=race, args=pair) for pair in zip(schedulers, conns, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    keys = [k for k, _ in jobs(db)]
    assert len(keys) == 600 * 5
    assert len(set(keys)) == len(keys), "a slot fired twice"
    assert Counter(k.rsplit(":", 3)[0] for k in keys) == {f"schedule:every-minute-{g}": 5 for g in range(1, 601)}
    assert sum(1 for s in schedulers if s.stats["jobs"]) >= 2, "the schedulers did not share the work"
    assert db.execute("select count(distinct next_run_at) from jq.schedules").fetchone() == (1,)


def tick_as_in_0_5_0(conn: psycopg.Connection, now: datetime, batch: int) -> int:
    """One tick of pyjq 0.5.0's scheduler, which computed the slots in Python: jq_schedules_due,
    the slots of missed = latest schedules by the reference, jq_schedules_fire. The schedules claimed."""
    with conn.transaction():
        conn.execute("select set_config('jq.now', %s, true)", [now.isoformat()])
        rows = conn.execute(
            "select name, cron, timezone, next_run_at, updated_at from jq.jq_schedules_due(%s)", [batch]
        ).fetchall()
        fire: tuple[list, list, list, list] = ([], [], [], [])
        for name, cron, timezone, due_at, updated_at in rows:
            times = cron_times(cron, timezone)
            after = due_at - timedelta(microseconds=1) if due_at is not None else updated_at
            for column, value in zip(
                fire,
                (
                    name,
                    due_at,
                    times.latest_at_or_before(now, not_before=after + timedelta(microseconds=1)),
                    times.next_after(max(now, after)),
                ),
                strict=True,
            ):
                column.append(value)
        if rows:
            conn.execute("select * from jq.jq_schedules_fire(%s, %s, %s, %s)", list(fire))
    return len(rows)


def test_a_scheduler_of_0_5_0_beside_jq_fires_every_slot_once(db: psycopg.Connection, connect) -> None:
    """Workers of 0.5.0 (Python computes the slots) and jq_schedules_fire_due (SQL does), at once."""
    set_sql_clock(db, "2026-03-01T07:59:00Z")
    db.execute("""select count(*) from generate_series(1, 300) g,
                  jq.jq_schedule_put('every-minute-' || g, '* * * * *', 'Europe/Berlin', 't', p_jitter_seconds => 30,
                                     p_next_run_at => '2026-03-01 08:00Z')""")
    clock = Clock(at("2026-03-01T08:00:00Z"))
    new, old = Scheduler(batch_size=40, clock=clock), connect()
    barrier = threading.Barrier(2)
    claimed_by_old: list[int] = []
    errors: list[BaseException] = []

    def run(is_old: bool, conn: psycopg.Connection) -> None:
        try:
            for _ in range(5):  # five slots: 08:00 .. 08:04
                barrier.wait()
                while tick_as_in_0_5_0(conn, clock.now, 40) if is_old else new.tick(conn):
                    if is_old:
                        claimed_by_old.append(1)
                barrier.wait()
                if not is_old:
                    clock.set(clock.now + timedelta(minutes=1))
        except BaseException as exc:  # reported below
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(is_old, conn)) for is_old, conn in [(True, old), (False, connect())]]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    keys = [k for k, _ in jobs(db)]
    assert len(keys) == len(set(keys)) == 300 * 5, "every slot once"
    assert new.stats["jobs"] > 0 and claimed_by_old, "both fired some"
    assert db.execute("select count(distinct next_run_at) from jq.schedules").fetchone() == (1,)


def test_crash_before_commit_refires_the_same_slot_with_the_same_run_at(db: psycopg.Connection, connect) -> None:
    set_sql_clock(db, "2026-03-01T06:00:00Z")
    db.execute("""select count(*) from generate_series(1, 50) g,
                  jq.jq_schedule_put('digest-' || g, '0 8 * * *', 'Europe/Berlin', 'send_digest',
                                     p_jitter_seconds => 600)""")
    clock = Clock(at("2026-03-01T06:59:55Z"))
    assert Scheduler(clock=clock).tick(db) == 0  # computes next_run_at (08:00 Berlin = 07:00Z)
    clock.set("2026-03-01T07:00:30Z")

    # 1. The tick's transaction rolls back after firing (an exception before commit).
    crashing = connect()
    with pytest.raises(ZeroDivisionError), crashing.transaction():
        assert Scheduler(clock=clock).tick(crashing) == 50
        first = dict(crashing.execute("select idempotency_key, run_at from jq.jobs").fetchall())
        raise ZeroDivisionError("the crash before commit")
    assert jobs(db) == []
    assert db.execute("select count(*) from jq.schedules where next_run_at = '2026-03-01 07:00Z'").fetchone() == (50,)

    # 2. The process dies mid-tick: its connection is terminated with the
    #    schedules locked and the jobs inserted; meanwhile another scheduler
    #    skips the locked rows.
    victim = connect(autocommit=False)
    victim.execute("select set_config('jq.now', %s, true)", [clock.now.isoformat()])
    rows = victim.execute("select name, next_run_at from jq.jq_schedules_due(1000)").fetchall()
    assert len(rows) == 50
    names = [r[0] for r in rows]
    victim.execute(
        "select * from jq.jq_schedules_fire(%s, %s, %s, %s)",
        [names, [r[1] for r in rows], [r[1] for r in rows], [at("2026-03-02T07:00:00Z")] * 50],
    )
    other = Scheduler(clock=clock)
    assert other.tick_result(db).jobs == 0, "a second scheduler must skip the locked schedules"
    pid = victim.info.backend_pid
    db.execute("select pg_terminate_backend(%s)", [pid])
    with pytest.raises(psycopg.OperationalError):
        victim.execute("select 1")
    assert jobs(db) == []

    # 3. The next tick fires every slot once, with the same run_at as the lost one.
    assert other.tick(db) == 50
    assert dict(jobs(db)) == first
    assert other.tick(db) == 0


def test_a_put_from_sql_fires_its_first_slot_after_the_put(db: psycopg.Connection) -> None:
    set_sql_clock(db, "2026-03-01T07:59:30Z")
    db.execute("select jq.jq_schedule_put('fresh', '0 8 * * *', 'UTC', 't')")
    assert pyjq.list_schedules(db, "fresh")[0].next_run_at is None
    assert Scheduler(clock=Clock(at("2026-03-01T08:00:05Z"))).tick(db) == 1
    assert slots_of(db, "fresh") == ["2026-03-01T08:00:00Z"]


def test_resumed_schedule_does_not_fire_slots_missed_while_paused(db: psycopg.Connection) -> None:
    set_sql_clock(db, "2026-02-28T23:59:30Z")
    db.execute("select jq.jq_schedule_put('p', '0 * * * *', 'UTC', 't', p_missed => 'all')")
    clock = Clock(at("2026-03-01T00:00:05Z"))
    scheduler = Scheduler(clock=clock)
    scheduler.tick(db)
    db.execute("select jq.jq_schedule_pause('p')")
    clock.set("2026-03-01T05:30:00Z")
    assert scheduler.tick(db) == 0
    set_sql_clock(db, "2026-03-01T05:30:00Z")
    db.execute("select jq.jq_schedule_resume('p')")
    clock.set("2026-03-01T06:00:01Z")
    assert scheduler.run_pending(db) == 1
    assert slots_of(db, "p") == ["2026-03-01T00:00:00Z", "2026-03-01T06:00:00Z"]


# -- jitter --------------------------------------------------------------------------------


def test_jitter_is_deterministic_and_spreads_ten_thousand_schedules_evenly(db: psycopg.Connection) -> None:
    set_sql_clock(db, "2026-03-01T06:00:00Z")
    db.execute("""select count(*) from generate_series(1, 10000) g,
                  jq.jq_schedule_put('digest:user-' || g, '0 8 * * *', 'Europe/Berlin', 'send_digest',
                                     jsonb_build_object('user_id', g), 'digests', 0, 600, null, 'latest',
                                     '2026-03-01 07:00Z')""")
    clock = Clock(at("2026-03-01T07:00:02Z"))
    assert Scheduler(clock=clock).run_pending(db) == 10_000
    slot = at("2026-03-01T07:00:00Z")
    rows = db.execute("select idempotency_key, run_at from jq.jobs").fetchall()
    per_minute = Counter(int((run_at - slot).total_seconds() // 60) for _, run_at in rows)
    assert sorted(per_minute) == list(range(10))
    for minute, count in per_minute.items():
        assert 850 <= count <= 1150, (minute, count)
    for key, run_at in rows[:500]:
        name = key[len("schedule:") : -len(":2026-03-01T07:00:00Z")]
        assert run_at == slot + schedule_offset(name, slot, 600)


# -- missed slots --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "missed,expected",
    [
        ("latest", ["2026-03-02T08:00:00Z"]),
        (
            "all",
            [f"2026-03-01T{h:02d}:00:00Z" for h in range(8, 24)] + [f"2026-03-02T{h:02d}:00:00Z" for h in range(9)],
        ),
        ("none", []),
    ],
)
def test_missed_slots_after_every_worker_was_down_for_a_day(
    db: psycopg.Connection, missed: str, expected: list[str]
) -> None:
    set_sql_clock(db, "2026-03-01T07:30:00Z")
    pyjq.schedule(
        db, "hourly", cron="0 * * * *", timezone="UTC", type="t", missed=missed, now=at("2026-03-01T07:30:00Z")
    )
    # Every worker down from 07:30 on the 1st until 08:30 on the 2nd.
    clock = Clock(at("2026-03-02T08:30:00Z"))
    Scheduler(clock=clock).run_pending(db)
    assert slots_of(db, "hourly") == expected
    assert pyjq.list_schedules(db, "hourly")[0].next_run_at == at("2026-03-02T09:00:00Z")
    clock.set("2026-03-02T09:00:03Z")
    Scheduler(clock=clock).run_pending(db)
    assert slots_of(db, "hourly")[-1:] == ["2026-03-02T09:00:00Z"], "on time again: the next slot fires"


def test_missed_none_still_fires_a_slot_that_is_only_a_little_late(db: psycopg.Connection) -> None:
    pyjq.schedule(db, "n", cron="0 8 * * *", timezone="UTC", type="t", missed="none", now=at("2026-03-01T00:00:00Z"))
    Scheduler(clock=Clock(at("2026-03-01T08:02:00Z"))).tick(db)
    assert slots_of(db, "n") == ["2026-03-01T08:00:00Z"]


def test_missed_none_grace_is_a_setting(db: psycopg.Connection) -> None:
    db.execute("update jq.settings set schedule_missed_grace = '1 minute'")
    pyjq.schedule(db, "n", cron="0 8 * * *", timezone="UTC", type="t", missed="none", now=at("2026-03-01T00:00:00Z"))
    assert Scheduler(clock=Clock(at("2026-03-01T08:02:00Z"))).tick(db) == 0
    assert slots_of(db, "n") == []
    assert pyjq.schedules(db, "n")[0].next_run_at == at("2026-03-02T08:00:00Z")


def test_missed_all_catches_up_over_several_ticks(db: psycopg.Connection) -> None:
    # 2,500 minutes missed; a call fires at most 1,000 slots of a schedule.
    pyjq.schedule(db, "m", cron="* * * * *", timezone="UTC", type="t", missed="all", now=at("2026-03-01T00:00:00Z"))
    scheduler = Scheduler(clock=Clock(at("2026-03-02T17:40:00Z")))
    assert scheduler.tick(db) == 1000
    assert scheduler.tick(db) == 1000
    assert scheduler.run_pending(db) == 500
    keys = slots_of(db, "m")
    assert len(keys) == len(set(keys)) == 2500  # 00:01 on the 1st .. 17:40 on the 2nd
    assert (keys[0], keys[-1]) == ("2026-03-01T00:01:00Z", "2026-03-02T17:40:00Z")


def test_the_arguments_jq_now_decides_are_deprecated() -> None:
    for name, value in [
        ("missed_grace", timedelta(minutes=5)),
        ("max_slots_per_schedule", 7),
        ("max_jobs_per_tick", 10),
        ("retry_broken", timedelta(minutes=1)),
    ]:
        with pytest.warns(DeprecationWarning, match=name):
            Scheduler(**{name: value})


def test_a_zone_jq_cannot_read_waits_without_blocking_others(
    db: psycopg.Connection, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="pyjq.scheduler")
    # Written behind the functions' back: a name SQL would refuse.
    db.execute("""insert into jq.schedules (name, cron, timezone, type, next_run_at)
                  values ('broken', '0 8 * * *', 'Nowhere/Atlantis', 't', '2026-03-01 08:00Z')""")
    pyjq.schedule(db, "fine", cron="0 8 * * *", timezone="UTC", type="t", now=at("2026-03-01T00:00:00Z"))
    assert Scheduler(clock=Clock(at("2026-03-01T08:00:01Z"))).tick(db) == 1
    assert slots_of(db, "fine") == ["2026-03-01T08:00:00Z"]
    assert pyjq.list_schedules(db, "broken")[0].next_run_at == at("2026-03-01T08:10:01Z")
    assert "Nowhere/Atlantis" in caplog.text  # jq_schedules_fire_due's WARNING, logged by the scheduler


# -- the async runner ------------------------------------------------------------------------


@pytest.mark.parametrize("with_pool", [False, True], ids=["dsn", "pool"])
def test_run_async_fires_due_slots_until_stopped(db: psycopg.Connection, dsn: str, with_pool: bool) -> None:
    pyjq.schedule(db, "a", cron="0 8 * * *", timezone="UTC", type="t", now=at("2026-03-01T00:00:00Z"))
    clock = Clock(at("2026-03-01T07:59:59Z"))
    scheduler = Scheduler(clock=clock)

    async def main() -> None:
        stop = asyncio.Event()
        pool = AsyncConnectionPool(dsn, min_size=1, max_size=2, kwargs={"autocommit": True}, open=False)
        if with_pool:
            await pool.open()
        task = asyncio.create_task(scheduler.run_async(pool if with_pool else dsn, stop, interval=0.05))
        try:
            await asyncio.sleep(0.3)
            assert scheduler.stats["ticks"] >= 2 and scheduler.stats["jobs"] == 0
            clock.set("2026-03-01T08:00:01Z")
            for _ in range(100):
                if scheduler.stats["jobs"]:
                    break
                await asyncio.sleep(0.05)
        finally:
            stop.set()
            await asyncio.wait_for(task, 5)
            if with_pool:
                await pool.close()

    asyncio.run(main())
    assert slots_of(db, "a") == ["2026-03-01T08:00:00Z"]


# -- the CLI -------------------------------------------------------------------------------


def test_cli_schedules_put_list_pause_resume_delete(db: psycopg.Connection, dsn: str) -> None:
    put = _cli(
        "schedules",
        "put",
        "digest",
        "--cron",
        "0 8 * * *",
        "--tz",
        "Asia/Kolkata",
        "--type",
        "send_digest",
        "--payload",
        '{"user_id": 42}',
        "--jitter",
        "600",
        "--missed",
        "all",
        "--dsn",
        dsn,
    )
    assert put.exit_code == 0, put.output
    assert put.stdout.startswith("created schedule digest; next run ")
    assert "08:00 Asia/Kolkata)" in put.stdout
    again = _cli(
        "schedules",
        "put",
        "digest",
        "--cron",
        "0 8 * * *",
        "--tz",
        "Asia/Kolkata",
        "--type",
        "send_digest",
        "--jitter",
        "600",
        "--dsn",
        dsn,
        "--json",
    )
    assert json.loads(again.stdout)["created"] is False

    listed = _cli("schedules", "list", "--dsn", dsn)
    assert listed.exit_code == 0
    assert listed.stdout.splitlines()[0].split()[:4] == ["NAME", "CRON", "TIMEZONE", "TYPE"]
    assert "digest  0 8 * * *  Asia/Kolkata  send_digest" in listed.stdout
    [row] = json.loads(_cli("schedules", "list", "digest", "--dsn", dsn, "--json").stdout)
    assert (row["name"], row["jitter_seconds"], row["missed"], row["paused"]) == ("digest", 600, "latest", False)

    assert _cli("schedules", "pause", "digest", "--dsn", dsn).stdout == "paused schedule digest\n"
    assert json.loads(_cli("schedules", "list", "digest", "--dsn", dsn, "--json").stdout)[0]["paused"] is True
    assert _cli("schedules", "resume", "digest", "--dsn", dsn).stdout == "resumed schedule digest\n"
    assert _cli("schedules", "delete", "digest", "--dsn", dsn).stdout == "deleted schedule digest\n"
    assert _cli("schedules", "list", "--dsn", dsn).stdout == "no schedules\n"
    for command in ("delete", "pause", "resume"):
        gone = _cli("schedules", command, "digest", "--dsn", dsn)
        assert gone.exit_code == 1 and gone.stderr == "error: schedule digest not found\n"
    missing = _cli("schedules", "list", "digest", "--dsn", dsn)
    assert missing.exit_code == 1


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--cron", "0 25 * * *", "--tz", "UTC"], "error: cron '0 25 * * *' is invalid: hour 25 is out of range"),
        (
            ["--cron", "0 8 * * *", "--tz", "Mars/Base"],
            "error: timezone 'Mars/Base' is not a known IANA time zone name",
        ),
        (
            ["--cron", "0 8 * * *", "--tz", "UTC", "--jitter", "90000"],
            "error: jitter_seconds 90000 is out of range (22023)",
        ),
    ],
)
def test_cli_schedules_put_rejects_bad_input_in_one_line(
    db: psycopg.Connection, dsn: str, args: list[str], needle: str
) -> None:
    result = _cli("schedules", "put", "bad", "--type", "t", *args, "--dsn", dsn)
    assert result.exit_code == 1
    assert result.stderr.startswith(needle), result.stderr
    assert db.execute("select count(*) from jq.schedules").fetchone() == (0,)


@pytest.mark.parametrize("command", [[], ["put"], ["list"], ["delete"], ["pause"], ["resume"]])
def test_cli_schedules_help(command: list[str]) -> None:
    result = _cli("schedules", *command, "--help")
    assert result.exit_code == 0 and "Usage: pyjq schedules" in result.stdout
