"""Draw timelord's own art: small SVG icons, door tiles and dice faces, written to
timelord/server/static/art/ both as one file each (for CSS `mask-image`/`background-image`)
and as one symbol sprite (for `<svg><use href="/static/art/sprite.svg#ID"/></svg>` in templates).

Everything here is drawn from simple shapes by this script; nothing is traced or copied from
the published games. Run `python3 scripts/make_art.py` after changing a drawing; the output is
committed so the server needs no build step.
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "timelord" / "server" / "static" / "art"

#: Icons on a 24x24 grid, drawn in black so CSS can use them as masks (and colour them with
#: `currentColor` through `background-color`), or as sprite symbols with `fill: currentColor`.
ICONS: dict[str, str] = {
    # Card Game kinds
    "kind-defender": '<path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5z"/>',
    "kind-enemy": '<path d="M2 4h20l-2.5 9-2.3-5-2 10-3.2-10L9 18 6.8 8l-2.3 5z"/>',  # teeth
    "kind-location": (
        '<path d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5'
        'a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z"/>'
    ),
    "kind-support": '<path d="M10 3h4v7h7v4h-7v7h-4v-7H3v-4h7z"/>',
    "kind-start": '<path d="M5 2h2v20H5zM8 3h11l-3 4.5L19 12H8z"/>',
    # Episodes suits (each also has a letter on the card: colour is never the only cue)
    "suit-doctor": (
        '<path d="M10 2h4v3h-4zM9 6h6l-1 16h-4zM11 9h2v3h-2z" fill-rule="evenodd"/>'
    ),  # a screwdriver-like tool, upright
    "suit-companion": (
        '<circle cx="12" cy="7" r="4"/><path d="M4 22c0-4.4 3.6-8 8-8s8 3.6 8 8z"/>'
    ),
    "suit-gadget": (
        '<path d="M10.3 2h3.4l.5 2.6 1.9.8 2.2-1.5 2.4 2.4-1.5 2.2.8 1.9 2.6.5v3.4l-2.6.5'
        "-.8 1.9 1.5 2.2-2.4 2.4-2.2-1.5-1.9.8-.5 2.6h-3.4l-.5-2.6-1.9-.8-2.2 1.5-2.4-2.4"
        " 1.5-2.2-.8-1.9L2 13.7v-3.4l2.6-.5.8-1.9-1.5-2.2 2.4-2.4 2.2 1.5 1.9-.8zM12 8.5"
        'a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z" fill-rule="evenodd"/>'
    ),
    "suit-foe": (
        '<path d="M12 5C6 5 2 12 2 12s4 7 10 7 10-7 10-7-4-7-10-7zm0 11a4 4 0 1 1 0-8 4 4 0'
        ' 0 1 0 8z" fill-rule="evenodd"/>'
    ),
    "suit-plot": (
        '<path d="M5 3h11l3 3v15H5zM8 8h8v1.6H8zm0 4h8v1.6H8zm0 4h5v1.6H8z" fill-rule="evenodd"/>'
    ),
    "suit-special": (
        '<path d="M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z"/>'
    ),
    # Clue categories and intrigue
    "cat-suspect": ('<circle cx="12" cy="7" r="4"/><path d="M4 22c0-4.4 3.6-8 8-8s8 3.6 8 8z"/>'),
    "cat-weapon": (
        '<path d="M14.7 3.3a5 5 0 0 0-5.9 6.5L2.6 16a2 2 0 0 0 0 2.8l2.6 2.6a2 2 0 0 0 2.8 0'
        'l6.2-6.2a5 5 0 0 0 6.5-5.9l-3 3-3-.8-.8-3z"/>'
    ),
    "cat-location": (
        '<path d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5'
        'a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z"/>'
    ),
    "cat-intrigue": (
        '<path d="M12 2a7 7 0 0 0-7 7h4a3 3 0 1 1 4.2 2.7C11.4 12.5 10 14 10 16v1h4v-.7'
        'c0-.8.6-1.4 1.5-1.9A7 7 0 0 0 12 2zm-2 17h4v3h-4z"/>'
    ),
    # Keys to the TARDIS: what the back of an opened door shows
    "back-open": '<path d="M4 2h16v20H4zm3 3v14h10V5z" fill-rule="evenodd"/>',
    "back-dalek": (
        '<path d="M12 2 22 20H2zm-1 6v6h2V8zm0 8v2h2v-2z" fill-rule="evenodd"/>'
    ),  # a warning sign: an enemy waits behind this door
    "back-tardis-key": (
        '<path d="M7.5 4a5.5 5.5 0 1 0 4.6 8.5H15v2.5h2.5v-2.5H19V16h2.5v-3.5H22V10h-9.9'
        'A5.5 5.5 0 0 0 7.5 4zm0 3a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5z" fill-rule="evenodd"/>'
    ),
    "back-extra-turn": ('<path d="M12 4a8 8 0 1 0 8 8h-3a5 5 0 1 1-5-5v3l5-4.5L12 1z"/>'),
    "back-teleport": (
        '<path d="M12 3a9 9 0 1 0 9 9h-2.5A6.5 6.5 0 1 1 12 5.5a4 4 0 1 1-4 4H5.5a6.5 6.5'
        ' 0 1 0 6.5-6.5z"/>'
    ),
    "back-control": '<path d="M12 2 2 11h3v11h14V11h3zm-2 12h4v8h-4z" fill-rule="evenodd"/>',
    # the sound toggle
    "sound-on": (
        '<path d="M3 9h4l5-4v14l-5-4H3zm13.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4z'
        'M14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z"/>'
    ),
    "sound-off": (
        '<path d="M3 9h4l5-4v14l-5-4H3zm13.6-.4L15.2 10l2 2-2 2 1.4 1.4 2-2 2 2L22 14l-2-2'
        ' 2-2-1.4-1.4-2 2z"/>'
    ),
}


def door_closed() -> str:
    """A panelled door with a small window and a handle, drawn in translucent white and black
    over the tile's own colour (the CSS background), so one drawing serves all four colours."""
    return (
        '<rect x="6" y="4" width="36" height="52" rx="3" fill="#fff" fill-opacity=".12"'
        ' stroke="#000" stroke-opacity=".45" stroke-width="2"/>'
        '<rect x="11" y="9" width="26" height="11" rx="2" fill="#fff" fill-opacity=".45"'
        ' stroke="#000" stroke-opacity=".35"/>'
        '<path d="M24 9v11M11 14.5h26" stroke="#000" stroke-opacity=".3"/>'
        '<rect x="11" y="25" width="11" height="26" rx="1.5" fill="#000" fill-opacity=".14"/>'
        '<rect x="26" y="25" width="11" height="26" rx="1.5" fill="#000" fill-opacity=".14"/>'
        '<circle cx="36" cy="38" r="2.4" fill="#fff" stroke="#000" stroke-opacity=".5"/>'
    )


def door_open() -> str:
    """The same door swung open: a dark doorway with the door leaf seen edge-on at the left,
    and light spilling out, so an opened tile reads as a way through."""
    return (
        '<rect x="6" y="4" width="36" height="52" rx="3" fill="#000" fill-opacity=".55"'
        ' stroke="#fff" stroke-opacity=".5" stroke-width="2"/>'
        '<path d="M6 4 0 9v52l6-5z" fill="#fff" fill-opacity=".35" stroke="#000"'
        ' stroke-opacity=".4"/>'
        '<path d="M10 56 16 30h16l6 26z" fill="#ffe9a8" fill-opacity=".18"/>'
    )


#: Pip positions on a 0-24 die face for 1 to 6.
PIPS = {
    1: [(12, 12)],
    2: [(7, 7), (17, 17)],
    3: [(7, 7), (12, 12), (17, 17)],
    4: [(7, 7), (17, 7), (7, 17), (17, 17)],
    5: [(7, 7), (17, 7), (12, 12), (7, 17), (17, 17)],
    6: [(7, 6), (17, 6), (7, 12), (17, 12), (7, 18), (17, 18)],
}


def die(n: int | None) -> str:
    """An ivory die face with round pips; None is the Clue die's question face."""
    face = (
        '<rect x="1" y="1" width="22" height="22" rx="4.5" fill="#fbf7ea" stroke="#3a3222"'
        ' stroke-width="1.2"/><path d="M3 20.5h18" stroke="#d8cfb4" stroke-width="1"/>'
    )
    if n is None:
        return face + (
            '<text x="12" y="17" text-anchor="middle" font-family="Georgia,serif"'
            ' font-weight="700" font-size="15" fill="#7b1f1f">?</text>'
        )
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="2.1" fill="#1c232b"/>' for x, y in PIPS[n])
    return face + pips


def corridor() -> str:
    """A corridor square's floor: worn flagstones, for the Clue map's squares."""
    return (
        '<rect width="24" height="24" fill="#cdbf9c"/>'
        '<path d="M0 12h24M12 0v12M6 12v12M18 12v12" stroke="#a8996f" stroke-width="1"/>'
        '<rect width="24" height="24" fill="none" stroke="#8f8058" stroke-width="1"/>'
    )


def card_back() -> str:
    """The shared card back: a clock face over a starfield, blue on blue."""
    ticks = "".join(
        f'<path d="M30 8v5" stroke="#9cc3ef" stroke-width="1.6" transform="rotate({a} 30 40)"/>'
        for a in range(0, 360, 30)
    )
    return (
        '<rect width="60" height="80" rx="6" fill="#163a63"/>'
        '<rect x="3" y="3" width="54" height="74" rx="4" fill="none" stroke="#9cc3ef"'
        ' stroke-opacity=".6"/>'
        '<circle cx="30" cy="40" r="18" fill="#1f4e7a" stroke="#9cc3ef" stroke-width="1.5"/>'
        f"{ticks}"
        '<path d="M30 40V28M30 40l8 5" stroke="#f5c542" stroke-width="2.2"'
        ' stroke-linecap="round"/>'
        '<circle cx="10" cy="12" r=".8" fill="#fff"/><circle cx="50" cy="70" r=".8"'
        ' fill="#fff"/><circle cx="48" cy="14" r=".6" fill="#fff"/>'
    )


def svg(view_box: str, body: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}">{body}</svg>\n'


def drawings() -> dict[str, tuple[str, str]]:
    """Every drawing by id: (viewBox, SVG body)."""
    out = {name: ("0 0 24 24", body) for name, body in ICONS.items()}
    out["door-closed"] = ("0 0 48 60", door_closed())
    out["door-open"] = ("0 0 48 60", door_open())
    for n in range(1, 7):
        out[f"die-{n}"] = ("0 0 24 24", die(n))
    out["die-q"] = ("0 0 24 24", die(None))
    out["corridor"] = ("0 0 24 24", corridor())
    out["card-back"] = ("0 0 60 80", card_back())
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    symbols = []
    for name, (box, body) in drawings().items():
        (OUT / f"{name}.svg").write_text(svg(box, body))
        symbols.append(f'<symbol id="{name}" viewBox="{box}">{body}</symbol>')
    sprite = (
        '<svg xmlns="http://www.w3.org/2000/svg">'
        "<!-- timelord's own drawings (scripts/make_art.py). In a template:\n"
        '  <svg class="icon" aria-hidden="true"><use href="/static/art/sprite.svg#kind-defender"/>'
        "</svg>\n  Icons fill with currentColor; doors, dice and the card back carry their"
        " own colours. -->\n" + "\n".join(symbols) + "</svg>\n"
    )
    (OUT / "sprite.svg").write_text(sprite)


if __name__ == "__main__":
    main()
