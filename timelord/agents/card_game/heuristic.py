"""Doctor Who: The Card Game for bots: the heuristic agent and the search hooks.

- The heuristic agent (`CardGameHeuristic`) reads only its seat's view and plays by the
  rules of thumb in `timelord.agents.card_game.play`: Locations first, break attacks on its
  own Locations when it can win the conflict, attack the richest undefended Locations (the
  leader's first), take a fifth Dalek counter only when that ends the game in its favour,
  and pass the worst cards. It is deterministic: the same view gives the same move.
- `heuristic_rollout` (search playouts): the same choices on the sampled state, with one move
  in ten at random so that playouts of one deal differ.
- `evaluate` (search cut-off): each seat's Victory Points as the game would score them now
  (`state.scores()`) plus a fifth of its Time Points (what buys cards and pays for
  Ironsides), turned into shares by exp(value / 4).
- `rollout` (the older policy, kept for comparison): a kind of move weighted the way a
  newcomer leans, then one move of that kind at random.

Why the search used to win in ~80 moves: the old heuristic (a one-ply lookahead) valued a
move right after it, and `PlayEnemy`/`PlayDefender` only declare a card (nothing is placed
until `Finish`), so attacking and defending looked worthless and it discarded its Enemies and
Defenders for Time Points instead. The search attacked with one face-down Enemy a turn; nobody
defended, and at the start of its turn with five Dalek counters out the game ended (C-6.1)
with the search far ahead. That is the rule, not a bug; this heuristic defends (and breaks a
leader's attacks first when it has four or five counters out) and rushes only when leading.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from timelord.agents.base import Agent
from timelord.agents.card_game.play import choose, table_from_state, table_from_view
from timelord.agents.heuristic import leveled
from timelord.agents.hooks import Evaluation, Hooks, Policy
from timelord.core import Action, Game, Rng, State, View

TEMPERATURE = 4.0
#: share of rollout moves played at random, so playouts of one deal differ
ROLLOUT_NOISE = 0.1
TIME_WEIGHT = 0.2

#: how strongly the rollout leans to each kind of move (kinds not named weigh 1)
WEIGHTS = {
    "PlayLocation": 8.0,
    "PlayEnemy": 5.0,
    "TakeOver": 5.0,
    "PlayValiant": 5.0,
    "UseIronsides": 5.0,
    "PlaceTardis": 5.0,
    "PlayDefender": 4.0,
    "PlaySupport": 3.0,
    "EndTurn": 1.0,
    "Finish": 1.0,
    "PlaceReserve": 0.5,
    "PickUp": 0.5,
    "BuyCards": 0.5,
    "DiscardForTime": 0.3,
}


def evaluate(state: State) -> list[float]:
    tp = state.tp  # type: ignore[attr-defined]
    values = [
        (vp + TIME_WEIGHT * t) / TEMPERATURE for vp, t in zip(state.scores(), tp, strict=True)
    ]
    top = max(values)
    weights = [math.exp(v - top) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def rollout(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    if len(legal) == 1:
        return legal[0]
    kinds: dict[str, list[Action]] = {}
    for a in legal:
        kinds.setdefault(type(a).__name__, []).append(a)
    names = list(kinds)
    weights = [WEIGHTS.get(n, 1.0) for n in names]
    x = rng.random() * sum(weights)
    for name, w in zip(names, weights, strict=True):
        x -= w
        if x < 0:
            group = kinds[name]
            return group[rng.below(len(group))]
    group = kinds[names[-1]]
    return group[rng.below(len(group))]


class CardGameHeuristic(Agent):
    """Rule-based play from the seat's view; see `timelord.agents.card_game.play`."""

    name = "heuristic"

    def act(self, view: View, legal: Sequence[Action], rng: Rng) -> Action:
        if len(legal) == 1:
            return legal[0]
        game = self.game
        table = table_from_view(view, game.cards, game.pass_count)  # type: ignore[attr-defined]
        return choose(table, legal)


def heuristic_rollout(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """The heuristic's choice on a sampled state (every card dealt, so nothing is hidden)."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < ROLLOUT_NOISE:
        return legal[rng.below(len(legal))]
    return choose(table_from_state(state), legal)


def plain_rollout(state: State, legal: Sequence[Action], rng: Rng) -> Action:
    """The heuristic's choice on a sampled state with no random moves: the coach's
    simulations, whose playouts differ by the dealt world (the random tenth of
    `heuristic_rollout` lost conflicts the heuristic wins)."""
    if len(legal) == 1:
        return legal[0]
    return choose(table_from_state(state), legal)


def simulation(game: Game, view: View, thorough: bool = False) -> tuple[Policy, Evaluation]:
    """The coach's simulations (`thorough`): `plain_rollout`; the search keeps
    `heuristic_rollout`, whose random tenth lets its tree see other lines."""
    return (plain_rollout if thorough else heuristic_rollout), evaluate


def _make(game: Game, level: str | None) -> Agent:
    return leveled(CardGameHeuristic(game), level)


#: ismcts levels: heuristic rollouts cut after 10 moves (one turn and a reply) and valued by
#: `evaluate`; the heuristic's move is each node's prior, so a small budget never falls to a
#: coin toss among the many card-shedding moves (without it the search threw away Locations),
#: and little exploration (c=0.3), so the search leaves the heuristic only on clear evidence.
#: Against three heuristics over 24 games (seed 5): no prior 0.326, prior 0.417, prior with
#: c=0.3 0.597. `hard` spends about a third of the server's 0.8 s cap on one core: 600
#: simulations, 0.26 s a decision on average and 0.30 s at the 95th percentile (pure-Python
#: build; 0.35 s and 0.51 s with the machine at load 11); at 200 simulations, a tenth of the
#: cap, it won 0.375 of 200 games against three heuristics. `expert` has 1,200 (1,500 took
#: 0.85 s on average at load 11, past the cap).
LEVELS = {
    level: {"sims": sims, "cutoff": 10, "rollout": "heuristic", "prior": 1.0, "c": 0.3}
    for level, sims in (("easy", 50), ("medium", 100), ("hard", 600), ("expert", 1200))
}

HOOKS = Hooks(
    heuristic=_make,
    rollout=heuristic_rollout,
    evaluate=evaluate,
    levels=LEVELS,
    simulation=simulation,
)
