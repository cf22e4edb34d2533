"""Episodes observation, in this order (96 card codes = suit * 16 + FP, N seats relative to
the observer):

- `phase` one-hot over action/target/keep/episode/discard/over; `to_move` one-hot over N;
  `pending` (the suit whose ability waits for a target) one-hot over 6.
- `vp` per seat / target; `hand_sizes` per seat / 10; `deck` cards left / deck size;
  `round` / max_rounds.
- `hand`: own cards, copies per code / 4; `discard`: copies per code / 4;
  `known_hands`: per other seat, the cards of its hand this seat saw (copies / 4, 96 each);
  `known_by`: own cards each other seat has seen (copies / 4, 96 each);
  `deck_top`: the known top of the deck (copies / 4); `drawn`: cards of a Gadget draw seen.
"""

from __future__ import annotations

from typing import Any, cast

from timelord.adapters.encode import Counts, Memo, Parts, Writer, rel, rotate
from timelord.core import Game
from timelord.games.episodes import hands as H
from timelord.games.episodes.cards import CODE_OF, CODES, SUIT_INDEX
from timelord.games.episodes.game import EpisodesGame
from timelord.games.episodes.state import EpisodesState


def _codes(labels: list[str]) -> list[int]:
    return [CODE_OF[x] for x in labels]


def write(game: Game, w: Writer, view: dict[str, Any]) -> None:
    assert isinstance(game, EpisodesGame)
    N = game.players
    seat = view["seat"]
    most = max(game.deck.counts)
    w.onehot("phase", len(H.PHASES), H.PHASES.index(view["phase"]))
    w.onehot("to_move", N, rel(seat, view["to_move"], N))
    pending = view["pending"]
    w.onehot("pending", 6, SUIT_INDEX.get(pending) if isinstance(pending, str) else None)
    w.values("vp", rotate(view["vp"], seat), N, game.target, high=2.0)
    w.values("hand_sizes", rotate(view["hand_sizes"], seat), N, 10)
    w.values("deck", [view["deck_size"]], 1, max(1, sum(game.deck.counts)))
    w.values("round", [view["round"]], 1, game.max_rounds, high=2.0)
    w.counts("hand", CODES, _codes(view["hand"]), 0.25, most)
    w.counts("discard", CODES, _codes(view["discard"]), 0.25, most)
    known = rotate(view["known_hands"], seat)
    seen_by = rotate(view["known_by"], seat)
    for k in range(1, N):
        w.counts(f"known_hand{k}", CODES, _codes(known[k]), 0.25, most)
    for k in range(1, N):
        w.counts(f"known_by{k}", CODES, _codes(seen_by[k]), 0.25, most)
    w.counts("deck_top", CODES, _codes(view["deck_top"]), 0.25, most)
    w.counts("drawn", CODES, _codes(view["drawn"]), 0.25, most)


def state_parts(game: Game) -> Parts:
    """`write` of `st.view(seat)` as parts read from the state without building the view
    (what a seat knows of the others' hands, E-8.10: `timelord.games.episodes.view`)."""
    assert isinstance(game, EpisodesGame)
    N = game.players
    cards = Counts(CODES, 0.25)

    def head(w: Writer, key: tuple[int, int | None, int, int]) -> None:
        phase, to_move, pending, seat = key
        w.onehot("phase", len(H.PHASES), phase)
        w.onehot("to_move", N, rel(seat, to_move, N))
        w.onehot("pending", 6, pending if pending >= 0 else None)

    def vp(w: Writer, key: tuple[tuple[int, ...], int]) -> None:
        points, seat = key
        w.values("vp", rotate(list(points), seat), N, game.target, high=2.0)

    def sizes(w: Writer, key: tuple[tuple[int, ...], int]) -> None:
        counts, seat = key
        w.values("hand_sizes", rotate(list(counts), seat), N, 10)

    def deck_round(w: Writer, key: tuple[int, int]) -> None:
        deck, round_ = key
        w.values("deck", [deck], 1, max(1, sum(game.deck.counts)))
        w.values("round", [round_], 1, game.max_rounds, high=2.0)

    heads, vps, sizes_of, decks = Memo(head), Memo(vp), Memo(sizes), Memo(deck_round)

    get_cards = cards.__getitem__
    #: per observer, the other seats in turn order from it
    after = [[(seat + k) % N for k in range(1, N)] for seat in range(N)]

    def parts(st: EpisodesState, seat: int) -> list[bytes]:
        # `st` typed, so a compiled build reads its fields natively
        hands, known = st.hands, st.known
        mine = known[seat]
        others = after[seat]
        out = [
            heads[st.phase, st.to_move, st.pending, seat],
            vps[tuple(st.vp), seat],
            sizes_of[tuple([len(h) for h in hands]), seat],
            decks[len(st.deck), st.turn // N + 1],
            get_cards(tuple(hands[seat])),
            get_cards(tuple(st.discard)),
        ]
        for q in others:
            out.append(get_cards(tuple(mine[q])))
        for q in others:
            out.append(get_cards(tuple(known[q][seat])))
        seen = st.top[seat]
        out.append(get_cards(tuple(st.deck[-1 : -seen - 1 : -1]) if seen else ()))
        drawn: list[int] = []
        if st.phase != H.KEEP:
            pass
        elif seat == st.turn % N:
            drawn = st.limbo
        else:
            drawn = st.limbo_known[seat]
        out.append(get_cards(tuple(drawn)))
        return out

    # the encoder hands it only this game's states
    return cast(Parts, parts)
