"""jq's cron slots, computed in SQL (sql/functions/cron.sql), against the
reference they replace (tests/cron_reference.py: croniter over naive local
times, each match mapped with jq's DST rule, which was pyjq's scheduler up to
0.5.0). Both must give exactly the same instants.

Over generated crons (and a hand-picked set that hits the changes), in time
zones whose clocks move by an hour (Berlin, New York, Dublin's negative DST,
Casablanca's Ramadan changes), by 30 minutes (Lord Howe), at 02:45 (Chatham),
by two hours (Troll), never (Kolkata, Kathmandu, UTC), and at instants around
every change of 2026 and 2027 (a second, a minute, half an hour, an hour and
a few hours either side) and at random ones: the first slot after the
instant (jq._cron_next), the last at or before it (jq._cron_latest), and the
next five in a row (jq_cron_slots).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import psycopg
import pytest
from cron_reference import cron_times

ZONES = [
    "Europe/Berlin",
    "America/New_York",
    "Asia/Kolkata",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "Europe/Dublin",
    "Africa/Casablanca",
    "Antarctica/Troll",
    "America/St_Johns",
    "Asia/Kathmandu",
    "UTC",
]

# Crons that fire in and around the changes' hours, the OR rule of the day
# fields, and the rare days.
HAND_PICKED = [
    "* * * * *",
    "*/7 * * * *",
    "0 * * * *",
    "30 * * * *",
    "15,45 * * * *",
    "30 2 * * *",
    "0 2 * * *",
    "0 3 * * *",
    "30 1 * * *",
    "0,30 1-3 * * *",
    "*/15 0-4 * * *",
    "45 2 * * *",
    "59 1 * * *",
    "0 0 * * *",
    "0 8 * * 1-5",
    "0 0 1,15 * 1",
    "0 12 13 * 5",
    "0 0 29 2 *",
    "0 0 31 * *",
    "0 4 * * sun",
    "@hourly",
    "@weekly",
    "@monthly",
    "@yearly",
]


def _field(rng: random.Random, lo: int, hi: int, full_chance: float) -> str:
    if rng.random() < full_chance:
        return "*"
    items = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        a, b = sorted(rng.sample(range(lo, hi + 1), 2))
        kind = rng.random()
        if kind < 0.4:
            items.append(str(a))
        elif kind < 0.7:
            items.append(f"{a}-{b}")
        else:
            items.append(f"{rng.choice(['*', f'{a}-{b}', str(a)])}/{rng.randint(1, max(1, (hi - lo) // 2))}")
    return ",".join(items)


def generated_crons(rng: random.Random, count: int) -> list[str]:
    """Random crons, leaning to the early hours (when clocks change) and to * days."""
    crons = []
    for _ in range(count):
        hour = _field(rng, 0, 23, 0.25) if rng.random() < 0.6 else f"{rng.randint(0, 3)}"
        crons.append(
            " ".join(
                [
                    _field(rng, 0, 59, 0.15),
                    hour,
                    _field(rng, 1, 31, 0.7),
                    _field(rng, 1, 12, 0.8),
                    _field(rng, 0, 7, 0.7),
                ]
            )
        )
    return crons


def transitions(zone: str, start: datetime, end: datetime) -> list[datetime]:
    """The instants in [start, end) where the zone's UTC offset changes, to the second."""
    tz = ZoneInfo(zone)
    found = []
    at = start
    while at < end:
        step = at + timedelta(hours=1)
        if at.astimezone(tz).utcoffset() != step.astimezone(tz).utcoffset():
            lo, hi = int(at.timestamp()), int(step.timestamp())
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if datetime.fromtimestamp(mid, UTC).astimezone(tz).utcoffset() == at.astimezone(tz).utcoffset():
                    lo = mid
                else:
                    hi = mid
            found.append(datetime.fromtimestamp(hi, UTC))
        at = step
    return found


AROUND = [timedelta(seconds=s) for s in (0, 1, -1, 60, -60)] + [
    timedelta(minutes=m) for m in (-90, -60, -59, -30, 30, 59, 60, 61, 90, 121, 181, 25 * 60)
]


def instants(zone: str, rng: random.Random) -> list[datetime]:
    """Around each change of 2026 (some with microseconds), and at random."""
    changes = transitions(zone, datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC))
    out = [t + d for t in changes for d in AROUND]
    out += [t + d + timedelta(microseconds=rng.randint(1, 999_999)) for t in changes for d in AROUND[:3]]
    out += [datetime(2025, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randint(0, 5 * 365 * 86400)) for _ in range(8)]
    return out


def compare(db: psycopg.Connection, crons: list[str], zone: str, moments: list[datetime]) -> int:
    """Asserts SQL's next and latest slots equal the reference's for every (cron, instant); returns the count."""
    cases = [(cron, at) for cron in crons for at in moments]
    rows = db.execute(
        """select jq._cron_next(c.cron, %(zone)s, c.at), jq._cron_latest(c.cron, %(zone)s, c.at)
             from unnest(%(crons)s::text[], %(ats)s::timestamptz[]) with ordinality as c(cron, at, n)
            order by c.n""",
        {"zone": zone, "crons": [c for c, _ in cases], "ats": [a for _, a in cases]},
    ).fetchall()
    mismatches = []
    for (cron, at), (sql_next, sql_latest) in zip(cases, rows, strict=True):
        times = cron_times(cron, zone)
        ref_next, ref_latest = times.next_after(at), times.latest_at_or_before(at)
        if (sql_next, sql_latest) != (ref_next, ref_latest):
            mismatches.append((cron, at.isoformat(), (sql_next, sql_latest), (ref_next, ref_latest)))
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ in {zone}, e.g. {mismatches[:5]}"
    return len(cases)


@pytest.mark.parametrize("zone", ZONES)
def test_sql_slots_agree_with_the_reference_around_every_change(db: psycopg.Connection, zone: str) -> None:
    rng = random.Random(f"cron-slots-{zone}")
    crons = HAND_PICKED + generated_crons(rng, 10)
    moments = instants(zone, rng)
    assert compare(db, crons, zone, moments) >= len(crons) * 8


def test_sql_slots_agree_with_the_reference_for_many_crons(db: psycopg.Connection) -> None:
    """Many more generated crons, each at a few instants of a zone picked at random."""
    rng = random.Random(11)
    compared = 0
    for zone in ZONES:
        changes = transitions(zone, datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC))
        moments = [t + rng.choice(AROUND) for t in changes] + [
            datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randint(0, 365 * 86400)) for _ in range(3)
        ]
        compared += compare(db, generated_crons(rng, 30), zone, moments)
    assert compared > 1000


def test_jq_cron_slots_lists_consecutive_slots_like_the_reference(db: psycopg.Connection) -> None:
    rng = random.Random(3)
    for zone in ZONES:
        for cron in [*HAND_PICKED[:8], *generated_crons(rng, 4)]:
            for change in transitions(zone, datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)) or [
                datetime(2026, 6, 1, tzinfo=UTC)
            ]:
                after = change - timedelta(hours=2)
                got = [
                    r[0] for r in db.execute("select slot from jq.jq_cron_slots(%s, %s, %s, 5)", [cron, zone, after])
                ]
                it = cron_times(cron, zone).iter_after(after)
                assert got == [next(it) for _ in range(5)], (cron, zone, after)


def test_the_dst_rule_at_the_documented_examples(db: psycopg.Connection) -> None:
    def slots(cron: str, zone: str, after: str, count: int) -> list[str]:
        rows = db.execute("select slot from jq.jq_cron_slots(%s, %s, %s, %s)", [cron, zone, after, count])
        return [r[0].astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ") for r in rows]

    # Spring forward: 02:30 does not exist on 2026-03-08 in New York; it fires at 03:00 EDT.
    assert slots("30 2 * * *", "America/New_York", "2026-03-07T00:00Z", 3) == [
        "2026-03-07T07:30Z",
        "2026-03-08T07:00Z",
        "2026-03-09T06:30Z",
    ]
    # Fall back: 01:30 happens twice on 2026-11-01; it fires at the first (EDT) only.
    assert slots("30 1 * * *", "America/New_York", "2026-10-31T00:00Z", 3) == [
        "2026-10-31T05:30Z",
        "2026-11-01T05:30Z",
        "2026-11-02T06:30Z",
    ]
    # Several slots in one gap and the one at its end fire once, together.
    assert slots("0,15,30,45 2-3 * * *", "America/New_York", "2026-03-08T06:00Z", 3) == [
        "2026-03-08T07:00Z",
        "2026-03-08T07:15Z",
        "2026-03-08T07:30Z",
    ]
    # Lord Howe moves by 30 minutes: 02:15 does not exist on 2026-10-04 (02:00 +10:30 -> 02:30 +11:00).
    assert slots("15 2 * * *", "Australia/Lord_Howe", "2026-10-03T00:00Z", 2) == [
        "2026-10-03T15:30Z",
        "2026-10-04T15:15Z",
    ]
    assert slots("0 8 * * *", "Asia/Kolkata", "2026-03-01T00:00Z", 1) == ["2026-03-01T02:30Z"]


def test_a_search_takes_bounded_work(db: psycopg.Connection) -> None:
    """Searches walk months and days, not minutes: two hundred of the longest (29 February seven
    years ahead, either way) finish well within a statement timeout that a minute-by-minute walk
    over years would exceed many times over."""
    db.execute("set statement_timeout = '5s'")
    far = db.execute(
        """select count(distinct jq._cron_next('0 0 29 2 *', 'UTC', a)), min(jq._cron_next('0 0 29 2 *', 'UTC', a)),
                  count(distinct jq._cron_latest('0 0 29 2 *', 'UTC', b)), min(jq._cron_latest('0 0 29 2 *', 'UTC', b))
             from generate_series(1, 100) g,
                  lateral (select timestamptz '2097-03-01T00:00Z' + g * interval '1 second' as a,
                                  timestamptz '2104-02-28T00:00Z' - g * interval '1 second' as b) t"""
    ).fetchone()
    assert far == (1, datetime(2104, 2, 29, tzinfo=UTC), 1, datetime(2096, 2, 29, tzinfo=UTC))
