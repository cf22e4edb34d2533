"""CFR baselines on the small variants: OpenSpiel's CFR and its exploitability curve.

    python -m timelord.sim.cfr card-game --variant tiny --iterations 200 --out results/cfr

loads the game with explicit chance (`timelord.adapters.openspiel_chance`), measures its tree
(histories, information sets), runs OpenSpiel's tabular CFR (`open_spiel.python.algorithms.cfr`)
and writes the NashConv of the average policy (`exploitability.nash_conv`: the sum over seats
of what a best response gains) after chosen iterations, as a Markdown table, a JSON file and
an SVG plot under `--out`, and the average policy as a seat (`cfr:DIR/NAME.policy.json`).
NashConv 0 is an exact Nash equilibrium; with win shares as returns it is in win-share
units (0 to `players`). The tree count includes the terminals by outcome, which shows a
degenerate variant at once (every terminal the same outcome: nothing to learn).

    python -m timelord.sim.cfr --summary results/cfr

prints one Markdown table row per curve in a folder (docs/variants.md, "CFR curves").
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from timelord.adapters.openspiel_chance import chance_name


@dataclass
class TreeSize:
    """How big a game's tree is: what full CFR walks every iteration."""

    histories: int = 0
    terminals: int = 0
    chance_nodes: int = 0
    decision_nodes: int = 0
    infosets: list[int] = field(default_factory=list)
    longest: int = 0
    #: terminals by their returns ("1,0", "0.5,0.5", ...): a game whose terminals all share
    #: one outcome has nothing to learn (every policy is an equilibrium)
    outcomes: dict[str, int] = field(default_factory=dict)
    #: decision histories sharing an information state with a history whose own past (the
    #: seat's earlier information states and actions) differs: 0 is perfect recall, what
    #: CFR's guarantee and NashConv rest on (`recall_violations`)
    recall_violations: int = 0


def load(game_id: str, players: int = 2, chance: str = "outcomes", **options: Any) -> Any:
    """The explicit-chance pyspiel game of `game_id` with `options` (a variant, sizes)."""
    import timelord.adapters.openspiel_chance  # noqa: F401  (registers the games)

    params: dict[str, Any] = {"players": players, "chance": chance, **options}
    return pyspiel.load_game(chance_name(game_id), params)


def tree_size(game: Any) -> TreeSize:
    """Count every history of `game` and the information sets of each seat, and check
    perfect recall on the way (`TreeSize.recall_violations`)."""
    size = TreeSize(infosets=[0] * game.num_players())
    seen: list[set[str]] = [set() for _ in range(game.num_players())]
    for state, depth, key in _walk(game, _string, size):
        size.histories += 1
        size.longest = max(size.longest, depth)
        if state.is_terminal():
            size.terminals += 1
            returns = ",".join(f"{r:g}" for r in state.returns())
            size.outcomes[returns] = size.outcomes.get(returns, 0) + 1
        elif state.is_chance_node():
            size.chance_nodes += 1
        else:
            size.decision_nodes += 1
            seen[state.current_player()].add(key)
    size.infosets = [len(s) for s in seen]
    size.outcomes = dict(sorted(size.outcomes.items()))
    return size


def recall_violations(game: Any, tensors: bool = False) -> int:
    """How many decision histories of `game` share an information state (its string, or
    its tensor with `tensors`) with an earlier-walked history whose own past (the seat's
    earlier information states and actions) differs. 0 is perfect recall."""
    size = TreeSize()
    for _ in _walk(game, _tensor if tensors else _string, size):
        pass
    return size.recall_violations


def _string(state: Any, seat: int) -> str:
    return str(state.information_state_string(seat))


def _tensor(state: Any, seat: int) -> bytes:
    return np.asarray(state.information_state_tensor(seat), np.float32).tobytes()


def _walk(game: Any, key: Any, size: TreeSize) -> Any:
    """Every history of `game` depth first, as (state, depth, the mover's information state
    key or None), counting in `size.recall_violations` the decisions whose key was met
    before with another own past."""
    players = game.num_players()
    past_of: dict[tuple[int, Any], tuple[Any, ...]] = {}
    stack: list[tuple[Any, int, tuple[tuple[Any, ...], ...]]] = [
        (game.new_initial_state(), 0, ((),) * players)
    ]
    while stack:
        state, depth, pasts = stack.pop()
        if state.is_terminal():
            yield state, depth, None
            continue
        if state.is_chance_node():
            yield state, depth, None
            stack += [(state.child(a), depth + 1, pasts) for a, _ in state.chance_outcomes()]
            continue
        seat = state.current_player()
        mine = key(state, seat)
        yield state, depth, mine
        if past_of.setdefault((seat, mine), pasts[seat]) != pasts[seat]:
            size.recall_violations += 1
        for a in state.legal_actions():
            after = (*pasts[seat], mine, a)
            stack.append((state.child(a), depth + 1, (*pasts[:seat], after, *pasts[seat + 1 :])))


@dataclass
class CurvePoint:
    iterations: int
    nash_conv: float
    seconds: float  # CFR time so far, the NashConv evaluations left out


#: The solvers: OpenSpiel's tabular CFR and CFR+, and external-sampling Monte Carlo CFR
#: (one sampled walk an iteration) for trees too big to walk whole every iteration.
ALGORITHMS = ("cfr", "cfr+", "mccfr")


def run_cfr(
    game: Any, iterations: int, checkpoints: list[int], algorithm: str = "cfr"
) -> list[CurvePoint]:
    """Run `algorithm` for `iterations`, the NashConv of the average policy measured after
    each of `checkpoints`."""
    return solve(game, iterations, checkpoints, algorithm)[0]


def solve(
    game: Any, iterations: int, checkpoints: list[int], algorithm: str = "cfr"
) -> tuple[list[CurvePoint], Any]:
    """`run_cfr`, also giving the average policy (an OpenSpiel `TabularPolicy`)."""
    from open_spiel.python.algorithms import cfr, exploitability, external_sampling_mccfr

    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {ALGORITHMS}, not {algorithm!r}")
    if algorithm == "mccfr":
        solver: Any = external_sampling_mccfr.ExternalSamplingSolver(game)
        step = solver.iteration
    else:
        solver = cfr.CFRPlusSolver(game) if algorithm == "cfr+" else cfr.CFRSolver(game)
        step = solver.evaluate_and_update_policy
    marks = sorted({c for c in checkpoints if 1 <= c <= iterations} | {iterations})
    out: list[CurvePoint] = []
    spent = 0.0
    done = 0
    for mark in marks:
        start = time.perf_counter()
        while done < mark:
            step()
            done += 1
        spent += time.perf_counter() - start
        conv = float(exploitability.nash_conv(game, solver.average_policy()))
        out.append(CurvePoint(done, conv, round(spent, 3)))
    return out, _tabular(game, solver.average_policy())


def _tabular(game: Any, policy: Any) -> Any:
    """`policy` as a `TabularPolicy` (MCCFR's average policy is a callable one)."""
    from open_spiel.python import policy as policy_lib

    if isinstance(policy, policy_lib.TabularPolicy):
        return policy
    return policy_lib.tabular_policy_from_callable(game, policy)


def policy_table(game: Any, policy: Any) -> dict[str, Any]:
    """A tabular policy as `timelord.agents.tabular` reads it: per information state (keyed
    by `history_key`), each legal action's JSON text and probability."""
    from timelord.adapters.encode.history import past_of
    from timelord.agents.tabular import action_key, history_key

    table: dict[str, dict[str, float]] = {}
    for key, row in policy.state_lookup.items():
        probs = policy.action_probability_array[row]
        state = policy.states[row]
        decisions, view = past_of(game.tl_game, key)
        table[history_key(decisions, view)] = {
            action_key(game.index.actions[a]): round(float(probs[a]), 6)
            for a in state.legal_actions()
        }
    tl = game.tl_game
    return {"game": tl.id, "options": tl.options, "policy": table}


def checkpoints_for(iterations: int) -> list[int]:
    """1, 2, 5, 10, 20, 50, ... up to `iterations`: even steps on a log scale."""
    marks, base = [], 1
    while base <= iterations:
        marks += [m for m in (base, 2 * base, 5 * base) if m <= iterations]
        base *= 10
    return marks


def write_report(
    out: Path, name: str, title: str, size: TreeSize, curve: list[CurvePoint], command: str
) -> None:
    """`name`.md (table), `name`.json and `name`.svg (the curve) under `out`."""
    out.mkdir(parents=True, exist_ok=True)
    data = {
        "title": title,
        "command": command,
        "tree": asdict(size),
        "curve": [asdict(p) for p in curve],
    }
    (out / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
    lines = [
        f"# CFR on {title}",
        "",
        f"Command: `{command}`",
        "",
        f"Tree: {size.histories} histories ({size.decision_nodes} decisions, "
        f"{size.chance_nodes} chance nodes, {size.terminals} terminals, longest "
        f"{size.longest}); information sets per seat: {size.infosets}; histories "
        f"breaking perfect recall: {size.recall_violations}.",
        "",
        "Terminals by returns (win shares per seat): "
        + ", ".join(f"{k}: {n}" for k, n in size.outcomes.items())
        + ".",
        "",
        "| iterations | NashConv | CFR seconds |",
        "|---:|---:|---:|",
    ]
    lines += [f"| {p.iterations} | {p.nash_conv:.6f} | {p.seconds:.2f} |" for p in curve]
    (out / f"{name}.md").write_text("\n".join(lines) + "\n")
    _plot(out / f"{name}.svg", title, curve)


def summary(folder: Path) -> str:
    """A Markdown table of every curve `write_report` left in `folder` (one row per JSON
    file): the tree, NashConv after the first and the last measured iteration, CFR time.
    Its links are relative to docs/, where the table goes (variants.md), and `folder` to the
    repository's root, where the command runs."""
    lines = [
        "| run | histories | information sets | NashConv at 1 | last NashConv (iterations) "
        "| CFR seconds | files |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for path in sorted(folder.glob("*.json")):
        if path.name.endswith(".policy.json"):
            continue
        data = json.loads(path.read_text())
        tree, curve = data["tree"], data["curve"]
        first, last = curve[0], curve[-1]
        lines.append(
            f"| {data['title']} | {tree['histories']:,} | "
            f"{' + '.join(f'{n:,}' for n in tree['infosets'])} | {first['nash_conv']:.4f} | "
            f"{last['nash_conv']:.6f} ({last['iterations']}) | {last['seconds']:.0f} | "
            f"[{path.stem}.md](../{folder.as_posix()}/{path.stem}.md) |"
        )
    return "\n".join(lines)


def _plot(path: Path, title: str, curve: list[CurvePoint]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.loglog([p.iterations for p in curve], [max(p.nash_conv, 1e-9) for p in curve], marker="o")
    ax.set_xlabel("CFR iterations")
    ax.set_ylabel("NashConv (win share)")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None})
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m timelord.sim.cfr", description=__doc__.split("\n")[0]
    )
    parser.add_argument("game", nargs="?", help="game id (not with --summary)")
    parser.add_argument("--variant", default="tiny")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--chance", default="outcomes", choices=("draws", "outcomes"))
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument(
        "--algorithm",
        default="cfr",
        choices=ALGORITHMS,
        help="cfr, cfr+ or mccfr (external sampling)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="another game option, its value as JSON",
    )
    parser.add_argument(
        "--checkpoints",
        default=None,
        help="iterations after which to measure NashConv, comma separated (default 1, 2, 5, ...)",
    )
    parser.add_argument("--out", type=Path, default=None, help="folder for the table and plot")
    parser.add_argument(
        "--summary",
        type=Path,
        default=None,
        metavar="DIR",
        help="print a Markdown table of the curves under DIR (results/cfr) and stop",
    )
    args = parser.parse_args(argv)
    if args.summary is not None:
        print(summary(args.summary))
        return 0
    if args.game is None:
        parser.error("a game id is needed (or --summary DIR)")
    options: dict[str, Any] = {"variant": args.variant}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = json.loads(value)
    game = load(args.game, args.players, args.chance, **options)
    start = time.perf_counter()
    size = tree_size(game)
    print(f"tree: {asdict(size)} ({time.perf_counter() - start:.1f} s)", flush=True)
    if args.checkpoints:
        marks = [int(c) for c in args.checkpoints.split(",")]
    else:
        marks = checkpoints_for(args.iterations)
    curve, policy = solve(game, args.iterations, marks, args.algorithm)
    for p in curve:
        print(f"{p.iterations:>6} {p.nash_conv:.6f} {p.seconds:.2f}s", flush=True)
    if args.out is not None:
        extra = "".join(f"-{k}{v}" for k, v in sorted(options.items()) if k != "variant")
        title = (
            f"{args.game} variant={args.variant}{extra}, {args.players} players ({args.algorithm})"
        )
        name = f"{args.game}-{args.variant}{extra}-{args.players}p"
        if args.algorithm != "cfr":
            name += "-" + args.algorithm.replace("+", "plus")
        command = "python -m timelord.sim.cfr " + " ".join(
            argv if argv is not None else __import__("sys").argv[1:]
        )
        write_report(args.out, name, title, size, curve, command)
        table = policy_table(game, policy)
        (args.out / f"{name}.policy.json").write_text(json.dumps(table, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
