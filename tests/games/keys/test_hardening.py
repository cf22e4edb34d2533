"""Keys to the TARDIS: every door refuses bad input with a library error, since clients, edited
records and agents send what no legal game makes."""

from __future__ import annotations

import copy
import threading

import pytest

from timelord.core import ConfigError, CorruptRecord, InvalidSeat, Rng, State
from timelord.games.keys.game import KeysGame


def _play(game: KeysGame, seed: int, steps: int) -> State:
    st: State = game.new_game(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if st.is_over:
            break
        legal = st.legal_actions()
        st = st.apply(legal[rng.below(len(legal))])
    return st


@pytest.mark.parametrize("seat", [-1, 3, 99, True, "0", 1.0])
def test_view_of_a_seat_outside_the_table_is_refused(seat: object) -> None:
    st = KeysGame(players=3).new_game(1)
    with pytest.raises(InvalidSeat):
        st.view(seat)  # type: ignore[arg-type]


def _doctored(view: dict) -> list[dict]:
    out = [{}, {"seat": 0}, {**view, "seat": 7}]
    for key, value in [
        ("hand_sizes", [10**20] * len(view["hand_sizes"])),
        ("hand_sizes", [-1] * len(view["hand_sizes"])),
        ("hand_sizes", view["hand_sizes"][1:]),
        ("deck_size", view["deck_size"] + 1),
        ("deck_size", view["deck_size"] - 1),
        ("deck_size", 10**20),
        ("hand", [*view["hand"], "key-red"]),
        ("hand", [["sonic"]]),
        ("discard", ["no-such-card"]),
        ("backs", ["dalek"] * 49),
        ("colours", None),
        ("pawns", [48] * len(view["pawns"])),
        ("round", "x"),
        ("players", 9),
    ]:
        bad = copy.deepcopy(view)
        bad[key] = value
        out.append(bad)
    return out


def test_sample_state_refuses_doctored_views() -> None:
    game = KeysGame(players=3)
    for seed in range(3):
        st = _play(game, seed, 40)
        seat = st.to_move if st.to_move is not None else 0
        view = st.view(seat)
        for bad in _doctored(view):
            with pytest.raises(CorruptRecord):
                game.sample_state(bad, Rng(1))
        assert game.sample_state(view, Rng(1)).view(seat) == view
        spectator = st.view(None)  # nothing hidden in a hand to keep: any deal fits
        assert game.sample_state(spectator, Rng(1)).view(None) == spectator


def test_sample_state_is_safe_under_threads() -> None:
    game = KeysGame(players=4)
    views = []
    for seed in range(12):
        st = _play(game, seed, 20 + seed * 9)
        if st.to_move is not None:
            views.append(st.view(st.to_move))
    errors: list[BaseException] = []

    def work(k: int) -> None:
        rng = Rng(k)
        try:
            for i in range(120):
                view = views[(i * (k + 1)) % len(views)]
                if game.sample_state(view, rng).view(view["seat"]) != view:
                    errors.append(AssertionError(f"thread {k}: wrong deal"))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_a_view_edited_in_place_is_prepared_again() -> None:
    game = KeysGame(players=2)
    first, second = _play(game, 4, 30), _play(game, 9, 50)
    view = first.view(1)
    assert game.sample_state(view, Rng(2)).view(1) == first.view(1)
    view.clear()
    view.update(second.view(1))
    assert game.sample_state(view, Rng(2)).view(1) == second.view(1)


@pytest.mark.parametrize(
    "options",
    [
        {"players": "abc"},
        {"players": 5},
        {"players": 1},
        {"players": True},
        {"round_limit": 0},
        {"round_limit": 10**30},
        {"round_limit": 2.5},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(ConfigError):
        KeysGame(**options)


def _deep(levels: int = 5000) -> list:
    deep: list = []
    for _ in range(levels):
        deep = [deep]
    return deep


def test_deeply_nested_input_is_refused_not_a_recursion_error() -> None:
    game = KeysGame(players=2)
    st = _play(game, 2, 30)
    data = st.to_json()
    for key in ("tunnels", "pawns", "hands"):
        with pytest.raises(CorruptRecord):
            game.state_from_json({**data, key: [_deep(), _deep()]})
    with pytest.raises(CorruptRecord):
        game.sample_state({**st.view(1), "backs": _deep()}, Rng(1))


def test_a_view_with_true_for_a_seat_is_refused() -> None:
    game = KeysGame(players=2)
    st = next(s for n in range(20, 40) if (s := _play(game, 2, n)).to_move == 1)
    view = st.view(1)
    assert game.sample_state(view, Rng(1)).view(1) == view
    with pytest.raises(CorruptRecord):  # equal to 1 in Python, yet not a seat
        game.sample_state({**view, "to_move": True}, Rng(1))


def test_states_whose_tiles_are_not_the_box_are_refused() -> None:
    """Two door tiles' colours swapped (another colour mix than the box), or a used bonus
    tile no longer seen: accepted before, then views could not be sampled."""
    game = KeysGame(players=2)
    data = _play(game, 3, 120).to_json()
    colours = data["colours"]
    a = next(t for t in range(49) if colours[t] and data["backs"][t] == "dalek")
    b = next(
        t for t in range(49) if colours[t] not in (None, colours[a]) and data["backs"][t] == "open"
    )
    swapped = copy.deepcopy(data)
    swapped["colours"][a], swapped["colours"][b] = colours[b], colours[a]
    with pytest.raises(CorruptRecord):
        game.state_from_json(swapped)
    used = copy.deepcopy(data)
    used["bonus_used"][0] = [t for t in range(49) if data["backs"][t] == "extra-turn"][:1]
    used["seen"] = [t for t in used["seen"] if t not in used["bonus_used"][0]]
    used["open"] = [t for t in used["open"] if t not in used["bonus_used"][0]]
    used["pawns"] = [p if p not in used["bonus_used"][0] else None for p in used["pawns"]]
    with pytest.raises(CorruptRecord):
        game.state_from_json(used)


def test_every_refusal_names_a_reason_and_a_clause() -> None:
    """Every action the game can offer, tried at every step of real games: each one not
    legal now is refused with a reason and the clause that forbids it."""
    from timelord.core import IllegalAction

    game = KeysGame(players=3)
    t = game.tables
    space = [*t.discard, *t.remove, *t.barrier, *t.cookie, *t.pandorica, *t.tunnel, *t.move]
    for row in (*t.open_, *t.close, *t.assault):
        space.extend(row[::3])
    space += [t.step_off, t.stay, t.forgo]
    clauses = set()
    st = game.new_game(4)
    rng = Rng(4)
    for _ in range(60):
        if st.is_over:
            break
        legal = set(map(id, st.legal_actions()))
        for action in space:
            if id(action) in legal:
                continue
            with pytest.raises(IllegalAction) as refused:
                st.apply(action)
            assert refused.value.reason and refused.value.rule.startswith("K-"), action
            clauses.add(refused.value.rule)
        options = st.legal_actions()
        st = st.apply(options[rng.below(len(options))])
    assert {"K-3.2", "K-3.3", "K-4.1", "K-5.1", "K-6.1"} <= clauses
