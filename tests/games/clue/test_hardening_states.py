"""`state_from_json` refuses every state the rules could not reach (stored tables and records
are read back from outside), and a mutation
fuzzer over real mid-game states checks that each mutant is refused with `CorruptRecord` or
plays on correctly (views, render, `sample_state`, further random moves)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import timelord
from timelord.core import CorruptRecord, Rng
from timelord.games.clue.game import ClueGame


def _midgame(players: int, seed: int, steps: int, **options: Any) -> dict[str, Any]:
    game = timelord.load("clue", players=players, **options)
    state, rng = game.new_game(seed), Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    return state.to_json()


def _game(players: int = 4, **options: Any) -> ClueGame:
    game = timelord.load("clue", players=players, **options)
    assert isinstance(game, ClueGame)
    return game


def _edited(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out.update(changes)
    return out


def _cases(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    hands = data["hands"]
    twice = copy.deepcopy(hands)
    twice[1] = sorted([*twice[1][1:], twice[0][0]])  # a card in two hands, one lost
    return [
        ("card in two hands", _edited(data, hands=twice)),
        ("card id that does not exist", _edited(data, envelope=[0, 6, 99])),
        ("unknown phase", _edited(data, phase="tea-break")),
        ("seat past the table", _edited(data, current=4)),
        ("negative seat", _edited(data, decider=-2)),
        ("string where a number belongs", _edited(data, steps="7")),
        ("bool where a number belongs", _edited(data, turn=True)),
        ("empty list of movers", _edited(data, movers=[])),
        ("mover off the board", _edited(data, movers=[9999] * 6)),
        ("malformed log", _edited(data, log=[["show", 1]])),
        ("log entry of an unknown kind", _edited(data, log=[["teleport", 0, 3]])),
        ("log entry holding a list", _edited(data, log=[["out", 0, ["accused"]]])),
        ("hands as a string", _edited(data, hands="abc")),
        ("hands as an object", _edited(data, hands={"0": [1]})),
        ("second as a number", _edited(data, second=1)),
        ("purpose as a list", _edited(data, purpose=["rumour"])),
        ("not an object", data["hands"]),
        ("huge generator state", _edited(data, rng=1 << 80)),
        ("unknown intrigue card", _edited(data, pile=[*data["pile"][:-1], "tardis-key"])),
        ("an extra Pocketwatch", _edited(data, pile=[*data["pile"], "pocketwatch"])),
        ("same suspect twice", _edited(data, characters=[0, 0, 1, 2])),
        ("turn past the bound", _edited(data, turn=10**9)),
        ("out for no reason", _edited(data, out=["bored", "", "", ""])),
    ]


@pytest.mark.parametrize("index", range(23))
def test_inconsistent_states_are_corrupt_records(index: int) -> None:
    data = _midgame(4, 11, 0)
    _name, bad = _cases(data)[index]
    with pytest.raises(CorruptRecord):
        _game().state_from_json(bad)


def test_a_history_that_does_not_fit_the_hands_is_refused() -> None:
    game = _game()
    data = _midgame(4, 3, 0)
    mine = data["hands"][1]
    named = [0, 6, 12]  # Amy, the Lipstick, Platform One
    held = next(c for c in named if c in mine) if set(named) & set(mine) else None
    foreign = next(c for c in named if c not in mine)
    rumour = ["rumour", 0, *named]
    lies = [[rumour, ["show", 1, 0, foreign]], [rumour, ["peek", 2, 1, foreign]]]
    if held is not None:
        lies.append([rumour, ["pass", 1]])  # seat 1 could have answered
    for log in lies:
        with pytest.raises(CorruptRecord):
            game.state_from_json(_edited(data, log=log))


def test_real_states_still_read_back() -> None:
    for players, options in (
        (2, {"variant": "two-player"}),
        (3, {}),
        (6, {}),
        (4, {"intrigue": False}),
    ):
        game = _game(players, **options)
        for seed in range(3):
            data = _midgame(players, seed, 40 + 60 * seed, **options)
            assert game.state_from_json(data).to_json() == data


# -- the mutation fuzzer ---------------------------------------------------------------------


def _mutate(data: Any, rng: Rng) -> Any:
    """One random edit somewhere in a JSON tree: +-1, delete, duplicate, swap, wrong type,
    or a card copied into a second place."""
    paths: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k in node:
                paths.append((node, k))
                walk(node[k])
        elif isinstance(node, list):
            for i in range(len(node)):
                paths.append((node, i))
                walk(node[i])

    out = copy.deepcopy(data)
    walk(out)
    parent, key = paths[rng.below(len(paths))]
    value = parent[key]
    how = rng.below(7)
    if how == 0 and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = value + (1 if rng.below(2) else -1)
    elif how == 1:
        del parent[key]
    elif how == 2 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(value))
    elif how == 3 and isinstance(parent, list) and len(parent) > 1:
        other = rng.below(len(parent))
        parent[key], parent[other] = parent[other], parent[key]
    elif how == 4:
        parent[key] = ("x", None, 1.5, [], {}, True, -1)[rng.below(7)]
    elif how == 5:
        hands = out.get("hands")
        if isinstance(hands, list) and all(isinstance(h, list) for h in hands) and hands:
            src = hands[rng.below(len(hands))]
            if src:
                hands[rng.below(len(hands))].append(src[rng.below(len(src))])
    else:
        parent[key] = 10**20 if isinstance(value, int) else str(value) + "!"
    return out


def _plays_on(game: ClueGame, state: Any, rng: Rng) -> None:
    for seat in [None, *range(game.players)]:
        view = state.view(seat)
        json.dumps(view)
        game.render_view(view)
        if seat is not None:
            game.sample_state(view, rng)
    for _ in range(30):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert legal
        state = state.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize(
    ("players", "options"),
    [(4, {}), (2, {"variant": "two-player"}), (5, {}), (3, {"intrigue": False})],
)
def test_mutated_states_are_refused_or_play_on(players: int, options: dict[str, Any]) -> None:
    game = _game(players, **options)
    rng = Rng(players * 1000 + len(options))
    tried = refused = 0
    for seed in range(4):
        data = _midgame(players, seed, 30 + 50 * seed, **options)
        for _ in range(40):
            mutant = _mutate(data, rng)
            tried += 1
            try:
                state = game.state_from_json(mutant)
            except CorruptRecord:
                refused += 1
                continue
            _plays_on(game, state, rng)
    assert tried == 160 and refused > 0


def test_a_wrong_accusation_credited_to_another_seat_is_refused() -> None:
    game = _game()
    state, rng = game.new_game(2), Rng(2)
    while not any(e[0] == "accuse" and not e[5] for e in state.events()):
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    data = state.to_json()
    game.state_from_json(data)
    i, entry = next((i, e) for i, e in enumerate(data["log"]) if e[0] == "accuse")
    for other in range(4):
        if other != entry[1] and not data["out"][other]:
            log = copy.deepcopy(data["log"])
            log[i][1] = other
            with pytest.raises(CorruptRecord, match="wrong accusers"):
                game.state_from_json(_edited(data, log=log))
            return
