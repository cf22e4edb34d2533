"""What one seat knows (C-7): public table, its own secrets, and cards it can still track."""

from __future__ import annotations

from typing import Any

from timelord.games.card_game.rules.endgame import standing
from timelord.games.card_game.state import ATTACK, DEFEND, IRON, OVER, VALIANT, CardGameState


def build_view(s: CardGameState, seat: int | None) -> dict[str, Any]:
    s.game.check_seat(seat)
    n = s.game.players
    known = s.known
    if seat is None:
        # A spectator sees only what lies face-up (C-7.1). On the table a card every seat
        # knows is face-up (revealed in a conflict); a card in a hand, a reserve or the deck
        # may be known to every seat (passed cards in a 2-player game) and still be secret.
        full = (1 << n) - 1

        def sees(c: int) -> bool:
            return known[c] == full
    else:
        bit = 1 << seat

        def sees(c: int) -> bool:
            return bool(known[c] & bit)

    # At the end every attack is turned up to be scored (C-6.4, C-R30): a face-down Enemy
    # that voids its Location decides the score, so the end told to everyone names it.
    scored = s.phase == OVER
    locs = []
    for L, card in enumerate(s.loc_card):
        up = s.loc_up[L]
        ens = s.loc_en[L]
        locs.append(
            {
                "card": card,
                "owner": s.loc_owner[L],
                "attacker": s.loc_att[L],
                "tardis": s.loc_tardis[L],
                "defenders": [d if sees(d) else None for d in s.loc_def[L]],
                "enemies": [
                    e if (scored or up >> i & 1 or sees(e)) else None for i, e in enumerate(ens)
                ],
                "face_up": [bool(up >> i & 1) for i in range(len(ens))],
            }
        )
    hands = []
    reserves = []
    hidden = seat is None
    for p in range(n):
        h = s.hands[p]
        hands.append({"count": len(h), "known": [] if hidden else [c for c in h if sees(c)]})
        r = s.reserve[p]
        reserves.append({"count": len(r), "known": [] if hidden else [c for c in r if sees(c)]})
    staged: list[Any] = []
    if s.phase in (DEFEND, ATTACK):
        staged = [c if sees(c) else None for c in s.p_cards]
    elif s.phase in (IRON, VALIANT):
        staged = list(s.p_cards)  # face-up cards (the Valiant's are in the discard pile)
    own_new = seat is not None and seat == s.active
    view: dict[str, Any] = {
        "seat": seat,
        "players": n,
        "turn": s.turn,
        "active": s.active,
        "first": s.first,
        "to_move": s.to_move,
        "phase": s.phase,
        "pending": {"location": s.p_loc, "number": s.p_n, "cards": staged},
        "steps": s.steps,
        "endgame": s.endgame,
        "end_now": s.end_now,
        "ended": s.ended,
        "supply": s.supply,
        "time": list(s.tp),
        "deck": {
            "count": len(s.deck),
            "below_end": s.end_depth,
            "known": [] if hidden else sorted(c for c in s.deck if sees(c)),
            "reshuffled": list(s.shuffled),
        },
        "discard": list(s.discard),
        "aside": list(s.aside),
        "locations": locs,
        "hands": hands,
        "reserves": reserves,
        "reserve_up": [list(u) for u in s.upres],
        "reserve_new": list(s.newres) if own_new else [],
        "reserve_new_count": len(s.newres),
        "passed": [list(x) for x in s.passed[seat]] if seat is not None else [],
        "standing": standing(s),  # VP as it stands, public: the same for every seat
    }
    if s.fought:  # only then, so views of rules-1 games read as before (C-R33)
        view["fought"] = list(s.fought)
    return view
