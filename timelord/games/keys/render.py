"""Plain-text picture of a Keys to the TARDIS view, readable in any terminal.

Each tile is five characters: colour letter, door (# closed, . open), what is behind it
(? unseen, o Open Door, D Dalek, K TARDIS Key, X Extra Turn, T Teleport), an overlay
(* Time Barrier, c Jam Cookie, + both) and the seat number of a pawn standing there. The
Control tile shows as (CC). Time Tunnels are drawn as \\ or / between the rows they join.
"""

from __future__ import annotations

from typing import Any

from timelord.core import View
from timelord.games.keys.board import BACK_IDS, BACK_NAMES
from timelord.games.keys.state import KeysRules
from timelord.games.keys.text import plural

_BACK_LETTERS = {
    "open": "o",
    "dalek": "D",
    "tardis-key": "K",
    "extra-turn": "X",
    "teleport": "T",
    None: "?",
}
_LETTER_OF_BACK = {back: letter for back, letter in _BACK_LETTERS.items() if back is not None}


def legend(game: KeysRules) -> list[str]:
    """Every symbol of the grid, colours from the game's data (one short line each)."""
    content = game.content
    colours = ", ".join(
        f"{letter} {cid}"
        for cid, letter in zip(content.colour_ids, content.colour_letters, strict=True)
    )
    backs = ", ".join(
        f"{_LETTER_OF_BACK[back]} {name}"
        for back, name in zip(BACK_IDS, BACK_NAMES, strict=True)
        if back in _LETTER_OF_BACK
    )
    return [
        "Legend: a tile reads colour, door, back, overlay, pawn (R.Dc1: red, open, Dalek",
        "  Door, Jam Cookie, Seat 1's pawn).",
        f"  colour  {colours}",
        "  door    # closed, . open",
        f"  back    ? not seen yet, {backs}",
        "  overlay * Time Barrier, c Jam Cookie, + both",
        f"  pawn    0-{game.players - 1}: the seat whose pawn stands there",
        f"  (CC) TARDIS Control ({game.tables.geo.tile_name(game.tables.control)}); \\ or / "
        "between rows: a Time Tunnel across that corner",
    ]


def _cell(
    view: View, t: int, control: int, letters: dict[str, str], pawn_at: dict[int, int]
) -> str:
    pawn = str(pawn_at[t]) if t in pawn_at else " "
    if t == control:
        return "(CC)" + pawn
    colour = letters.get(view["colours"][t], "?")
    if len(colour) > 1:  # ANSI-wrapped letter: keep the pawn bold too
        pawn = f"\x1b[1m{pawn}\x1b[0m" if pawn != " " else pawn
    door = "." if t in view["open"] else "#"
    back = _BACK_LETTERS.get(view["backs"][t], "?")
    barrier, cookie = t in view["barriers"], t in view["cookies"]
    overlay = "+" if barrier and cookie else "*" if barrier else "c" if cookie else " "
    return f"{colour}{door}{back}{overlay}{pawn}"


def render_view(game: KeysRules, view: View, ansi: bool = False) -> str:
    """The grid, a legend and each seat's situation; `ansi` colours the door letters."""
    content = game.content
    letters = dict(zip(content.colour_ids, content.colour_letters, strict=True))
    if ansi:
        for cid, code in zip(content.colour_ids, content.colour_ansi, strict=True):
            letters[cid] = f"\x1b[{code}m{letters[cid]}\x1b[0m"
    pawn_at = {p: s for s, p in enumerate(view["pawns"]) if p is not None}
    geo = game.tables.geo
    size = geo.size
    slash: dict[tuple[int, int], str] = {}
    for a, b in view["tunnels"]:
        ra, ca = divmod(min(a, b), size)
        cb = max(a, b) % size
        slash[(ra, min(ca, cb))] = "\\" if cb > ca else "/"
    lines: list[str] = []
    files = "   " + " ".join(f"  {geo.tile_name(c)[0]}  " for c in range(size))
    lines.append(files)
    for r in range(size):
        cells = [_cell(view, r * size + c, geo.control, letters, pawn_at) for c in range(size)]
        lines.append(f"{size - r}  " + "|".join(cells) + f"  {size - r}")
        if r < size - 1:
            spacer = "   " + "".join(
                "-----" + (slash.get((r, c), "+") if c < size - 1 else "") for c in range(size)
            )
            lines.append(spacer)
    lines.append(files)
    lines.extend(legend(game))
    lines.extend(_status(game, view))
    return "\n".join(lines)


def _status(game: KeysRules, view: View) -> list[str]:
    names = dict(zip(game.content.card_ids, game.content.card_names, strict=True))
    out: list[str] = []
    phase = view["phase"]
    if phase == "over":
        winner = view["winner"]
        if winner is None:
            out.append(f"Game over after {view['round']} rounds: no winner (round limit).")
        else:
            out.append(f"Game over: {game.seat_name(winner)} escaped the TARDIS.")
    else:
        what = {"play": "to play a card", "move": "to move", "bonus": "to use a TARDIS Key"}
        extra = " (extra turn)" if view["extra_turn"] else ""
        out.append(
            f"Round {view['round'] + 1} of {view['round_limit']}: "
            f"{game.seat_name(view['to_move'])} {what[phase]}{extra}."
        )
    for seat, edge in enumerate(view["edges"]):
        pos = view["pawns"][seat]
        where = f"off the board ({edge} edge)"
        if pos is not None:
            where = f"on {game.tables.geo.tile_name(pos)}"
        notes = [plural(view["hand_sizes"][seat], "card")]
        if view["pandorica"][seat]:
            notes.append(f"in the Pandorica for {plural(view['pandorica'][seat], 'more turn')}")
        if view["bonus_used"][seat]:
            used = view["bonus_used"][seat]
            notes.append("used " + ", ".join(game.tables.geo.tile_name(t) for t in used))
        out.append(f"  {game.seat_name(seat)}: {where}; " + "; ".join(notes))
    pile = view["discard"]
    top = names.get(pile[-1], pile[-1]) if pile else "empty"
    out.append(
        f"Draw pile: {plural(view['deck_size'], 'card')}. "
        f"Discard pile: {plural(len(pile), 'card')} (top: {top})."
    )
    if view["reshuffled"]:
        out.append(f"The draw pile was last rebuilt from {len(view['reshuffled'])} discards.")
    if view["seat"] is not None:
        hand: list[Any] = [names.get(c, c) for c in view["hand"]]
        out.append(f"Your hand: {', '.join(hand) if hand else '(empty)'}")
    return out


__all__ = ["legend", "render_view"]
