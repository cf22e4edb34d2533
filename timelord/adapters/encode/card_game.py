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

from typing import Any

from timelord.adapters.encode import Writer, rel, rotate
from timelord.core import Game
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.state import ATTACK, DEFEND, IRON, OVER, PHASES

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


def write_state(game: Game, w: Writer, s: Any, seat: int) -> None:
    """`write` of `s.view(seat)`, read from the state without building the view (the view's
    rules of who sees what, C-7, in `timelord.games.card_game.view`)."""
    assert isinstance(game, CardGame)
    cs = game.cards
    C = len(cs.design)
    N = game.players
    L = sum(cs.is_location) + N
    known = s.known
    bit = 1 << seat
    w.onehot("phase", len(PHASES), _PHASE[s.phase])
    w.onehot("to_move", N, rel(seat, s.to_move, N))
    w.onehot("active", N, rel(seat, s.active, N))
    w.onehot("first", N, rel(seat, s.first, N))
    w.values("flags", [s.endgame, s.end_now], 2)
    w.values("steps", [s.steps], 1, 60)
    w.values("time", rotate(s.tp, seat), N, 30)
    w.values("supply", [s.supply], 1, 30)
    w.values("deck", [len(s.deck)], 1, C)
    w.counts("hand", C, [c for c in s.hands[seat] if known[c] & bit])
    w.counts("reserve", C, [c for c in s.reserve[seat] if known[c] & bit])
    w.counts("discard", C, s.discard)
    others = {c for q in range(N) if q != seat for part in (s.hands[q], s.reserve[q]) for c in part}
    w.counts("others_known", C, [c for c in others if known[c] & bit])
    w.values("hand_counts", [len(h) for h in rotate(s.hands, seat)], N, 10)
    w.values("reserve_counts", [len(r) for r in rotate(s.reserve, seat)], N, 10)
    cards = s.loc_card
    # the L location slots in one pass: slot i is [present, owner N, attacker N, counts 4]
    width = 2 * N + 5
    at = w.skip(L * width)
    idx, val = w.idx, w.val
    for i in range(len(cards)):
        base = at + i * width
        idx.append(base)
        val.append(1.0)
        owner, attacker = s.loc_owner[i], s.loc_att[i]
        if 0 <= owner < N:
            idx.append(base + 1 + (owner - seat) % N)
            val.append(1.0)
        if 0 <= attacker < N:
            idx.append(base + 1 + N + (attacker - seat) % N)
            val.append(1.0)
        ens = s.loc_en[i]
        ups = bin(s.loc_up[i] & ((1 << len(ens)) - 1)).count("1")
        counts = (float(s.loc_tardis[i]), len(s.loc_def[i]) / 4, len(ens) / 6, ups / 6)
        for k, v in enumerate(counts):
            if v:
                idx.append(base + 2 * N + 1 + k)
                val.append(min(v, 4.0))
    w.counts("location_cards", C, cards)
    w.counts("defender_cards", C, [d for ds in s.loc_def for d in ds if known[d] & bit])
    # at the end every attack is turned up to be scored (C-R30), so every Enemy is known
    scored = s.phase == OVER
    w.counts(
        "enemy_cards",
        C,
        [
            e
            for ens, up in zip(s.loc_en, s.loc_up, strict=True)
            for k, e in enumerate(ens)
            if scored or up >> k & 1 or known[e] & bit
        ],
    )
    if s.phase in (DEFEND, ATTACK):
        staged = [c for c in s.p_cards if known[c] & bit]
    else:
        staged = list(s.p_cards) if s.phase == IRON else []
    w.counts("pending", C, staged)
    w.onehot("pending_location", L, s.p_loc)


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
