"""When a worker calls jq_storage_rotate again within a slot (pyjq/worker/storage.py), without a database:
while a call leaves a generation half moved, 0.1 s later up to 12 times (a call moves at most 500
rows, to keep its lock short); while one is busy, 0.5 s later twice; never past the slot's end.
Between boundaries, while it works, it asks jq_storage_turn every 0.25 s whether to end the slot
early, and looks again at a generation the last call left draining."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from pyjq.worker import storage
from pyjq.worker.connections import Connections
from pyjq.worker.state import RunState

pytestmark = pytest.mark.unit


def rotation(seconds_left: float) -> storage.StorageRotation:
    state = RunState("w", {"q": 1}, drain=False, flush_size=10, stats=Counter())
    rot = storage.StorageRotation(state, Connections("dbname=none", "w", state), worker_name="w", interval=2.0)
    rot._until_next_boundary = lambda: seconds_left  # type: ignore[method-assign]
    return rot


def schedule(rot: storage.StorageRotation) -> list[float]:
    delays = []
    while (delay := rot._retry_in()) is not None:
        delays.append(delay)
    return delays


def test_half_moved_calls_again_quickly_then_as_for_busy():
    rot = rotation(seconds_left=1.9)
    rot._moving = rot._unfinished = True
    assert (
        schedule(rot)
        == [storage.MOVING_RETRY_AFTER] * storage.MOVING_RETRIES_PER_SLOT
        + [storage.RETRY_AFTER] * storage.RETRIES_PER_SLOT
    )


def test_busy_calls_again_twice_half_a_second_apart():
    rot = rotation(seconds_left=1.9)
    rot._unfinished = True
    assert schedule(rot) == [storage.RETRY_AFTER] * storage.RETRIES_PER_SLOT


def test_done_waits_for_the_next_slot():
    assert schedule(rotation(seconds_left=1.9)) == []


def test_no_call_past_the_slot_and_a_new_slot_starts_the_count_again():
    rot = rotation(seconds_left=0.05)
    rot._moving = rot._unfinished = True
    assert schedule(rot) == []
    rot._until_next_boundary = lambda: 1.9  # type: ignore[method-assign]
    rot._moving_retries = storage.MOVING_RETRIES_PER_SLOT
    rot._retries = storage.RETRIES_PER_SLOT
    assert schedule(rot) == []
    rot._new_slot()
    assert len(schedule(rot)) == storage.MOVING_RETRIES_PER_SLOT + storage.RETRIES_PER_SLOT


class SlotClock:
    """A rotation whose sleeps only move a clock: the seconds to the boundary shrink as it sleeps, its
    activity changes at every look while `working`, and jq_storage_turn answers from `turns`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, left: float, working: bool, turns: list[bool]):
        self.rot = rotation(seconds_left=left)
        self.left, self.slept, self.asked = left, [], 0
        self.turns = turns
        ticks = iter(range(1_000_000))

        async def sleep(seconds: float) -> None:
            self.slept.append(round(seconds, 3))
            self.left -= seconds

        async def turn() -> bool:
            self.asked += 1
            return self.turns.pop(0) if self.turns else False

        monkeypatch.setattr(storage.asyncio, "sleep", sleep)
        self.rot._until_next_boundary = lambda: self.left  # type: ignore[method-assign]
        self.rot._turn = turn  # type: ignore[method-assign]
        self.rot._activity = (lambda: (next(ticks), 0)) if working else (lambda: (0, 0))  # type: ignore[method-assign]
        self.rot._seen_by_turn = (-1, 0) if working else (0, 0)

    def until_slot_ends(self) -> bool:
        return asyncio.run(self.rot._until_slot_ends())


def test_a_turn_ends_the_slot_and_the_rotation_follows_50_ms_later(monkeypatch):
    clock = SlotClock(monkeypatch, left=1.9, working=True, turns=[False, False, True])
    assert clock.until_slot_ends() is True, "a new slot"
    assert clock.slept == [storage.TURN_CHECK] * 3 + [storage.AFTER_BOUNDARY]
    assert clock.asked == 3


def test_no_turn_waits_for_the_boundary_asking_every_quarter_second(monkeypatch):
    clock = SlotClock(monkeypatch, left=1.9, working=True, turns=[])
    assert clock.until_slot_ends() is True
    # 1.9 s: a look at 1.65, 1.4, ... 0.15 s before it; none closer than TURN_CHECK + AFTER_BOUNDARY.
    assert clock.asked == 7 and clock.slept[:7] == [storage.TURN_CHECK] * 7
    assert abs(sum(clock.slept) - 1.9) < 1e-9, "then sleeps to the boundary, not past it"


def test_an_idle_worker_never_asks(monkeypatch):
    clock = SlotClock(monkeypatch, left=1.9, working=False, turns=[True])
    assert clock.until_slot_ends() is True
    assert clock.asked == 0


def test_a_draining_generation_is_looked_at_again_at_the_next_check(monkeypatch):
    clock = SlotClock(monkeypatch, left=1.9, working=True, turns=[False])
    clock.rot._draining = True
    assert clock.until_slot_ends() is False, "not a new slot: the busy counts stand"
    assert clock.slept == [storage.TURN_CHECK] and clock.asked == 1


def test_without_jq_storage_turn_the_slot_lasts_its_two_seconds(monkeypatch):
    clock = SlotClock(monkeypatch, left=1.9, working=True, turns=[True])
    clock.rot._turning = False
    assert clock.until_slot_ends() is True
    assert clock.slept == [1.9] and clock.asked == 0
