"""Doctor Who: The Card Game (2nd edition), 2 to 4 players. See RULES.md in this package."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from timelord.core import Action, ConfigError, CorruptRecord, Rng, View
from timelord.core.door import door
from timelord.core.viewcache import ViewCache
from timelord.games.card_game import render, text
from timelord.games.card_game.action_space import action_space
from timelord.games.card_game.actions import ACTION_TYPES
from timelord.games.card_game.cards import (
    CardSet,
    card_set_from_data,
    standard_cards,
    tiny_cards,
)
from timelord.games.card_game.doors import state_from_data
from timelord.games.card_game.rules.apply import apply_action
from timelord.games.card_game.rules.endgame import victory_points
from timelord.games.card_game.rules.legal import legal_actions, legal_count, legal_pick, why_illegal
from timelord.games.card_game.rules.turn import setup, start_turn
from timelord.games.card_game.sample import prepare, sample_state
from timelord.games.card_game.state import CardGameRules, CardGameState
from timelord.games.card_game.view import build_view

#: Default turn limit for simulations (ruling C-R11): far above any real game.
DEFAULT_MAX_TURNS = 200
#: The largest turn limit accepted (random games end before turn 200).
MAX_TURNS = 10_000
#: Steps the player to move may take in one turn before only discarding and ending remain
#: (ruling C-R10).
TURN_STEP_CAP = 20
#: Rules 1's step cap (C-R10): after it only single discards and ending remained
RULES_1_TURN_STEP_CAP = 60
#: `variant`: "standard", or "tiny", a research variant small enough for exact CFR
#: (data/tiny.toml: a five-card deck, hands of two; docs/variants.md). Never the default.
VARIANTS = ("standard", "tiny")
#: The turn limit of the tiny variant unless `max_turns` is given: one turn each.
TINY_MAX_TURNS = 2


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant may subclass the game
class CardGame(CardGameRules):
    """Rules and options. `players` 2 to 4 (2 uses the second edition's variant);
    `max_turns` ends a game that runs that long (a simulation bound, never met in play);
    `cards` is None for the shipped manifest, or a custom set as manifest data
    (`CardSet.to_data()`, what `with_cards` stores so that records rebuild the game);
    `variant` "tiny" plays the same rules with the tiny research set (never the default)."""

    id: ClassVar[str] = "card-game"
    description: ClassVar[str] = "Doctor Who: The Card Game (2-4 players)"
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    rules_versions = (1, 2)
    unversioned = (1,)
    options_doc: ClassVar[Mapping[str, str]] = {
        "rules": (
            "rules version, 1 or 2 (default 2, the current rules): 1 plays Regeneration, "
            "The Valiant, a lost defence and the turn's step bound as before rulings C-R31 to "
            "C-R34"
        ),
        "players": "seats at the table: 2, 3 or 4 (default 4; 2 plays the second edition's "
        "two-player variant, C-2.5)",
        "max_turns": f"a simulation bound: the game ends, scored as usual, when this turn "
        f"would begin; 1 to {MAX_TURNS} (default {DEFAULT_MAX_TURNS}; C-6.5)",
        "cards": "null for the shipped 127-card manifest (default), or a custom card set as "
        "manifest data ([game] constants, [[card]] and [[start]] records, at most 1000 "
        "cards, as CardSet.to_data() gives)",
        "variant": f"standard (default) or tiny: a 2-player research variant for exact CFR, "
        f"the same rules with data/tiny.toml (5 cards, hands of 2, 1 passed) and max_turns "
        f"{TINY_MAX_TURNS} unless given; see docs/variants.md",
    }

    def __init__(
        self,
        players: int = 4,
        max_turns: int = DEFAULT_MAX_TURNS,
        cards: Mapping[str, Any] | None = None,
        variant: str = "standard",
        rules: int | None = None,
    ) -> None:
        self.rules = self.check_rules(rules)
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise ConfigError(f"card-game: players must be 2, 3 or 4, not {players!r}")
        if (
            not isinstance(max_turns, int)
            or isinstance(max_turns, bool)
            or not 1 <= max_turns <= MAX_TURNS
        ):
            raise ConfigError(f"card-game: max_turns must be 1 to {MAX_TURNS}: {max_turns!r}")
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise ConfigError(f"card-game: variant must be one of {VARIANTS}, not {variant!r}")
        if variant == "tiny" and cards is not None:
            raise ConfigError("card-game: the tiny variant brings its own cards")
        if variant == "tiny" and players != 2:
            # five cards cannot deal three or four hands of two and a draw pile
            raise ConfigError(f"card-game: the tiny variant is for 2 players, not {players}")
        if variant == "tiny" and max_turns == DEFAULT_MAX_TURNS:
            max_turns = TINY_MAX_TURNS
        self.players = players
        self.max_turns = max_turns
        self.variant = variant
        if variant == "tiny":
            self.cards: CardSet = tiny_cards()
        elif cards is None:
            self.cards = standard_cards()
        else:
            self.cards = _custom_cards(cards, players)
            # Canonical form, so that a record rebuilds exactly this set.
            cards = json.loads(json.dumps(self.cards.to_data()))
        self.options = {"players": players, "max_turns": max_turns, "cards": cards}
        self.options["rules"] = self.rules
        if variant != "standard":  # so records of the standard game stay as they were
            self.options["variant"] = variant
        self.turn_step_cap = TURN_STEP_CAP if self.rules >= 2 else RULES_1_TURN_STEP_CAP
        c = self.cards.constants
        self.pass_count = c.pass_cards if players > 2 else c.pass_cards_two_player
        # The rule entry points a state calls (see `CardGameRules`).
        self.legal_of = legal_actions
        self.count_of = legal_count
        self.pick_of = legal_pick
        self.advance = apply_action
        self.why_illegal_of = why_illegal
        self.points = victory_points
        self.view_of = build_view
        # Per-view preparations of `sample_state`, safe under threads.
        self._views: ViewCache[Any] = ViewCache(lambda view: prepare(self, view))

    @classmethod
    def with_cards(
        cls,
        cards: CardSet,
        players: int = 4,
        max_turns: int = DEFAULT_MAX_TURNS,
        rules: int | None = None,
    ) -> CardGame:
        """A game over another card set (tests build small decks this way). Its `options`
        carry the set (`cards`, manifest data), so `timelord.load` rebuilds the same game."""
        g = cls(players=players, max_turns=max_turns, cards=cards.to_data(), rules=rules)
        g.cards = cards  # the caller's object itself (equal to the rebuilt one)
        return g

    @property
    def max_actions(self) -> int:
        """A proven bound on the actions of one game (RULES.md C-3.5, ruling C-R36).

        Rules 2. Every decision of the player to move is a step (C steps: `turn_step_cap`).
        At the C-th, what is begun closes: a declaration, Regeneration or Mr Clever offers
        only its Finish (one decision), a Captain Jack choice is one decision, a Time Point
        take already begun runs to its end (at most t decisions, t the largest Time Point
        value of a Location), and then the main phase offers only ending the turn (one
        decision; outside the End Game). So the player to move decides at most C + t + 1
        times a turn. Only a decision of the player to move sets off a conflict, at most one
        each, and after the C-th only the closing Finish can: at most C + 1 conflicts, each
        asking at most three more decisions (Ironsides, The Valiant, the attacker's matching
        discards). A turn is therefore at most (C + t + 1) + 3 (C + 1) = 4C + t + 4 actions,
        and a game at most `max_turns` turns. An End Game turn is one action after at most as
        many pick-ups as the reserve holds (fewer than C), so the same count holds.

        Rules 1: the looser count of its own step cap (C-R10), kept for its records."""
        cs = self.cards
        if self.rules >= 2:
            take = max((cs.tp[c] for c in range(len(cs.design)) if cs.is_location[c]), default=0)
            return self.max_turns * (4 * self.turn_step_cap + take + 4)
        active = self.turn_step_cap + 3 * len(cs.design) + cs.constants.time_points + 10
        return self.max_turns * 4 * active

    def new_game(self, seed: int | Rng) -> CardGameState:
        s = setup(self, seed)
        start_turn(s)
        return s

    def state_from_json(self, data: Mapping[str, Any]) -> CardGameState:
        """Read back `to_json()`; `CorruptRecord` unless the state could arise in play
        (types, conservation of cards, the pending decision, knowledge: `doors`)."""
        with door(CorruptRecord, "card-game state"):
            return state_from_data(self, data)

    def sample_state(self, view: View, rng: Rng) -> CardGameState:
        """A state consistent with `view` (C-7.2); the view is checked and prepared once
        (`CorruptRecord` if doctored, `InvalidSeat` for a spectator's view)."""
        return sample_state(self._views.get(view), rng)

    def action_space(self) -> tuple[Action, ...]:
        return action_space(self)

    def render_view(self, view: View) -> str:
        return render.render_view(self, view)

    def event_text(self, kind: str, data: Mapping[str, Any], seat: int | None) -> str:
        return text.event_text(self, kind, dict(data), seat)

    def glossary(self) -> Mapping[str, Mapping[str, str]]:
        """Every card design of this game's set, and the counters, by name: what it is (from
        the card data) and what its ability does (`data/texts.toml`)."""
        return text.glossary(self.cards)

    def action_card(self, action: Action) -> str | None:
        return text.action_card(self.cards, action)

    def action_label(self, view: View, action: Action) -> str:
        return text.action_label(self, view, action)

    def seat_name(self, seat: int) -> str:
        return self.cards.colours[seat] if seat < len(self.cards.colours) else f"Seat {seat}"


def _custom_cards(data: Mapping[str, Any], players: int) -> CardSet:
    """The `cards` option: manifest data (see `CardSet.to_data`); ConfigError if unusable."""
    if not isinstance(data, Mapping):
        raise ConfigError("card-game: cards must be a card manifest (an object) or null")
    with door(ConfigError, "card-game: cards is not a card manifest"):
        cs = card_set_from_data(dict(data))
    if len(cs.start_cards) < players:
        raise ConfigError(f"card-game: cards needs at least {players} starting Locations")
    hand = cs.constants.hand_size
    if len(cs.cards_in_play(players)) < players * hand:
        raise ConfigError(f"card-game: cards must hold {players * hand} cards to deal")
    return cs
