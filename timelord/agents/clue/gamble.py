"""When a seat that is not yet certain should accuse anyway: a guess weighed against a rival.

The deducer never guesses, so in the 4-player games it loses a race it could have won by
guessing: two seats of four knew two envelope cards and had the third at even odds while a
rival, certain, walked to the TARDIS. A guess at the envelope wins with the exact chance of
its triple (`deduction.triple_chance`, not the product of the marginals, which a rumour
nobody answered makes far from it); waiting wins with a chance that drops as rivals become
certain. The threat is read the way the search reads the hidden cards: worlds sampled from
the seat's own view (`game.sample_state`, so only what the seat may see), and in each world
every rival's exact deducer run on that rival's view of it; a rival certain in a world will
walk to the TARDIS and accuse within a few turns.

`guess` returns the triple to accuse with, or None: a guess when its chance beats the value
of waiting, `(1 - threat) * CALM + threat * THREATENED`, where `threat` is the chance that
at least one rival is certain now.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from timelord.core import Game, Rng, View
from timelord.games.clue.deduction import Knowledge, deduce, triple_chance
from timelord.games.clue.notebook import knowledge_from_view

#: a seat's chance to win by waiting when no rival is certain (it learns the rest first often
#: enough that only a guess better than this is worth the risk of going out)
CALM = 0.7
#: its chance to win by waiting when a rival is certain (it must also solve and arrive first)
THREATENED = 0.15
#: worlds sampled from the view to see which rivals are certain
WORLDS = 8
#: triples whose exact chance is counted (the likeliest by their marginals)
CANDIDATES = 8


def best_triple(k: Knowledge, naming: Sequence[int] = ()) -> tuple[tuple[int, ...], float]:
    """The likeliest envelope (starting with the cards already `naming`ed) and its exact
    chance, among the `CANDIDATES` triples likeliest by their marginals."""
    d = deduce(k)
    per_category = []
    for i in range(len(d.categories)):
        if i < len(naming):
            per_category.append([naming[i]])
            continue
        cards = sorted(d.possible_envelope(i), key=lambda c: (-d.envelope[c], c))
        per_category.append(cards[:3] or list(d.categories[i][:1]))
    triples = sorted(
        itertools.product(*per_category),
        key=lambda t: (-_product(d.envelope[c] for c in t), t),
    )[:CANDIDATES]
    chances = [(triple_chance(k, t), t) for t in triples]
    chance, triple = max(chances, key=lambda ct: (ct[0], [-c for c in ct[1]]))
    return tuple(triple), chance


def threat(game: Game, view: View, rng: Rng) -> float:
    """The chance that at least one rival still in is certain of the envelope now, over
    `WORLDS` worlds sampled from `view`."""
    seat = view["seat"]
    rivals = [p for p in range(view["players"]) if p != seat and not view["out"][p]]
    if not rivals:
        return 0.0
    hit = 0
    for _ in range(WORLDS):
        world = game.sample_state(view, rng)
        for p in rivals:
            if deduce(knowledge_from_view(world.view(p))).certain_envelope() is not None:
                hit += 1
                break
    return hit / WORLDS


def guess(game: Game, view: View) -> tuple[int, ...] | None:
    """The triple to accuse with now although the seat is not certain, or None (see the
    module docstring). Deterministic for a view: the worlds come from a generator seeded by
    the view's length of history."""
    k = knowledge_from_view(view)
    d = deduce(k)
    # a triple is no likelier than its least likely card: most of the game, no guess is near
    if min(max(d.envelope[c] for c in cat) for cat in d.categories) <= THREATENED:
        return None
    triple, chance = best_triple(k)
    if chance <= THREATENED:
        return None
    danger = threat(game, view, Rng(len(view["log"]) * 7919 + view["seat"]))
    wait = (1.0 - danger) * CALM + danger * THREATENED
    return triple if chance > wait else None


def _product(values: Any) -> float:
    out = 1.0
    for v in values:
        out *= v
    return out
