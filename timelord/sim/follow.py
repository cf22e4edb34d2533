"""Does a player who follows the coach ever pass a certain win? `python -m timelord.sim.follow`.

One seat plays the hint's top move at every decision with a choice (the hint's valuation at
a budget of `--samples`), the others play the table's `heuristic`. At each of the follower's
decisions the true state is checked for a win the seat could be certain of from its view:
- Clue: its exact deducer knows the envelope and it may accuse, or it is naming an
  accusation (the right card is the envelope's);
- Keys: a move that wins in every one of `WORLDS` worlds dealt from its view (the step onto
  the goal edge, or the card that opens it this turn: `keys.heuristic.winning`);
- Episodes: an episode that ends the game with the seat winning (its own hand and the
  public score decide it);
- Card Game: a move that ends the game with the seat the only winner, at once or (in the
  End Game, C-6.3, where a turn is one action made of a few steps: declare, declare,
  finish) by the seat's own next steps, in the true state and in every one of `WORLDS`
  worlds dealt from its view (face-down attacks are turned up to score, C-6.4).
A certain win is *passed* when the hint's top move is not one of those winning moves. The
table gives, per game, the follower's decisions, the certain-win positions met and passed.

    python -m timelord.sim.follow [--games 2] [--samples 60] [--game clue] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from timelord.agents import make_agent
from timelord.agents.coach import Budget, Coach, win_share
from timelord.core import Action, Rng, State, load

PLAYERS = {"clue": 3, "keys": 2, "episodes": 2, "card-game": 2}
#: worlds a Keys or Card Game win must hold in to count as certain from the seat's view
WORLDS = 24
#: the seat's own steps after a Card Game move searched for the end of the game (an End
#: Game turn's declarations and its finish)
OWN_STEPS = 3


def _clue_wins(state: State, seat: int) -> list[Action]:
    from timelord.games.clue.actions import Accuse, NameCard
    from timelord.games.clue.deduction import deduce
    from timelord.games.clue.notebook import knowledge_from_view

    view = state.view(seat)
    legal = state.legal_actions()
    envelope = deduce(knowledge_from_view(view)).certain_envelope()
    if envelope is None:
        return []
    if view["phase"] == "name" and view["purpose"] == "accuse":
        return [a for a in legal if isinstance(a, NameCard) and a.card in envelope]
    return [a for a in legal if isinstance(a, Accuse)]


def _keys_wins(state: State, seat: int) -> list[Action]:
    from timelord.agents.keys.heuristic import winning

    legal = state.legal_actions()
    if winning(state, legal) is None:
        return []
    game = state.game
    view = state.view(seat)
    worlds = [game.sample_state(view, Rng(k)) for k in range(WORLDS)]
    return [a for a in legal if all(winning(w, [a]) == a for w in worlds)]


def _episodes_wins(state: State, seat: int) -> list[Action]:
    out = []
    for a in state.legal_actions():
        after = state.apply(a)
        if after.is_over and win_share(after, seat) == 1.0:
            out.append(a)
    return out


def _ends_in_a_win(state: State, seat: int, steps: int) -> bool:
    """Whether the game is over with `seat` the only winner, or the seat, still to move, can
    get there by at most `steps` more of its own actions."""
    if state.is_over:
        return win_share(state, seat) == 1.0
    if steps == 0 or state.to_move != seat:
        return False
    return any(_ends_in_a_win(state.apply(a), seat, steps - 1) for a in state.legal_actions())


def _card_game_wins(state: State, seat: int) -> list[Action]:
    s: Any = state
    steps = OWN_STEPS if s.endgame else 0  # before the End Game no step of one seat ends it
    legal = state.legal_actions()
    found = [a for a in legal if _ends_in_a_win(state.apply(a), seat, steps)]
    if not found:
        return []
    game = state.game
    view = state.view(seat)
    worlds = [game.sample_state(view, Rng(k)) for k in range(WORLDS)]
    return [a for a in found if all(_ends_in_a_win(w.apply(a), seat, steps) for w in worlds)]


CERTAIN: dict[str, Callable[[State, int], list[Action]]] = {
    "clue": _clue_wins,
    "keys": _keys_wins,
    "episodes": _episodes_wins,
    "card-game": _card_game_wins,
}


def follow(game_id: str, games: int, samples: int, seed: int) -> tuple[int, int, int]:
    """(follower decisions, certain-win positions met, passed) over `games` games."""
    players = PLAYERS[game_id]
    game = load(game_id, players=players)
    coach = Coach(game)
    certain = CERTAIN[game_id]
    decisions = met = passed = 0
    for g in range(games):
        seat = g % players
        agents = [make_agent("heuristic", game) for _ in range(players)]
        rng = Rng(seed * 1000 + g)
        state = game.new_game(seed * 1000 + g)
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            legal = state.legal_actions()
            if mover != seat or len(legal) == 1:
                move = (
                    legal[0]
                    if len(legal) == 1
                    else agents[mover].act(state.view(mover), legal, rng)
                )
            else:
                decisions += 1
                view = state.view(seat)
                move = coach.value_moves(view, legal, Budget(rollouts=samples))[0].action
                wins = certain(state, seat)
                if wins:
                    met += 1
                    passed += move not in wins
            state = state.apply(move)
    return decisions, met, passed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--samples", type=int, default=60, help="hint budget in samples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", choices=sorted(CERTAIN))
    args = parser.parse_args(argv)
    print("| game | players | games | follower decisions | certain wins met | passed |")
    print("|---|---:|---:|---:|---:|---:|")
    for game_id in args.game or sorted(CERTAIN):
        decisions, met, passed = follow(game_id, args.games, args.samples, args.seed)
        print(
            f"| {game_id} | {PLAYERS[game_id]} | {args.games} | {decisions} | {met} | {passed} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
