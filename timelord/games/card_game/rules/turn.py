"""Set-up (C-2) and the turn structure (C-3, C-6.1 to C-6.3, C-6.5)."""

from __future__ import annotations

from timelord.core import Rng, generator, resume
from timelord.games.card_game.rules.common import (
    all_mask,
    cards_to_buy,
    daleks_in_play,
    draw,
    left,
    right,
    tardis_in_play,
    to_discard,
)
from timelord.games.card_game.rules.endgame import victory_points
from timelord.games.card_game.rules.tell import place, say, say_hidden
from timelord.games.card_game.state import KNOWN, MAIN, OVER, PASSED, CardGameRules, CardGameState


def setup(game: CardGameRules, seed: int | Rng) -> CardGameState:
    """C-2.1 to C-2.5."""
    cs = game.cards
    n = game.players
    P = game.pass_count
    rng = generator(seed)
    s = CardGameState(game)
    s.known = bytearray(len(cs.design))
    m = all_mask_n(n)
    starts = list(cs.start_cards)
    rng.shuffle(starts)
    dealt, aside = starts[:n], starts[n:]
    s.loc_card = list(dealt)
    s.loc_owner = list(range(n))
    s.loc_def = [() for _ in range(n)]
    s.loc_en = [() for _ in range(n)]
    s.loc_up = [0] * n
    s.loc_att = [-1] * n
    s.loc_tardis = [False] * n
    s.aside = tuple(sorted(aside))
    for c in starts:
        s.known[c] = m
    first = max(range(n), key=lambda p: cs.order[dealt[p]])
    deck = cs.cards_in_play(n)
    rng.shuffle(deck)
    hand = cs.constants.hand_size
    s.hands = []
    short = (first - 1) % n
    for p in range(n):
        k = hand - P if p == short else hand
        h, deck = deck[:k], deck[k:]
        for c in h:
            s.known[c] = 1 << p
        s.hands.append(tuple(sorted(h)))
    # The End of the Game card lies on `end_depth` cards. The deck is an unordered pile (each
    # draw takes a random card, see `draw`), so it is stored sorted.
    s.deck = tuple(sorted(deck))
    s.end_depth = min(cs.constants.end_depth, len(deck))
    s.end_now = False
    s.shuffled = ()
    s.discard = ()
    s.reserve = [() for _ in range(n)]
    s.upres = [() for _ in range(n)]
    s.newres = ()
    s.fought = ()
    s.passed = [() for _ in range(n)]
    s.tp = [0] * n
    s.supply = cs.constants.time_points
    s.active = first
    s.first = first
    s.turn = 1
    s.steps = 0
    s.endgame = False
    s.phase = MAIN
    s.p_loc = -1
    s.p_cards = ()
    s.p_n = 0
    s.rng = rng.state
    s.ended = ""
    return s


def all_mask_n(n: int) -> int:
    return (1 << n) - 1


def after_action(s: CardGameState) -> None:
    """An action (with everything it set off) is complete. In the End Game that was the
    turn's one action (C-6.3)."""
    s.phase = MAIN
    s.p_loc = -1
    s.p_cards = ()
    s.p_n = 0
    if s.endgame:
        next_turn(s)


def _discard_surplus(s: CardGameState, p: int, n: int) -> None:
    """C-3.5 (rules 2, ruling C-R36): a turn ended at its step bound with more cards than are
    passed discards the surplus, face up, chosen by the generator (every choice equally
    likely), so that ending takes one decision whatever the hand holds."""
    r = resume(s.rng)
    hand = list(s.hands[p])
    gone = []
    for _ in range(n):
        gone.append(hand.pop(r.below(len(hand))))
    s.rng = r.state
    s.hands[p] = tuple(hand)
    to_discard(s, tuple(gone))
    if s.log is not None:
        say(s, "discard", actor=p, cards=gone, why="step-limit")


def end_turn(s: CardGameState) -> None:
    """C-3.3 and C-6.2: pass the whole hand right, draw 5 - pass (5 once the End card is out)."""
    p = s.active
    P = s.game.pass_count
    if len(s.hands[p]) > P:
        _discard_surplus(s, p, len(s.hands[p]) - P)
    hand = s.hands[p]
    assert len(hand) == P
    to = right(s, p)
    merged = list(s.hands[to])  # (one object fewer than `sorted(s.hands[to] + hand)`)
    merged += hand
    merged.sort()
    s.hands[to] = tuple(merged)
    add = 1 << to
    s.own(KNOWN | PASSED)
    k = s.known
    for c in hand:
        k[c] |= add
    s.passed[p] = (*s.passed[p], hand)
    s.hands[p] = ()
    if s.log is not None:
        say_hidden(s, "pass-cards", hand, actor=p, to=to)
    draw(s, p, s.cs.constants.hand_size - P)
    if s.end_now:
        draw(s, p, s.cs.constants.hand_size - len(s.hands[p]))
        s.endgame = True
        if s.log is not None:
            say(s, "end-game", actor=None)
    next_turn(s)


def next_turn(s: CardGameState) -> None:
    s.active = left(s, s.active)
    s.turn += 1
    s.steps = 0
    s.newres = ()
    s.fought = ()
    s.end_now = False
    s.phase = MAIN
    start_turn(s)
    if s.phase != OVER and s.log is not None:
        say(s, "turn", actor=s.active, turn=s.turn)


def start_turn(s: CardGameState) -> None:
    """C-6.1, C-6.3 and C-6.5: the checks made as a turn begins."""
    p = s.active
    c = s.cs.constants.counters
    if daleks_in_play(s, p) >= c or tardis_in_play(s, p) >= c:
        finish(s, "counters")
    elif s.turn > s.game.max_turns:
        finish(s, "turn-limit")
    elif s.endgame and not can_act(s, p):
        finish(s, "end-game")


def can_act(s: CardGameState, p: int) -> bool:
    """In the End Game a player can act with a card in hand or reserve, or enough Time
    Points to buy a card that exists."""
    if s.hands[p] or s.reserve[p]:
        return True
    return s.tp[p] >= s.cs.constants.buy_cost and cards_to_buy(s) > 0


def finish(s: CardGameState, why: str) -> None:
    s.phase = OVER
    s.ended = why
    s.p_loc = -1
    s.p_cards = ()
    s.p_n = 0
    if s.log is not None:
        # C-R30: every attack turns up to be scored, and the table is told what it shows,
        # so that what a seat was told accounts for the Enemies its final view names.
        for L, ens in enumerate(s.loc_en):
            up = s.loc_up[L]
            if any(not up >> i & 1 for i in range(len(ens))):
                enemies = list(ens)
                say(s, "reveal", actor=None, defenders=[], enemies=enemies, end=True, **place(s, L))
        vp = victory_points(s)
        best = max(vp)
        winners = [p for p, v in enumerate(vp) if v == best]
        say(s, "game-over", actor=None, why=why, scores=vp, winners=winners)


__all__ = ["after_action", "all_mask", "end_turn", "setup"]
