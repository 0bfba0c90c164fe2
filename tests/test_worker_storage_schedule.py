"""When a worker calls jq_storage_rotate again within a slot (pyjq/worker/storage.py), without a database:
while a call leaves a generation half moved, 0.1 s later up to 12 times (a call moves at most 500
rows, to keep its lock short); while one is busy, 0.5 s later twice; never past the slot's end."""

from __future__ import annotations

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
