"""The notebook: every fact `knowledge_fields` draws from a view is true of the real deal."""

from __future__ import annotations

from typing import Any

import pytest

import timelord
from timelord.core import Rng
from timelord.games.clue import deduction
from timelord.games.clue.notebook import certain, knowledge_fields, knowledge_from_view
from timelord.games.clue.state import ClueState


def _states(players: int, seeds: range, **options: Any) -> list[ClueState]:
    game = timelord.load("clue", players=players, **options)
    out = []
    for seed in seeds:
        state, rng = game.new_game(seed), Rng(seed + 99)
        while not state.is_over:
            out.append(state)
            legal = state.legal_actions()
            state = state.apply(legal[rng.below(len(legal))])
        out.append(state)
    return out


def _check(state: ClueState, seat: int, pin: bool = True) -> dict[str, Any]:
    data = state.to_json()
    hands = [set(h) for h in data["hands"]]
    env = set(data["envelope"])
    f = knowledge_fields(state.view(seat), pin_envelope=pin)
    assert f["seat"] == seat and f["players"] == state.players
    assert f["own_hand"] == hands[seat]
    assert list(f["hand_sizes"]) == [len(h) for h in hands]
    assert f["public"] == set(data["leftovers"])
    assert 21 - 3 - sum(f["hand_sizes"]) - len(f["public"]) == len(data["side"])
    for card, holder in f["known"].items():
        if holder == state.players:  # a side card this seat looked at
            assert card in data["side"]
        else:
            assert card in hands[holder] and holder != seat
    for ev in f["events"]:
        if ev[0] == "none":
            assert not hands[ev[1]] & set(ev[2])
        elif ev[0] == "one":
            assert hands[ev[1]] & set(ev[2])
        else:
            assert set(ev[1]) != env
    return f


@pytest.mark.parametrize(("players", "options"), [(4, {}), (6, {}), (3, {"intrigue": False})])
def test_every_fact_in_the_notebook_is_true(players: int, options: dict[str, Any]) -> None:
    kinds: set[str] = set()
    for state in _states(players, range(4), **options)[::3]:
        for seat in range(players):
            f = _check(state, seat)
            kinds.update(ev[0] for ev in f["events"])
    assert {"none", "one", "not-envelope"} <= kinds


def test_c8_2_side_cards_seen_are_certainly_aside() -> None:
    """Issue 10: they used to count as face up, so the deducer gave them probability 0
    everywhere (aside included) and the heuristic misjudged them."""
    seen = 0
    for state in _states(2, range(6), variant="two-player")[::4]:
        for seat in range(2):
            f = _check(state, seat)
            view = state.view(seat)
            looked = set(view["side_seen"].values())
            assert {c for c, p in f["known"].items() if p == 2} == looked
            if looked:
                d = deduction.deduce(knowledge_from_view(view))
                assert all(d.aside[c] == 1.0 and d.envelope[c] == 0.0 for c in looked)
                assert all(certain(view)[c] == "aside" for c in looked)
                seen += 1
    assert seen


def test_a_seen_envelope_is_pinned_by_wrong_triples() -> None:
    state = next(s for s in _states(4, range(10)) if any(s.to_json()["saw_envelope"]))
    seat = state.to_json()["saw_envelope"].index(True)
    plain = _check(state, seat, pin=False)
    f = knowledge_fields(state.view(seat), pin_envelope=True)
    env = tuple(state.to_json()["envelope"])
    wrong = {ev[1] for ev in f["events"] if ev[0] == "not-envelope"}
    unpinned = {ev[1] for ev in plain["events"] if ev[0] == "not-envelope"}
    assert env not in wrong and unpinned < wrong
    assert certain(state.view(seat))[env[0]] == "envelope"


def test_certain_facts_name_the_seat_that_holds_a_card() -> None:
    state = _states(4, range(1))[-1]
    facts = certain(state.view(0))
    hands = state.to_json()["hands"]
    for card, text in facts.items():
        if text.startswith("seat "):
            assert card in hands[int(text[5:])]
        elif text == "hand":
            assert card in hands[0]


@pytest.mark.parametrize(
    ("players", "options"), [(4, {}), (2, {"variant": "two-player"}), (3, {"intrigue": False})]
)
def test_the_deducer_never_claims_a_false_certainty(players: int, options: dict[str, Any]) -> None:
    for state in _states(players, range(2), **options)[::5]:
        data = state.to_json()
        for seat in range(players):
            result = deduction.deduce(knowledge_from_view(state.view(seat)))
            for card in range(21):
                if result.envelope[card] >= 1 - 1e-12:
                    assert card in data["envelope"]
                for p in range(players):
                    if result.holder[card][p] >= 1 - 1e-12:
                        assert card in data["hands"][p]


def test_envelope_odds_are_probabilities_or_none() -> None:
    from timelord.games.clue.notebook import envelope_odds

    view = timelord.load("clue").new_game(3).view(1)
    odds = envelope_odds(view)
    assert odds is not None
    for cat in view["categories"]:
        assert abs(sum(odds[c] for c in cat) - 1) < 1e-9
    for c in view["hand"]:
        assert odds[c] == 0


def test_a_seat_that_saw_the_envelope_gets_exact_odds_from_the_view() -> None:
    from timelord.games.clue.notebook import envelope_odds

    state = next(s for s in _states(4, range(10)) if any(s.to_json()["saw_envelope"]))
    seat = state.to_json()["saw_envelope"].index(True)
    env = set(state.to_json()["envelope"])
    odds = envelope_odds(state.view(seat))
    assert odds is not None
    assert {c for c, p in odds.items() if p == 1.0} == env
    assert all(p == 0.0 for c, p in odds.items() if c not in env)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_c8_2_the_detective_knows_a_side_card_it_looked_at_is_aside(level: str) -> None:
    from timelord.agents.clue.heuristic import ClueDetective

    for state in _states(2, range(6), variant="two-player")[::7]:
        for seat in range(2):
            view = state.view(seat)
            looked = set(view["side_seen"].values())
            if looked:
                d = ClueDetective(state.game, level).deduce(view)
                assert all(d.aside[c] == 1.0 and d.envelope[c] == 0.0 for c in looked)
                return
    pytest.fail("no side card was looked at")
