"""The fixed action space of the Card Game: every move the game can ever offer, fixed order.

Built from the card set (physical card ids, as actions name them) and the seat count; index =
position. Locations are indices into the locations in play, so they range over the number
of Location cards plus one start Location per seat. Order: PlayLocation per Location card;
PlayDefender and PlayEnemy per card and location; TakeOver per take-over Enemy and
location; PlaySupport per Support card in every shape its effect takes (C-4.6);
PlaceReserve and DiscardForTime per card and per pair of cards (ascending ids); PickUp per
card; BuyCards per count; EndTurn, Finish, Pass; TakeTime per seat; RemoveTardis per
location; PlaceTardis; DiscardToRegenerate per card; UseIronsides; PlayValiant per Valiant
card; DiscardEnemies per set.

DiscardEnemies is the one exception to "one physical action, one index": the attacker
chooses a set of Enemy cards at the Location (C-5.5), and copies of a design are alike, so
the rules offer each multiset of designs once, naming whichever copies lie there. The space
lists each multiset of pairwise combinable Enemy designs (C-4.3; Defenders that Madame
Kovarian turns into Enemies combine with all) once, by the lowest ids of each design;
`canonical` maps an offered set to that entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from weakref import WeakKeyDictionary

from timelord.core import Action
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
from timelord.games.card_game.cards import CardSet
from timelord.games.card_game.state import CardGameRules

_CACHE: WeakKeyDictionary[CardGameRules, tuple[tuple[Action, ...], dict[int, tuple[int, ...]]]] = (
    WeakKeyDictionary()
)


def action_space(game: CardGameRules) -> tuple[Action, ...]:
    """Every action `game` can offer, built once per game."""
    return _built(game)[0]


def canonical(game: CardGameRules, action: Action) -> Action:
    """The entry of the space standing for `action`: itself, except a DiscardEnemies set,
    which is named by the lowest ids of each design it holds (see the module text)."""
    if not isinstance(action, DiscardEnemies):
        return action
    copies = _built(game)[1]
    design = game.cards.design
    count: dict[int, int] = {}
    for c in action.cards:
        count[design[c]] = count.get(design[c], 0) + 1
    return DiscardEnemies(tuple(sorted(c for d, n in count.items() for c in copies[d][:n])))


def _built(game: CardGameRules) -> tuple[tuple[Action, ...], dict[int, tuple[int, ...]]]:
    got = _CACHE.get(game)
    if got is None:
        got = _CACHE[game] = _build(game)
    return got


def _build(game: CardGameRules) -> tuple[tuple[Action, ...], dict[int, tuple[int, ...]]]:
    cs = game.cards
    ids = [*cs.cards_in_play(game.players), *range(cs.game_cards, len(cs.design))]
    copies: dict[int, tuple[int, ...]] = {}
    for c in ids:
        copies[cs.design[c]] = (*copies.get(cs.design[c], ()), c)
    # every Location card may be played, and each seat has its start Location besides
    locs = range(sum(1 for c in ids if cs.is_location[c]) + game.players)
    enemies = [c for c in ids if cs.is_enemy[c]]
    turned = {cs.param(e, "turns") for e in enemies if "turns-defender" in cs.effects[e]}
    members = enemies + [c for c in ids if cs.is_defender[c] and cs.type[c] in turned]
    most_enemies = max((sum(n for _, n in m) for m in _attacks(cs, copies, members)), default=0)

    out: list[Action] = [PlayLocation(c) for c in ids if cs.is_location[c]]
    out += [PlayDefender(c, L) for c in ids if cs.is_defender[c] for L in locs]
    out += [PlayEnemy(c, L) for c in enemies for L in locs]
    out += [TakeOver(c, L) for c in enemies if "takeover" in cs.effects[c] for L in locs]
    for c in ids:
        if cs.is_support[c]:
            out += _support_shapes(cs, c, ids, locs, most_enemies)
    singles = [(c,) for c in ids]
    pairs = list(combinations(sorted(ids), 2))
    out += [PlaceReserve(cards) for cards in (*singles, *pairs)]
    out += [DiscardForTime(cards) for cards in (*singles, *pairs)]
    out += [PickUp(c) for c in ids]
    k = cs.constants
    out += [BuyCards(n) for n in range(1, k.time_points // k.buy_cost + 1)]
    out += [EndTurn(), Finish(), Pass()]
    out += [TakeTime(q) for q in range(game.players)]
    out += [RemoveTardis(L) for L in locs]
    out.append(PlaceTardis())
    out += [DiscardToRegenerate(c) for c in ids]
    out.append(UseIronsides())
    out += [PlayValiant(c) for c in ids if "valiant" in cs.effects[c]]
    strong = [c for c in members if cs.strength[c] > 0]
    sets = [
        tuple(sorted(c for d, n in m for c in copies[d][:n])) for m in _attacks(cs, copies, strong)
    ]
    out += [DiscardEnemies(cards) for cards in sorted(sets)]
    return tuple(out), copies


def _support_shapes(
    cs: CardSet, c: int, ids: list[int], locs: range, most_enemies: int
) -> list[Action]:
    """The PlaySupport actions card `c` can make, one shape per effect as in
    `rules.supports.support_actions`."""
    eff = cs.effects[c]
    if "valiant" in eff:
        return []  # played through PlayValiant
    if "reveal-attack" in eff:
        return [PlaySupport(c, L) for L in locs]
    if eff & {"reserve-slot", "ironsides"}:
        return [PlaySupport(c)]
    if "discard-enemy" in eff:
        return [PlaySupport(c, L, i) for L in locs for i in range(most_enemies)]
    if "redirect" in eff:
        return [PlaySupport(c, L, M) for L in locs for M in locs if M != L]
    if "defeat-attack" in eff:
        if cs.param(c, "discard_defender", False):
            return [PlaySupport(c, L, -1, d) for L in locs for d in ids if cs.is_defender[d]]
        return [PlaySupport(c, L) for L in locs]
    if eff & {"remove-tardis", "count-tardis", "count-daleks", "regenerate"}:
        return [PlaySupport(c)]
    return []


def _attacks(
    cs: CardSet, copies: dict[int, tuple[int, ...]], members: list[int]
) -> Iterator[list[tuple[int, int]]]:
    """Every multiset of `members`' designs that one attack can hold, as (design, count)
    lists: Enemy designs pairwise able to combine (C-4.3), each at most as often as it has
    copies; Defenders turned into Enemies (Madame Kovarian) have no enemy type and combine
    with all."""
    designs = sorted({cs.design[c] for c in members})
    enemy = {cs.design[c]: cs.is_enemy[c] for c in members}

    def grow(i: int, chosen: list[tuple[int, int]]) -> Iterator[list[tuple[int, int]]]:
        if i == len(designs):
            yield chosen
            return
        yield from grow(i + 1, chosen)
        d = designs[i]
        if not enemy[d] or all(cs.combine[d][e] for e, _ in chosen if enemy[e]):
            for n in range(1, len(copies[d]) + 1):
                yield from grow(i + 1, [*chosen, (d, n)])

    return grow(0, [])
