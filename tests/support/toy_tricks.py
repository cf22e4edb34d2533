"""A tiny trick-taking game with hidden hands and chance draws, for testing bots and matches.

Deck: two suits of ranks 1..6 (card id = suit * 6 + rank - 1). Each seat holds three cards;
the rest is a face-down stock. The leader plays any card; the others must follow the led suit
if they can; the highest card of the led suit wins the trick and the winner leads next. After
each trick every seat, winner first, draws one card from the stock while it lasts (what a
seat draws only it sees). A trick scores one point plus one for each 6 in it; most points
wins, ties shared. Skill matters (when to spend high cards), so search should beat greed and
greed should beat chance.

Importing this module registers the game as "toy-tricks" and its heuristic with the agents.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from timelord.agents.base import Agent
from timelord.agents.heuristic import leveled
from timelord.agents.hooks import Hooks, register_hooks
from timelord.core import Action, ConfigError, Game, IllegalAction, Rng, State, View, register

RANKS = 6
DECK = tuple(range(2 * RANKS))
HAND = 3


def suit(card: int) -> int:
    return card // RANKS


def rank(card: int) -> int:
    return card % RANKS + 1


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    card: int

    def __str__(self) -> str:
        return f"play {'AB'[suit(self.card)]}{rank(self.card)}"


class TricksGame(Game):
    id = "toy-tricks"
    description = "toy trick-taking game with hidden hands and draws"
    action_types = (PlayCard,)

    def __init__(self, players: int = 3) -> None:
        if not 2 <= players <= 4:
            raise ConfigError("toy-tricks: players must be 2-4")
        self.players = players
        self.options = {"players": players}

    @property
    def max_actions(self) -> int:
        return len(DECK)

    def new_game(self, seed: int) -> TricksState:
        rng = Rng(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [sorted(deck[HAND * i : HAND * i + HAND]) for i in range(self.players)]
        stock = deck[HAND * self.players :]
        zero = [0] * self.players
        return TricksState(self, hands, stock, [], 0, zero, [], rng.state)

    def state_from_json(self, data: Mapping[str, Any]) -> TricksState:
        return TricksState(
            self,
            [list(h) for h in data["hands"]],
            list(data["stock"]),
            [list(p) for p in data["trick"]],
            data["leader"],
            list(data["points"]),
            list(data["seen"]),
            data["rng"],
        )

    def sample_state(self, view: View, rng: Rng) -> TricksState:
        seat = view["seat"]
        known = set(view["hand"]) | set(view["seen"]) | {c for _, c in view["trick"]}
        pool = [c for c in DECK if c not in known]
        rng.shuffle(pool)
        hands: list[list[int]] = []
        at = 0
        for i, size in enumerate(view["hand_sizes"]):
            if i == seat:
                hands.append(list(view["hand"]))
            else:
                hands.append(sorted(pool[at : at + size]))
                at += size
        return TricksState(
            self,
            hands,
            pool[at:],
            [list(p) for p in view["trick"]],
            view["leader"],
            list(view["points"]),
            list(view["seen"]),
            rng.next64(),
        )


class TricksState(State):
    __slots__ = ("_legal", "game", "hands", "leader", "points", "rng", "seen", "stock", "trick")

    def __init__(
        self,
        game: TricksGame,
        hands: list[list[int]],
        stock: list[int],
        trick: list[list[int]],
        leader: int,
        points: list[int],
        seen: list[int],
        rng: int,
    ) -> None:
        self.game = game
        self.hands = hands
        self.stock = stock
        self.trick = trick  # [[seat, card], ...] of the trick in progress
        self.leader = leader
        self.points = points
        self.seen = seen  # cards of finished tricks, in play order
        self.rng = rng
        self._legal: list[Action] | None = None

    @property
    def to_move(self) -> int | None:
        if self.is_over:
            return None
        return (self.leader + len(self.trick)) % self.game.players

    @property
    def is_over(self) -> bool:
        return not self.trick and not any(self.hands)

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            seat = self.to_move
            if seat is None:
                self._legal = []
            else:
                hand = self.hands[seat]
                if self.trick:
                    led = suit(self.trick[0][1])
                    follow = [c for c in hand if suit(c) == led]
                    hand = follow or hand
                self._legal = [PlayCard(c) for c in hand]
        return list(self._legal)

    def why_illegal(self, action: Action) -> IllegalAction:
        seat = self.to_move
        if isinstance(action, PlayCard) and seat is not None and action.card in self.hands[seat]:
            return IllegalAction("you must follow the led suit", "T-2")
        return IllegalAction("you do not hold that card", "T-1")

    def apply_unchecked(self, action: Action) -> TricksState:
        assert isinstance(action, PlayCard)
        players = self.game.players
        seat = (self.leader + len(self.trick)) % players
        hands = list(self.hands)
        hands[seat] = [c for c in hands[seat] if c != action.card]
        trick = [*self.trick, [seat, action.card]]
        nxt = TricksState(
            self.game, hands, self.stock, trick, self.leader, self.points, self.seen, self.rng
        )
        if len(trick) < players:
            return nxt
        led = suit(trick[0][1])
        winner = max((p for p in trick if suit(p[1]) == led), key=lambda p: p[1])[0]
        points = list(self.points)
        points[winner] += 1 + sum(1 for _, c in trick if rank(c) == RANKS)
        stock = list(self.stock)
        for k in range(players):
            if not stock:
                break
            who = (winner + k) % players
            hands[who] = sorted([*hands[who], stock.pop()])
        nxt.trick = []
        nxt.leader = winner
        nxt.points = points
        nxt.stock = stock
        nxt.seen = self.seen + [c for _, c in trick]
        return nxt

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def winners(self) -> list[int]:
        if not self.is_over:
            return []
        best = max(self.points)
        return [i for i, p in enumerate(self.points) if p == best]

    def view(self, seat: int | None) -> View:
        return {
            "seat": seat,
            "hand": [] if seat is None else list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "stock_size": len(self.stock),
            "trick": [list(p) for p in self.trick],
            "leader": self.leader,
            "points": list(self.points),
            "seen": list(self.seen),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "trick": [list(p) for p in self.trick],
            "leader": self.leader,
            "points": list(self.points),
            "seen": list(self.seen),
            "rng": self.rng,
        }


def choose(trick: Sequence[Sequence[int]], legal: Sequence[Action]) -> Action:
    """Lead the highest card; follow with the cheapest winner, else throw the lowest."""
    cards = sorted((a for a in legal if isinstance(a, PlayCard)), key=lambda a: a.card)
    if not trick:
        return max(cards, key=lambda a: rank(a.card))
    led = suit(trick[0][1])
    best = max(c for _, c in trick if suit(c) == led)
    winning = [a for a in cards if suit(a.card) == led and a.card > best]
    if winning:
        return winning[0]
    return min(cards, key=lambda a: rank(a.card))


class TricksHeuristic(Agent):
    name = "heuristic"

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        return choose(view["trick"], legal)


def _rollout(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    assert isinstance(state, TricksState)
    return choose(state.trick, legal)


register("toy-tricks", f"{__name__}:TricksGame", TricksGame.description)
register_hooks(
    "toy-tricks",
    Hooks(heuristic=lambda game, level: leveled(TricksHeuristic(game), level), rollout=_rollout),
)
