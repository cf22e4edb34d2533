"""Scoring (C-6.4)."""

from __future__ import annotations

from timelord.games.card_game.state import CardGameState


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
