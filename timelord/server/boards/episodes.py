"""Episodes: the hand grouped by suit with progress toward an episode, the pile, what this
seat knows of other hands and of the deck, and scores against the target.

Suits carry a letter and a shape besides their colour. A card in hand carries the action
that uses it now (its ability, keep it, discard it); each playable episode is a button that
shows its sums, so a new player sees why it scores.
"""

from __future__ import annotations

from typing import Any

from timelord.core.action import Action
from timelord.games.episodes.actions import ChooseOpponent, PlayEpisode, UseAbility
from timelord.games.episodes.cards import ABILITY_TEXT, CODE_OF, DEFENDERS, SUITS, THREAT
from timelord.games.episodes.game import EpisodesGame
from timelord.server.boards.common import (
    Model,
    Snapshot,
    act_attrs,
    action_buttons,
    card,
    frame,
    plural,
    result_panel,
    seat_chip,
)

#: A shape and letter per suit, so colour is never the only cue.
SUIT_MARK = {
    "Doctor": "◆ D",
    "Companion": "● C",
    "Gadget": "▲ G",
    "Foe": "✖ F",
    "Plot": "■ P",
    "Special": "★ S",
}
PHASE_TEXT = {
    "action": "Action phase: you may discard one card to use its ability.",
    "target": "Choose the opponent for the ability.",
    "keep": "Choose which drawn card to keep.",
    "episode": "Episode phase: you may play one episode (one card of each suit).",
    "discard": "Discard down to 7 cards.",
    "over": "The game is over.",
}


def _split(label: str) -> tuple[str, int]:
    suit, _, fp = label.partition(" ")
    return suit, int(fp)


def _name(game: EpisodesGame, label: str) -> str:
    code = CODE_OF.get(label)
    return game.deck.name(code) if code is not None else label


def _card_of(
    snap: Snapshot,
    game: EpisodesGame,
    label: str,
    acts: list[Action],
    css: str = "",
    probe: bool = False,
) -> Model:
    """A card by its label; a hand card (`probe`) that offers no move now can be asked why
    it cannot be discarded for its ability."""
    suit, fp = _split(label)
    ability = ABILITY_TEXT[SUITS.index(suit)] if suit in SUITS else ""
    side = "Defender" if suit in SUITS and SUITS.index(suit) in DEFENDERS else "Threat"
    return card(
        snap,
        _name(game, label),
        f"{SUIT_MARK.get(suit, '')} {suit}",
        number=fp,
        corner=side[:1],
        text=f"{side} card, {fp} FP. Discard for its ability: {ability}.",
        actions=acts,
        css=f"suit-{suit} {css}",
        data={"card": label},
        probe=UseAbility(suit, fp) if probe else None,
    )


def _acts_for(snap: Snapshot, label: str) -> list[Action]:
    suit, fp = _split(label)
    return [
        a for a in snap.legal if getattr(a, "suit", None) == suit and getattr(a, "fp", None) == fp
    ]


def render(snap: Snapshot) -> str:
    """The Episodes board for one seat."""
    game = snap.game
    assert isinstance(game, EpisodesGame)
    view = snap.view
    pile = view.get("discard") or []
    drawn = view.get("drawn") or []
    winners = view.get("winners") or []
    result = result_panel(snap, view["vp"] if snap.over else None, winners)
    board = {
        "seats": _seats(snap, view),
        "round": view["round"],
        "max_rounds": view["max_rounds"],
        "target": view["target"],
        "deck_size": view["deck_size"],
        "reshuffles": view["reshuffles"],
        "phase": PHASE_TEXT.get(view["phase"], view["phase"]) if snap.my_turn else "",
        "controls": _controls(snap),
        "drawn": (
            [_card_of(snap, game, x, _acts_for(snap, x)) for x in drawn]
            if drawn and snap.seat is not None
            else []
        ),
        "hand": _hand(snap, game, view),
        "episodes": _episodes(snap),
        "pile_count": plural(len(pile), "card"),
        # the whole pile is public (E-8.2): every card of it, newest first
        "pile": [_card_of(snap, game, x, [], "mini") for x in reversed(pile)],
        "deck_top": ", ".join(view.get("deck_top") or []),
    }
    return frame(snap, "Episodes", "episodes.html", board, result)


def _seats(snap: Snapshot, view: dict[str, Any]) -> list[Model]:
    target = max(1, int(view["target"]))
    out = []
    for s, vp in enumerate(view["vp"]):
        known = view["known_hands"][s] if s != snap.seat else []
        knows = view["known_by"][s] if snap.seat is not None and s != snap.seat else []
        acts = [a for a in snap.legal if isinstance(a, ChooseOpponent) and a.seat == s]
        cls = "seat-box to-move" if s == snap.to_move and not snap.over else "seat-box"
        if acts:
            cls += " can-act"
        out.append(
            {
                "cls": cls,
                "seat": s,
                "attrs": act_attrs(snap, acts, "Target"),
                "chip": seat_chip(snap, s),
                "vp": vp,
                "target": target,
                "cards": plural(view["hand_sizes"][s], "card"),
                "pct": min(100, round(100 * vp / target)),
                "known": ", ".join(known),
                "knows": ", ".join(knows),
            }
        )
    return out


def _hand(snap: Snapshot, game: EpisodesGame, view: dict[str, Any]) -> Model | None:
    """The hand by suit with the best episode it holds (None for a spectator)."""
    if snap.seat is None:
        return None
    hand: list[str] = list(view.get("hand") or [])
    rows = []
    for i, suit in enumerate(SUITS):
        cards = [x for x in hand if _split(x)[0] == suit]
        rows.append(
            {
                "suit": suit,
                "mark": SUIT_MARK[suit],
                "side": "Defender" if i in DEFENDERS else "Threat",
                "have": "✓" if cards else "✗ missing",
                "cards": [
                    _card_of(snap, game, x, _acts_for(snap, x), "small", probe=True) for x in cards
                ],
                "ability": ABILITY_TEXT[i],
            }
        )
    return {"size": len(hand), "best": _best(hand), "rows": rows}


def _best(hand: list[str]) -> tuple[int, int] | None:
    """The highest-scoring legal episode the hand holds: (defence FP, threat FP)."""
    by = [sorted({_split(x)[1] for x in hand if _split(x)[0] == s}) for s in SUITS]
    if not all(by):
        return None
    defence = sum(max(by[i]) for i in DEFENDERS)
    threat_options = sorted(
        (a + b + c for a in by[THREAT[0]] for b in by[THREAT[1]] for c in by[THREAT[2]]),
        reverse=True,
    )
    for t in threat_options:
        if defence > t:
            return defence, t
    return None


def _episodes(snap: Snapshot) -> list[Model]:
    plays = [a for a in snap.legal if isinstance(a, PlayEpisode)]
    out = []
    for a in sorted(plays, key=lambda x: -sum(x.fps[i] for i in THREAT)):
        fps = a.fps
        out.append(
            {
                "attrs": act_attrs(snap, [a]),
                "defence": " + ".join(f"{SUITS[i]} {fps[i]}" for i in DEFENDERS),
                "threat": " + ".join(f"{SUITS[i]} {fps[i]}" for i in THREAT),
                "dsum": sum(fps[i] for i in DEFENDERS),
                "tsum": sum(fps[i] for i in THREAT),
            }
        )
    return out


def _controls(snap: Snapshot) -> list[Model]:
    names = {"SkipAbility", "SkipEpisode"}
    return action_buttons(snap, [a for a in snap.legal if type(a).__name__ in names])
