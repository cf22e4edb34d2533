"""What each seat sees (E-8): `build_view`."""

from __future__ import annotations

from timelord.core import View
from timelord.games.episodes import hands as H
from timelord.games.episodes.cards import CODE_OF, LABEL, SUITS
from timelord.games.episodes.state import EpisodesState


def _labels(cards: list[int]) -> list[str]:
    return [LABEL[c] for c in cards]


def codes(labels: list[str]) -> list[int]:
    return [CODE_OF[x] for x in labels]


def build_view(st: EpisodesState, seat: int | None) -> View:
    """All that `seat` knows; None gives what a spectator sees (public information only)."""
    st.game.check_seat(seat)
    n = st.game.players
    active = st.turn % n
    keeping = st.phase == H.KEEP
    known_by: list[list[str]] = [[] for _ in range(n)]
    seen_by: list[list[str]] = [[] for _ in range(n)]
    if seat is None:
        hand: list[str] = []
        known: list[list[str]] = [[] for _ in range(n)]
        top: list[str] = []
        drawn: list[str] = []
    else:
        hand = _labels(st.hands[seat])
        known = [_labels(k) if o != seat else [] for o, k in enumerate(st.known[seat])]
        # What the others know of this hand follows from events this seat saw (E-8.10).
        known_by = [_labels(st.known[o][seat]) if o != seat else [] for o in range(n)]
        if keeping and seat == active:
            seen_by = [_labels(k) for k in st.limbo_known]
        seen = st.top[seat]
        top = _labels(st.deck[-1 : -seen - 1 : -1]) if seen else []
        if not keeping:
            drawn = []
        elif seat == active:
            drawn = _labels(st.limbo)
        else:
            drawn = _labels(st.limbo_known[seat])
    view: View = {
        "seat": seat,
        "players": n,
        "target": st.game.target,
        "max_rounds": st.game.max_rounds,
        "turn": st.turn,
        "round": st.turn // n + 1,
        "active": active,
        "to_move": st.to_move,
        "phase": H.PHASES[st.phase],
        "pending": SUITS[st.pending] if st.pending >= 0 else None,
        "vp": st.vp[:],
        "hand_sizes": [len(h) for h in st.hands],
        "deck_size": len(st.deck),
        "discard": _labels(st.discard),
        "reshuffles": st.reshuffles,
        "hand": hand,
        "known_hands": known,
        "deck_top": top,
        "peeked": st.top[:],
        "known_by": known_by,
        "drawn": drawn,
        "drawn_seen_by": seen_by,
        "drawn_count": len(st.limbo),
        "drawn_old": st.limbo_old,
        "deck_pool": _labels(st.pool[n if seat is None else seat]) if st.reshuffles else None,
        "discard_floor": LABEL[st.floor] if st.floor else None,
        "ended": st.ended or None,
        "winners": st.winners(),
    }
    return view
