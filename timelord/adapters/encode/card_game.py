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
from timelord.games.card_game.state import PHASES


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
