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
    Snapshot,
    act_attrs,
    card,
    esc,
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
) -> str:
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
        css=f"suit-{esc(suit)} {css}",
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
    target = view["target"]
    seats = _seats(snap, game, view)
    phase = PHASE_TEXT.get(view["phase"], view["phase"]) if snap.my_turn else ""
    info = (
        f'<p class="stat">Round {esc(view["round"])} of {esc(view["max_rounds"])} · '
        f"first to {esc(target)} VP wins · deck {esc(view['deck_size'])} cards "
        f"(reshuffled {esc(view['reshuffles'])} times)</p>"
    )
    if phase:
        info += f'<p class="phase-hint">{esc(phase)}</p>'
    pile = view.get("discard") or []
    # the whole pile is public (E-8.2): every card of it, newest first
    pile_html = "".join(_card_of(snap, game, x, [], "mini") for x in reversed(pile))
    top = view.get("deck_top") or []
    known_top = (
        f'<p class="stat">You know the next cards of the deck: {esc(", ".join(top))}</p>'
        if top
        else ""
    )
    drawn = view.get("drawn") or []
    drawn_html = ""
    if drawn and snap.seat is not None:
        drawn_html = (
            '<h3 class="section-title">Drawn by the Gadget: keep one</h3><div class="hand">'
            + "".join(_card_of(snap, game, x, _acts_for(snap, x)) for x in drawn)
            + "</div>"
        )
    winners = view.get("winners") or []
    result = result_panel(snap, view["vp"] if snap.over else None, winners)
    board = (
        f'<div class="episodes">{seats}{info}{_controls(snap)}{drawn_html}'
        f'<div class="ep-main"><div>{_hand(snap, game, view)}</div>'
        f"<div>{_episodes(snap)}"
        f'<h3 class="section-title">Pile (newest first, {plural(len(pile), "card")})</h3>'
        f'<div class="row pile">{pile_html or "<span class=muted>empty</span>"}</div>{known_top}'
        "</div></div></div>"
    )
    return frame(snap, "Episodes", board, result)


def _seats(snap: Snapshot, game: EpisodesGame, view: dict[str, Any]) -> str:
    target = max(1, int(view["target"]))
    parts = []
    for s, vp in enumerate(view["vp"]):
        pct = min(100, round(100 * vp / target))
        known = view["known_hands"][s] if s != snap.seat else []
        knows = view["known_by"][s] if snap.seat is not None and s != snap.seat else []
        lines = ""
        if known:
            lines += f'<div class="stat">you know they hold: {esc(", ".join(known))}</div>'
        if knows:
            lines += f'<div class="stat">they know you hold: {esc(", ".join(knows))}</div>'
        acts = [a for a in snap.legal if isinstance(a, ChooseOpponent) and a.seat == s]
        cls = "seat-box to-move" if s == snap.to_move and not snap.over else "seat-box"
        if acts:
            cls += " can-act"
        parts.append(
            f'<div class="{cls}" data-seat="{s}"{act_attrs(snap, acts, "Target")}>'
            f'{seat_chip(snap, s)}<span class="stat">{esc(vp)} / {esc(target)} VP · '
            f"{esc(plural(view['hand_sizes'][s], 'card'))}</span>"
            f'<div class="vpbar" role="img" aria-label="{esc(vp)} of {esc(target)} VP">'
            f'<span style="width:{pct}%"></span></div>{lines}</div>'
        )
    return f'<div class="seats">{"".join(parts)}</div>'


def _hand(snap: Snapshot, game: EpisodesGame, view: dict[str, Any]) -> str:
    if snap.seat is None:
        return ""
    hand: list[str] = list(view.get("hand") or [])
    rows = []
    for i, suit in enumerate(SUITS):
        cards = [x for x in hand if _split(x)[0] == suit]
        side = "Defender" if i in DEFENDERS else "Threat"
        have = "✓" if cards else "✗ missing"
        body = "".join(
            _card_of(snap, game, x, _acts_for(snap, x), "small", probe=True) for x in cards
        )
        rows.append(
            f'<div class="suit-row suit-{suit}"><div class="suit-label">'
            f'<span class="suit-mark">{SUIT_MARK[suit]}</span> {suit}<br>'
            f'<span class="stat">{side} · {have}</span></div><div class="row">{body}</div>'
            f'<div class="ability">discard one to {esc(ABILITY_TEXT[i])}</div></div>'
        )
    best = _best(hand)
    summary = (
        f'<p class="stat">Best episode in hand: defenders {best[0]} FP vs threat {best[1]} FP'
        f" → {best[1]} VP</p>"
        if best
        else '<p class="stat">No episode in hand yet: you need a card of every suit, with '
        "the defenders' FP above the threat's.</p>"
    )
    return (
        f'<h3 class="section-title">Your hand ({len(hand)})</h3>{summary}'
        f"<div data-hand>{''.join(rows)}</div>"
    )


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


def _episodes(snap: Snapshot) -> str:
    plays = [a for a in snap.legal if isinstance(a, PlayEpisode)]
    if not plays:
        return ""
    rows = []
    for a in sorted(plays, key=lambda x: -sum(x.fps[i] for i in THREAT)):
        fps = a.fps
        d = " + ".join(f"{SUITS[i]} {fps[i]}" for i in DEFENDERS)
        t = " + ".join(f"{SUITS[i]} {fps[i]}" for i in THREAT)
        dsum, tsum = sum(fps[i] for i in DEFENDERS), sum(fps[i] for i in THREAT)
        rows.append(
            f'<li><button class="episode"{act_attrs(snap, [a])}>'
            f"<strong>+{tsum} VP</strong>: {esc(d)} = {dsum} FP beats {esc(t)} = {tsum} FP"
            "</button></li>"
        )
    return (
        f'<h3 class="section-title">Episodes you can play ({len(plays)})</h3>'
        f'<ul class="episodes-list">{"".join(rows)}</ul>'
    )


def _controls(snap: Snapshot) -> str:
    names = {"SkipAbility", "SkipEpisode"}
    acts = [a for a in snap.legal if type(a).__name__ in names]
    if not acts:
        return ""
    buttons = "".join(f"<button{act_attrs(snap, [a])}>{esc(snap.label(a))}</button>" for a in acts)
    return f'<div class="turn-controls">{buttons}</div>'
