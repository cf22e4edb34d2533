"""Statistics: Wilson intervals, tallies per agent and seat, finishing-order ratings."""

from __future__ import annotations

from typing import Any

import pytest

from timelord.sim.stats import bradley_terry, format_summary, summarise, wilson


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
