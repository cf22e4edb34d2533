"""Doctor Who: The Card Game (2nd edition), 2 to 4 players. See RULES.md in this package."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from timelord.core import Action, ConfigError, CorruptRecord, Game, Rng, View
from timelord.games.card_game.actions import ACTION_TYPES
from timelord.games.card_game.cards import CardSet, card_set_from_data, standard_cards
from timelord.games.card_game.sampling import sample_state as _sample_state
from timelord.games.card_game.state import CardGameState

#: Default turn limit for simulations (ruling C-R11): far above any real game.
DEFAULT_MAX_TURNS = 400
#: Steps the player to move may take in one turn before only discarding and ending remain
#: (ruling C-R10).
TURN_STEP_CAP = 60


class CardGame(Game):
    """Rules and options. `players` 2 to 4 (2 uses the second edition's variant);
    `max_turns` ends a game that runs that long (a simulation bound, never met in play);
    `cards` is None for the shipped manifest, or a custom set as manifest data
    (`CardSet.to_data()`, what `with_cards` stores so that records rebuild the game)."""

    id: ClassVar[str] = "card-game"
    description: ClassVar[str] = "Doctor Who: The Card Game (2-4 players)"
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES

    def __init__(
        self,
        players: int = 4,
        max_turns: int = DEFAULT_MAX_TURNS,
        cards: Mapping[str, Any] | None = None,
    ) -> None:
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise ConfigError(f"card-game: players must be 2, 3 or 4, not {players!r}")
        if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 1:
            raise ConfigError(f"card-game: max_turns must be a positive integer: {max_turns!r}")
        self.players = players
        self.max_turns = max_turns
        if cards is None:
            self.cards: CardSet = standard_cards()
        else:
            self.cards = _custom_cards(cards, players)
            # Canonical form, so that a record rebuilds exactly this set.
            cards = json.loads(json.dumps(self.cards.to_data()))
        self.options = {"players": players, "max_turns": max_turns, "cards": cards}
        self.turn_step_cap = TURN_STEP_CAP
        c = self.cards.constants
        self.pass_count = c.pass_cards if players > 2 else c.pass_cards_two_player

    @classmethod
    def with_cards(cls, cards: CardSet, players: int = 4, max_turns: int = 400) -> CardGame:
        """A game over another card set (tests build small decks this way). Its `options`
        carry the set (`cards`, manifest data), so `timelord.load` rebuilds the same game."""
        g = cls(players=players, max_turns=max_turns, cards=cards.to_data())
        g.cards = cards  # the caller's object itself (equal to the rebuilt one)
        return g

    @property
    def max_actions(self) -> int:
        """A proven bound (RULES.md C-3.5). In one turn the player to move takes at most
        `turn_step_cap` steps freely; after that only discards (one card each) and ending
        remain. Sequences already begun are bounded by the cards in the game (declaring
        cards, Regeneration discards) or by the 30 Time Points (taking them one by one), Mr
        Clever by 4 steps. Each of those actions sets off at most one conflict, with at most
        three decisions by other seats. An End Game turn is one action plus pick-ups."""
        cards = len(self.cards.design)
        tp = self.cards.constants.time_points
        active = self.turn_step_cap + 3 * cards + tp + 10
        return self.max_turns * 4 * active

    def new_game(self, seed: int) -> CardGameState:
        from timelord.games.card_game.rules.turn import setup, start_turn

        s = setup(self, seed)
        start_turn(s)
        return s

    def state_from_json(self, data: Mapping[str, Any]) -> CardGameState:
        try:
            return CardGameState.from_json(self, dict(data))
        except (KeyError, TypeError, ValueError) as exc:
            raise CorruptRecord(f"not a card-game state: {exc}") from exc

    def sample_state(self, view: View, rng: Rng) -> CardGameState:
        return _sample_state(self, view, rng)

    def action_space(self) -> tuple[Action, ...]:
        from timelord.games.card_game.action_space import action_space

        return action_space(self)

    def render_view(self, view: View) -> str:
        from timelord.games.card_game.render import render_view

        return render_view(self, view)

    def seat_name(self, seat: int) -> str:
        return self.cards.colours[seat] if seat < len(self.cards.colours) else f"Seat {seat}"


def _custom_cards(data: Mapping[str, Any], players: int) -> CardSet:
    """The `cards` option: manifest data (see `CardSet.to_data`); ConfigError if unusable."""
    try:
        cs = card_set_from_data(dict(data))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ConfigError(f"card-game: cards is not a card manifest: {exc}") from exc
    if len(cs.start_cards) < players:
        raise ConfigError(f"card-game: cards needs at least {players} starting Locations")
    return cs
