"""Episodes: every door refuses bad input with a library error, quickly, since clients, edited
records and agents send what no legal game makes."""

from __future__ import annotations

import copy
import threading

import pytest

from timelord.core import ConfigError, CorruptRecord, InvalidSeat, Rng
from timelord.games.episodes.game import EpisodesGame
from timelord.games.episodes.state import EpisodesState


def _play(game: EpisodesGame, seed: int, steps: int) -> EpisodesState:
    st = game.new_game(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if st.is_over:
            break
        legal = st.legal_actions()
        st = st.apply(legal[rng.below(len(legal))])  # type: ignore[assignment]
    return st


@pytest.mark.parametrize("seat", [-1, 3, 99, True, "0", 1.0])
def test_view_of_a_seat_outside_the_table_is_refused(seat: object) -> None:
    st = EpisodesGame(players=3).new_game(1)
    with pytest.raises(InvalidSeat):
        st.view(seat)  # type: ignore[arg-type]


def _doctored(view: dict) -> list[dict]:
    """Views a client could send: huge counts, off-by-one counts, missing and foreign fields."""
    out = [{}, {"seat": 0}]
    for key, value in [
        ("hand_sizes", [10**20] * len(view["hand_sizes"])),
        ("deck_size", view["deck_size"] + 1),
        ("deck_size", view["deck_size"] - 1),
        ("deck_size", 10**20),
        ("drawn_count", 10**20),
        ("peeked", [10**20] * len(view["peeked"])),
        ("hand", view["hand"][1:]),
        ("hand", [*view["hand"], view["hand"][0]]),
        ("hand", [["Doctor 1"]]),
        ("discard", ["Nobody 99"]),
        ("players", 5),
        ("vp", [1.5] * len(view["vp"])),
        ("turn", "x"),
        ("seat", None),
        ("seat", -1),
    ]:
        bad = copy.deepcopy(view)
        bad[key] = value
        out.append(bad)
    sizes = copy.deepcopy(view)
    sizes["hand_sizes"][(view["seat"] + 1) % len(sizes["hand_sizes"])] += 1
    out.append(sizes)
    return out


def test_sample_state_refuses_doctored_views() -> None:
    """A doctored view is refused at the door (never a hang, KeyError, ZeroDivisionError)."""
    game = EpisodesGame(players=3)
    checked = 0
    for seed in range(3):
        st = _play(game, seed, 40)
        seat = st.to_move if st.to_move is not None else 0
        view = st.view(seat)
        for bad in _doctored(view):
            with pytest.raises(CorruptRecord):
                game.sample_state(bad, Rng(1))
            checked += 1
        with pytest.raises(CorruptRecord):
            game.sample_state(st.view(None), Rng(1))  # a spectator has no hand to keep
        assert game.sample_state(view, Rng(1)).view(seat) == view
    assert checked > 40


def test_sample_state_is_safe_under_threads() -> None:
    """Eight threads sampling the same and different views at once all get correct deals."""
    game = EpisodesGame(players=4)
    views = []
    for seed in range(12):
        st = _play(game, seed, 25 + seed * 7)
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
    """The cache never serves what it read from a view before the view was changed."""
    game = EpisodesGame(players=3)
    first = _play(game, 4, 30)
    second = _play(game, 9, 50)
    seat = 1
    view = first.view(seat)
    assert game.sample_state(view, Rng(2)).view(seat) == first.view(seat)
    view.clear()
    view.update(second.view(seat))
    assert game.sample_state(view, Rng(2)).view(seat) == second.view(seat)


@pytest.mark.parametrize(
    "options",
    [
        {"deck": [[["Doctor"], 1, 1]]},
        {"deck": [[{"x": 1}, 1, 1]]},
        {"deck": [["Doctor", 1, 10**12]]},
        {"deck": [["Doctor", 1, 500]] * 20},
        {"deck": [["Doctor", 1, 1]] * 100_000},
        {"deck": [["Doctor", 1.0, 1]]},
        {"deck": "Doctor"},
        {"deck": []},
        {"players": "abc"},
        {"players": 7},
        {"target": 0},
        {"target": 10**30},
        {"max_rounds": 10**30},
        {"max_rounds": True},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(ConfigError):
        EpisodesGame(**options)


def test_a_custom_deck_within_the_caps_plays() -> None:
    game = EpisodesGame(players=2, deck=[[s, 5, 3] for s in ("Doctor", "Foe")])
    assert game.new_game(1).legal_actions()


def _deep(levels: int = 5000) -> list:
    deep: list = []
    for _ in range(levels):
        deep = [deep]
    return deep


def test_deeply_nested_input_is_refused_not_a_recursion_error() -> None:
    game = EpisodesGame(players=3)
    st = _play(game, 2, 30)
    data = st.to_json()
    for key in ("ended", "fixed", "hands"):
        with pytest.raises(CorruptRecord):
            game.state_from_json({**data, key: _deep()})
    view = st.view(1)
    with pytest.raises(CorruptRecord):
        game.sample_state({**view, "vp": [0, 0, _deep()]}, Rng(1))


def test_a_view_with_true_for_1_is_refused() -> None:
    """JSON true is not the number 1, though Python finds them equal."""
    game = EpisodesGame(players=3)
    st = _play(game, 2, 30)
    view = st.view(1)
    assert view["drawn_old"] == 0
    bad = {**view, "drawn_old": False}  # equal to 0 in Python, yet not a count
    with pytest.raises(CorruptRecord):
        game.sample_state(bad, Rng(1))


def test_every_refusal_names_a_reason_and_a_clause() -> None:
    """Actions built outside the legal list (as API clients send them) are refused with the
    clause that forbids them, at every phase of real games."""
    from timelord.core import IllegalAction
    from timelord.games.episodes.actions import (
        ChooseOpponent,
        DiscardCard,
        KeepCard,
        PlayEpisode,
        SkipAbility,
        SkipEpisode,
        UseAbility,
    )
    from timelord.games.episodes.cards import SUITS

    game = EpisodesGame(players=3)
    space = [SkipAbility(), SkipEpisode(), PlayEpisode((1, 2)), PlayEpisode((9,) * 6)]
    space += [ChooseOpponent(s) for s in range(-1, 4)]
    for suit in SUITS:
        for fp in (0, 1, 5, 9, 15, 16):
            space += [UseAbility(suit, fp), KeepCard(suit, fp), DiscardCard(suit, fp)]
    clauses = set()
    for seed in range(2):
        st = _play(game, seed, 0)
        rng = Rng(seed)
        for _ in range(80):
            if st.is_over:
                break
            legal = st.legal_actions()
            for action in space:
                if action in legal:
                    continue
                with pytest.raises(IllegalAction) as refused:
                    st.apply(action)
                assert refused.value.reason and refused.value.rule.startswith("E-"), action
                assert "allowed now" not in refused.value.reason
                clauses.add(refused.value.rule)
            st = st.apply(legal[rng.below(len(legal))])  # type: ignore[assignment]
    assert {"E-4.1", "E-4.6", "E-4.8", "E-5.1", "E-6.1"} <= clauses
