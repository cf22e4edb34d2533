"""The serving process's garbage collector settings (`settle_collector`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from timelord.server.app import SERVING_GEN0_THRESHOLD, settle_collector


@pytest.fixture
def collector() -> Iterator[None]:
    """Put the collector back as it was: the settings are the whole process's."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_settling_freezes_what_lives_and_collects_the_young_less_often(collector: None) -> None:
    alive = [object() for _ in range(10)]
    before = gc.get_freeze_count()
    settle_collector()
    assert gc.get_freeze_count() > before + len(alive) - 1
    assert gc.get_threshold()[0] == SERVING_GEN0_THRESHOLD
    assert SERVING_GEN0_THRESHOLD > 700  # Python's default, which this raises


def test_a_cycle_made_after_settling_is_still_collected(collector: None) -> None:
    settle_collector()

    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a
    ids = {id(a), id(b)}
    del a, b
    gc.collect()
    assert not ids & {id(o) for o in gc.get_objects() if isinstance(o, Node)}
