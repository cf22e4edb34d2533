"""Engine properties: refusal agrees with legal_actions, cards are conserved, render works."""

from collections import Counter

import pytest

import timelord
from timelord.core import Action, IllegalAction, Rng
from timelord.games.keys import KeysGame, KeysState
from timelord.games.keys.board import CONTROL, tile_index
from timelord.games.keys.render import render_view


def _universe(game: KeysGame) -> list[Action]:
    """Every action the game's tables can offer, plus some that no table holds."""
    t = game.tables
    out: list[Action] = [*t.discard, *t.remove, *t.barrier, *t.cookie, *t.pandorica]
    for row in (*t.open_, *t.close, *t.assault):
        out.extend(row)
    out.extend([*t.tunnel, *t.move, t.step_off, t.stay, t.forgo])
    return out


def _playout_states(players: int, seed: int, steps: int) -> list[KeysState]:
    game = KeysGame(players=players)
    rng = Rng(seed)
    state = game.new_game(seed)
    states = [state]
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
        assert isinstance(state, KeysState)
        states.append(state)
    return states


def test_refusal_matches_legal_actions() -> None:
    """apply's O(1) check accepts exactly the listed actions, and explains every refusal."""
    for players in (2, 4):
        game = KeysGame(players=players)
        universe = _universe(game)
        for state in _playout_states(players, players * 7, 260)[::3]:
            legal = set(state.legal_actions())
            assert all(id(a) in state.tables.ids for a in state.legal_actions())
            for action in universe:
                if state.is_over:
                    break
                refusal = state._refusal(action)
                assert (refusal is None) == (action in legal), (action, refusal)
                if refusal is not None:
                    assert isinstance(refusal, IllegalAction) and refusal.reason
                    assert refusal.rule.startswith("K-")


def test_cards_are_conserved() -> None:
    """Every card is in exactly one place: draw pile, hands, discards or on the board."""
    for players in (2, 3, 4):
        game = KeysGame(players=players)
        full = Counter(game.content.deck)
        t = game.tables
        for state in _playout_states(players, players, 400):
            where: Counter[int] = Counter(state.deck) + Counter(state.discard)
            for hand in state.hands:
                where.update(hand)
            where[t.barrier_card] += bin(state.barrier_mask).count("1")
            where[t.cookie_card] += bin(state.cookie_mask).count("1")
            where[t.tunnel_card] += len(state.tunnels)
            where[t.pandorica_card] += sum(1 for s in state.stuck if s)
            assert where == full


def test_apply_leaves_its_input_alone() -> None:
    """apply returns a new state; the old one still says the same."""
    states = _playout_states(3, 5, 60)
    for state in states[:-1]:
        before = state.to_json()
        state.apply(state.legal_actions()[0])
        assert state.to_json() == before


def test_sampled_backs_keep_each_colours_mix() -> None:
    """K-R17: unseen backs are re-dealt within their colour, keeping 7/2/1/1/1 per colour."""
    states = _playout_states(2, 12, 150)
    state = states[-1]
    game = state.game
    view = state.view(0)
    sample = game.sample_state(view, Rng(1)).to_json()
    per_colour: dict[str, Counter[str]] = {}
    for t, colour in enumerate(sample["colours"]):
        if t != CONTROL:
            per_colour.setdefault(colour, Counter())[sample["backs"][t]] += 1
    for mix in per_colour.values():
        expected = {"open": 7, "dalek": 2, "tardis-key": 1, "extra-turn": 1, "teleport": 1}
        assert mix == expected


def test_render_shows_board_pieces(make) -> None:
    """render_view draws colours, doors, backs, pawns, barriers, cookies and tunnels."""
    state = make(
        tiles={"c5": ("red", "dalek"), "e2": ("green", "teleport")},
        open_=["c5", "c1"],
        seen=["e2"],
        cookies=["c5"],
        barriers=["a7"],
        tunnels=[("b2", "c1")],
        pawns=["c1", None],
    )
    text = render_view(state.game, state.view(0))
    lines = text.splitlines()
    assert lines[1].startswith("7  B#?* ")  # a7: blue, closed, unseen, barrier
    assert "R.Dc " in text and "G#T  " in text and "B.o 0" in text and "(CC)" in text
    assert lines[12] == "   -----+-----\\-----+-----+-----+-----+-----"  # b2-c1 tunnel
    assert "Your hand: Key (blue), Key (blue), Key (blue)" in text
    assert "\x1b" not in text
    game = timelord.load("keys", players=4)
    over = game.new_game(0)
    assert "Seat 3 (east)" in game.render_view(over.view(None))
    assert tile_index("d4") == CONTROL


def test_describe_hides_nothing_secret_and_names_the_back(make) -> None:
    """describe tells what happened; an opened door's back is public (K-5.8)."""
    state = make(tiles={"c5": ("red", "dalek")}, hands=[["sonic"] * 4, []])
    from timelord.games.keys.actions import OpenDoor

    action = OpenDoor(tile_index("c5"), "sonic")
    assert state.describe(action, 0).startswith(
        "You open c5 (red door) with a Sonic Screwdriver: behind it is a Dalek Door"
    )
    assert state.describe(action, 1).startswith("Seat 0 (south) opens c5")


def test_render_ansi_is_optional(make) -> None:
    """render_view is plain by default; ansi=True colours door letters, same text otherwise."""
    import re

    state = make(open_=["c1"], pawns=["c1", None])
    plain = state.game.render_view(state.view(0))
    coloured = state.game.render_view(state.view(0), ansi=True)
    assert "\x1b[34mB\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


def test_describe_never_reveals_a_closed_back(make) -> None:
    """K-7.3: a move that is refused is not described (its refusal names no back either);
    only an opening that happens names what is behind the door."""
    from timelord.games.keys.actions import MovePawn, OpenDoor

    state = make(
        tiles={"c2": ("red", "teleport"), "c3": ("red", "dalek")},
        barriers=["c3"],
        pawns=["c1", None],
        open_=["c1"],
        hands=[["sonic"] * 4, []],
    )
    for action in (MovePawn(tile_index("c2")), OpenDoor(tile_index("c3"), "sonic")):
        with pytest.raises(IllegalAction) as refused:
            state.describe(action, 1)
        assert not {"teleport", "dalek"} & set(refused.value.reason.lower().split())
    assert "Teleport" in state.describe(OpenDoor(tile_index("c2"), "sonic"), 1)


def test_describe_hides_the_back_of_a_refused_opening(make) -> None:
    """K-7.3 / K-5.8: only an opening that happens names the back; a refused one (wrong key
    colour, a card not held, the wrong step) is refused without naming it."""
    from timelord.games.keys.actions import OpenDoor

    state = make(tiles={"c3": ("red", "dalek")}, hands=[["key-blue"] * 4, []])
    for action in (OpenDoor(tile_index("c3"), "key-blue"), OpenDoor(tile_index("c3"), "sonic")):
        for seat in (None, 0, 1):
            with pytest.raises(IllegalAction) as refused:
                state.describe(action, seat)
            assert "dalek" not in str(refused.value).lower()
    red = make(tiles={"c3": ("red", "dalek")}, hands=[["key-red"] * 4, []])
    assert "behind it is a Dalek Door" in red.describe(OpenDoor(tile_index("c3"), "key-red"), 1)
    moving = make(tiles={"c3": ("red", "dalek")}, hands=[["key-red"] * 4, []], phase="move")
    with pytest.raises(IllegalAction) as refused:
        moving.describe(OpenDoor(tile_index("c3"), "key-red"), 1)
    assert "dalek" not in str(refused.value).lower()


def test_describe_refuses_junk_actions_cleanly(make) -> None:
    """describe of a junk action raises the library error apply would, whatever the fields."""
    import dataclasses
    import itertools

    from timelord.core import GameError
    from timelord.games.keys.actions import ACTION_TYPES

    state = make(hands=[["sonic"] * 4, []], open_=["c1"], pawns=["c1", None])
    junk = [-1, 0, 24, 49, 10**6, True, "x", None, "sonic", "tardis-key"]
    legal = state.legal_actions()
    for cls in ACTION_TYPES:
        arity = len(dataclasses.fields(cls))
        for values in itertools.product(junk, repeat=arity):
            action = cls(*values)
            if action in legal:
                continue
            for seat in (None, 0, 1):
                with pytest.raises(GameError):
                    state.describe(action, seat)
