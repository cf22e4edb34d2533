"""Statistics: Wilson intervals, tallies per agent and seat, finishing-order ratings."""

from __future__ import annotations

from typing import Any

import pytest

from timelord.sim.stats import bradley_terry, card_stats, format_summary, summarise, wilson


def test_wilson_matches_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4)
    assert hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0
    assert wilson(0, 20)[1] == pytest.approx(0.1611, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def _record(seats: list[str], winners: list[int], places: list[int]) -> dict[str, Any]:
    scores = [float(len(seats) - p) for p in places]
    return {
        "game": "g",
        "seats": seats,
        "actions": [],
        "result": {
            "index": 0,
            "scores": scores,
            "winners": winners,
            "places": places,
            "length": 10,
        },
    }


def test_summary_counts_shares_per_agent_and_seat() -> None:
    records = [
        _record(["a", "b", "b"], [0], [1, 2, 3]),
        _record(["b", "a", "b"], [0, 1], [1, 1, 3]),
        _record(["b", "b", "a"], [1], [2, 1, 3]),
    ]
    summary = summarise(records)
    agents = {t.label: t for t in summary.by_agent}
    assert agents["a"].games == 3 and agents["a"].wins == pytest.approx(1.5)
    assert agents["b"].games == 6 and agents["b"].wins == pytest.approx(1.5)
    assert [t.wins for t in summary.by_seat] == pytest.approx([1.5, 1.5, 0.0])
    assert agents["a"].firsts == 2
    assert summary.mean_length == 10
    text = format_summary(summary)
    assert "fair share 0.333" in text and "seat 2" in text


def test_ratings_order_agents_by_finishing_place() -> None:
    records = []
    for i in range(30):
        # "strong" beats "middle" beats "weak" most of the time; rotate the seats
        order = ["strong", "middle", "weak"] if i % 5 else ["middle", "weak", "strong"]
        seats = order[i % 3 :] + order[: i % 3]
        places = [order.index(s) + 1 for s in seats]
        records.append(_record(seats, [places.index(1)], places))
    ratings = bradley_terry(records)
    assert ratings["strong"] > ratings["middle"] > ratings["weak"]
    assert sum(ratings.values()) == pytest.approx(0.0, abs=1e-6)


def test_unbeaten_agent_gets_a_finite_rating() -> None:
    records = [_record(["x", "y"], [0], [1, 2]) for _ in range(5)]
    ratings = bradley_terry(records)
    assert 0 < ratings["x"] < 1000
    assert ratings["y"] == pytest.approx(-ratings["x"])


def _game(
    seats: list[str], winners: list[int], scores: list[float], **extra: Any
) -> dict[str, Any]:
    record = _record(seats, winners, [1 if i in winners else 2 for i in range(len(seats))])
    record["result"]["scores"] = scores
    record["result"].update(extra)
    return record


def test_first_player_is_the_seat_that_moved_first_not_seat_0() -> None:
    # seat 1 moved first and won every game; seat 0 never did
    records = [_game(["r", "r", "r"], [1], [0, 5, 1], first=1) for _ in range(6)]
    summary = summarise(records)
    assert summary.first.games == 6 and summary.first.share == 1.0
    assert summary.by_seat[0].share == 0.0
    # results written before "first" was recorded: the first mover stands in
    old = [_game(["r", "r"], [0], [3, 1], movers=[1, 0, 1]), _game(["r", "r"], [], [0, 0])]
    assert summarise(old).first.games == 1 and summarise(old).first.wins == 0.0


def test_games_without_a_winner_and_lengths_in_turns_and_rounds_are_shown() -> None:
    records = [
        _game(["a", "b"], [], [2, 2], turns=30, rounds=15),
        _game(["b", "a"], [0, 1], [4, 4], turns=40, rounds=20),
        _game(["a", "b"], [1], [1, 7], turns=50, rounds=25),
    ]
    summary = summarise(records)
    assert (summary.no_winner, summary.shared) == (1, 1)
    assert summary.margins == [6]  # only a game with a winner and a loser has a margin
    # an even part of the two games someone won, not 1/2: the undecided game is nobody's
    assert summary.fair_share == pytest.approx(2 / 3 / 2)
    text = format_summary(summary)
    assert "games without a winner: 1; won by several seats together: 1" in text
    assert "10.0 actions, 40.0 turns, 20.0 rounds" in text


def test_a_mixed_agent_match_is_flagged_and_balance_is_checked() -> None:
    rotated = [_game(["a", "b"], [0], [1, 0]), _game(["b", "a"], [0], [1, 0])]
    assert summarise(rotated).balanced and "Mixed agents (a, b)" in summarise(rotated).seat_note()
    fixed = [_game(["a", "b"], [0], [1, 0])] * 2
    assert not summarise(fixed).balanced
    assert "partly measure which agent" in format_summary(summarise(fixed))
    assert summarise([_game(["a", "a"], [0], [1, 0])]).seat_note() == ""


def test_card_stats_group_copies_by_design_and_skip_moves_that_play_none() -> None:
    def card_of(data: dict[str, Any]) -> str | None:
        return {"A": "Dalek", "B": "Dalek", "E": None}.get(data["c"], data["c"])

    plays = [{"c": "A"}, {"c": "E"}, {"c": "B"}, {"c": "K9"}, {"c": "A"}]
    records = [
        _game(["x", "y"], [0], [5, 1], movers=[0, 0, 1, 1, 0]),
        _game(["x", "y"], [1], [2, 3], movers=[1, 1, 1, 1, 1]),
    ]
    for record in records:
        record["actions"] = plays
    cards = {c.card: c for c in card_stats(records, card_of)}
    assert set(cards) == {"Dalek", "K9"}
    dalek = cards["Dalek"]
    # game 1: seat 0 played A twice, seat 1 played B; game 2: seat 1 played all three
    assert (dalek.plays, dalek.games, dalek.seat_games) == (6, 2, 3)
    assert dalek.wins == 2.0 and dalek.mean_score == pytest.approx((5 + 1 + 3) / 3)
    assert (cards["K9"].plays, cards["K9"].seat_games, cards["K9"].wins) == (2, 2, 1.0)
    # scores 5, 1, 3 of its players; its players won game 1 by 4 and game 2 by 1
    assert dalek.score_sd == pytest.approx(((5 - 3) ** 2 + (1 - 3) ** 2 + 0) ** 0.5 / 3**0.5)
    assert dalek.mean_margin == pytest.approx(2.5)
    assert cards["K9"].mean_margin == pytest.approx(1.0)  # its player lost game 1


def test_wilson_always_holds_the_share() -> None:
    for n in range(1, 60):
        for k in (0, n):
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
