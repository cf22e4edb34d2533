"""Hypothesis properties: determinism, invariants of random play, secrecy of views, sampling."""

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from timelord.core import Rng, State
from timelord.games.keys import KeysGame, KeysState
from timelord.games.keys.actions import AssaultPawn, MovePawn, OpenDoor
from timelord.games.keys.board import CONTROL, diagonal_corner

SECRET_KEYS = {"hands", "deck", "rng", "seen"}


def _play(game: KeysGame, seed: int, steps: int, pick: int) -> State:
    rng = Rng(pick)
    state = game.new_game(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    return state


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 300),
    pick=st.integers(0, 2**16),
)
def test_same_seed_same_game(players: int, seed: int, steps: int, pick: int) -> None:
    game = KeysGame(players=players)
    assert _play(game, seed, steps, pick).to_json() == _play(game, seed, steps, pick).to_json()


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 300),
    pick=st.integers(0, 2**16),
)
def test_views_hold_no_secret_of_others(players: int, seed: int, steps: int, pick: int) -> None:
    """A seat's view changes only with its own hand when every other secret is re-dealt."""
    game = KeysGame(players=players)
    state = _play(game, seed, steps, pick)
    for seat in range(players):
        view = state.view(seat)
        assert not SECRET_KEYS & set(view)
        other = game.sample_state(view, Rng(seed ^ seat))
        assert other.view(seat) == view
        assert other.legal_actions() == state.legal_actions() or state.to_move != seat
        spectator = state.view(None)
        assert "hand" not in spectator and game.sample_state(view, Rng(1)).view(None) == spectator


def _check_invariants(before: dict, action: object, after: dict, game: KeysGame) -> None:
    """What must hold after every action (K-4.5, K-5.4, K-6.3, K-6.4, K-6.7, K-1.2)."""
    pawns = [p for p in after["pawns"] if p is not None]
    assert len(pawns) == len(set(pawns))  # K-4.5 one pawn per tile
    assert all(p == CONTROL or p in after["open"] for p in pawns)  # pawns stand on open doors
    corners = set()
    for a, b in after["tunnels"]:  # K-6.7: diagonal neighbours, no Control, one per corner
        corner = diagonal_corner(a, b)
        assert corner is not None and CONTROL not in (a, b) and corner not in corners
        corners.add(corner)
    assert len(after["barriers"]) == len(set(after["barriers"]))  # K-6.3 never stacked
    assert CONTROL not in after["barriers"] and CONTROL not in after["open"]
    assert all(after["backs"][t] == "dalek" and t in after["open"] for t in after["cookies"])
    assert set(after["open"]) <= set(after["seen"])  # K-5.8
    where = Counter(after["deck"]) + Counter(after["discard"])
    for hand in after["hands"]:
        where.update(hand)
    where.update(
        ["barrier"] * len(after["barriers"])
        + ["cookie"] * len(after["cookies"])
        + ["tunnel"] * len(after["tunnels"])
        + ["pandorica"] * sum(1 for x in after["pandorica"] if x)
    )
    full = Counter(game.content.card_ids[c] for c in game.content.deck)
    assert where == full  # K-1.2: every card in exactly one place
    for seat, (was, now) in enumerate(zip(before["pawns"], after["pawns"], strict=True)):
        if now == CONTROL and was != CONTROL:  # K-5.4: Control only by Teleport
            assert isinstance(action, (MovePawn, AssaultPawn))
            assert before["backs"][action.tile] == "teleport"
            assert getattr(action, "seat", before["seat"]) == seat


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), pick=st.integers(0, 2**16))
def test_random_play_keeps_every_invariant(players: int, seed: int, pick: int) -> None:
    """Whole random games (short round limit): the board stays legal at every step and the
    game ends within max_actions."""
    game = KeysGame(players=players, round_limit=25)
    rng = Rng(pick)
    state = game.new_game(seed)
    data = state.to_json()
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        state = state.apply(action)
        after = state.to_json()
        _check_invariants(data, action, after, game)
        data = after
        steps += 1
        assert steps <= game.max_actions
    assert state.winners() == ([data["winner"]] if data["winner"] is not None else [])


def _twin(game: KeysGame, data: dict, rng: Rng) -> KeysState:
    """The same table with never-seen backs permuted within each colour."""
    twin = json.loads(json.dumps(data))
    by_colour: dict[str, list[int]] = {}
    for t, colour in enumerate(data["colours"]):
        if t != CONTROL and t not in data["seen"]:
            by_colour.setdefault(colour, []).append(t)
    for tiles in by_colour.values():
        backs = [data["backs"][t] for t in tiles]
        rng.shuffle(backs)
        for t, back in zip(tiles, backs, strict=True):
            twin["backs"][t] = back
    state = game.state_from_json(twin)
    assert isinstance(state, KeysState)
    return state


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 250),
    pick=st.integers(0, 2**16),
)
def test_unseen_backs_leave_no_trace(players: int, seed: int, steps: int, pick: int) -> None:
    """K-7.3: permuting never-seen backs changes no view, no legal action and no log line,
    except the line of an opening that will happen (it shows the back to all, K-5.8)."""
    game = KeysGame(players=players)
    state = _play(game, seed, steps, pick)
    assert isinstance(state, KeysState)
    data = state.to_json()
    twin = _twin(game, data, Rng(pick))
    probes = list(state.legal_actions())
    probes += [OpenDoor(t, c) for t in range(0, 49, 5) for c in ("sonic", "key-red")]
    probes += [MovePawn(t) for t in range(0, 49, 3)] + [AssaultPawn(1, t) for t in range(0, 49, 7)]
    for seat in [None, *range(players)]:
        assert twin.view(seat) == state.view(seat)
        for action in probes:
            refusal = None if state.is_over else state._refusal(action)
            revealing = isinstance(action, OpenDoor) and refusal is None
            if state.is_over or revealing:
                continue
            if refusal is None:
                assert twin.describe(action, seat) == state.describe(action, seat)
            else:
                assert str(twin._refusal(action)) == str(refusal)
    assert twin.legal_actions() == state.legal_actions()
