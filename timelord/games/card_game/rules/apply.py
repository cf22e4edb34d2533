"""Carry out one action on a fresh copy of the state."""

from __future__ import annotations

from typing import Final

from timelord.core import Action
from timelord.games.card_game.actions import (
    BuyCards,
    DiscardEnemies,
    DiscardForTime,
    DiscardToRegenerate,
    EndTurn,
    Finish,
    Pass,
    PickUp,
    PlaceReserve,
    PlaceTardis,
    PlayDefender,
    PlayEnemy,
    PlayLocation,
    PlaySupport,
    PlayValiant,
    RemoveTardis,
    TakeOver,
    TakeTime,
    UseIronsides,
)
from timelord.games.card_game.rules.common import (
    draw,
    gain,
    hand_add,
    hand_remove,
    hide_from_hand,
    pay,
    place_tardis,
    publish,
    reserve_remove,
    steal,
    to_discard,
)
from timelord.games.card_game.rules.conflict import (
    discard_enemies,
    play_valiant,
    start_conflict,
    use_ironsides,
)
from timelord.games.card_game.rules.supports import apply_support, finish_regeneration
from timelord.games.card_game.rules.tell import place, say, say_hidden
from timelord.games.card_game.rules.turn import after_action, end_turn
from timelord.games.card_game.state import (
    ATTACK,
    CLEVER,
    DEFEND,
    IRON,
    JACK,
    MAIN,
    REGEN,
    RESERVE,
    TAKE,
    VALIANT,
    CardGameState,
)

# The action classes as native constants for the dispatch of `apply_action`: a class imported
# from an interpreted module (actions.py) is looked up in this module's dict, by name, on
# every use, and a move tested up to 19 of them.
_PICK_UP: Final = PickUp
_DISCARD_FOR_TIME: Final = DiscardForTime
_PLACE_RESERVE: Final = PlaceReserve
_PLAY_DEFENDER: Final = PlayDefender
_PLAY_ENEMY: Final = PlayEnemy
_FINISH: Final = Finish
_END_TURN: Final = EndTurn
_PLAY_LOCATION: Final = PlayLocation
_TAKE_TIME: Final = TakeTime
_BUY_CARDS: Final = BuyCards
_PLAY_SUPPORT: Final = PlaySupport
_TAKE_OVER: Final = TakeOver
_REMOVE_TARDIS: Final = RemoveTardis
_PLACE_TARDIS: Final = PlaceTardis
_PASS: Final = Pass
_USE_IRONSIDES: Final = UseIronsides
_PLAY_VALIANT: Final = PlayValiant
_DISCARD_TO_REGENERATE: Final = DiscardToRegenerate
_DISCARD_ENEMIES: Final = DiscardEnemies

_ACTIVE_PHASES: Final = (MAIN, DEFEND, ATTACK, TAKE, CLEVER, JACK, REGEN)


def apply_action(s: CardGameState, a: Action) -> None:
    """Every branch whose action may touch a Location copies the shared location lists
    first (`own_locations`); the others (picking up, reserving, discarding, declaring,
    buying, ending the turn, taking Time Points) never do. Asked per branch, not of a set
    of the classes: one hash look-up less on every move."""
    if s.phase in _ACTIVE_PHASES:
        s.steps += 1
    p = s.active
    t = type(a)
    if t is _PICK_UP:
        c = a.card  # type: ignore[attr-defined]
        reserve_remove(s, p, c)
        hand_add(s, p, c)
        if s.log is not None:
            say_hidden(s, "pick-up", (c,), actor=p)
    elif t is _DISCARD_FOR_TIME or t is _PLACE_RESERVE:
        cards = a.cards  # type: ignore[attr-defined]
        for c in cards:
            hand_remove(s, p, c)
        if t is _DISCARD_FOR_TIME:
            to_discard(s, cards)
            if s.log is not None:
                say(s, "discard", actor=p, cards=list(cards), why="time")
            gain(s, p, len(cards))
        else:
            for c in cards:
                hide_from_hand(s, p, c)
            s.own(RESERVE)
            s.reserve[p] = tuple(sorted(s.reserve[p] + cards))
            s.newres = s.newres + cards
            if s.log is not None:
                say_hidden(s, "reserve", cards, actor=p)
        after_action(s)
    elif t is _PLAY_DEFENDER or t is _PLAY_ENEMY:
        c = a.card  # type: ignore[attr-defined]
        hand_remove(s, p, c)
        hide_from_hand(s, p, c)
        if s.phase == MAIN:
            s.phase = DEFEND if t is _PLAY_DEFENDER else ATTACK
            s.p_loc = a.location  # type: ignore[attr-defined]
            s.p_cards = (c,)
        else:
            s.p_cards = (*s.p_cards, c)
        if s.log is not None:
            role = "defender" if t is _PLAY_DEFENDER else "enemy"
            if s.log is not None:
                say_hidden(s, "declare", (c,), actor=p, role=role, **place(s, s.p_loc))
    elif t is _FINISH:
        s.own_locations()
        _finish(s)
    elif t is _END_TURN:
        end_turn(s)
    elif t is _PLAY_LOCATION:
        s.own_locations()
        c = a.card  # type: ignore[attr-defined]
        hand_remove(s, p, c)
        publish(s, (c,))
        s.loc_card.append(c)
        s.loc_owner.append(p)
        s.loc_def.append(())
        s.loc_en.append(())
        s.loc_up.append(0)
        s.loc_att.append(-1)
        s.loc_tardis.append(False)
        if s.log is not None:
            say(s, "play-location", actor=p, card=c, **place(s, len(s.loc_card) - 1))
        short = gain(s, p, s.cs.tp[c])
        if short > 0 and any(s.tp[q] > 0 for q in range(s.game.players) if q != p):
            s.phase = TAKE
            s.p_n = short
            return
        after_action(s)
    elif t is _TAKE_TIME:
        steal(s, p, a.seat, 1)  # type: ignore[attr-defined]
        s.p_n -= 1
        if s.p_n <= 0 or not any(s.tp[q] > 0 for q in range(s.game.players) if q != p):
            after_action(s)
    elif t is _BUY_CARDS:
        n = a.count  # type: ignore[attr-defined]
        pay(s, p, n * s.cs.constants.buy_cost)
        if s.log is not None:
            say(s, "buy", actor=p, count=n, cost=n * s.cs.constants.buy_cost)
        draw(s, p, n)
        after_action(s)
    elif t is _PLAY_SUPPORT:
        s.own_locations()
        apply_support(s, a)  # type: ignore[arg-type]
    elif t is _TAKE_OVER:
        s.own_locations()
        c = a.card  # type: ignore[attr-defined]
        L = a.location  # type: ignore[attr-defined]
        hand_remove(s, p, c)
        publish(s, (c,))
        if s.log is not None:
            say(s, "take-over", actor=p, card=c, previous=s.loc_att[L], **place(s, L))
        s.loc_en[L] = (*s.loc_en[L], c)
        s.loc_up[L] = (1 << len(s.loc_en[L])) - 1
        s.loc_att[L] = p
        after_action(s)
    elif t is _REMOVE_TARDIS:
        s.own_locations()
        s.loc_tardis[a.location] = False  # type: ignore[attr-defined]
        if s.log is not None:
            L = a.location  # type: ignore[attr-defined]
            if s.log is not None:
                say(s, "tardis", actor=s.loc_owner[L], by=p, placed=False, **place(s, L))
        s.p_n -= 1
        if s.p_n <= 0 or not any(s.loc_tardis):
            after_action(s)
    elif t is _PLACE_TARDIS:
        s.own_locations()
        place_tardis(s, s.p_loc)
        after_action(s)
    elif t is _PASS:
        s.own_locations()
        if s.phase == JACK:
            if s.log is not None:
                say(s, "decline", actor=p, choice="tardis")
            after_action(s)
        elif s.phase == IRON:
            use_ironsides(s, False)
        else:
            assert s.phase == VALIANT
            play_valiant(s, None)
    elif t is _USE_IRONSIDES:
        s.own_locations()
        use_ironsides(s, True)
    elif t is _PLAY_VALIANT:
        s.own_locations()
        play_valiant(s, a.card)  # type: ignore[attr-defined]
    elif t is _DISCARD_TO_REGENERATE:
        c = a.card  # type: ignore[attr-defined]
        hand_remove(s, p, c)
        to_discard(s, (c,))
        if s.log is not None:
            say(s, "discard", actor=p, cards=[c], why="regeneration")
        s.p_n += 1
    elif t is _DISCARD_ENEMIES:
        s.own_locations()
        discard_enemies(s, s.p_loc, a.cards)  # type: ignore[attr-defined]
    else:
        raise AssertionError(f"unknown action {a!r}")


def _finish(s: CardGameState) -> None:
    ph = s.phase
    p = s.active
    if ph == DEFEND:
        L = s.p_loc
        new = s.p_cards
        s.loc_def[L] = s.loc_def[L] + new
        if s.log is not None:
            say_hidden(s, "defend", new, actor=p, **place(s, L))
        if s.loc_en[L]:
            start_conflict(s, L, new)
        else:
            after_action(s)
    elif ph == ATTACK:
        L = s.p_loc
        cards = s.p_cards
        if s.loc_att[L] < 0 and s.loc_tardis[L]:
            # C-4.3: the attack is spent removing the TARDIS counter.
            s.loc_tardis[L] = False
            to_discard(s, cards)
            if s.log is not None:
                say(s, "attack-tardis", actor=p, cards=list(cards), **place(s, L))
            after_action(s)
            return
        if s.log is not None:
            say_hidden(s, "attack", cards, actor=p, new=s.loc_att[L] < 0, **place(s, L))
        s.loc_att[L] = p
        s.loc_en[L] = s.loc_en[L] + cards
        if s.loc_def[L]:
            start_conflict(s, L, ())
        else:
            after_action(s)
    elif ph == CLEVER:
        if s.log is not None:
            say(s, "decline", actor=p, choice="mr-clever")
        after_action(s)
    elif ph == REGEN:
        finish_regeneration(s)
    else:
        raise AssertionError(ph)
