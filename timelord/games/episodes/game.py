"""Doctor Who Episodes: the rummy-style fan card game, as a `Game`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from timelord.core import Action, ConfigError, Rng, View
from timelord.core.viewcache import ViewCache
from timelord.games.episodes import hands as H
from timelord.games.episodes import text
from timelord.games.episodes.action_space import action_space
from timelord.games.episodes.actions import (
    ACTION_TYPES,
    DiscardCard,
    KeepCard,
    PlayEpisode,
    UseAbility,
)
from timelord.games.episodes.cards import (
    MAX_COPIES,
    MAX_DECK,
    SUIT_INDEX,
    SUITS,
    Deck,
    custom_deck,
    standard_deck,
    texts,
)
from timelord.games.episodes.doors import state_from_json
from timelord.games.episodes.render import render_view
from timelord.games.episodes.sample import prepare, sample_state
from timelord.games.episodes.state import EpisodesRules, EpisodesState
from timelord.games.episodes.view import build_view


def _int_option(name: str, value: object, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ConfigError(f"episodes: {name} must be an integer {lo}..{hi}, not {value!r}")
    return value


@dataclass(frozen=True)
class Variant:
    """A research variant small enough for exact CFR (docs/variants.md): the same rules over
    its own deck, `deal` cards to each player (E-2.1 deals 7) and, unless given, its own
    target and round limit. Episodes take one card of each suit its deck holds (E-5.1; ruling
    E-R20 when that is fewer than six)."""

    deck: tuple[tuple[str, int, int], ...]
    deal: int
    target: int
    max_rounds: int
    about: str


#: `variant`: "standard" (the default), or one of these. "tiny" (six cards, one per suit,
#: dealt out) is degenerate: nobody can ever hold an episode, so every game is a shared win.
#: "two-suit" is the small game in which episodes are scored and won.
VARIANTS_BY_NAME: dict[str, Variant] = {
    "tiny": Variant(
        (
            ("Doctor", 3, 1),
            ("Companion", 2, 1),
            ("Gadget", 1, 1),
            ("Foe", 1, 1),
            ("Plot", 2, 1),
            ("Special", 1, 1),
        ),
        H.DEAL,
        4,
        1,
        "a 6-card deck of one card per suit, target 4, max_rounds 1 (degenerate: no episode "
        "can be gathered)",
    ),
    "two-suit": Variant(
        (
            ("Doctor", 1, 1),
            ("Doctor", 2, 1),
            ("Doctor", 3, 1),
            ("Foe", 1, 1),
            ("Foe", 2, 1),
            ("Foe", 3, 1),
        ),
        1,
        3,
        1,
        "Doctors 1-3 and Foes 1-3, one card dealt to each, an episode one Doctor and one Foe "
        "(E-R20), target 3, max_rounds 1",
    ),
}
VARIANTS = ("standard", *VARIANTS_BY_NAME)
DEFAULT_TARGET = 50
DEFAULT_MAX_ROUNDS = 100


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant may subclass the game
class EpisodesGame(EpisodesRules):
    """Options: `players` 2-6 (default 3); `target` VP that wins (default 50);
    `max_rounds` after which the game ends on points (default 100, ruling E-R3);
    `deck` None for the 90-card deck of `data/cards.toml`, or a list of [suit, fp, copies]."""

    id: ClassVar[str] = "episodes"
    description: ClassVar[str] = "Episodes, the rummy-style card game (2-6 players)"
    action_types: ClassVar[tuple[type[Action], ...]] = ACTION_TYPES
    rules_versions = (1, 2)
    unversioned = (2, 1)
    options_doc: ClassVar[Mapping[str, str]] = {
        "rules": (
            "rules version, 1 or 2 (default 2, the current rules): 1 takes every step with "
            "one option without asking (before ruling E-R13 was narrowed)"
        ),
        "players": "number of players, 2 to 6 (default 3)",
        "target": "victory points that win at once, 1 to 10000 (default 50; E-7.1)",
        "max_rounds": "rounds after which the most VP wins, 1 to 10000 (default 100; E-R3)",
        "variant": "standard (default), or a research variant for exact CFR, the same rules "
        "over a small game (docs/variants.md): "
        + "; ".join(f"{name}: {v.about}" for name, v in VARIANTS_BY_NAME.items()),
        "deck": (
            "null for the 90-card deck of data/cards.toml (default), or a list of "
            f"[suit, fp, copies] rows: suit one of {', '.join(SUITS)}; fp 1 to 15; "
            f"copies 0 to {MAX_COPIES}; at most {MAX_DECK} cards in all"
        ),
    }

    def __init__(
        self,
        players: int = 3,
        target: int = DEFAULT_TARGET,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        deck: list[list[Any]] | None = None,
        variant: str = "standard",
        rules: int | None = None,
    ) -> None:
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise ConfigError(f"episodes: variant must be one of {VARIANTS}, not {variant!r}")
        small = VARIANTS_BY_NAME.get(variant)
        #: cards dealt to each player (E-2.1), and the suits of an episode (E-5.1, E-R20)
        self.deal = H.DEAL
        self.episode_suits: tuple[int, ...] = tuple(range(len(SUITS)))
        if small is not None:
            if deck is not None:
                raise ConfigError(f"episodes: the {variant} variant brings its own deck")
            target = small.target if target == DEFAULT_TARGET else target
            max_rounds = small.max_rounds if max_rounds == DEFAULT_MAX_ROUNDS else max_rounds
            self.deal = small.deal
        self.variant = variant
        self.players = _int_option("players", players, 2, 6)
        self.target = _int_option("target", target, 1, 10_000)
        self.max_rounds = _int_option("max_rounds", max_rounds, 1, 10_000)
        if small is not None:
            self.deck: Deck = custom_deck([list(row) for row in small.deck])
            self.episode_suits = tuple(sorted({c >> 4 for c in self.deck.present}))
        elif deck is None:
            self.deck = standard_deck()
        elif isinstance(deck, list | tuple):
            self.deck = custom_deck(list(deck))
        else:
            raise ConfigError(f"episodes: deck must be a list of [suit, fp, copies], not {deck!r}")
        self.options: dict[str, Any] = {
            "players": self.players,
            "target": self.target,
            "max_rounds": self.max_rounds,
            "deck": None if deck is None else [list(row) for row in deck],
        }
        self.rules = self.check_rules(rules)
        self.options["rules"] = self.rules
        if variant != "standard":  # so records of the standard game stay as they were
            self.options["variant"] = variant
        #: what `sample_state` read and checked from each recent view (thread-safe, never stale)
        self._views: ViewCache[Any] = ViewCache(lambda view: prepare(self, view))

    @property
    def max_actions(self) -> int:
        # A turn starts with at most 7 + 2 cards; a Companion makes it 10. Decisions per turn:
        # ability, target or keep, episode, and at most 3 hand-limit discards (E-R12).
        return self.max_rounds * self.players * 6

    def new_game(self, seed: int | Rng) -> EpisodesState:
        st = EpisodesState.blank(self)
        st.deck = self.deck.cards()  # unsettled: every draw takes a random card (E-3.4)
        st.rng = seed.state if isinstance(seed, Rng) else Rng(seed).next64()
        for _ in range(self.deal):  # E-2.1, one card at a time around the table
            for s in range(self.players):
                st._draw(s, 1)
        st.turn = -1
        st._next_turn()  # seat 0 draws and starts (E-2.2, E-3.1)
        st._settle()
        return st

    def state_from_json(self, data: Mapping[str, Any]) -> EpisodesState:
        return state_from_json(self, data)

    def sample_state(self, view: View, rng: Rng) -> EpisodesState:
        return sample_state(self, view, rng)

    def glossary(self) -> Mapping[str, Mapping[str, str]]:
        return texts()

    def action_card(self, action: Action) -> str | None:
        if isinstance(action, UseAbility) and action.suit in SUIT_INDEX:
            return action.suit
        if isinstance(action, KeepCard):
            return "Gadget"
        if isinstance(action, PlayEpisode):
            return "Episode"
        if isinstance(action, DiscardCard):
            return "Hand limit"
        return None

    def action_label(self, view: View, action: Action) -> str:
        return text.action_label(self, view, action)

    def event_text(self, kind: str, data: Mapping[str, Any], seat: int | None) -> str:
        return text.event_text(self, kind, data, seat)

    def action_space(self) -> tuple[Action, ...]:
        return action_space(self)

    def view_of(self, st: EpisodesState, seat: int | None) -> View:
        return build_view(st, seat)

    def render_view(self, view: View) -> str:
        return render_view(self, view)
