"""A seat's detective notebook: what its view proves, in the deducer's `Knowledge` form.

`knowledge_fields(view)` reads the view's history into plain values; `knowledge_from_view`
wraps them in `deduction.Knowledge` for `deduce`. Every fact comes from the view alone:
- `own_hand`: the seat's cards; `public`: the face-up leftovers (in no hand, not aside and not
  in the envelope);
- `known`: cards seen in a player's hand (shown to this seat, seen with Psychic Paper or
  Madame Vastra's power, scanned, or revealed by a player the eighth Pocketwatch put out),
  and the two-player side cards this seat has looked at, as held aside (`players`);
- events: `NoneOf` for each player who could not answer a rumour, `OneOf` for each card shown
  to someone else unseen and for the player being asked to show one now, `NotEnvelope` for
  each wrong accusation.
A seat that has seen the envelope (its own wrong accusation, or the end of the game) is out
or done; the notebook shows the envelope straight from the view. Only with
`pin_envelope=True` is that knowledge passed on, as a `NotEnvelope` for every other possible
triple: exact, but hundreds of events, which makes the deducer slow.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from timelord.games.clue import deduction

#: Event tuples of `knowledge_fields`: ("none", player, cards), ("one", player, cards),
#: ("not-envelope", cards).
FieldEvent = tuple[Any, ...]


def knowledge_fields(view: dict[str, Any], pin_envelope: bool = False) -> dict[str, Any]:
    """The fields of `Knowledge` for `view['seat']`, with events as plain tuples."""
    seat = view["seat"]
    if not isinstance(seat, int):
        raise ValueError("a notebook belongs to a seat; the spectator has none")
    categories = tuple(tuple(c) for c in view["categories"])
    own = frozenset(view["hand"])
    public = set(view["leftovers"])
    # A side card looked at is certainly aside: holder `players` (one past the last seat).
    known: dict[int, int] = {c: view["players"] for c in view["side_seen"].values()}
    for p, cards in view["revealed"].items():
        if int(p) != seat:
            for c in cards:
                known[c] = int(p)
    events: list[FieldEvent] = []
    triple: tuple[int, ...] = ()
    for ev in view["log"]:
        kind = ev[0]
        if kind == "rumour":
            triple = tuple(ev[2:5])
        elif kind == "pass":
            if ev[1] != seat:
                events.append(("none", ev[1], triple))
        elif kind == "show":
            shower, card = ev[1], ev[3]
            if shower == seat:
                continue
            if card is None:
                events.append(("one", shower, triple))
            else:
                known[card] = shower
        elif kind in ("peek", "scan"):
            holder, card = ev[2], ev[3]
            if card is not None and holder != seat:
                known[card] = holder
        elif kind == "accuse" and not ev[5]:
            events.append(("not-envelope", tuple(ev[2:5])))
    if view["phase"] == "answer" and view["to_move"] not in (seat, None):
        # The seat asked to show now holds one of the three (or it would have passed).
        events.append(("one", view["to_move"], tuple(view["rumour"][1:])))
    envelope = view["envelope"]
    if envelope is not None and pin_envelope:
        truth = tuple(envelope)
        outside = own | public | set(known)
        options = [[c for c in cat if c not in outside] for cat in categories]
        for t in product(*options):
            if t != truth:
                events.append(("not-envelope", t))
    # Drop duplicates but keep the order the table saw them in.
    unique = list(dict.fromkeys(events))
    return {
        "categories": categories,
        "players": view["players"],
        "seat": seat,
        "hand_sizes": tuple(view["hand_sizes"]),
        "own_hand": own,
        "public": frozenset(public),
        "known": known,
        "events": tuple(unique),
    }


def knowledge_from_view(view: dict[str, Any], pin_envelope: bool = False) -> deduction.Knowledge:
    """`deduction.Knowledge` for `view['seat']` (pass it to `deduction.deduce`)."""
    fields = knowledge_fields(view, pin_envelope)
    events: list[deduction.Event] = []
    for ev in fields["events"]:
        if ev[0] == "none":
            events.append(deduction.NoneOf(ev[1], ev[2]))
        elif ev[0] == "one":
            events.append(deduction.OneOf(ev[1], ev[2]))
        else:
            events.append(deduction.NotEnvelope(ev[1]))
    fields["events"] = tuple(events)
    return deduction.Knowledge(**fields)


def certain(view: dict[str, Any]) -> dict[int, str]:
    """What the seat knows for sure about each card without counting deals.

    Values: "hand" (its own), "face up" (a leftover), "aside" (a two-player side card it has
    looked at), "seat N" (seen in that hand), "envelope" (it has seen the envelope); unknown
    cards are left out.
    """
    fields = knowledge_fields(view)
    out: dict[int, str] = {}
    for c in fields["own_hand"]:
        out[c] = "hand"
    for c in fields["public"]:
        out[c] = "face up"
    for c, p in fields["known"].items():
        out[c] = "aside" if p == fields["players"] else f"seat {p}"
    if view["envelope"] is not None:
        for c in view["envelope"]:
            out[c] = "envelope"
    return out


def envelope_odds(view: dict[str, Any]) -> dict[int, float] | None:
    """The deducer's chance that each card is in the envelope.

    For interfaces: pass the result to `render.render_notebook`; a player who turns the
    deducer off simply passes None for the plain notebook. A seat that has seen the envelope
    (out after a wrong accusation, or the game is over) gets it straight from the view: 1 for
    its three cards, 0 for the rest, without counting deals.
    The return type keeps `| None` for callers written against the optional deducer.
    """
    envelope = view["envelope"]
    if envelope is not None:
        return {c: float(c in envelope) for cat in view["categories"] for c in cat}
    result = deduction.deduce(knowledge_from_view(view))
    return {c: float(result.envelope[c]) for cat in view["categories"] for c in cat}
