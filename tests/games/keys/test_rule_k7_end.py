"""K-7: winning, the round limit, and what each seat may see."""

import json
from collections import Counter

import pytest

import timelord
from timelord.core import GameOver, Rng
from timelord.games.keys.actions import DiscardCard, MovePawn, StayPut
from timelord.games.keys.board import tile_index as T


@pytest.mark.parametrize("back", ["open", "tardis-key", "extra-turn"])
def test_k7_1_move_onto_far_edge_wins(make, back: str) -> None:
    """K-7.1 / K-R4: the first own move onto an enterable goal-edge tile wins at once."""
    state = make(tiles={"c7": ("red", back)}, open_=["c6", "c7"], pawns=["c6", None], phase="move")
    after = state.apply(MovePawn(T("c7")))
    assert after.is_over and after.winners() == [0] and after.scores() == [1.0, 0.0]
    assert after.to_move is None and after.legal_actions() == []
    assert after.view(1)["winner"] == 0
    with pytest.raises(GameOver):
        after.apply(StayPut())


def test_k7_1_cookied_dalek_on_far_edge_wins(make) -> None:
    """K-7.1 / K-R4: a cookied Dalek door counts as an open door."""
    state = make(
        players=4,
        tiles={"g3": ("red", "dalek")},
        open_=["f3", "g3"],
        cookies=["g3"],
        pawns=[None, "f3", None, None],
        phase="move",
        seat=1,
        hands=[[]] * 4,
    )
    after = state.apply(MovePawn(T("g3")))  # seat 1 starts west, its goal is file g
    assert after.winners() == [1]


def test_k7_1_what_does_not_win(make) -> None:
    """K-7.1 negative / K-R4: a Teleport on the far edge (even one that cannot teleport), the
    home edge, or any other tile."""
    tele = make(
        tiles={"c7": ("red", "teleport")}, open_=["c6", "c7"], pawns=["c6", None], phase="move"
    )
    after = tele.apply(MovePawn(T("c7")))
    assert not after.is_over and after.view(None)["pawns"][0] == T("d4")
    blocked = make(
        tiles={"c7": ("red", "teleport")},
        open_=["c6", "c7"],
        pawns=["c6", "d4"],
        phase="move",
        rules=1,  # K-R6 as rules 1 played it; rules 2 refuses the move (test_rule_k5_tiles)
    )
    stays = blocked.apply(MovePawn(T("c7")))  # Control taken: the pawn stays on c7 (K-R6)
    assert not stays.is_over and stays.view(None)["pawns"][0] == T("c7")
    home = make(open_=["c1", "c2"], pawns=["c2", None], phase="move")
    assert not home.apply(MovePawn(T("c1"))).is_over
    north = make(open_=["c6", "c5"], pawns=["c6", None], phase="move")
    assert not north.apply(MovePawn(T("c5"))).is_over


def test_k7_2_round_limit_ends_without_winner(make) -> None:
    """K-7.2 / K-R10: when the last round ends with no winner, nobody wins."""
    state = make(round_=4, round_limit=5, seat=1, hands=[["key-blue"] * 3, ["key-blue"] * 4])
    after = state.apply(DiscardCard("key-blue"))
    assert after.is_over and after.winners() == [] and after.scores() == [0.0, 0.0]
    assert after.view(0)["phase"] == "over" and after.to_move is None


def test_k7_2_game_goes_on_before_the_limit(make) -> None:
    """K-7.2 negative: a round earlier the game goes on."""
    state = make(round_=3, round_limit=5, seat=1, hands=[["key-blue"] * 3, ["key-blue"] * 4])
    after = state.apply(DiscardCard("key-blue"))
    assert not after.is_over and after.to_move == 0 and after.view(0)["round"] == 4


def test_k7_2_every_random_game_ends_within_bound() -> None:
    """K-7.2: the limit makes every game end within max_actions."""
    game = timelord.load("keys", players=4, round_limit=10)
    rng = Rng(3)
    for seed in range(5):
        state, steps = game.new_game(seed), 0
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[rng.below(len(legal))])
            steps += 1
        assert steps <= game.max_actions


def test_k7_3_views_hold_own_hand_only() -> None:
    """K-7.3: a seat sees its own hand and others' hand sizes, never their cards."""
    game = timelord.load("keys", players=3)
    state = game.new_game(21)
    hands = state.to_json()["hands"]
    for seat in range(3):
        view = state.view(seat)
        assert view["hand"] == hands[seat]
        assert view["hand_sizes"] == [len(h) for h in hands]
        assert "hands" not in view and "deck" not in view and "rng" not in view
    assert "hand" not in state.view(None)


def test_k7_3_no_unseen_back_leaks() -> None:
    """K-7.3 negative: after random play no view shows a back nobody has opened."""
    game = timelord.load("keys", players=2)
    rng = Rng(8)
    state = game.new_game(8)
    for _ in range(120):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    full = state.to_json()
    seen = set(full["seen"])
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view
        for t, back in enumerate(view["backs"]):
            if t != T("d4"):
                assert (back is not None) == (t in seen)
                assert back is None or back == full["backs"][t]


def test_k7_3_sample_state_redeals_only_secrets() -> None:
    """K-7.3: sample_state keeps every public fact and re-deals unseen backs and cards."""
    game = timelord.load("keys", players=3)
    rng = Rng(4)
    state = game.new_game(4)
    for _ in range(40):
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    view = state.view(1)
    real = state.to_json()
    samples = [game.sample_state(view, Rng(i)) for i in range(8)]
    for sample in samples:
        assert sample.view(1) == view
        data = sample.to_json()
        for t in real["seen"]:
            assert data["backs"][t] == real["backs"][t]
        for t, colour in enumerate(real["colours"]):  # backs re-dealt within their colour
            assert data["colours"][t] == colour
    assert len({json.dumps(s.to_json()["backs"]) for s in samples}) > 1
    assert len({json.dumps(s.to_json()["hands"][0]) for s in samples}) > 1


def _after_reshuffle(players: int, seed: int) -> tuple:
    """A random game played until a few draws after the first reshuffle."""
    game = timelord.load("keys", players=players)
    rng = Rng(seed)
    state = game.new_game(seed)
    while not state.to_json()["reshuffled"] or state.view(None)["deck_size"] > 20:
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
        assert not state.is_over
    return game, state


def test_k7_3_views_carry_what_a_reshuffle_tells() -> None:
    """K-7.3 / K-R17: the reshuffled cards are public; each seat also sees its own draws since."""
    _, state = _after_reshuffle(2, 31)
    data = state.to_json()
    assert state.view(None)["reshuffled"] == data["reshuffled"]
    for seat in range(2):
        view = state.view(seat)
        assert view["reshuffled"] == data["reshuffled"]
        assert view["drawn_since_reshuffle"] == data["drawn"][seat]
    assert "drawn_since_reshuffle" not in state.view(None)
    since = Counter(data["deck"])
    for drawn in data["drawn"]:
        since.update(drawn)
    assert since == Counter(data["reshuffled"])  # the pile and every draw since come from it


def test_k7_3_sampled_pile_only_from_reshuffled_cards() -> None:
    """K-R17 negative: a sample never puts in the draw pile a card that was not reshuffled
    (or that the seat drew back itself); such unseen cards are in other hands."""
    for players, seed in ((2, 3), (4, 0)):
        game, state = _after_reshuffle(players, seed)
        seat = state.to_move
        view = state.view(seat)
        allowed = Counter(view["reshuffled"])
        allowed.subtract(view["drawn_since_reshuffle"])
        unseen = Counter()
        for other, hand in enumerate(state.to_json()["hands"]):
            if other != seat:
                unseen.update(hand)
        unseen.update(state.to_json()["deck"])
        forced = {c: n - max(allowed[c], 0) for c, n in unseen.items() if n > allowed[c]}
        assert forced  # this game has cards that can only be in other hands
        for i in range(30):
            sample = game.sample_state(view, Rng(i))
            assert sample.view(seat) == view
            assert sample.legal_actions() == state.legal_actions()
            data = sample.to_json()
            pile = Counter(data["deck"])
            assert all(pile[c] <= allowed[c] for c in pile)
            held = Counter()
            for other, hand in enumerate(data["hands"]):
                if other != seat:
                    held.update(hand)
            assert all(held[c] >= n for c, n in forced.items())
            assert game.state_from_json(data).to_json() == data
