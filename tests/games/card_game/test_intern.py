"""The shared reserve/discard pair actions (`rules/intern.py`): built once, packed for the
shipped card set, and only as met for a large custom set."""

from __future__ import annotations

from timelord.games.card_game.actions import DiscardForTime, PlaceReserve
from timelord.games.card_game.rules.intern import PACKED_IDS, CardActions


def test_pairs_of_a_small_set_are_built_at_once_and_shared() -> None:
    x = CardActions(3)
    r, d = x.pair(3, 7, 131)
    assert (r, d) == (PlaceReserve((3, 7)), DiscardForTime((3, 7)))
    built = [a for a in x.pairs if a is not None]
    assert len(built) == 2 * (131 - 4)  # every later id, at the first miss
    assert x.pair(3, 7, 131)[0] is r and x.pair(3, 130, 131)[1] is x.pairs[2 * 130 + 1]
    assert x.pair(3, 130, 131) == (PlaceReserve((3, 130)), DiscardForTime((3, 130)))


def test_pairs_of_a_large_set_are_built_only_as_met() -> None:
    ids = PACKED_IDS + 500
    x = CardActions(2)
    r, d = x.pair(2, ids - 1, ids)
    assert (r, d) == (PlaceReserve((2, ids - 1)), DiscardForTime((2, ids - 1)))
    assert [a for a in x.pairs if a is not None] == [r, d]
    assert x.pair(2, 9, ids) == (PlaceReserve((2, 9)), DiscardForTime((2, 9)))
    assert len([a for a in x.pairs if a is not None]) == 4
    assert x.pair(2, ids - 1, ids)[0] is r
