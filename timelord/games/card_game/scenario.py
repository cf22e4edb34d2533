"""Build a position by hand: for tests, tutorials and puzzles.

    t = Scenario(game, players=3, active=0)
    home = t.location(0, "leadworth", defenders=["the-doctor"])
    t.hand(0, "dalek", "dalek", "jammy-dodger")
    state = t.state()

Cards are named by design key; each call takes the next unused copy. Every card not placed is
put in the deck (below the End of the Game card when `end_card` is set), so every
card is in exactly one place.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable

from timelord.games.card_game.game import CardGame
from timelord.games.card_game.state import MAIN, CardGameState


class Scenario:
    def __init__(self, game: CardGame, active: int = 0) -> None:
        self.game = game
        cs = self.cs = game.cards
        n = game.players
        self.full = (1 << n) - 1
        self.used: set[int] = set()
        s = self.s = CardGameState(game)
        s.known = bytearray(len(cs.design))
        s.hands = [() for _ in range(n)]
        s.reserve = [() for _ in range(n)]
        s.upres = [() for _ in range(n)]
        s.newres = ()
        s.fought = ()
        s.passed = [() for _ in range(n)]
        s.tp = [0] * n
        s.supply = cs.constants.time_points
        s.loc_card, s.loc_owner, s.loc_def, s.loc_en = [], [], [], []
        s.loc_up, s.loc_att, s.loc_tardis = [], [], []
        s.deck = ()
        s.end_depth = -1
        s.end_now = False
        s.discard = ()
        s.aside = ()
        s.active = active
        s.first = 0
        s.turn = 1
        s.steps = 0
        s.endgame = False
        s.phase = MAIN
        s.p_loc = -1
        s.p_cards = ()
        s.p_n = 0
        s.rng = 12345
        s.ended = ""
        s.shuffled = ()
        self._top: list[int] = []

    def card(self, key: str) -> int:
        """The next unused physical copy of design `key`."""
        cs = self.cs
        for c, k in enumerate(cs.key):
            if (
                k == key
                and c not in self.used
                and (self.game.players > 2 or cs.two_player[c] or cs.kind[c] == "start")
            ):
                self.used.add(c)
                return c
        raise ValueError(f"no unused copy of {key!r}")

    def hand(self, seat: int, *keys: str) -> list[int]:
        out = []
        for k in keys:
            c = self.card(k)
            h = list(self.s.hands[seat])
            insort(h, c)
            self.s.hands[seat] = tuple(h)
            self.s.known[c] = 1 << seat
            out.append(c)
        return out

    def reserve(self, seat: int, *keys: str) -> list[int]:
        out = []
        for k in keys:
            c = self.card(k)
            self.s.reserve[seat] = tuple(sorted((*self.s.reserve[seat], c)))
            self.s.known[c] = 1 << seat
            out.append(c)
        return out

    def in_play(self, seat: int, key: str) -> int:
        """A Support card that stays face-up in the reserve (Wilf, Ood, Ironsides)."""
        c = self.card(key)
        self.s.upres[seat] = (*self.s.upres[seat], c)
        self.s.known[c] = self.full
        return c

    def location(
        self,
        owner: int,
        key: str | None = None,
        *,
        defenders: Iterable[str] = (),
        enemies: Iterable[str] = (),
        attacker: int = -1,
        face_up: bool = False,
        tardis: bool = False,
    ) -> int:
        """Add a Location to `owner`'s line (a spare starting Location, or any Location card,
        when key is None)."""
        s = self.s
        if key is None:
            spare = [x for x in self.cs.start_cards if x not in self.used]
            spare += [
                x for x, k in enumerate(self.cs.kind) if k == "location" and x not in self.used
            ]
            c = spare[0]
            self.used.add(c)
        else:
            c = self.card(key)
        s.known[c] = self.full
        ds = tuple(self.card(k) for k in defenders)
        for d in ds:
            s.known[d] = 1 << owner
        es = tuple(self.card(k) for k in enemies)
        if es:
            assert attacker >= 0, "an attack needs an attacker"
        for e in es:
            s.known[e] = self.full if face_up else 1 << attacker
        s.loc_card.append(c)
        s.loc_owner.append(owner)
        s.loc_def.append(ds)
        s.loc_en.append(es)
        s.loc_up.append((1 << len(es)) - 1 if face_up else 0)
        s.loc_att.append(attacker if es else -1)
        s.loc_tardis.append(tardis)
        return len(s.loc_card) - 1

    def time(self, seat: int, n: int) -> None:
        self.s.tp[seat] += n
        self.s.supply -= n

    def deck_top(self, *keys: str) -> list[int]:
        """Cards put in the deck above the End card (draws take a random card of those
        above it; with `state(rest_to_deck=False)` these are the whole deck)."""
        out = [self.card(k) for k in keys]
        self._top.extend(out)
        return out

    def discard(self, *keys: str) -> list[int]:
        out = [self.card(k) for k in keys]
        self.s.discard = self.s.discard + tuple(out)
        for c in out:
            self.s.known[c] = self.full
        return out

    def state(self, *, end_card: bool = False, rest_to_deck: bool = True) -> CardGameState:
        """The position. `end_card`: the End of the Game card is still in the deck, right
        under the cards put on top with `deck_top` (otherwise it is already out)."""
        s = self.s
        cs = self.cs
        rest: list[int] = []
        if rest_to_deck:
            rest = [c for c in cs.cards_in_play(self.game.players) if c not in self.used]
        s.aside = tuple(c for c in cs.start_cards if c not in self.used)
        for c in s.aside:
            s.known[c] = self.full
        s.deck = tuple(rest) + tuple(reversed(self._top))
        s.end_depth = len(rest) if end_card else -1
        self.used.update(rest)
        return s
