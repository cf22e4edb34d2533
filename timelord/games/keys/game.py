"""Keys to the TARDIS (Outset Media): race your Doctor across a 7x7 maze of TARDIS doors.

>>> game = KeysGame(players=2)
>>> state = game.new_game(seed=1)
>>> state.to_move, len(state.view(0)["hand"])
(0, 4)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from mypy_extensions import mypyc_attr

from timelord.core import Action, ConfigError, Rng, State, View, generator
from timelord.core.viewcache import ViewCache
from timelord.games.keys import doors, render, sample, text, view
from timelord.games.keys.action_space import action_space
from timelord.games.keys.actions import ACTION_TYPES
from timelord.games.keys.board import (
    CONTROL_KIND,
    EDGE_IDS,
    EXTRA_TURN,
    SEAT_EDGES,
    Content,
    standard_content,
    texts,
    tiny_content,
)
from timelord.games.keys.state import KeysRules, KeysState, Tables

T = TypeVar("T", tuple[int, int], int)
DEFAULT_ROUND_LIMIT = 100
#: `variant`: "standard", or "tiny", a research variant small enough for exact CFR
#: (data/tiny.toml: a 3x3 grid; docs/variants.md). Never the default.
VARIANTS = ("standard", "tiny")
#: The round and turn limits of the tiny variant unless given: three turns (seat 0, seat 1,
#: seat 0), the fewest in which a game can be won on its grid (docs/variants.md).
TINY_ROUND_LIMIT = 2
TINY_TURN_LIMIT = 3
ACTIONS_PER_TURN = 3  # play a card, move, use a TARDIS Key bonus


def spread(items: Sequence[T], rng: Rng) -> list[T]:
    """A uniformly random order of `items` drawn kind by kind: the places of each kind but
    the commonest are drawn one by one among those still free, the commonest fills the rest.

    Every distinct order is as likely as under a shuffle, but equal items cost no draws, so
    the exact-chance adapter enumerates a deal of the tiny variant in a few hundred draw
    sequences instead of 8! times a deck's factorial (ruling K-R23).
    """
    counts = Counter(items)
    kinds = sorted(counts)
    common = max(kinds, key=lambda k: counts[k])  # the first of the commonest, by sort order
    out = [common] * len(items)
    free = list(range(len(items)))
    for kind in kinds:
        if kind != common:
            for _ in range(counts[kind]):
                out[free.pop(rng.below(len(free)))] = kind
    return out


def _int_option(name: str, value: Any, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ConfigError(f"keys: {name} must be an integer from {lo} to {hi}, not {value!r}")
    return value


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant may subclass the game
class KeysGame(KeysRules):
    """Keys to the TARDIS for 2-4 players; `round_limit` (or `turn_limit`) ends a stalled
    game (K-7.2); `variant` "tiny" plays the same rules on the tiny research set (never the
    default)."""

    id = "keys"
    description = "Keys to the TARDIS, a race across door tiles (2-4 players)"
    action_types = ACTION_TYPES
    rules_versions = (1, 2)
    unversioned = (1,)
    options_doc: ClassVar[Mapping[str, str]] = {
        "rules": (
            "rules version, 1 or 2 (default 2, the current rules): 1 plays a Teleport whose "
            "Control tile is held as a tile to stay on (until ruling K-R6 was changed)"
        ),
        "players": "number of players, 2 to 4 (default 2)",
        "round_limit": (
            f"rounds after which the game ends with no winner, 1 to 100000 "
            f"(default {DEFAULT_ROUND_LIMIT}; K-7.2)"
        ),
        "turn_limit": (
            "seat turns (extra turns not counted) after which the game ends with no winner, "
            "0 (default: none) to 100000 (K-7.2)"
        ),
        "variant": (
            f"standard (default) or tiny: a 2-player research variant for exact CFR, the same "
            f"rules on a 3x3 grid with data/tiny.toml's tiles, cards and hands, round_limit "
            f"{TINY_ROUND_LIMIT} and turn_limit {TINY_TURN_LIMIT} unless given (docs/variants.md)"
        ),
    }

    def __init__(
        self,
        players: int = 2,
        round_limit: int = DEFAULT_ROUND_LIMIT,
        turn_limit: int = 0,
        variant: str = "standard",
        rules: int | None = None,
    ) -> None:
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise ConfigError(f"keys: variant must be one of {VARIANTS}, not {variant!r}")
        if variant == "tiny" and players != 2:
            raise ConfigError(f"keys: the tiny variant is for 2 players, not {players!r}")
        if variant == "tiny" and round_limit == DEFAULT_ROUND_LIMIT:
            round_limit = TINY_ROUND_LIMIT
        if variant == "tiny" and turn_limit == 0:
            turn_limit = TINY_TURN_LIMIT
        self.players = _int_option("players", players, 2, 4)
        self.round_limit = _int_option("round_limit", round_limit, 1, 100_000)
        self.turn_limit = _int_option("turn_limit", turn_limit, 0, 100_000)
        self.variant = variant
        self.options: dict[str, Any] = {"players": self.players, "round_limit": self.round_limit}
        self.rules = self.check_rules(rules)
        self.options["rules"] = self.rules
        if self.turn_limit:  # only when set, so records of the standard game stay as they were
            self.options["turn_limit"] = self.turn_limit
        if variant != "standard":  # so records of the standard game stay as they were
            self.options["variant"] = variant
        self.content: Content = tiny_content() if variant == "tiny" else standard_content()
        self.stall_shared = variant == "tiny"
        self.tables = Tables(self.content, self.players)
        #: what `sample_state` read and checked from each recent view (thread-safe, never stale)
        self._views: ViewCache[Any] = ViewCache(self._prepare)
        self._extra_tiles = sum(1 for _, back in self.content.tiles if back == EXTRA_TURN)

    def _prepare(self, view: View) -> Any:
        return sample.prepare(self, view)

    @property
    def max_actions(self) -> int:
        # Every seat has one normal turn a round, plus at most one extra turn per Extra Turn
        # tile (each works once per player, K-5.7); a turn is at most three actions.
        turns = self.players * (self.round_limit + self._extra_tiles)
        if self.turn_limit:
            turns = min(turns, self.turn_limit + self.players * self._extra_tiles)
        return ACTIONS_PER_TURN * turns

    def action_space(self) -> tuple[Action, ...]:
        return action_space(self)

    def view_of(self, s: KeysState, seat: int | None) -> View:
        return view.build_view(s, seat)

    def json_of(self, s: KeysState) -> dict[str, Any]:
        return view.state_to_json(s)

    def seat_name(self, seat: int) -> str:
        edges = SEAT_EDGES.get(self.players)
        if edges is None or not 0 <= seat < len(edges):
            return f"Seat {seat}"
        return f"Seat {seat} ({EDGE_IDS[edges[seat]]})"

    def new_game(self, seed: int | Rng) -> KeysState:
        rng = generator(seed)
        tiles = list(self.content.tiles)
        deck = list(self.content.deck)
        if self.variant == "tiny":  # ruling K-R23: the same deal in law, in few draws
            tiles = spread(tiles, rng)
            deck = spread(deck, rng)
        else:
            rng.shuffle(tiles)
            rng.shuffle(deck)
        geo = self.tables.geo
        back = [CONTROL_KIND] * geo.cells
        colour = [-1] * geo.cells
        for t, (c, k) in zip(geo.door_tiles, tiles, strict=True):
            back[t], colour[t] = k, c
        hands: list[list[int]] = [[] for _ in range(self.players)]
        for _ in range(self.content.deal):
            for hand in hands:
                if deck:
                    hand.append(deck.pop())
        s = KeysState.blank(self)
        s.set_board(tuple(back), tuple(colour))
        s.open_mask = s.seen_mask = s.barrier_mask = s.cookie_mask = s.corner_mask = 0
        s.tunnels = ()
        s.pos = (-1,) * self.players
        s.hands = tuple(tuple(sorted(h)) for h in hands)
        s.deck = tuple(deck)
        s.discard = ()
        s.pool = ()
        s.drawn = ((),) * self.players
        s.stuck = (0,) * self.players
        s.used = (0,) * self.players
        s.seat = 0  # ruling K-R2: seat 0 watched Doctor Who most recently
        s.extra = False
        s.round = 0
        s.winner = -1
        s.rng = rng.state
        if not s.start_turn():
            s._end_turn()
        return s

    def state_from_json(self, data: Any) -> State:
        return doors.state_from_json(self, data)

    def sample_state(self, view: View, rng: Rng) -> State:
        return sample.sample_state(self, view, rng)

    def glossary(self) -> Mapping[str, Mapping[str, str]]:
        return texts(self.content)

    def action_card(self, action: Action) -> str | None:
        return text.action_card(self, action)

    def action_label(self, view: View, action: Action) -> str:
        return text.action_label(self, view, action)

    def event_text(self, kind: str, data: Mapping[str, Any], seat: int | None) -> str:
        return text.event_text(self, kind, data, seat)

    def render_view(self, view: View, ansi: bool = False) -> str:
        """The grid as text; plain by default, `ansi=True` adds terminal colours."""
        return render.render_view(self, view, ansi)


__all__ = ["KeysGame", "KeysState"]
