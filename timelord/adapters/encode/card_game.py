"""Card Game observation, in this order (C = card ids of the set, L = Location cards plus one
start Location per seat, the most a table can hold; N = seats, seats relative to the
observer):

- `phase` one-hot over the decision phases; `to_move` and `active` (whose turn) one-hot over N;
  `first` one-hot over N; flags `endgame`, `end_now`; `steps` this turn / 60.
- `time` Time Points per seat / 30; `supply` / 30; `deck` cards left / C.
- `hand` (own cards by id), `reserve` (own reserve by id), `discard` (by id): C flags each.
- `others_known`: cards of other seats' hands and reserves this seat knows (C flags);
  `hand_counts` and `reserve_counts` per seat / 10.
- per location slot 0..L-1: present, owner (N), attacker (N), TARDIS flag, defenders / 4,
  enemies / 6, face-up enemies / 6; then `location_cards`, `defender_cards`, `enemy_cards`:
  C flags of the known cards in play.
- `pending` cards being declared (C flags), `pending_location` one-hot over L.
"""

from __future__ import annotations

from typing import Any, cast

from timelord.adapters.encode import (
    Counts,
    Memo,
    Parts,
    Scalars,
    Writer,
    onehot_table,
    rel,
    rotate,
)
from timelord.core import Game
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.state import (
    ATTACK,
    DEFEND,
    IRON,
    OVER,
    PHASES,
    CardGameState,
)

_PHASE = {p: i for i, p in enumerate(PHASES)}


def write(game: Game, w: Writer, view: dict[str, Any]) -> None:
    assert isinstance(game, CardGame)
    cs = game.cards
    C = len(cs.design)
    N = game.players
    L = sum(cs.is_location) + N  # every Location card, and a start Location per seat
    seat = view["seat"]
    w.onehot("phase", len(PHASES), PHASES.index(view["phase"]))
    w.onehot("to_move", N, rel(seat, view["to_move"], N))
    w.onehot("active", N, rel(seat, view["active"], N))
    w.onehot("first", N, rel(seat, view["first"], N))
    w.values("flags", [view["endgame"], view["end_now"]], 2)
    w.values("steps", [view["steps"]], 1, 60)
    w.values("time", rotate(view["time"], seat), N, 30)
    w.values("supply", [view["supply"]], 1, 30)
    w.values("deck", [view["deck"]["count"]], 1, C)
    w.counts("hand", C, view["hands"][seat]["known"])
    w.counts("reserve", C, view["reserves"][seat]["known"])
    w.counts("discard", C, view["discard"])
    others = [
        c
        for q in range(N)
        if q != seat
        for part in ("hands", "reserves")
        for c in view[part][q]["known"]
    ]
    w.counts("others_known", C, set(others))
    w.values("hand_counts", [h["count"] for h in rotate(view["hands"], seat)], N, 10)
    w.values("reserve_counts", [r["count"] for r in rotate(view["reserves"], seat)], N, 10)
    locs = view["locations"]
    for i in range(L):
        loc = locs[i] if i < len(locs) else None
        w.values(f"location{i}", [1.0 if loc else 0.0], 1)
        w.onehot(f"location{i}_owner", N, rel(seat, loc and loc["owner"], N))
        w.onehot(f"location{i}_attacker", N, rel(seat, loc and loc["attacker"], N))
        if loc is None:
            w.values(f"location{i}_counts", [], 4, high=4.0)
            continue
        ups = sum(1 for u in loc["face_up"] if u)
        counts = [loc["tardis"], len(loc["defenders"]) / 4, len(loc["enemies"]) / 6, ups / 6]
        w.values(f"location{i}_counts", counts, 4, high=4.0)
    w.counts("location_cards", C, (loc["card"] for loc in locs))
    w.counts("defender_cards", C, (c for loc in locs for c in loc["defenders"] if c is not None))
    w.counts("enemy_cards", C, (c for loc in locs for c in loc["enemies"] if c is not None))
    pending = view["pending"]
    w.counts("pending", C, (c for c in pending["cards"] if c is not None))
    w.onehot("pending_location", L, pending["location"])


def state_parts(game: Game) -> Parts:
    """`write` of `s.view(seat)` as parts read from the state without building the view
    (the view's rules of who sees what, C-7, in `timelord.games.card_game.view`)."""
    assert isinstance(game, CardGame)
    cs = game.cards
    C = len(cs.design)
    N = game.players
    L = sum(cs.is_location) + N

    def head(w: Writer, key: tuple[str, int | None, int, int, bool, bool, int]) -> None:
        phase, to_move, active, first, endgame, end_now, seat = key
        w.onehot("phase", len(PHASES), _PHASE[phase])
        w.onehot("to_move", N, rel(seat, to_move, N))
        w.onehot("active", N, rel(seat, active, N))
        w.onehot("first", N, rel(seat, first, N))
        w.values("flags", [endgame, end_now], 2)

    def steps(w: Writer, value: int) -> None:
        w.values("steps", [value], 1, 60)

    def supply(w: Writer, key: tuple[int, int]) -> None:
        supply, deck = key
        w.values("supply", [supply], 1, 30)
        w.values("deck", [deck], 1, C)

    def slot(w: Writer, key: tuple[int, int, bool, int, int, int, int]) -> None:
        """One location slot: present, owner, attacker, then the TARDIS and the counts."""
        owner, attacker, tardis, defenders, enemies, up, seat = key
        ups = bin(up & ((1 << enemies) - 1)).count("1")
        w.values("present", [1.0], 1)
        w.onehot("owner", N, rel(seat, owner, N))
        w.onehot("attacker", N, rel(seat, attacker, N))
        w.values("counts", [float(tardis), defenders / 4, enemies / 6, ups / 6], 4, high=4.0)

    heads, steps_of, supply_of, slots = Memo(head), Memo(steps), Memo(supply), Memo(slot)
    points, counts = Scalars(30), Scalars(10)
    cards = Counts(C)
    width = 2 * N + 5
    empty = [bytes(4 * width * k) for k in range(L + 1)]  # the slots after the last location
    pending_at = onehot_table(L)
    #: per seat: the location lists its slots were last written from, then those bytes
    seen_slots: list[tuple[Any, ...]] = [(None,) * 7 + (b"",) for _ in range(N)]

    def parts(s: CardGameState, seat: int) -> list[bytes]:
        # `s` typed, so the compiled build reads its fields and filters the cards natively
        known = s.known
        bit = 1 << seat
        hands, reserve = s.hands, s.reserve
        out = [
            heads[s.phase, s.to_move, s.active, s.first, s.endgame, s.end_now, seat],
            steps_of[s.steps],
        ]
        tp = s.tp
        for k in range(N):
            out.append(points[tp[(seat + k) % N]])
        out.append(supply_of[s.supply, len(s.deck)])
        out.append(cards[tuple([c for c in hands[seat] if known[c] & bit])])
        out.append(cards[tuple([c for c in reserve[seat] if known[c] & bit])])
        out.append(cards[s.discard])
        others: set[int] = set()
        for q in range(N):
            if q != seat:
                for c in hands[q]:
                    if known[c] & bit:
                        others.add(c)
                for c in reserve[q]:
                    if known[c] & bit:
                        others.add(c)
        out.append(cards[tuple(sorted(others))])
        for k in range(N):
            out.append(counts[len(hands[(seat + k) % N])])
        for k in range(N):
            out.append(counts[len(reserve[(seat + k) % N])])
        locs = s.loc_card
        owner, att, tardis, defs, ens, up = (
            s.loc_owner,
            s.loc_att,
            s.loc_tardis,
            s.loc_def,
            s.loc_en,
            s.loc_up,
        )
        # a move shares the location lists it leaves alone (`CardGameState.fork`), and a
        # shared list is never changed: the same lists give this seat the same slots
        last = seen_slots[seat]
        if not (
            locs is last[0]
            and owner is last[1]
            and att is last[2]
            and tardis is last[3]
            and defs is last[4]
            and ens is last[5]
            and up is last[6]
        ):
            written = [
                slots[owner[i], att[i], tardis[i], len(defs[i]), len(ens[i]), up[i], seat]
                for i in range(len(locs))
            ]
            written.append(empty[L - len(locs)])
            # replaced whole, so a reader in another thread never sees a half-written entry
            last = seen_slots[seat] = (locs, owner, att, tardis, defs, ens, up, b"".join(written))
        out.append(last[7])
        out.append(cards[tuple(locs)])
        out.append(cards[tuple([d for ds in defs for d in ds if known[d] & bit])])
        # at the end every attack is turned up to be scored (C-R30), so every Enemy is known
        scored = s.phase == OVER
        shown: list[int] = []
        for i in range(len(ens)):
            u = up[i]
            for k, e in enumerate(ens[i]):
                if scored or u >> k & 1 or known[e] & bit:
                    shown.append(e)
        out.append(cards[tuple(shown)])
        staged: tuple[int, ...] = ()
        if s.phase == DEFEND or s.phase == ATTACK:
            staged = tuple([c for c in s.p_cards if known[c] & bit])
        elif s.phase == IRON:
            staged = s.p_cards
        out.append(cards[staged])
        out.append(pending_at[s.p_loc])
        return out

    # the encoder hands it only this game's states
    return cast(Parts, parts)


def write_recall(game: Game, w: Writer, view: dict[str, Any]) -> None:
    """The rest of the view, for the perfect-recall observation: the turn, the cards set
    aside, the deck's known cards and latest reshuffle, face-up and new reserve cards, the
    cards this seat was passed (how often each), the pending count and the deck's end mark."""
    assert isinstance(game, CardGame)
    C = len(game.cards.design)
    seat = view["seat"]
    w.values("turn", [view["turn"]], 1, 100, high=10.0)
    w.counts("aside", C, view["aside"])
    deck = view["deck"]
    w.counts("deck_known", C, deck["known"])
    w.counts("deck_reshuffled", C, deck["reshuffled"])
    w.values("below_end", [deck["below_end"] + 1], 1, C, high=2.0)
    for k, up in enumerate(rotate(view["reserve_up"], seat)):
        w.counts(f"reserve_up{k}", C, up)
    w.counts("reserve_new", C, view["reserve_new"])
    w.values("reserve_new_count", [view["reserve_new_count"]], 1, 10, high=4.0)
    passed = [0] * C
    for cards in view["passed"]:
        for c in cards:
            if 0 <= c < C:
                passed[c] += 1
    w.values("passed", passed, C, 8, high=4.0)
    w.values("pending_number", [view["pending"]["number"]], 1, 10, high=4.0)
