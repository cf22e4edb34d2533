"""The counted enumeration of Keys (`legal_count`, `legal_at`, `random_legal`): the play step
is counted card by card from the masks, so it must agree with the list on every card kind,
with barriers, cookies, tunnels, pawns to push and doors open or closed under pawns."""

from __future__ import annotations

import pytest

from tests.games.keys.conftest import build
from timelord.core import Rng
from timelord.games.keys import KeysState

EVERY_CARD = ["key-blue", "sonic", "barrier", "cyberman", "cookie", "pandorica", "tunnel"]


def _agrees(state: KeysState, rng: Rng) -> None:
    legal = state.legal_actions()
    fresh = state._copy()  # nothing listed yet: the counted path, not the kept list
    assert fresh._legal is None
    assert fresh.legal_count() == len(legal)
    assert [fresh.legal_at(i) for i in range(len(legal))] == legal
    with pytest.raises(IndexError):
        fresh.legal_at(len(legal))
    ours, theirs = rng.copy(), rng.copy()
    assert state._copy().random_legal(ours) == legal[theirs.below(len(legal))]
    assert ours.state == theirs.state


@pytest.mark.parametrize(
    "hand", [EVERY_CARD[:4], EVERY_CARD[3:], ["key-blue", "key-blue", "sonic"]]
)
def test_every_card_kind_is_counted_as_listed(hand: list[str]) -> None:
    state = build(
        3,
        tiles={"c3": ("blue", "dalek"), "e5": ("red", "dalek"), "b2": ("red", "open")},
        open_=["c3", "c2", "e5", "b2", "b3"],
        seen=["c3", "e5"],
        barriers=["a1", "c2"],
        cookies=["e5"],
        tunnels=[("b2", "c3"), ("e4", "f5")],
        pawns=["b2", "c3", "b3"],
        hands=[hand, ["key-red"], ["key-red"]],
    )
    assert state.phase == 0 and len(state.legal_actions()) > len(hand)
    _agrees(state, Rng(4))


def test_random_games_count_every_step_as_listed() -> None:
    from timelord.games.keys import KeysGame

    rng = Rng(8)
    for players in (2, 4):
        game = KeysGame(players=players)
        for _ in range(3):
            state = game.new_game(rng.next64())
            while not state.is_over:
                _agrees(state, rng)
                legal = state.legal_actions()
                state = state.apply(legal[rng.below(len(legal))])
