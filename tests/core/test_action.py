"""Actions' JSON form: round-trips, and malformed input is refused with InvalidAction."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from timelord.core import Action, InvalidAction, decode_action


@dataclass(frozen=True, slots=True)
class PickCards(Action):
    seat: int
    cards: tuple[int, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class Pass(Action):
    pass


TYPES = (PickCards, Pass)


def test_round_trip_with_tuples_as_lists() -> None:
    action = PickCards(2, (4, 5), "x")
    data = action.to_json()
    assert data == {"type": "PickCards", "seat": 2, "cards": [4, 5], "note": "x"}
    assert decode_action(data, TYPES) == action
    assert decode_action({"type": "Pass"}, TYPES) == Pass()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("PickCards", "JSON object"),
        ({"type": "Fly"}, "unknown action type"),
        ({"seat": 1}, "unknown action type"),
        ({"type": "PickCards", "seat": 1}, "needs field"),
        ({"type": "PickCards", "seat": 1, "cards": [], "note": "", "x": 1}, "no field"),
        ({"type": "PickCards", "seat": "1", "cards": [], "note": ""}, "integer"),
        ({"type": "PickCards", "seat": True, "cards": [], "note": ""}, "integer"),
        ({"type": "PickCards", "seat": 1, "cards": [1.5], "note": ""}, "wrong kind"),
        ({"type": "PickCards", "seat": 1, "cards": {"a": 1}, "note": ""}, "wrong kind"),
        ({"type": "PickCards", "seat": 1, "cards": ["a"], "note": ""}, "list of integers"),
        ({"type": "PickCards", "seat": 1, "cards": [], "note": 3}, "string"),
    ],
)
def test_malformed_actions_are_refused(data: object, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        decode_action(data, TYPES)
