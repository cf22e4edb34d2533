"""Scoring (C-6.4)."""

from __future__ import annotations

from timelord.games.card_game.state import OVER, CardGameState


def standing(s: CardGameState) -> dict[str, list[int]]:
    """The VP as the table stands, from what everyone can see (C-6.4 applied now): a Location
    with no Enemies counts for its owner, one whose Enemies are all face up for its attacker
    (or for nobody if one voids it). A Location with a face-down Enemy is counted for nobody
    and listed in `unknown`: only the turning up can say whether a voiding Enemy lies there,
    so its points are the attacker's or no one's. Once the game is over every attack is face
    up (C-R30) and `vp` is the final score."""
    cs = s.cs
    over = s.phase == OVER
    vp = [0] * s.game.players
    unknown = []
    for L, card in enumerate(s.loc_card):
        ens = s.loc_en[L]
        if not ens:
            vp[s.loc_owner[L]] += cs.vp[card]
        elif not over and any(not s.loc_up[L] >> i & 1 for i in range(len(ens))):
            unknown.append(L)
        elif not any(cs.is_enemy[e] and "voids-location" in cs.effects[e] for e in ens):
            vp[s.loc_att[L]] += cs.vp[card]
    return {"vp": vp, "unknown": unknown}


def victory_points(s: CardGameState) -> list[int]:
    """Own Locations with no Enemy cards, plus Locations this seat attacks; a Location with
    a location-voiding Enemy (Papal Mainframe) in its attack scores for nobody."""
    cs = s.cs
    out = [0] * s.game.players
    for L, card in enumerate(s.loc_card):
        ens = s.loc_en[L]
        if not ens:
            out[s.loc_owner[L]] += cs.vp[card]
            continue
        if any(cs.is_enemy[e] and "voids-location" in cs.effects[e] for e in ens):
            continue
        out[s.loc_att[L]] += cs.vp[card]
    return out
