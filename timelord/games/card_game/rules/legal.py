"""Legal actions for every pending decision, and why an action is refused."""

from __future__ import annotations

from collections.abc import Iterable

from timelord.core import Action, GameOver, IllegalAction
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
    DISCARD,
    PLAY_DEFENDER,
    PLAY_ENEMY,
    PLAY_LOCATION,
    RESERVE,
    make,
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
    REGEN,
    TAKE,
    VALIANT,
    CardGameState,
)

_FINISH = Finish()
_PASS = Pass()
_END = EndTurn()
_IRON = UseIronsides()
_TARDIS = PlaceTardis()


def legal_actions(s: CardGameState) -> list[Action]:
    ph = s.phase
    if ph == MAIN:
        return main_actions(s)
    if ph == OVER:
        return []
    p = s.active
    cs = s.cs
    if ph == DEFEND:
        out: list[Action] = []
        L = s.p_loc
        if len(s.hands[p]) - 1 >= min_hand(s):
            types = {cs.type[d] for d in s.loc_def[L]} | {cs.type[d] for d in s.p_cards}
            fits = (c for c in s.hands[p] if cs.is_defender[c] and cs.type[c] not in types)
            out += [_mk(PlayDefender, c, L) for c in one_per_design(s, fits)]
        out.append(_FINISH)
        return out
    if ph == ATTACK:
        out = []
        L = s.p_loc
        if len(s.hands[p]) - 1 >= min_hand(s):
            others = s.loc_en[L] + s.p_cards
            fits = (c for c in s.hands[p] if cs.is_enemy[c] and combines(s, c, others))
            out += [_mk(PlayEnemy, c, L) for c in one_per_design(s, fits)]
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
        short = owner == p and len(hand) - 1 + len(s.loc_def[s.p_loc]) < min_hand(s)
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
    p = s.active
    cs = s.cs
    g = s.game
    hand = s.hands[p]
    h = len(hand)
    mh = min_hand(s)
    P = g.pass_count
    out: list[Action] = []
    capped = not s.endgame and s.steps >= g.turn_step_cap
    if not capped:
        for c in s.reserve[p]:
            if c not in s.newres:
                out.append(_mk(PickUp, c))
    if not s.endgame and h == P:
        out.append(_END)
    if capped:
        if h > P:
            out += [_mk(DiscardForTime, (c,)) for c in one_per_design(s, hand)]
        return out
    if h - 1 >= mh:
        loc_owner = s.loc_owner
        loc_att = s.loc_att
        loc_def = s.loc_def
        own = [L for L, o in enumerate(loc_owner) if o == p]
        free_dalek = loc_att.count(p) < cs.constants.counters
        is_loc, is_def, is_en, ctype = cs.is_location, cs.is_defender, cs.is_enemy, cs.type
        PL, PD, PE = PLAY_LOCATION, PLAY_DEFENDER, PLAY_ENEMY
        prev = -1
        for c in hand:
            d = cs.design[c]
            if d == prev:
                continue
            prev = d
            if is_loc[c]:
                a = PL.get(c)
                out.append(a if a is not None else make(PL, c, PlayLocation, c))
            elif is_def[c]:
                t = ctype[c]
                for L in own:
                    if all(ctype[x] != t for x in loc_def[L]):
                        key = c << 10 | L
                        a = PD.get(key)
                        out.append(a if a is not None else make(PD, key, PlayDefender, c, L))
            elif is_en[c]:
                takeover = "takeover" in cs.effects[c]
                for L, o in enumerate(loc_owner):
                    if o == p:
                        continue
                    att = loc_att[L]
                    if att == p:
                        if not combines(s, c, s.loc_en[L]):
                            continue
                    elif att >= 0:
                        if takeover and free_dalek and can_take_over(s, c, L):
                            out.append(_mk(TakeOver, c, L))
                        continue
                    elif not free_dalek:
                        continue
                    key = c << 10 | L
                    a = PE.get(key)
                    out.append(a if a is not None else make(PE, key, PlayEnemy, c, L))
            else:
                support_actions(s, p, c, h, mh, out)
        room = reserve_capacity(s, p) - reserve_used(s, p)
        res1, res2, disc = _group_actions(s, hand, min(2, h - mh))
        if room >= 1:
            out.extend(res1)
            if room >= 2:
                out.extend(res2)
        out.extend(disc)
    cost = cs.constants.buy_cost
    for n in range(1, min(s.tp[p] // cost, cards_to_buy(s)) + 1):
        out.append(_mk(BuyCards, n))
    return out


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


def _group_actions(
    s: CardGameState, hand: tuple[int, ...], k: int
) -> tuple[list[Action], list[Action], list[Action]]:
    """Reserve plays of 1 card, of 2 cards, and discards of 1-2 cards for this hand."""
    res1: list[Action] = []
    res2: list[Action] = []
    disc: list[Action] = []
    if k <= 0:
        return res1, res2, disc
    de = s.cs.design
    R, D = RESERVE, DISCARD
    n = len(hand)
    seen1 = -1
    for i in range(n):
        a = hand[i]
        if de[a] == seen1:
            continue
        seen1 = de[a]
        x = R.get(a)
        res1.append(x if x is not None else make(R, a, PlaceReserve, (a,)))
        x = D.get(a)
        disc.append(x if x is not None else make(D, a, DiscardForTime, (a,)))
        if k >= 2:
            seen2 = -1
            for j in range(i + 1, n):
                b = hand[j]
                if de[b] == seen2:
                    continue
                seen2 = de[b]
                key = (a << 10 | b) + 1_048_576
                x = R.get(key)
                res2.append(x if x is not None else make(R, key, PlaceReserve, (a, b)))
                x = D.get(key)
                disc.append(x if x is not None else make(D, key, DiscardForTime, (a, b)))
    return res1, res2, disc


def _groups(s: CardGameState, hand: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    """Sets of 1..k cards of the hand, one per distinct multiset of designs."""
    if k <= 0:
        return []
    de = s.cs.design
    out: list[tuple[int, ...]] = []
    seen1 = -1
    n = len(hand)
    for i in range(n):
        a = hand[i]
        if de[a] == seen1:
            continue
        seen1 = de[a]
        out.append((a,))
        if k >= 2:
            seen2 = -1
            for j in range(i + 1, n):
                b = hand[j]
                if de[b] == seen2:
                    continue
                seen2 = de[b]
                out.append((a, b))
    return out


_PHASE_OF: dict[type[Action], tuple[tuple[str, ...], str]] = {
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

_PHASE_TEXT = {
    MAIN: "the player to move is choosing an action",
    DEFEND: "Defenders are being declared",
    ATTACK: "Enemies are being declared",
    TAKE: "Time Points must be taken from other players",
    CLEVER: "TARDIS counters are being removed (Mr Clever)",
    JACK: "a TARDIS counter may be placed (Captain Jack)",
    REGEN: "cards are being discarded for Regeneration",
    IRON: "the defender may use Ironsides",
    VALIANT: "the defender may play The Valiant",
    MATCH: "the attacker chooses which Enemy cards to discard",
}


_KIND_TEXT = {
    "location": "a Location",
    "defender": "a Defender",
    "enemy": "an Enemy",
    "support": "a Support card",
    "start": "a starting Location",
}


def explain(s: CardGameState, a: Action) -> IllegalAction:
    """Why `a` (not among the legal actions) is refused now, naming the clause that forbids
    it; for an action built outside the legal list (an API client) the real reason, down to
    naming the listed form of an equal move (C-1.1)."""
    if s.phase == OVER:
        return GameOver("the game is over", "C-6")
    phases, rule = _PHASE_OF.get(type(a), ((), ""))
    if s.phase not in phases:
        return IllegalAction(f"{a} is not possible now: {_PHASE_TEXT[s.phase]}", rule)
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
        if len(hand) - 1 < min_hand(s):
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
