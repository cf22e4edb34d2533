"""Why a move is refused (with the RULES.md clause) and one-line texts of moves per seat."""

from __future__ import annotations

from timelord.core import Action, GameOver, IllegalAction
from timelord.games.clue.actions import (
    Accuse,
    LookAtSideCard,
    Move,
    NameCard,
    PlayCard,
    ShowCard,
    StayPut,
    Target,
    UsePassage,
    UsePower,
)
from timelord.games.clue.board import TARDIS
from timelord.games.clue.state import (
    ANSWER,
    BELL,
    CENTRE,
    MOVE,
    NAME,
    OFFER,
    OVER,
    PEEK,
    PHASES,
    SCAN,
    SECOND,
    SIDE,
    SLIP,
    START,
    START_EFFECTS,
    TELEPORT,
    ClueRules,
    ClueState,
)

_WAITING = {
    START: ("start a turn: roll, take a passage, stay, accuse or play a card", "C-2"),
    MOVE: ("move the number rolled", "C-3.2"),
    TELEPORT: ("choose the location to move to", "C-6.4"),
    SCAN: ("choose whose hand to scan", "C-6.4"),
    SLIP: ("choose the nearest secret-passage location", "C-6.5"),
    NAME: ("name the next card", "C-4.1"),
    OFFER: ("decide whether to draw an intrigue card", "C-6.1"),
    ANSWER: ("show a card that answers the rumour", "C-4.3"),
    PEEK: ("decide whether to see the card just shown", "C-6.4"),
    SECOND: ("decide whether to ask for a second answer", "C-7.1"),
    SIDE: ("look at one side card not seen yet", "C-8.2"),
    CENTRE: ("accuse or end the turn", "C-5.1"),
    BELL: ("choose the location one closer to the centre (Cloister Bell)", "C-6.5"),
}


def _no_such(state: ClueState, action: Action) -> IllegalAction | None:
    """The refusal of an action naming a node, card, side card, seat or intrigue card that
    does not exist (actions built outside the legal list: API clients, edited records)."""
    g = state.game

    def bad(value: object, size: int) -> bool:
        return isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < size

    if isinstance(action, Move) and (
        bad(action.to, g.board.nodes) or action.to not in g.board.places
    ):
        return IllegalAction(f"there is no board node {action.to!r}", "C-3.2")
    if isinstance(action, UsePassage) and bad(action.location, g.board.rooms):
        return IllegalAction(f"there is no location {action.location!r}", "C-2.2")
    if isinstance(action, NameCard | ShowCard) and bad(action.card, len(g.card_names)):
        return IllegalAction(f"there is no card {action.card!r}", "C-4.1")
    if isinstance(action, LookAtSideCard) and bad(action.index, len(state.side)):
        if not state.side:
            return IllegalAction("side cards are only in the two-player variant", "C-8.2")
        return IllegalAction(f"there is no side card {action.index!r}", "C-8.2")
    if isinstance(action, Target) and bad(action.seat, g.players):
        return IllegalAction(f"there is no seat {action.seat!r} at this table", "C-6.4")
    if isinstance(action, PlayCard) and (
        not isinstance(action.card, str) or action.card not in g.effect
    ):
        return IllegalAction(f"there is no intrigue action card {action.card!r}", "C-6.4")
    return None


def why_illegal(state: ClueState, action: Action) -> IllegalAction:
    g = state.game
    ph = state.phase
    if ph == OVER:
        return GameOver("the game is over", "C-5.2")
    missing = _no_such(state, action)
    if missing is not None:
        return missing
    seat = state.dec
    wanted, rule = _WAITING[ph]
    here = state.pos[state.chars[seat]]
    kind = type(action)
    if ph in (TELEPORT, SLIP, BELL) and isinstance(action, Move):
        where = {
            TELEPORT: "any other location",
            SLIP: "a nearest secret-passage location",
            BELL: "one of the locations one closer to the centre",
        }[ph]
        return IllegalAction(f"{g.node_name(action.to)} is not {where}", rule)
    if ph == START:
        if kind is UsePassage:
            if here >= TARDIS:
                return IllegalAction("passages lead only from one location to another", "C-2.2")
            return IllegalAction(
                f"no secret passage or joining door leads from {g.node_name(here)} there",
                "C-2.2",
            )
        if kind is StayPut:
            return IllegalAction(
                "only a player whose mover another player's rumour moved into a location "
                "since their last turn may stay there and make a rumour",
                "C-4.2",
            )
        if kind is Accuse:
            return IllegalAction("accusations are made only from the TARDIS in the centre", "C-5.1")
        if kind is Move:
            return IllegalAction("roll the dice before moving", "C-3.1")
    if isinstance(action, PlayCard | UsePower) and state.out[seat]:
        what = "cards" if isinstance(action, PlayCard) else "powers"
        return IllegalAction(f"a player who is out plays no {what}", "C-5.3")
    if isinstance(action, PlayCard):
        card = action.card
        if card not in state.kept[seat]:
            return IllegalAction(f"you do not hold {g.intrigue_names[card]}", "C-6.4")
        return IllegalAction(
            f"{g.intrigue_names[card]} cannot be played now: {_timing(g.effect[card])}", "C-6.4"
        )
    if kind is UsePower:
        if not g.powers:
            return IllegalAction("character powers are not in this game", "C-8.1")
        if state.used[seat]:
            return IllegalAction("each character power is used once per game", "C-7.1")
        return IllegalAction(
            f"your power cannot be used now: {_timing(g.power_effect[state.chars[seat]])}", "C-7.1"
        )
    if ph == MOVE and isinstance(action, Move):
        return IllegalAction(
            f"{g.node_name(action.to)} cannot be reached with {state.steps} steps from "
            f"{g.node_name(here)} (orthogonal steps through doors; exact count to a plain square)",
            "C-3.2",
        )
    if ph == NAME and kind is NameCard:
        cat = ("suspect", "weapon", "location")[len(state.naming)]
        return IllegalAction(f"name a {cat} now", "C-4.1")
    if ph == ANSWER and kind is ShowCard:
        return IllegalAction("show one of your own cards that the rumour names", "C-4.4")
    if ph == SIDE and kind is LookAtSideCard:
        return IllegalAction("look at a side card you have not seen yet", "C-8.2")
    if ph == SCAN and kind is Target:
        return IllegalAction("scan another player who holds cards", "C-6.4")
    return IllegalAction(f"{_said(g, action)} is not allowed now: {wanted}", rule)


def _said(g: ClueRules, action: Action) -> str:
    """`str(action)` with this game's names (an action's own text uses the standard set's)."""
    if isinstance(action, NameCard | ShowCard):
        return f"{'name' if isinstance(action, NameCard) else 'show'} {g.card_name(action.card)}"
    if isinstance(action, Move):
        return f"move to {g.node_name(action.to)}"
    if isinstance(action, UsePassage):
        return f"take the passage to {g.node_name(action.location)}"
    return str(action)


def _timing(effect: str) -> str:
    if effect in START_EFFECTS:
        return "it is played at the start of your turn, before rolling"
    if effect == "plus-six":
        return "it is played after rolling, before moving"
    if effect == "peek":
        return "it is played when another player's rumour is answered"
    if effect == "second-answer":
        return "it is used when your own rumour has been answered"
    return "not now"


__all__ = ["PHASES", "why_illegal"]
