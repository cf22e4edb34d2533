"""A tiny hidden-hand game used to test the core protocol and the conformance suite.

Each seat is dealt two cards from 1..6 (twice each); in turn order, each seat plays one card
face up, twice round the table; the highest total of played cards wins, ties shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from timelord.core import Action, ConfigError, Event, Game, IllegalAction, Rng, State, View


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    card: int

    def __str__(self) -> str:
        return f"play {self.card}"


class ToyGame(Game):
    id = "toy"
    description = "toy high-card game"
    action_types = (PlayCard,)

    def event_text(self, kind: str, data: Any, seat: int | None) -> str:
        who = "You" if data["actor"] == seat else self.seat_name(data["actor"])
        return f"{who}: play {data['card']}"

    def __init__(self, players: int = 2) -> None:
        if not 2 <= players <= 4:
            raise ConfigError("toy: players must be 2-4")
        self.players = players
        self.options = {"players": players}

    @property
    def max_actions(self) -> int:
        return 2 * self.players

    def new_game(self, seed: int) -> ToyState:
        rng = Rng(seed)
        deck = [c for c in range(1, 7) for _ in range(2)]
        rng.shuffle(deck)
        hands = [sorted(deck[2 * i : 2 * i + 2]) for i in range(self.players)]
        return ToyState(self, hands, [[] for _ in hands], 0, rng.state)

    def state_from_json(self, data: Any) -> ToyState:
        return ToyState(self, data["hands"], data["played"], data["turn"], data["rng"])

    def sample_state(self, view: View, rng: Rng) -> ToyState:
        seat = view["seat"]
        pool = [c for c in range(1, 7) for _ in range(2)]
        for c in view["hand"]:
            pool.remove(c)
        for cards in view["played"]:
            for c in cards:
                pool.remove(c)
        rng.shuffle(pool)
        hands = []
        for i, count in enumerate(view["hand_sizes"]):
            hands.append(list(view["hand"]) if i == seat else sorted(pool[:count]))
            if i != seat:
                pool = pool[count:]
        return ToyState(self, hands, [list(p) for p in view["played"]], view["turn"], rng.next64())


class ToyState(State):
    def __init__(
        self, game: ToyGame, hands: list[list[int]], played: list[list[int]], turn: int, rng: int
    ) -> None:
        self.game = game
        self.hands = hands
        self.played = played
        self.turn = turn
        self.rng = rng

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.turn % self.game.players

    @property
    def is_over(self) -> bool:
        return self.turn >= 2 * self.game.players

    def legal_actions(self) -> list[Action]:
        seat = self.to_move
        return [] if seat is None else [PlayCard(c) for c in sorted(set(self.hands[seat]))]

    def why_illegal(self, action: Action) -> IllegalAction:
        return IllegalAction("you do not hold that card", "T-1")

    def apply_unchecked(self, action: Action) -> ToyState:
        assert isinstance(action, PlayCard)
        seat = self.turn % self.game.players
        hands = [list(h) for h in self.hands]
        played = [list(p) for p in self.played]
        hands[seat].remove(action.card)
        played[seat].append(action.card)
        return ToyState(self.game, hands, played, self.turn + 1, self.rng)

    def apply_logged(self, action: Action, log: list[Event]) -> ToyState:
        assert isinstance(action, PlayCard)
        log.append(Event("play", {"actor": self.to_move, "card": action.card}))
        return self.apply_unchecked(action)

    def scores(self) -> list[float]:
        return [float(sum(p)) for p in self.played]

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        best = max(self.scores())
        return [i for i, s in enumerate(self.scores()) if s == best]

    def view(self, seat: int | None) -> View:
        return {
            "seat": seat,
            "hand": [] if seat is None else list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "played": [list(p) for p in self.played],
            "turn": self.turn,
        }

    def to_json(self) -> dict[str, Any]:
        return {"hands": self.hands, "played": self.played, "turn": self.turn, "rng": self.rng}
