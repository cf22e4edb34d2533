"""Support cards (C-4.6 and the C-card-* clauses): what each may target and what it does."""

from __future__ import annotations

from typing import Final

from timelord.core import Action
from timelord.games.card_game.actions import PlaySupport
from timelord.games.card_game.rules.common import (
    daleks_in_play,
    discard_attack,
    draw,
    end_attack,
    gain,
    hand_remove,
    left,
    place_tardis,
    publish,
    reserve_capacity,
    reserve_remove,
    reserve_used,
    tardis_in_play,
    to_discard,
)
from timelord.games.card_game.rules.conflict import start_conflict
from timelord.games.card_game.rules.intern import card_actions
from timelord.games.card_game.rules.tell import place, say
from timelord.games.card_game.rules.turn import after_action
from timelord.games.card_game.state import CLEVER, JACK, REGEN, UPRES, CardGameState

#: Effects played with no target (a set built once, not on every listing).
_UNTARGETED: Final = frozenset({"remove-tardis", "count-tardis", "count-daleks", "regenerate"})


def attacked_own(s: CardGameState, p: int) -> list[int]:
    return [L for L, o in enumerate(s.loc_owner) if o == p and s.loc_att[L] >= 0]


def defeat_target_ok(s: CardGameState, c: int, L: int) -> bool:
    """Bad Wolf needs a face-up attack holding a card of its type; Jammy Dodger and K-9
    take any attack."""
    cs = s.cs
    if cs.param(c, "needs_face_up", False) and s.loc_up[L] != (1 << len(s.loc_en[L])) - 1:
        return False
    need = cs.param(c, "needs_type", "")
    return not need or any(cs.is_enemy[e] and cs.type[e] == need for e in s.loc_en[L])


def support_actions(s: CardGameState, p: int, c: int, h: int, mh: int, out: list[Action]) -> None:
    """Append the plays of support card `c` (in hand) for seat p; h cards in hand."""
    cs = s.cs
    eff = cs.effects[c]
    if "valiant" in eff:
        return  # only inside a lost defence (C-card-the-valiant)
    if "reveal-attack" in eff:
        for L in attacked_own(s, p):
            out.append(card_actions(c).play_support_at(c, L))
    elif "reserve-slot" in eff:
        out.append(card_actions(c).play_support(c))
    elif "ironsides" in eff:
        if reserve_used(s, p) < reserve_capacity(s, p):
            out.append(card_actions(c).play_support(c))
    elif "discard-enemy" in eff:
        for L in attacked_own(s, p):
            for i in range(len(s.loc_en[L])):
                out.append(card_actions(c).play_support_at(c, L, i))
    elif "redirect" in eff:
        for L in attacked_own(s, p):
            att = s.loc_att[L]
            for M, o in enumerate(s.loc_owner):
                if o != p and o != att and s.loc_att[M] < 0:
                    out.append(card_actions(c).play_support_at(c, L, M))
    elif "defeat-attack" in eff:
        for L in attacked_own(s, p):
            if not defeat_target_ok(s, c, L):
                continue
            if cs.param(c, "discard_defender", False):
                prev = -1
                if h - 2 >= mh:
                    for d in s.hands[p]:
                        if cs.is_defender[d] and cs.design[d] != prev:
                            prev = cs.design[d]
                            out.append(card_actions(c).play_support_at(c, L, -1, d))
                prev = -1
                for d in s.reserve[p]:
                    if cs.is_defender[d] and cs.design[d] != prev:
                        prev = cs.design[d]
                        out.append(card_actions(c).play_support_at(c, L, -1, d))
            else:
                out.append(card_actions(c).play_support_at(c, L))
    elif not eff.isdisjoint(_UNTARGETED):
        out.append(card_actions(c).play_support(c))


def apply_support(s: CardGameState, a: PlaySupport) -> None:
    cs = s.cs
    p = s.active
    c = a.card
    eff = cs.effects[c]
    hand_remove(s, p, c)
    publish(s, (c,))
    if s.log is not None:
        at = place(s, a.location) if a.location >= 0 else {}
        if s.log is not None:
            say(s, "play-support", actor=p, card=c, target=a.target, extra=a.extra, **at)
    if cs.param(c, "stays", False):
        s.own(UPRES)
        s.upres[p] = (*s.upres[p], c)
    else:
        to_discard(s, (c,))
    L = a.location
    if "reveal-attack" in eff:
        s.loc_up[L] = (1 << len(s.loc_en[L])) - 1
        publish(s, s.loc_en[L])
        if s.log is not None:
            say(s, "reveal", actor=None, defenders=[], enemies=list(s.loc_en[L]), **place(s, L))
        gain(s, p, cs.tp[c])
    elif "remove-tardis" in eff:
        gain(s, p, cs.tp[c])
        if any(s.loc_tardis):
            s.phase = CLEVER
            s.p_n = int(cs.param(c, "count", 3))
            return
    elif "discard-enemy" in eff:
        ens = list(s.loc_en[L])
        e = ens.pop(a.target)
        up = s.loc_up[L]
        low = up & ((1 << a.target) - 1)
        s.loc_up[L] = low | ((up >> (a.target + 1)) << a.target)
        s.loc_en[L] = tuple(ens)
        to_discard(s, (e,))
        if s.log is not None:
            say(s, "discard", actor=s.loc_att[L], cards=[e], why="support", **place(s, L))
        if not ens:
            end_attack(s, L)
            o = s.loc_owner[L]
            if tardis_in_play(s, o) < cs.constants.counters and not s.loc_tardis[L]:
                s.phase = JACK
                s.p_loc = L
                return
    elif "count-tardis" in eff or "count-daleks" in eff:
        count = tardis_in_play if "count-tardis" in eff else daleks_in_play
        q = p
        for _ in range(s.game.players):
            n = count(s, q) + (int(cs.param(c, "bonus", 2)) if q == p else 0)
            gain(s, q, n)
            q = left(s, q)
    elif "redirect" in eff:
        M = a.target
        if s.log is not None:
            say(s, "move-attack", actor=s.loc_att[L], to=M, to_place=s.loc_card[M], **place(s, L))
        s.loc_en[M] = s.loc_en[L]
        s.loc_up[M] = s.loc_up[L]
        s.loc_att[M] = s.loc_att[L]
        end_attack(s, L)
        if s.loc_tardis[M]:
            s.loc_tardis[M] = False
            if s.log is not None:
                say(s, "tardis", actor=s.loc_owner[M], placed=False, **place(s, M))
            discard_attack(s, M)
        elif s.loc_def[M]:
            start_conflict(s, M, ())
            return
    elif "defeat-attack" in eff:
        if a.extra >= 0:
            d = a.extra
            if d in s.hands[p]:
                hand_remove(s, p, d)
            else:
                reserve_remove(s, p, d)
            to_discard(s, (d,))
            if s.log is not None:
                say(s, "discard", actor=p, cards=[d], why="support")
        discard_attack(s, L)
        place_tardis(s, L)
    elif "regenerate" in eff:
        s.phase = REGEN
        s.p_n = 0
        return
    after_action(s)


def finish_regeneration(s: CardGameState) -> None:
    if s.log is not None:
        say(s, "regenerate", actor=s.active, count=s.p_n + 1)
    draw(s, s.active, s.p_n + 1)
    after_action(s)
