"""Head to head: OpenSpiel's own ISMCTS on the adapter against timelord's `ismcts:hard`.

    python -m timelord.adapters.headtohead [--games N] [--sims S] [--game ID ...] [--write]

Four players, two seats each, seats rotated every game (`timelord.sim.match.arrangement`);
game `i` is dealt with `game_seed(seed, i)`. Both bots get the same number of simulations per
move: timelord's hard level with `sims` set to S (default: the hard level's own), and
OpenSpiel's `ISMCTSBot` (UCT, c = 2, final policy = most visits, a fresh world sample per
simulation through `resample_from_infostate`, random-rollout evaluator with one rollout: the
setup of OpenSpiel's examples). A side's win share sums the returns of its two seats (a tie
for first gives 1/k to each of the k), so the fair share is 0.5; intervals are 95% Wilson.
`--write` puts the table into the adapters section of docs/strength.md.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from timelord.adapters.openspiel import TimelordState, short_name
from timelord.agents import make_agent
from timelord.agents.ismcts import IsmctsAgent
from timelord.core import GAMES, load
from timelord.sim.match import arrangement, game_seed, seat_rngs
from timelord.sim.stats import wilson

PLAYERS = 4
OPENSPIEL, TIMELORD = "openspiel-ismcts", "timelord-ismcts"
BEGIN, END = "<!-- adapters:begin -->", "<!-- adapters:end -->"


@dataclass
class Row:
    game: str
    games: int
    sims: int
    share: dict[str, float]
    length: float
    seconds: float

    def cells(self) -> list[str]:
        out = [self.game, str(self.games), str(self.sims)]
        for side in (OPENSPIEL, TIMELORD):
            lo, hi = wilson(self.share[side], self.games)
            out += [f"{self.share[side] / self.games:.3f}", f"[{lo:.3f}, {hi:.3f}]"]
        out += [f"{self.length:.0f}", f"{self.seconds / 60:.1f} min"]
        return out


def hard_sims(game_id: str) -> int:
    agent = make_agent("ismcts:hard", load(game_id, players=PLAYERS))
    assert isinstance(agent, IsmctsAgent)
    return agent.settings.sims


def play(game_id: str, index: int, sims: int, seed: int) -> tuple[list[float], list[str], int]:
    """One game: the returns per seat, who sat where, and the number of moves."""
    os_game = pyspiel.load_game(short_name(game_id), {"players": PLAYERS})
    state: TimelordState = os_game.new_initial_state()
    gseed = game_seed(seed, index)
    state.reseed(gseed)
    seats = arrangement((OPENSPIEL, TIMELORD, OPENSPIEL, TIMELORD), index, True)
    tl_game = os_game.tl_game
    rngs = seat_rngs(gseed, PLAYERS)
    rs = np.random.RandomState(gseed % (1 << 32))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = {
        s: ismcts.ISMCTSBot(os_game, evaluator, 2.0, sims, random_state=rs)
        for s in range(PLAYERS)
        if seats[s] == OPENSPIEL
    }
    agents = {
        s: make_agent(f"ismcts:hard/sims={sims}", tl_game)
        for s in range(PLAYERS)
        if seats[s] == TIMELORD
    }
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat in bots:
            state.apply_action(int(bots[seat].step(state)))
        else:
            tl = state.timelord_state
            action = agents[seat].act(tl.view(seat), tl.legal_actions(), rngs[seat])
            state.apply_action(os_game.index.index(action))
        moves += 1
    return list(state.returns()), seats, moves


def run(
    game_id: str,
    games: int,
    sims: int,
    seed: int,
    verbose: bool,
    progress: Callable[[Row], None] = lambda row: None,
) -> Row:
    """Play `games` games; `progress` gets the row so far after each one."""
    share = {OPENSPIEL: 0.0, TIMELORD: 0.0}
    lengths = 0
    t0 = time.perf_counter()
    for i in range(games):
        returns, seats, moves = play(game_id, i, sims, seed)
        for s, r in enumerate(returns):
            share[seats[s]] += r
        lengths += moves
        if verbose:
            got = {
                side: sum(r for s, r in enumerate(returns) if seats[s] == side) for side in share
            }
            print(f"  {game_id} game {i}: {got} in {moves} moves", flush=True)
        progress(
            Row(game_id, i + 1, sims, dict(share), lengths / (i + 1), time.perf_counter() - t0)
        )
    return Row(game_id, games, sims, share, lengths / max(games, 1), time.perf_counter() - t0)


def table(rows: list[Row], seed: int, kept: Sequence[str] = ()) -> str:
    head = [
        "game", "games", "sims/move", "OpenSpiel ISMCTS", "95% interval",
        "timelord ismcts:hard", "95% interval", "mean length", "wall time",
    ]  # fmt: skip
    lines = [
        "## Adapters: OpenSpiel's ISMCTS against timelord's",
        "",
        "Written by `python -m timelord.adapters.headtohead --write`. Four players, two seats "
        "each, seats rotated every game, match seed "
        f"{seed}; both bots get the same simulations per move (timelord's hard level with its "
        "`sims` set to that number; OpenSpiel's `ISMCTSBot` with UCT c=2, one random rollout "
        "per simulation, a fresh world per simulation from `resample_from_infostate`). A "
        "side's win share sums its two seats' returns (ties split), so the fair share is "
        "0.5; intervals are 95% Wilson. The issue asks for 200 games per game; the machine "
        "(2 cores shared by 8 people) ran the counts shown, at reduced simulation budgets, "
        "so read the intervals, not the point estimates.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    lines += list(kept)
    lines += ["| " + " | ".join(r.cells()) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def kept_rows(path: Path, games: list[str]) -> list[str]:
    """The table rows of the section in `path` for games other than `games`, so runs of
    different games add up to one table."""
    if not path.exists():
        return []
    text = path.read_text()
    if BEGIN not in text or END not in text:
        return []
    section = text[text.index(BEGIN) : text.index(END)]
    others = [g for g in GAMES if g not in games]
    return [
        line for line in section.splitlines() if any(line.startswith(f"| {g} |") for g in others)
    ]


def write_section(path: Path, text: str) -> None:
    """Replace (or append) the adapters section of `path`, between its markers."""
    old = path.read_text() if path.exists() else ""
    block = f"{BEGIN}\n{text}{END}\n"
    if BEGIN in old and END in old:
        start, end = old.index(BEGIN), old.index(END) + len(END)
        new = old[:start] + block.rstrip("\n") + old[end:]
    else:
        new = old.rstrip("\n") + "\n\n" + block
    path.write_text(new)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per game id (200)")
    ap.add_argument("--sims", type=int, default=0, help="simulations per move (hard level's)")
    ap.add_argument("--game", action="append", choices=list(GAMES), help="only these games")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--write", action="store_true", help="write docs/strength.md's section")
    ap.add_argument("--doc", type=Path, default=Path("docs/strength.md"))
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    rows: list[Row] = []
    games = args.game or list(GAMES)
    kept = kept_rows(args.doc, games) if args.write else []
    for game_id in games:
        sims = args.sims or hard_sims(game_id)

        def progress(row: Row) -> None:
            if args.write:  # after every game, so a long run that is stopped keeps its games
                write_section(args.doc, table([*rows, row], args.seed, kept))

        rows.append(run(game_id, args.games, sims, args.seed, not args.quiet, progress))
        print(" | ".join(rows[-1].cells()), flush=True)
    print(table(rows, args.seed, kept))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
