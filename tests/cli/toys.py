"""The core's toy game with the interface hooks a real game has: card texts, menu labels and
a fixed action space, so the terminal's card texts and "why not" can be tested exactly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tests.core.toy_game import PlayCard, ToyGame
from timelord.core import Action, View, register
from timelord.games.keys.actions import OpenDoor
from timelord.games.keys.game import KeysGame


class GlossToy(ToyGame):
    id = "gloss-toy"

    def glossary(self) -> Mapping[str, Mapping[str, str]]:
        return {
            f"Card {c}": {"text": f"worth {c} points", "source": "reconstruction"}
            for c in range(1, 7)
        }

    def action_card(self, action: Action) -> str | None:
        return f"Card {action.card}" if isinstance(action, PlayCard) else None

    def action_label(self, view: View, action: Action) -> str:
        return f"play the {action.card}" if isinstance(action, PlayCard) else str(action)

    def action_space(self) -> Sequence[Action]:
        return [PlayCard(c) for c in range(1, 7)]


register("toy", "tests.core.toy_game:ToyGame", "toy high-card game")
register("gloss-toy", "tests.cli.toys:GlossToy", "toy high-card game with card texts")


class SpacedKeys(KeysGame):
    """Keys with an action space of door moves, as the game will offer one."""

    def action_space(self) -> Sequence[Action]:
        cards = ("key-blue", "key-green", "key-red", "key-yellow", "sonic")
        return [OpenDoor(tile, card) for tile in range(49) for card in cards]
