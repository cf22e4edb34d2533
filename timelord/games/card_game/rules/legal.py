"""Legal actions for every pending decision, and why an action is refused."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from timelord.core import Action, GameOver, IllegalAction, Rng
from timelord.games.card_game.actions import (
    BuyCards,
    DiscardEnemies,
    DiscardForTime,
    DiscardToRegenerate,
    EndTurn,
    Finish,
    Pass,
    PickUp,
    PlaceReserve,
    PlaceTardis,
    PlayDefender,
    PlayEnemy,
    PlayLocation,
    PlaySupport,
    PlayValiant,
    RemoveTardis,
    TakeOver,
    TakeTime,
    UseIronsides,
)
from timelord.games.card_game.rules.common import (
    cards_to_buy,
    daleks_in_play,
    min_hand,
    reserve_capacity,
    reserve_used,
)
from timelord.games.card_game.rules.conflict import matching_sets, valiant_cards
from timelord.games.card_game.rules.intern import (
    CARD_ACTIONS,
    card_actions,
)
from timelord.games.card_game.rules.intern import mk as _mk
from timelord.games.card_game.rules.supports import support_actions
from timelord.games.card_game.state import (
    ATTACK,
    CLEVER,
    DEFEND,
    IRON,
    JACK,
    MAIN,
    MATCH,
    OVER,
    PHASE_WORDS,
    REGEN,
    TAKE,
    VALIANT,
    CardGameState,
)

_FINISH: Final = Finish()
_PASS: Final = Pass()
_END: Final = EndTurn()
_IRON: Final = UseIronsides()
_TARDIS: Final = PlaceTardis()


#: Sequences the step bound closes with their Finish (C-3.5, rules 2).
_CLOSABLE: Final = (DEFEND, ATTACK, CLEVER, REGEN)


def at_bound(s: CardGameState) -> bool:
    """Whether this turn has taken its `turn_step_cap` steps and, under rules 2, must now
    close what is begun and end (C-3.5, ruling C-R36)."""
    g = s.game
    return g.rules >= 2 and s.steps >= g.turn_step_cap


def legal_actions(s: CardGameState) -> list[Action]:
    ph = s.phase
    if ph == MAIN:
        return main_actions(s)
    if ph == OVER:
        return []
    p = s.active
    cs = s.cs
    if ph in _CLOSABLE and at_bound(s):
        return [_FINISH]  # C-3.5 (ruling C-R36): what is begun closes at the bound
    if ph == DEFEND:
        out: list[Action] = []
        L = s.p_loc
        if len(s.hands[p]) - 1 >= min_hand(s):
            types = {cs.type[d] for d in s.loc_def[L]} | {cs.type[d] for d in s.p_cards}
            fits = (c for c in s.hands[p] if cs.is_defender[c] and cs.type[c] not in types)
            out += [card_actions(c).play_defender(c, L) for c in one_per_design(s, fits)]
        out.append(_FINISH)
        return out
    if ph == ATTACK:
        out = []
        L = s.p_loc
        if len(s.hands[p]) - 1 >= min_hand(s):
            others = s.loc_en[L] + s.p_cards
            fits = (c for c in s.hands[p] if cs.is_enemy[c] and combines(s, c, others))
            out += [card_actions(c).play_enemy(c, L) for c in one_per_design(s, fits)]
        out.append(_FINISH)
        return out
    if ph == TAKE:
        return [_mk(TakeTime, q) for q in range(s.game.players) if q != p and s.tp[q] > 0]
    if ph == CLEVER:
        out = [_mk(RemoveTardis, L) for L, t in enumerate(s.loc_tardis) if t]
        out.append(_FINISH)
        return out
    if ph == JACK:
        return [_TARDIS, _PASS]
    if ph == REGEN:
        out = [_mk(DiscardToRegenerate, c) for c in one_per_design(s, s.hands[p])]
        out.append(_FINISH)
        return out
    if ph == IRON:
        return [_IRON, _PASS]
    if ph == VALIANT:
        owner = s.loc_owner[s.p_loc]
        hand = s.hands[owner]
        # C-3.2 holds for the active player here too: a Valiant from the hand must not leave
        # fewer cards than the minimum once the Defenders are back.
        back = len(s.loc_def[s.p_loc]) + len(s.p_cards)
        short = owner == p and len(hand) - 1 + back < min_hand(s)
        fits = (c for c in sorted(valiant_cards(s, owner)) if not (short and c in hand))
        out = [_mk(PlayValiant, c) for c in one_per_design(s, fits)]
        out.append(_PASS)
        return out
    if ph == MATCH:
        return [_mk(DiscardEnemies, x) for x in matching_sets(s, s.p_loc, s.p_n)]
    raise AssertionError(ph)


def one_per_design(s: CardGameState, cards: Iterable[int]) -> list[int]:
    """C-R24: of `cards` (in order, copies together), the first copy of each design, so a
    choice between identical copies is offered once."""
    design = s.cs.design
    out = []
    prev = -1
    for c in cards:
        d = design[c]
        if d != prev:
            prev = d
            out.append(c)
    return out


def combines(s: CardGameState, c: int, others: tuple[int, ...]) -> bool:
    """C-4.3: every pair in one attack is of one type or allowed to combine. A turned
    River Song has no enemy type and never blocks a combination."""
    cs = s.cs
    row = cs.combine[cs.design[c]]
    de = cs.design
    ie = cs.is_enemy
    return all(row[de[o]] for o in others if ie[o])


def main_actions(s: CardGameState) -> list[Action]:
    out, k, room, buys = _main_head(s)
    if k > 0:
        _group_actions(s.cs.design, s.hands[s.active], k, room, out)
    for n in range(1, buys + 1):
        out.append(_buy(n))
    return out


def legal_count(s: CardGameState) -> int:
    """`len(legal_actions(s))`, the reserve/discard combinations counted, not built."""
    if s.phase != MAIN:
        return len(legal_actions(s))
    head, k, room, buys = _main_head(s)
    if k <= 0:
        return len(head) + buys
    hand = s.hands[s.active]
    firsts = _firsts(s.cs.design, hand)
    return len(head) + _group_count(s.cs.design, hand, firsts, k, room) + buys


def legal_pick(s: CardGameState, i: int, rng: Rng | None) -> Action:
    """`legal_actions(s)[i]`, or with `rng` the action at `rng.below(legal_count(s))`,
    building only the one reserve/discard combination it names."""
    if s.phase != MAIN:
        legal = legal_actions(s)
        return legal[rng.below(len(legal)) if rng is not None else i]
    head, k, room, buys = _main_head(s)
    hand = s.hands[s.active]
    de = s.cs.design
    firsts = _firsts(de, hand) if k > 0 else []
    groups = _group_count(de, hand, firsts, k, room) if k > 0 else 0
    if rng is not None:
        i = rng.below(len(head) + groups + buys)
    if i < len(head):
        return head[i]
    i -= len(head)
    if i < groups:
        return _group_at(de, hand, firsts, k, room, i)
    return _buy(i - groups + 1)


def _main_head(s: CardGameState) -> tuple[list[Action], int, int, int]:
    """The MAIN actions before the reserve/discard combinations, with what fixes those and
    the buys after them: (actions, k, room, buys); k cards at most go to one reserve play or
    discard (0: none), room is the reserve's free room, buys the largest BuyCards count."""
    p = s.active
    cs = s.cs
    g = s.game
    hand = s.hands[p]
    h = len(hand)
    endgame = s.endgame
    P = g.pass_count
    mh = 0 if endgame else P  # min_hand
    out: list[Action] = []
    table = CARD_ACTIONS
    capped = not endgame and s.steps >= g.turn_step_cap
    if capped and g.rules >= 2:
        # C-3.5 (ruling C-R36): at the bound the turn ends, its surplus discarded at random
        return [_END], 0, 0, 0
    if not capped:
        reserve = s.reserve[p]
        if reserve:
            newres = s.newres
            for c in reserve:
                if c not in newres:
                    x = table[c]
                    out.append((x if x is not None else card_actions(c)).pickup)
    if not endgame and h == P:
        out.append(_END)
    if capped:
        if h > P:
            for c in one_per_design(s, hand):
                x = table[c]
                out.append((x if x is not None else card_actions(c)).discard)
        return out, 0, 0, 0
    k = room = 0
    if h - 1 >= mh:
        loc_owner = s.loc_owner
        loc_att = s.loc_att
        free_dalek = False  # whether a Dalek counter is left (counted at the first Enemy)
        is_loc, is_def, is_en, ctype = cs.is_location, cs.is_defender, cs.is_enemy, cs.type
        de = cs.design
        loc_def = s.loc_def
        fought = s.fought  # no Defender and no joining where a defence was lost (C-R33)
        # Each Defender and Enemy design of the hand walks the Locations itself: the few
        # it meets cost less than building (and freeing) lists of them once per listing.
        counted = False  # whether `free_dalek` is counted yet (only for an Enemy)
        prev = -1
        for c in hand:
            d = de[c]
            if d == prev:
                continue
            prev = d
            x = table[c]
            if x is None:
                x = card_actions(c)
            if is_loc[c]:
                out.append(x.location)
            elif is_def[c]:
                t = ctype[c]
                row = x.defender
                for L in range(len(loc_owner)):
                    if loc_owner[L] != p or (fought and L in fought):
                        continue
                    free = True  # no Defender of this type there yet
                    for y in loc_def[L]:
                        if ctype[y] == t:
                            free = False
                            break
                    if free:
                        out.append(row[L] if len(row) > L else x.play_defender(c, L))
            elif is_en[c]:
                if not counted:
                    free_dalek = daleks_in_play(s, p) < cs.constants.counters
                    counted = True
                row = x.enemy
                for L in range(len(loc_owner)):
                    if loc_owner[L] == p:
                        continue
                    att = loc_att[L]
                    if att < 0:
                        if not free_dalek:
                            continue
                    elif att == p:
                        if (fought and L in fought) or not combines(s, c, s.loc_en[L]):
                            continue
                    else:
                        # (the card's effects asked only here: a set look-up per Enemy
                        # design on every listing, for a card few attacks meet)
                        if free_dalek and "takeover" in cs.effects[c] and can_take_over(s, c, L):
                            out.append(_mk(TakeOver, c, L))
                        continue
                    out.append(row[L] if len(row) > L else x.play_enemy(c, L))
            else:
                support_actions(s, p, c, h, mh, out)
        upres = s.upres[p]
        if upres:
            room = reserve_capacity(s, p) - reserve_used(s, p)
        else:
            room = cs.constants.reserve_limit - len(s.reserve[p])
        k = min(2, h - mh)
    elif h == mh and g.rules >= 2:
        # Regeneration draws back one more than it discards, so with exactly the minimum
        # in hand its action still ends with it (C-3.2, ruling C-R31; rules 1 refused it).
        for c in one_per_design(s, hand):
            if "regenerate" in cs.effects[c]:
                out.append(card_actions(c).play_support(c))
    buys = s.tp[p] // cs.constants.buy_cost
    if buys:  # at most what is left to draw (`cards_to_buy`; not read when none is affordable)
        buys = min(buys, len(s.deck) + len(s.discard))
    return out, k, room, buys


def can_take_over(s: CardGameState, c: int, L: int) -> bool:
    """C-card-davros / C-card-cyberking: a face-up attack by another player, on another
    player's Location, holding a card of the taker's type."""
    cs = s.cs
    ens = s.loc_en[L]
    if s.loc_up[L] != (1 << len(ens)) - 1:
        return False
    t = cs.type[c]
    if not any(cs.is_enemy[e] and cs.type[e] == t for e in ens):
        return False
    return combines(s, c, ens)


_BUYS: Final[list[Action]] = []


def _buy(n: int) -> Action:
    """The shared `BuyCards(n)`."""
    while len(_BUYS) <= n:
        _BUYS.append(_mk(BuyCards, len(_BUYS)))
    return _BUYS[n]


# The reserve/discard combinations of a hand (C-4.7, C-4.9), one per multiset of designs
# (C-R24): a hand's cards are sorted with the copies of a design side by side, so the
# first copy of each design (`firsts`) stands for that design. In list order: the 1-card
# reserve plays (room >= 1), the 2-card ones (room >= 2, k = 2), then the discards, each
# first copy's 1-card discard followed by its 2-card ones. A first copy pairs with its
# design's second copy (when there is one) and with the first copy of every later design,
# so it has `_partners` 2-card combinations and a hand has d(d-1)/2 + (designs held twice)
# of them: counted without building them, and any one built from its index.


def _firsts(de: tuple[int, ...], hand: tuple[int, ...]) -> list[int]:
    """The positions in `hand` of the first copy of each design."""
    out = []
    prev = -1
    for i in range(len(hand)):
        d = de[hand[i]]
        if d != prev:
            prev = d
            out.append(i)
    return out


def _partners(de: tuple[int, ...], hand: tuple[int, ...], firsts: list[int], t: int) -> int:
    """How many 2-card combinations the t-th first copy heads."""
    f = firsts[t]
    twice = f + 1 < len(hand) and de[hand[f + 1]] == de[hand[f]]
    return len(firsts) - 1 - t + twice


def _group_count(
    de: tuple[int, ...], hand: tuple[int, ...], firsts: list[int], k: int, room: int
) -> int:
    d = len(firsts)
    pairs = 0
    if k >= 2:
        n = len(hand)
        pairs = d * (d - 1) // 2
        for f in firsts:
            if f + 1 < n and de[hand[f + 1]] == de[hand[f]]:
                pairs += 1
    return (d if room >= 1 else 0) + (pairs if room >= 2 else 0) + d + pairs


def _pair_of(
    de: tuple[int, ...], hand: tuple[int, ...], firsts: list[int], t: int, i: int
) -> tuple[Action, Action]:
    """The reserve play and discard of the t-th first copy's i-th 2-card combination."""
    f = firsts[t]
    a = hand[f]
    if f + 1 < len(hand) and de[hand[f + 1]] == de[a]:
        b = hand[f + 1] if i == 0 else hand[firsts[t + i]]
    else:
        b = hand[firsts[t + 1 + i]]
    x = CARD_ACTIONS[a]
    return (x if x is not None else card_actions(a)).pair(a, b, len(de))


def _group_at(
    de: tuple[int, ...], hand: tuple[int, ...], firsts: list[int], k: int, room: int, i: int
) -> Action:
    """The i-th reserve/discard combination of `hand` (see the comment above)."""
    d = len(firsts)
    if room >= 1:
        if i < d:
            c = hand[firsts[i]]
            x = CARD_ACTIONS[c]
            return (x if x is not None else card_actions(c)).reserve
        i -= d
        if room >= 2 and k >= 2:
            for t in range(d):
                m = _partners(de, hand, firsts, t)
                if i < m:
                    return _pair_of(de, hand, firsts, t, i)[0]
                i -= m
    for t in range(d):
        if i == 0:
            c = hand[firsts[t]]
            x = CARD_ACTIONS[c]
            return (x if x is not None else card_actions(c)).discard
        i -= 1
        if k >= 2:
            m = _partners(de, hand, firsts, t)
            if i < m:
                return _pair_of(de, hand, firsts, t, i)[1]
            i -= m
    raise IndexError(i)


def _group_actions(
    de: tuple[int, ...], hand: tuple[int, ...], k: int, room: int, out: list[Action]
) -> None:
    """Append the reserve/discard combinations of `hand` (k >= 1; see the comment above).
    Straight into `out`, one pass over the hand per kind: gathering the pairs in lists
    first and then copying them doubled the reference counting on every action of the
    longest lists, and keeping each first copy's `CardActions` in a list of its own cost
    two lists a listing for a look-up that is one list index anyway."""
    table = CARD_ACTIONS
    if room >= 1:
        prev = -1
        for c in hand:
            if de[c] != prev:
                prev = de[c]
                x = table[c]
                out.append((x if x is not None else card_actions(c)).reserve)
        if room >= 2 and k >= 2:
            _pairs_into(de, hand, 0, out)
    if k >= 2:
        _pairs_into(de, hand, 1, out)
        return
    prev = -1  # single cards only (a hand one above the minimum)
    for c in hand:
        if de[c] != prev:
            prev = de[c]
            x = table[c]
            out.append((x if x is not None else card_actions(c)).discard)


def _pairs_into(de: tuple[int, ...], hand: tuple[int, ...], side: int, out: list[Action]) -> None:
    """Append each 2-card combination's reserve play (`side` 0) or, after each first copy's
    single discard, its discard (`side` 1), in the order `_group_at` counts them."""
    table = CARD_ACTIONS
    n = len(hand)
    prev = -1
    for i in range(n):
        a = hand[i]
        if de[a] == prev:
            continue
        prev = de[a]
        x = table[a]
        if x is None:
            x = card_actions(a)
        if side:
            out.append(x.discard)
        row = x.pairs
        seen = -1
        for j in range(i + 1, n):
            b = hand[j]
            if de[b] == seen:
                continue
            seen = de[b]
            at = 2 * b + side
            y = row[at] if at < len(row) else None
            if y is None:
                y = x.pair(a, b, len(de))[side]
                row = x.pairs
            out.append(y)


_PHASE_OF: Final[dict[type[Action], tuple[tuple[str, ...], str]]] = {
    PlayLocation: ((MAIN,), "C-4.1"),
    PlayDefender: ((MAIN, DEFEND), "C-4.2"),
    PlayEnemy: ((MAIN, ATTACK), "C-4.3"),
    TakeOver: ((MAIN,), "C-card-davros"),
    PlaySupport: ((MAIN,), "C-4.6"),
    PlaceReserve: ((MAIN,), "C-4.7"),
    PickUp: ((MAIN,), "C-3.4"),
    BuyCards: ((MAIN,), "C-4.8"),
    DiscardForTime: ((MAIN,), "C-4.9"),
    EndTurn: ((MAIN,), "C-3.3"),
    Finish: ((DEFEND, ATTACK, CLEVER, REGEN), "C-3.1"),
    Pass: ((JACK, IRON, VALIANT), "C-3.1"),
    TakeTime: ((TAKE,), "C-4.1"),
    RemoveTardis: ((CLEVER,), "C-card-mr-clever"),
    PlaceTardis: ((JACK,), "C-card-captain-jack"),
    DiscardToRegenerate: ((REGEN,), "C-card-regeneration"),
    UseIronsides: ((IRON,), "C-card-ironsides"),
    PlayValiant: ((VALIANT,), "C-card-the-valiant"),
    DiscardEnemies: ((MATCH,), "C-5.5"),
}


_KIND_TEXT: Final = {
    "location": "a Location",
    "defender": "a Defender",
    "enemy": "an Enemy",
    "support": "a Support card",
    "start": "a starting Location",
}


def why_illegal(s: CardGameState, a: Action) -> IllegalAction:
    """Why `a` (not among the legal actions) is refused now, naming the clause that forbids
    it; for an action built outside the legal list (an API client) the real reason, down to
    naming the listed form of an equal move (C-1.1)."""
    if s.phase == OVER:
        return GameOver("the game is over", "C-6")
    if at_bound(s) and (s.phase in _CLOSABLE or (s.phase == MAIN and not s.endgame)):
        done = "end your turn (cards over the number passed are discarded at random)"
        return IllegalAction(
            f"this turn has reached its step bound: {done if s.phase == MAIN else 'finish'}",
            "C-3.5",
        )
    phases, rule = _PHASE_OF.get(type(a), ((), ""))
    if s.phase not in phases:
        return IllegalAction(f"{a} is not possible now: {PHASE_WORDS[s.phase].now}", rule)
    p = s.to_move
    assert p is not None
    cs = s.cs
    hand = s.hands[p]
    g = s.game
    capped = s.phase == MAIN and s.steps >= g.turn_step_cap and not s.endgame
    card = getattr(a, "card", None)
    if isinstance(a, (PlayLocation, PlayDefender, PlayEnemy, TakeOver, PlaySupport)):
        if card not in hand:
            return IllegalAction(f"card {card} is not in your hand", "C-3.1")
        assert card is not None
        if capped:
            return IllegalAction("this turn has reached its step limit; discard or end", "C-3.5")
        regenerates = g.rules >= 2 and "regenerate" in cs.effects[card]
        if len(hand) - (0 if regenerates else 1) < min_hand(s):
            return IllegalAction(
                f"you may never have fewer than {g.pass_count} cards in hand", "C-3.2"
            )
        kinds = {
            PlayLocation: "location",
            PlayDefender: "defender",
            PlayEnemy: "enemy",
            TakeOver: "enemy",
            PlaySupport: "support",
        }
        if cs.kind[card] != kinds[type(a)]:
            return IllegalAction(f"{cs.name[card]} is not {_KIND_TEXT[kinds[type(a)]]} card", rule)
        first = _first_copy(s, hand, card)
        if first != card:
            return IllegalAction(_copy_text(s, first), "C-1.1")
    loc = getattr(a, "location", -1)
    if isinstance(a, (PlayDefender, PlayEnemy, TakeOver)) and not 0 <= loc < len(s.loc_card):
        return IllegalAction(f"there is no location {loc}", rule)
    joins = isinstance(a, PlayEnemy) and s.loc_att[loc] == p
    if (isinstance(a, PlayDefender) or joins) and loc in s.fought and s.phase == MAIN:
        return IllegalAction(
            "the Enemies that won this conflict stay until a later turn: this Location can "
            "be defended or its attack joined again only then",
            "C-5.4",
        )
    if isinstance(a, PlayDefender):
        if s.loc_owner[loc] != p:
            return IllegalAction("Defenders go only on your own Locations", "C-4.2")
        if s.phase == DEFEND and loc != s.p_loc:
            return IllegalAction("all Defenders of one action go on one Location", "C-4.2")
        return IllegalAction("no two Defenders of one type on a Location", "C-4.2")
    if isinstance(a, PlayEnemy):
        if s.loc_owner[loc] == p:
            return IllegalAction("you cannot attack your own Locations", "C-4.5")
        if s.loc_att[loc] not in (-1, p):
            return IllegalAction(
                "that Location is already attacked by another player; you cannot join", "C-4.5"
            )
        if s.phase == ATTACK and loc != s.p_loc:
            return IllegalAction("all Enemies of one action attack one Location", "C-4.3")
        if s.loc_att[loc] < 0 and daleks_in_play(s, p) >= cs.constants.counters:
            return IllegalAction("you have no Dalek counter left to mark a new attack", "C-4.3")
        return IllegalAction(
            "Enemy cards of one attack must be of one type or able to combine", "C-4.3"
        )
    if isinstance(a, TakeOver):
        return IllegalAction(
            "a take-over needs another player's face-up attack holding your card's type, "
            "not against your own Location, and a free Dalek counter",
            "C-card-davros",
        )
    if isinstance(a, PickUp):
        if a.card not in s.reserve[p]:
            return IllegalAction(f"card {a.card} is not in your reserve", "C-3.4")
        if a.card in s.newres:
            return IllegalAction("a card put in the reserve this turn stays there", "C-3.4")
        return IllegalAction("this turn has reached its step limit; discard or end", "C-3.5")
    if isinstance(a, EndTurn):
        if s.endgame:
            return IllegalAction("in the End Game you take exactly one action", "C-6.3")
        return IllegalAction(
            f"end your turn with exactly {g.pass_count} cards in hand (you have {len(hand)})",
            "C-3.3",
        )
    if isinstance(a, BuyCards):
        return _explain_buy(s, a, p, capped)
    if isinstance(a, (PlaceReserve, DiscardForTime)):
        return _explain_group(s, a, p, capped, rule)
    if isinstance(a, PlaySupport):
        if "valiant" in cs.effects[card or 0]:
            return IllegalAction(
                "The Valiant is played only when you lose a defence", "C-card-the-valiant"
            )
        return IllegalAction(
            f"{cs.name[card or 0]} cannot be played with those targets now",
            "C-card-" + cs.key[card or 0],
        )
    if isinstance(a, TakeTime):
        return IllegalAction("take Time Points only from another player who has some", "C-4.1")
    if isinstance(a, RemoveTardis):
        return IllegalAction(f"there is no TARDIS counter at location {a.location}", rule)
    if isinstance(a, DiscardToRegenerate):
        if a.card not in hand:
            return IllegalAction(f"card {a.card} is not in your hand", rule)
        return IllegalAction(_copy_text(s, _first_copy(s, hand, a.card)), "C-1.1")
    if isinstance(a, PlayValiant):
        owned = valiant_cards(s, p)
        if a.card not in owned:
            return IllegalAction("that is not a The Valiant card in your hand or reserve", rule)
        first = _first_copy(s, sorted(owned), a.card)
        if first != a.card:
            return IllegalAction(_copy_text(s, first), "C-1.1")
        return IllegalAction(f"you may never have fewer than {g.pass_count} cards in hand", "C-3.2")
    if isinstance(a, DiscardEnemies):
        return IllegalAction(
            f"discard Enemy cards whose strength comes closest to the defence ({s.p_n}) "
            "without exceeding it, one set of those offered",
            "C-5.5",
        )
    return IllegalAction(f"{a} is not allowed now", rule)


def _first_copy(s: CardGameState, cards: Iterable[int], card: int) -> int:
    """The lowest-numbered copy of `card`'s design among `cards` (the one the list names)."""
    design = s.cs.design
    return min((c for c in cards if design[c] == design[card]), default=card)


def _copy_text(s: CardGameState, first: int) -> str:
    return f"copies of one design are alike: choose the first copy, {s.cs.label(first)}"


def _n_cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _explain_buy(s: CardGameState, a: BuyCards, p: int, capped: bool) -> IllegalAction:
    cost = s.cs.constants.buy_cost
    if not isinstance(a.count, int) or a.count < 1:
        return IllegalAction("buy at least one card", "C-4.8")
    if capped:
        return IllegalAction("this turn has reached its step limit; discard or end", "C-3.5")
    if a.count * cost > s.tp[p]:
        return IllegalAction(
            f"buying {_n_cards(a.count)} needs {a.count * cost} Time Points; you have {s.tp[p]}",
            "C-4.8",
        )
    return IllegalAction(f"only {_n_cards(cards_to_buy(s))} left to draw", "C-4.8")


def _explain_group(
    s: CardGameState, a: PlaceReserve | DiscardForTime, p: int, capped: bool, rule: str
) -> IllegalAction:
    """PlaceReserve and DiscardForTime: which of their conditions the cards break."""
    g = s.game
    hand = s.hands[p]
    cards = a.cards
    if not 1 <= len(cards) <= 2 or len(set(cards)) != len(cards):
        return IllegalAction("choose 1 or 2 different cards", rule)
    if any(c not in hand for c in cards):
        return IllegalAction("those cards are not all in your hand", rule)
    if capped and (isinstance(a, PlaceReserve) or len(cards) > 1):
        return IllegalAction(
            "this turn has reached its step limit: only single cards may be discarded", "C-3.5"
        )
    if len(hand) - len(cards) < min_hand(s) or (capped and len(hand) <= g.pass_count):
        return IllegalAction(f"you may never have fewer than {g.pass_count} cards in hand", "C-3.2")
    design = s.cs.design
    listed = []
    for d in sorted({design[c] for c in cards}):
        k = sum(1 for c in cards if design[c] == d)
        listed += [c for c in hand if design[c] == d][:k]
    listed.sort()
    if tuple(listed) != cards:
        form = type(a)(tuple(listed))
        return IllegalAction(
            f"copies of one design are alike and cards are given in hand order: {form}", "C-1.1"
        )
    if isinstance(a, PlaceReserve):
        room = reserve_capacity(s, p) - reserve_used(s, p)
        return IllegalAction(
            f"your reserve has room for {_n_cards(max(room, 0))} more, not {len(cards)}", "C-4.7"
        )
    return IllegalAction(f"{a} is not allowed now", rule)
