"""Terminal text of a seat's view of Episodes."""

from __future__ import annotations

from timelord.core import View
from timelord.games.episodes.cards import CODE_OF, SUITS
from timelord.games.episodes.state import EpisodesRules
from timelord.games.episodes.text import cards as n_cards

# "{s}" is the verb ending: empty after "You", "s" after a seat's name.
_PHASE_TEXT = {
    "action": "may discard one card to use its ability",
    "target": "choose{s} the opponent for the {pending} ability",
    "keep": "choose{s} which Gadget-drawn card to keep",
    "episode": "may play one episode",
    "discard": "discard{s} down to 7 cards",
    "over": "",
}


def _by_suit(game: EpisodesRules, labels: list[str]) -> list[str]:
    """One line per suit: FP, copies held and the flavour names ("5 x2 (Cybermen)")."""
    lines = []
    for suit in SUITS:
        cards = [x for x in labels if x.split(" ")[0] == suit]
        if not cards:
            continue
        parts = []
        for x in dict.fromkeys(cards):
            many = cards.count(x)
            copies = f" x{many}" if many > 1 else ""
            parts.append(f"{x.split(' ')[1]}{copies} ({game.deck.name(CODE_OF[x])})")
        lines.append(f"    {suit + 's:':<12} {', '.join(parts)}")
    return lines


def render_view(game: EpisodesRules, view: View) -> str:
    seat = view["seat"]
    n = view["players"]
    name = game.seat_name
    who = "Spectator" if seat is None else name(seat)
    out = [
        f"Episodes - {who} - round {view['round']}/{view['max_rounds']}, "
        f"{name(view['active'])} to play, first to {view['target']} VP wins"
    ]
    for s in range(n):
        mark = " (you)" if s == seat else ""
        held = n_cards(view["hand_sizes"][s])
        out.append(f"  {name(s)}{mark}: {view['vp'][s]} VP, {held} in hand")
    out.append(
        f"  Deck: {n_cards(view['deck_size'])} (reshuffled {view['reshuffles']}x); "
        f"discard pile: {n_cards(len(view['discard']))}"
    )
    if view["discard"]:
        out.append(f"    top of the pile last: {', '.join(view['discard'][-8:])}")
    if seat is not None:
        out.append(f"  Your hand ({len(view['hand'])}):")
        out.extend(_by_suit(game, view["hand"]) or ["    (empty)"])
        for s, cards in enumerate(view["known_hands"]):
            if cards:
                out.append(f"  You know {name(s)} holds: {', '.join(cards)}")
        for s, cards in enumerate(view["known_by"]):
            if cards:
                out.append(f"  {name(s)} knows you hold: {', '.join(cards)}")
        if view["deck_top"]:
            out.append(f"  Next cards of the deck (you peeked): {', '.join(view['deck_top'])}")
    if view["phase"] == "keep":
        drew = f"  Gadget drew {n_cards(view['drawn_count'])}"
        if view["drawn"] and view["active"] == seat:
            drew += f": {', '.join(view['drawn'])}"
        elif view["drawn"]:
            drew += f"; you know these from a peek: {', '.join(view['drawn'])}"
        out.append(drew)
    if view["phase"] == "over":
        winners = ", ".join(name(s) for s in view["winners"])
        how = "reached the target" if view["ended"] == "target" else "round limit reached"
        out.append(f"  Game over ({how}). Winner(s): {winners}")
    else:
        you = view["to_move"] == seat
        actor = "You" if you else name(view["to_move"])
        text = _PHASE_TEXT[view["phase"]].format(pending=view["pending"], s="" if you else "s")
        out.append(f"  Now: {actor} {text} ({view['phase']} phase)")
    return "\n".join(out)
