"""Small shared moves: hands, Time Points, drawing, counters and who knows which card."""

from __future__ import annotations

from bisect import insort

from timelord.core import resume
from timelord.games.card_game.rules.tell import place, say, say_hidden
from timelord.games.card_game.state import KNOWN, RESERVE, TP, CardGameState


def all_mask(s: CardGameState) -> int:
    return (1 << s.game.players) - 1


def left(s: CardGameState, seat: int) -> int:
    """The next player (play passes to the left)."""
    return (seat + 1) % s.game.players


def right(s: CardGameState, seat: int) -> int:
    """The player who receives this seat's passed cards."""
    return (seat - 1) % s.game.players


def hand_remove(s: CardGameState, p: int, c: int) -> None:
    """Card `c` leaves seat p's hand. Found by a loop the compiled build runs on machine
    integers (`list.remove` compared boxed ones through the generic comparison) and cut
    out of the tuple without a list in between."""
    hand = s.hands[p]
    for i in range(len(hand)):
        if hand[i] == c:
            s.hands[p] = hand[:i] + hand[i + 1 :]
            return
    raise ValueError(f"card {c} is not in hand {p}")


def hand_add(s: CardGameState, p: int, c: int) -> None:
    h = list(s.hands[p])
    insort(h, c)
    s.hands[p] = tuple(h)


def reserve_remove(s: CardGameState, p: int, c: int) -> None:
    r = list(s.reserve[p])
    r.remove(c)
    s.own(RESERVE)
    s.reserve[p] = tuple(r)
    if c in s.newres:
        s.newres = tuple(x for x in s.newres if x != c)


def hide_from_hand(s: CardGameState, p: int, c: int) -> None:
    """Card `c` leaves seat p's hand face-down: nobody else can tell which card moved,
    so every other seat's knowledge of that hand is lost."""
    bit = 1 << p
    k = s.known
    hand = s.hands[p]
    if k[c] == bit and all(k[x] == bit for x in hand):
        return  # nobody else knew any of them (a second card out this turn): no copy
    s.own(KNOWN)
    k = s.known
    for x in hand:
        k[x] = bit
    k[c] = bit


def publish(s: CardGameState, cards: tuple[int, ...] | list[int]) -> None:
    m = all_mask(s)
    s.own(KNOWN)
    k = s.known
    for c in cards:
        k[c] = m


def to_discard(s: CardGameState, cards: tuple[int, ...] | list[int]) -> None:
    if cards:
        s.discard = s.discard + tuple(cards)
        publish(s, cards)


def gain(s: CardGameState, p: int, n: int) -> int:
    """Seat p takes up to n Time Points from the supply; returns how many were missing."""
    got = min(n, s.supply)
    if got:
        s.own(TP)
        s.supply -= got
        s.tp[p] += got
        if s.log is not None:
            say(s, "time", actor=p, count=got, source=None)
    return n - got


def pay(s: CardGameState, p: int, n: int) -> None:
    assert s.tp[p] >= n
    s.own(TP)
    s.tp[p] -= n
    s.supply += n


def steal(s: CardGameState, taker: int, victim: int, n: int) -> None:
    got = min(n, s.tp[victim])
    s.own(TP)
    s.tp[victim] -= got
    s.tp[taker] += got
    if got and s.log is not None:
        say(s, "time", actor=taker, count=got, source=victim)


def reshuffle(s: CardGameState) -> None:
    """An exhausted deck is rebuilt from the discard pile (C-6.3). The deck is kept as an
    unordered pile and every draw takes a random card of it, so no order is stored (and
    none can leak into a view or a sampled state)."""
    s.deck = tuple(sorted(s.discard))
    s.shuffled = s.deck  # public: every seat saw these cards go in (C-R26)
    s.discard = ()
    if s.log is not None:
        say(s, "reshuffle", actor=None, cards=list(s.deck))


def draw(s: CardGameState, p: int, n: int) -> int:
    """Seat p draws n cards; the End of the Game card is set aside once uncovered (C-6.2).

    The deck is an unordered pile and a draw takes a uniformly random card of it. `end_depth`
    counts the cards under the End card: nobody knows which cards those are, so drawing at
    random from the whole pile until only that many are left is the same as drawing the top
    card of a shuffled deck with the End card inside it.
    """
    if n <= 0:
        return 0
    bit = 1 << p
    s.own(KNOWN)
    k = s.known
    r = resume(s.rng)
    # One list for the whole draw, and the hand sorted once at the end: slicing the deck
    # tuple and re-sorting the hand for every card drawn was most of ending a turn.
    pile = list(s.deck)
    got: list[int] = []
    uncovered = False
    for _ in range(n):
        if not pile:
            if not s.discard:
                break
            reshuffle(s)
            pile = list(s.deck)
        c = pile.pop(r.below(len(pile)))
        if k[c] & ~bit:
            # The deck held cards others knew of (a reshuffled discard pile): they no
            # longer know which one went, so they lose track of all of them.
            for x in pile:
                k[x] &= bit
        k[c] = bit
        got.append(c)
        if s.end_depth >= 0 and len(pile) == s.end_depth:
            s.end_depth = -1
            s.end_now = uncovered = True
    s.deck = tuple(pile)
    s.rng = r.state
    if got:
        hand = list(s.hands[p])  # two new objects where `sorted(hand + tuple(got))` made four
        hand += got
        hand.sort()
        s.hands[p] = tuple(hand)
        if s.log is not None:
            say_hidden(s, "draw", got, actor=p)
            if uncovered:
                say(s, "end-card", actor=p)
    return len(got)


def cards_to_buy(s: CardGameState) -> int:
    return len(s.deck) + len(s.discard)


def tardis_in_play(s: CardGameState, p: int) -> int:
    n = 0
    for L, o in enumerate(s.loc_owner):
        if o == p and s.loc_tardis[L]:
            n += 1
    return n


def daleks_in_play(s: CardGameState, p: int) -> int:
    """Seat p's Dalek counters on the table: one per attack it leads. Counted in a loop the
    compiled build runs on machine integers, where `list.count` compares boxed ones through
    the generic comparison (asked at every turn's start and every listing with an Enemy)."""
    n = 0
    for a in s.loc_att:
        if a == p:
            n += 1
    return n


def place_tardis(s: CardGameState, L: int) -> bool:
    """The location's owner puts a TARDIS counter on it, if one is left (C-5.3)."""
    o = s.loc_owner[L]
    if s.loc_tardis[L] or tardis_in_play(s, o) >= s.cs.constants.counters:
        return False
    s.loc_tardis[L] = True
    if s.log is not None:
        say(s, "tardis", actor=o, placed=True, **place(s, L))
    return True


def reserve_capacity(s: CardGameState, p: int) -> int:
    cs = s.cs
    cap = cs.constants.reserve_limit
    for c in s.upres[p]:
        if "reserve-slot" in cs.effects[c]:
            cap += int(cs.param(c, "slots", 1))
    return cap


def reserve_used(s: CardGameState, p: int) -> int:
    cs = s.cs
    n = len(s.reserve[p])
    for c in s.upres[p]:
        if "ironsides" in cs.effects[c]:
            n += 1
    return n


def end_attack(s: CardGameState, L: int) -> None:
    s.loc_en[L] = ()
    s.loc_up[L] = 0
    s.loc_att[L] = -1


def discard_attack(s: CardGameState, L: int) -> None:
    to_discard(s, s.loc_en[L])
    if s.log is not None:
        say(s, "discard", actor=s.loc_att[L], cards=list(s.loc_en[L]), **place(s, L))
    end_attack(s, L)


def min_hand(s: CardGameState) -> int:
    """Cards that must stay in hand after an action (C-3.2); none in the End Game."""
    return 0 if s.endgame else s.game.pass_count
