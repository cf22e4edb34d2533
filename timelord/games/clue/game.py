"""Clue: Doctor Who as a `Game`: options, set-up, and the content read from `data/`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from timelord.core import ConfigError, CorruptRecord, Rng, View, generator
from timelord.core.action import Action
from timelord.core.door import door
from timelord.core.viewcache import ViewCache
from timelord.games.clue import render
from timelord.games.clue.action_space import action_space
from timelord.games.clue.actions import ACTION_TYPES, PlayCard
from timelord.games.clue.board import (
    TARDIS,
    board_data,
    cards_data,
    standard_board,
    variant_board,
    variant_data,
)
from timelord.games.clue.doors import make_state, state_from_json
from timelord.games.clue.sample import PreparedView, prepare_view
from timelord.games.clue.state import SIDE_CARDS, START, WATCH, ClueRules, ClueState, name_actions
from timelord.games.clue.text import event_text
from timelord.games.clue.view import build_view, state_to_json

__all__ = ["ClueGame", "ClueState", "power_name"]


def power_name(suspect: str) -> str:
    """The glossary name of a character's power."""
    return f"{suspect}'s power"


#: "tiny" is a research variant for exact CFR (data/tiny.toml, docs/variants.md): the
#: two-player rules over six cards and a three-room board. Never the default.
VARIANTS = ("standard", "two-player", "tiny")
#: The variants played by the two-player rules (side cards, no intrigue deck, C-8.2).
TWO_PLAYER_RULES = ("two-player", "tiny")
#: The round bound's ceiling: far beyond any real game (a solved game takes under 30 rounds),
#: low enough that a record's `max_actions` stays a sane number.
MAX_ROUNDS = 1000
#: The round bound unless one is given (CL-10).
DEFAULT_MAX_ROUNDS = 60


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant may subclass the game
class ClueGame(ClueRules):
    """Clue: Doctor Who for 2-6 players.

    Options: `players` (2-6, default 4); `variant` ("standard", the default from 3 players,
    "two-player" for the 2-player/team rules with four face-down side cards, the default at
    2 players, or "tiny", those rules over the research set of `data/tiny.toml`); `intrigue`
    (the intrigue deck; default on for "standard", always off for "two-player"; off gives
    original Clue); `powers` (the character powers; default on); `max_rounds` (rounds before
    a game that nobody has solved stops unsolved, ruling CL-10; default 60); `max_turns` (the
    same bound counted in turns, for research trees; default 0: `max_rounds` x `players`);
    `rules` (the rules version, default the current one).
    """

    id = "clue"
    description = "Clue: Doctor Who, the deduction game (2-6 players)"
    action_types = ACTION_TYPES
    rules_versions = (1, 2)
    unversioned = (1,)
    options_doc: ClassVar[Mapping[str, str]] = {
        "rules": (
            "rules version, 1 or 2 (default 2, the current rules): 1 keeps a player put out by "
            "the 8th Pocketwatch answering rumours and the old choices at 2 players and "
            "without intrigue (rulings CL-7, CL-12, CL-18)"
        ),
        "players": "number of seats, 2 to 6 (default 4)",
        "variant": 'by default "standard" from 3 players and "two-player" at 2 (CL-18); '
        '"two-player": exactly 2 seats or teams, four face-down side cards, no intrigue deck '
        '(C-8.2), or "tiny": a 2-player research '
        "variant for exact CFR, the two-player rules with data/tiny.toml (2 suspects, 2 "
        "weapons, 2 locations round the TARDIS, 1 side card, no dice: every move 2 steps; "
        "max_rounds 1 unless given); see docs/variants.md",
        "intrigue": "true or false: play with the intrigue deck (default: true for the standard "
        "variant; always false for two-player; false plays original Clue, C-8.1)",
        "powers": "true or false: the characters' once-per-game powers (default: on, with or "
        "without the intrigue deck, CL-12)",
        "max_rounds": f"rounds before an unsolved game stops, 1 to {MAX_ROUNDS} (default 60, "
        "CL-10)",
        "max_turns": "turns before an unsolved game stops, at most max_rounds x players, for "
        "small exact-analysis trees (default 0: max_rounds x players)",
    }

    def __init__(
        self,
        players: int = 4,
        variant: str = "",
        intrigue: bool | None = None,
        powers: bool | None = None,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        max_turns: int = 0,
        rules: int | None = None,
    ) -> None:
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 6:
            raise ConfigError(f"clue: players must be 2 to 6, not {players!r}")
        self.rules = self.check_rules(rules)
        if variant == "":  # the default: the variant of the player count
            # Two players play the book's 2-player rules (C-8.2, ruling CL-18; rules 1 dealt
            # them the standard game unless asked), unless they ask for the intrigue deck,
            # which only the standard game has.
            two = players == 2 and self.rules >= 2 and intrigue is not True
            variant = "two-player" if two else "standard"
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise ConfigError(f"clue: variant must be one of {VARIANTS}, not {variant!r}")
        if variant in TWO_PLAYER_RULES and players != 2:
            raise ConfigError(f"clue: the {variant} variant is for exactly 2 players or teams")
        if intrigue is None:
            intrigue = variant == "standard"
        if not isinstance(intrigue, bool):
            raise ConfigError(f"clue: intrigue must be true or false, not {intrigue!r}")
        if intrigue and variant in TWO_PLAYER_RULES:
            raise ConfigError(f"clue: the {variant} variant never uses intrigue cards (C-8.2)")
        if powers is None:
            # Powers come with set-up step 4 (choosing a character), which every game keeps:
            # the book only puts the intrigue cards away (ruling CL-12; rules 1 dropped the
            # powers with the intrigue deck in the standard variant).
            powers = self.rules >= 2 or intrigue or variant in TWO_PLAYER_RULES
        if not isinstance(powers, bool):
            raise ConfigError(f"clue: powers must be true or false, not {powers!r}")
        tiny = variant_data(variant) if variant == "tiny" else None
        if tiny is not None and max_rounds == DEFAULT_MAX_ROUNDS:
            max_rounds = int(tiny["max_rounds"])  # the variant's own bound unless one is given
        if (
            not isinstance(max_rounds, int)
            or isinstance(max_rounds, bool)
            or not 1 <= max_rounds <= MAX_ROUNDS
        ):
            raise ConfigError(f"clue: max_rounds must be 1 to {MAX_ROUNDS}, not {max_rounds!r}")
        if (
            not isinstance(max_turns, int)
            or isinstance(max_turns, bool)
            or not 0 <= max_turns <= max_rounds * players
        ):
            raise ConfigError(
                f"clue: max_turns must be 0 to max_rounds x players ({max_rounds * players}), "
                f"not {max_turns!r}"
            )
        self.players = players
        self.variant = variant
        self.intrigue = intrigue
        self.powers = powers
        self.max_rounds = max_rounds
        self.options = {
            "players": players,
            "variant": variant,
            "intrigue": intrigue,
            "powers": powers,
            "max_rounds": max_rounds,
        }
        self.options["rules"] = self.rules
        if max_turns:  # so the options and records of games without it stay as they were
            self.options["max_turns"] = max_turns
        data = cards_data()
        suspects = {s["name"]: s for s in data["suspect"]}
        if tiny is None:
            self.suspects = tuple(suspects)
            self.weapons = tuple(w["name"] for w in data["weapon"])
            self.locations = tuple(loc["name"] for loc in data["location"])
            self.board = standard_board()
            self.side_cards = SIDE_CARDS if variant == "two-player" else 0
            self.fixed_roll = 0
        else:
            self.suspects = tuple(tiny["suspects"])
            self.weapons = tuple(tiny["weapons"])
            self.locations = tuple(tiny["locations"])
            self.board = variant_board(variant)
            self.side_cards = int(tiny["side_cards"])
            self.fixed_roll = int(tiny["roll"])
        self.card_names = self.suspects + self.weapons + self.locations
        self.first_weapon = len(self.suspects)
        self.first_location = self.first_weapon + len(self.weapons)
        self.categories = (
            tuple(range(self.first_weapon)),
            tuple(range(self.first_weapon, self.first_location)),
            tuple(range(self.first_location, len(self.card_names))),
        )
        effects = {p["effect"] for p in data["power"]}
        self.power_effect = tuple(suspects[name]["power"] for name in self.suspects)
        if not set(self.power_effect) <= effects:
            raise ConfigError("clue data: a suspect names a power that is not listed")
        self.effect: dict[str, str] = {}
        self.keep: dict[str, bool] = {}
        self.intrigue_names: dict[str, str] = {WATCH: "Pocketwatch"}
        deck: list[str] = []
        for card in data["intrigue"]:
            self.effect[card["id"]] = card["effect"]
            self.keep[card["id"]] = card["timing"] == "keep"
            self.intrigue_names[card["id"]] = card["name"]
            deck.extend([card["id"]] * card["copies"])
        self.watches = int(data["pocketwatch"]["copies"])
        deck.extend([WATCH] * self.watches)
        self.intrigue_deck = tuple(deck)
        self.name_actions = name_actions(self.categories)
        self.max_turns = max_turns or max_rounds * players
        #: Views prepared for `sample_state` (search samples one view many times).
        self._views: ViewCache[PreparedView] = ViewCache(self._prepare_view, size=32)

    @property
    def max_actions(self) -> int:
        # Per turn at most: roll, Jammie Dodger, move, Time Slip choice, 3 names, draw offer
        # and its Time Slip choice, 2 shows, a peek window per other seat per show, the second
        # answer, a side card, accusation + 3 names; plus every start-of-turn card or power
        # play of the game (scan: play + target), at most (cards + players) * 2 in all.
        per_turn = 20 + 2 * self.players
        return self.max_turns * per_turn + 2 * (len(self.intrigue_deck) + self.players)

    def action_space(self) -> tuple[Action, ...]:
        return action_space(self)

    def seat_name(self, seat: int) -> str:
        return f"Seat {seat}"

    def event_text(self, kind: str, data: Mapping[str, Any], seat: int | None) -> str:
        return event_text(self, kind, data, seat)

    def new_game(self, seed: int | Rng) -> ClueState:
        rng = generator(seed)
        envelope = tuple(cat[rng.below(len(cat))] for cat in self.categories)
        rest = [c for c in range(len(self.card_names)) if c not in envelope]
        rng.shuffle(rest)
        side: tuple[int, ...] = ()
        if self.side_cards:
            side, rest = tuple(rest[: self.side_cards]), rest[self.side_cards :]
        each = len(rest) // self.players
        hands = tuple(tuple(sorted(rest[p * each : (p + 1) * each])) for p in range(self.players))
        left = tuple(sorted(rest[self.players * each :]))
        chars = tuple(rng.sample(range(len(self.suspects)), self.players))
        pile: list[str] = list(self.intrigue_deck) if self.intrigue else []
        rng.shuffle(pile)
        n = self.players
        return make_state(
            self,
            {
                "game": self,
                "rng": rng.state,
                "hands": hands,
                "env": envelope,
                "left": left,
                "side": side,
                "chars": chars,
                "pos": (TARDIS,) * len(self.suspects),
                "wpos": (TARDIS,) * len(self.weapons),
                "cur": 0,
                "phase": START,
                "dec": 0,
                "roll": (),
                "steps": 0,
                "moved": (False,) * n,
                "out": ("",) * n,
                "saw": (False,) * n,
                "seen_side": ((),) * n,
                "pile": tuple(pile),
                "kept": ((),) * n,
                "discards": (),
                "watches": 0,
                "used": (False,) * n,
                "extra": (0,) * n,
                "turn": 1,
                "naming": (),
                "purpose": "",
                "nloc": -1,
                "rum": (),
                "ask": 0,
                "shows": 0,
                "peekq": (),
                "bellq": (),
                "second": False,
                "ctx": 0,
                "winner": -1,
                "log": None,
            },
        )

    def state_from_json(self, data: Mapping[str, Any]) -> ClueState:
        with door(CorruptRecord, "clue state"):
            return state_from_json(self, data)

    def sample_state(self, view: View, rng: Rng) -> ClueState:
        return self.prepared_view(view).draw(rng)

    def prepared_view(self, view: View) -> PreparedView:
        """`view` checked and prepared for sampling, once per view (`sample.py`)."""
        return self._views.get(view)

    def _prepare_view(self, view: View) -> PreparedView:
        return prepare_view(self, view)

    def view_of(self, s: ClueState, seat: int | None) -> View:
        return build_view(s, seat)

    def json_of(self, s: ClueState) -> dict[str, Any]:
        return state_to_json(s)

    def render_view(self, view: View) -> str:
        return render.render_view(self, view)

    def glossary(self) -> Mapping[str, Mapping[str, str]]:
        """Every location, character power, intrigue action card and the Pocketwatch, with
        its short text from `data/cards.toml` and whether that text is sourced."""
        data = cards_data()
        guessed = {
            name
            for p in board_data()["passage"]
            if p["status"] == "reconstruction"
            for name in p["between"]
        }
        out: dict[str, Mapping[str, str]] = {}
        mine = set(self.locations)
        for loc in data["location"]:
            if loc["name"] not in mine:
                continue
            source = "reconstruction" if loc["name"] in guessed else loc["status"]
            text = loc["text"]
            if self.board is not standard_board():
                # the card text tells the standard board's passages; say this board's
                text = text.split(". ")[0] + "."
                room = self.locations.index(loc["name"])
                for to in self.board.passages[room]:
                    text += f" A passage leads to {self.locations[to]}."
            out[loc["name"]] = {"text": text, "source": source}
        power = {p["effect"]: p for p in data["power"]}
        suspects = {s["name"]: s for s in data["suspect"]}
        for name in self.suspects:
            suspect = suspects[name]
            p = power[suspect["power"]]
            out[power_name(suspect["name"])] = {"text": p["text"], "source": p["status"]}
        for card in data["intrigue"]:
            out[card["name"]] = {"text": card["text"], "source": card["status"]}
        watch = data["pocketwatch"]
        out["Pocketwatch"] = {"text": watch["text"], "source": watch["status"]}
        return out

    def action_card(self, action: Action) -> str | None:
        if isinstance(action, PlayCard) and action.card in self.intrigue_names:
            return self.intrigue_names[action.card]
        return None

    def action_label(self, view: View, action: Action) -> str:
        return render.action_label(self, view, action)
