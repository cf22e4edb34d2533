"""Clue observation, in this order (K = cards, S = suspects, N seats relative to the observer,
R = locations; a place is one of the R locations, the TARDIS, or "on a square"):

- `phase` one-hot over the engine's phases; `to_move`, `current` one-hot over N.
- `characters`: each seat's suspect, one-hot over S per seat; `movers`: each suspect's place
  (R + 2 per suspect); `weapons`: each weapon token's place (R + 2 per weapon).
- `steps` left / 12; `out` per seat; `hand_sizes` per seat / 10; `kept_counts` per seat / 4.
- `hand`: own cards (K flags); `seen`: cards shown to this seat, by whom (K flags per
  other seat); `public`: leftovers, revealed hands, side cards seen (K flags);
  `envelope` when this seat has seen it (K flags).
- `rumour`: cards of the rumour or accusation under way (K flags); `naming`: cards named so far.
- `kept`: own intrigue action cards (copies per card kind / 2).
"""

from __future__ import annotations

from typing import Any

from timelord.adapters.encode import Writer, rel, rotate
from timelord.core import Game
from timelord.games.clue.board import TARDIS
from timelord.games.clue.game import ClueGame
from timelord.games.clue.state import PHASES


def write(game: Game, w: Writer, view: dict[str, Any]) -> None:
    assert isinstance(game, ClueGame)
    N = game.players
    K = len(game.card_names)
    S = len(game.suspects)
    R = game.board.rooms
    seat = view["seat"]

    def place(node: int) -> int:
        return node if node < R else (R if node == TARDIS else R + 1)

    w.onehot("phase", len(PHASES), PHASES.index(view["phase"]))
    w.onehot("to_move", N, rel(seat, view["to_move"], N))
    w.onehot("current", N, rel(seat, view["current"], N))
    for k, c in enumerate(rotate(view["characters"], seat)):
        w.onehot(f"character{k}", S, c)
    for i, node in enumerate(view["movers"]):
        w.onehot(f"mover{i}", R + 2, place(node))
    for i, node in enumerate(view["weapons"]):
        w.onehot(f"weapon{i}", R + 2, place(node))
    w.values("steps", [view["steps"]], 1, 12)
    w.values("out", [1.0 if o else 0.0 for o in rotate(view["out"], seat)], N)
    w.values("hand_sizes", rotate(view["hand_sizes"], seat), N, 10)
    w.values("kept_counts", rotate(view["kept_counts"], seat), N, 4)
    w.counts("hand", K, view["hand"])
    shown: list[list[int]] = [[] for _ in range(N)]
    for entry in view["log"]:
        if entry[0] == "show" and entry[2] == seat and entry[3] is not None:
            shower = rel(seat, entry[1], N)
            if shower is not None:
                shown[shower].append(entry[3])
    for k in range(1, N):
        w.counts(f"seen{k}", K, set(shown[k]))
    public = [*view["leftovers"], *view["side_seen"].values()]
    public += [c for hand in view["revealed"].values() for c in hand]
    w.counts("public", K, set(public))
    w.counts("envelope", K, view["envelope"] or ())
    w.counts("rumour", K, set(view["rumour"][1:]))
    w.counts("naming", K, view["naming"])
    kinds = sorted(game.effect)
    most = max(game.intrigue_deck.count(k) for k in kinds)
    kept = (kinds.index(k) for k in view["kept"] if k in kinds)
    w.counts("kept", len(kinds), kept, 0.5, most)
