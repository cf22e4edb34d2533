"""Strength tables: `python -m timelord.sim.strength` runs the strength matches, writes the doc.

For each registered game at 4 players, two seat-rotated matches:
1. `heuristic` against three `random` seats; it passes with a win share of at least twice the
   fair share (50%).
2. the strongest agent (`STRONGEST`, ismcts at its hard level by default) against three
   `heuristic` seats; it passes when the lower end of its 95% interval is above the fair share.

Each match's results go to `--results DIR` (one JSON-lines file per match, as `timelord
simulate` writes them). The games chosen with `--game` (all by default) are always played
again, since saved results say nothing of the code that played them; the other games' matches
are read back from DIR, so the tables can be built one game at a time. `--no-play` only
tabulates what DIR holds. The document lists every match found in DIR for the registered
games, with the wall time of the run that played it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from timelord.core import GAMES, load
from timelord.sim.match import MatchSpec, Runner, read_results, write_results
from timelord.sim.progress import Progress
from timelord.sim.stats import Tally, summarise, wilson

PLAYERS = 4
#: the strongest agent of each game (default: ismcts at its hard level)
STRONGEST: dict[str, str] = {"clue": "heuristic:hard"}
HEURISTIC_GAMES = 400
SEARCH_GAMES = 200
SEED = 2026


@dataclass
class Row:
    game: str
    kind: str  # "heuristic vs random" or "strongest vs heuristic"
    agent: str
    opponents: str
    tally: Tally
    fair: float
    passed: bool
    mean_length: float
    seconds: float | None


def match_path(folder: Path, game: str, seats: list[str], games: int, seed: int) -> Path:
    name = "-".join(s.replace(":", "_").replace("/", "_") for s in dict.fromkeys(seats))
    return folder / f"{game}-{name}-n{games}-s{seed}.results.jsonl"


def play_match(
    game: str,
    seats: list[str],
    games: int,
    seed: int,
    folder: Path,
    runner: Runner,
    reuse: bool,
) -> tuple[list[dict[str, Any]], float | None]:
    """The match's records: read back from `folder` if `reuse` and there, else played and
    saved."""
    path = match_path(folder, game, seats, games, seed)
    if reuse and path.exists():
        records = list(read_results(path))
        if len(records) == games:
            return records, None
    spec = MatchSpec.build(game, {"players": len(seats)}, seats, games, seed)
    progress = Progress(games, f"games of {game}: {seats[0]} vs {seats[1]}")
    start = time.perf_counter()
    records = runner.run(spec, lambda out: progress.advance(len(out)))
    seconds = time.perf_counter() - start
    folder.mkdir(parents=True, exist_ok=True)
    with path.open("w") as f:
        write_results(records, f)
    path.with_suffix(".time").write_text(json.dumps({"seconds": seconds}))
    return records, seconds


def _row(
    game: str, kind: str, records: list[dict[str, Any]], agent: str, seconds: float | None
) -> Row:
    summary = summarise(records)
    tally = next(t for t in summary.by_agent if t.label == agent)
    fair = summary.fair_share
    if kind == "heuristic vs random":
        passed = tally.share >= 2 * fair
    else:
        passed = tally.interval[0] > fair
    opponents = ", ".join(sorted({t.label for t in summary.by_agent} - {agent}))
    return Row(game, kind, agent, opponents, tally, fair, passed, summary.mean_length, seconds)


def strongest(game: str) -> str:
    return STRONGEST.get(game, "ismcts:hard")


def build_rows(
    games: list[str], folder: Path, runner: Runner, play: bool, sizes: tuple[int, int], seed: int
) -> list[Row]:
    """Play (if `play`) and tabulate each game's two matches. Without `play`, the largest
    saved match of each kind is used, whatever its size, so games measured with fewer games
    (to fit the time) still appear, with their real count."""
    rows = []
    for game in games:
        best = strongest(game)
        plans = [
            ("heuristic vs random", ["heuristic"] + ["random"] * (PLAYERS - 1), sizes[0]),
            ("strongest vs heuristic", [best] + ["heuristic"] * (PLAYERS - 1), sizes[1]),
        ]
        for kind, seats, count in plans:
            if not play:
                count = _largest_saved(folder, game, seats, seed)
                if count == 0:
                    continue
            path = match_path(folder, game, seats, count, seed)
            records, seconds = play_match(game, seats, count, seed, folder, runner, not play)
            if seconds is None and path.with_suffix(".time").exists():
                seconds = json.loads(path.with_suffix(".time").read_text())["seconds"]
            rows.append(_row(game, kind, records, seats[0], seconds))
    return rows


def _largest_saved(folder: Path, game: str, seats: list[str], seed: int) -> int:
    stem = match_path(folder, game, seats, 0, seed).name.replace("-n0-", "-n*-")
    counts = []
    for path in folder.glob(stem):
        middle = path.name[len(stem.split("*")[0]) :].split("-")[0]
        if middle.isdigit() and len(list(read_results(path))) == int(middle):
            counts.append(int(middle))
    return max(counts, default=0)


def level_notes(games: list[str]) -> list[str]:
    from timelord.agents import make_agent
    from timelord.agents.ismcts import IsmctsAgent, parse_settings

    notes = []
    for game in games:
        agent = make_agent(strongest(game), load(game, players=PLAYERS))
        if isinstance(agent, IsmctsAgent):
            text = agent.settings.describe(parse_settings("medium", agent.hooks))
            notes.append(f"- `{game}`: `{agent.name}` = {text}")
        else:
            notes.append(f"- `{game}`: `{agent.name}` ({type(agent).__name__})")
    return notes


def render(rows: list[Row], games: list[str], seed: int) -> str:
    lines = [
        "# Bot strength",
        "",
        "Written by `python -m timelord.sim.strength` (do not edit by hand). Every match is "
        f"{PLAYERS} players, seats rotated every game, match seed {seed}; win share counts a "
        "tie for first as 1/k of a win. Intervals are 95% Wilson intervals. Criteria: the "
        "heuristic's win share against three random seats is at least twice the "
        "fair share; the strongest agent's interval against three heuristic seats lies above "
        "the fair share. Wall times are those of the run that played the match, on all local "
        "cores (a 2-core machine shared with other jobs when this file was last written). "
        "The criteria ask for 400 and 200 games; a smaller count in the table is what fitted "
        "the time, and says so.",
        "",
        "| game | match | games | agent | win share | 95% interval | fair | holds | "
        "mean length | wall time |",
        "|---|---|---:|---|---:|---|---:|---|---:|---:|",
    ]
    for r in rows:
        lo, hi = r.tally.interval
        wall = "-" if r.seconds is None else f"{r.seconds / 60:.1f} min"
        lines.append(
            f"| {r.game} | {r.kind} | {r.tally.games} | `{r.agent}` | {r.tally.share:.3f} | "
            f"[{lo:.3f}, {hi:.3f}] | {r.fair:.3f} | {'yes' if r.passed else 'no'} | "
            f"{r.mean_length:.0f} | {wall} |"
        )
    missing = [g for g in games if not any(r.game == g for r in rows)]
    if missing:
        lines += ["", f"Not measured yet: {', '.join(missing)}."]
    lines += ["", "Settings of the strongest agents (the hard levels):", "", *level_notes(games)]
    return "\n".join(lines) + "\n"


# -- the stronger levels: do expert and hard beat what they should? ---------------------------

COACH_BEGIN, COACH_END = "<!-- coach:begin -->", "<!-- coach:end -->"
COACH_GAMES = 200


@dataclass(frozen=True)
class Plan:
    """One match of the stronger levels: `side` (one or two seats of it) against the others."""

    game: str
    name: str
    side: str
    seats: tuple[str, ...]
    #: the side's win share needed, and the least lower end of its 95% interval
    target: float | None
    floor: float | None = None


def coach_plans() -> list[Plan]:
    """The matches that test the stronger levels: hard and expert against three heuristics, two
    experts against two hards, and for Clue the search against the deducer detective
    (heuristic:hard)."""
    plans = []
    for game in GAMES:
        if game == "clue":
            # the Clue target: the search wins at least 0.55 against the deducer at 2
            # and at 4 players (a side's share, so 0.5 is fair in both)
            duel = ("ismcts:hard", "heuristic:hard")
            plans.append(Plan(game, "hard vs deducer, 2 players", duel[0], duel, 0.55))
            for level in ("hard", "expert"):
                seats = (f"ismcts:{level}",) * 2 + ("heuristic:hard",) * 2
                target = 0.55 if level == "hard" else None
                plans.append(Plan(game, f"{level} vs deducer, 2 v 2", seats[0], seats, target))
            continue
        plans.append(
            Plan(
                game,
                "hard vs 3 heuristics",
                "ismcts:hard",
                ("ismcts:hard",) + ("heuristic",) * 3,
                0.40,
                0.33,
            )
        )
        plans.append(
            Plan(
                game,
                "expert vs 3 heuristics",
                "ismcts:expert",
                ("ismcts:expert",) + ("heuristic",) * 3,
                0.40,
                0.33,
            )
        )
        plans.append(
            Plan(
                game,
                "expert vs hard, 2 v 2",
                "ismcts:expert",
                ("ismcts:expert",) * 2 + ("ismcts:hard",) * 2,
                0.60,
            )
        )
    return plans


@cache
def seat_key(game: str, spec: str) -> object:
    """What a seat spec plays as in this checkout: a search by its settings, so a record
    played as "ismcts:hard/weigh=0" counts as `ismcts:hard` (whose weigh is 0), while one
    played as "ismcts:hard/weigh=8" does not."""
    from timelord.agents.hooks import hooks_for
    from timelord.agents.ismcts import parse_settings
    from timelord.core import ConfigError

    name, _, level = spec.partition(":")
    if name != "ismcts":
        return spec
    try:
        return parse_settings(level or None, hooks_for(load(game)))
    except ConfigError:  # a setting this checkout no longer reads: only its own spelling
        return spec


def side_share(records: list[dict[str, Any]], side: str) -> tuple[float, int]:
    """The side's summed win share over `records` (ties split) and the number of games."""
    total = 0.0
    for record in records:
        key = seat_key(record["game"], side)
        winners = record["result"]["winners"]
        total += sum(
            1.0 / len(winners)
            for i in winners
            if seat_key(record["game"], record["seats"][i]) == key
        )
    return total, len(records)


def plan_records(folder: Path, plan: Plan) -> list[dict[str, Any]]:
    """Every finished game in `folder`'s results files played with the plan's seats (whatever
    the match seed, file name or spelling of a level), so several runs of one match add up."""
    found = []
    want = Counter(seat_key(plan.game, seat) for seat in plan.seats)
    for path in sorted(folder.glob(f"{plan.game}-*.results.jsonl")):
        for record in read_results(path):
            if record["game"] != plan.game:
                continue
            if Counter(seat_key(plan.game, seat) for seat in record["seats"]) == want:
                found.append(record)
    return found


def render_coach(folder: Path) -> str:
    """The stronger levels' table from what `folder` holds, with each target's verdict."""
    lines = [
        "## Stronger bots",
        "",
        f"Written by `python -m timelord.sim.strength --coach` from the results in `{folder}` "
        "(every run of a match there adds up, whatever its seed). Four players unless the "
        "match names two, seats rotated every game. The share is the side's: for two seats, "
        "both seats' shares added, so the fair share is 0.5 with two seats of four or one of "
        "two, and 0.25 with one of four. Intervals are 95% Wilson. The "
        f"targets ask for {COACH_GAMES} games a match; the count below is what two shared cores "
        "played in the session, so the verdicts are what that sample shows, not the target's "
        "sample size.",
        "",
        "| game | match | games | side | win share | 95% interval | fair | target | verdict |",
        "|---|---|---:|---|---:|---|---:|---|---|",
    ]
    for plan in coach_plans():
        records = plan_records(folder, plan)
        if not records:
            lines.append(
                f"| {plan.game} | {plan.name} | 0 | `{plan.side}` | - | - | - | - | not run |"
            )
            continue
        wins, n = side_share(records, plan.side)
        seats = plan.seats.count(plan.side)
        share = wins / n
        lo, hi = wilson(wins, n)
        fair = seats / len(plan.seats)
        if plan.target is None:
            target, verdict = (
                "-",
                "stronger" if lo > fair else "weaker" if hi < fair else "no clear difference",
            )
        else:
            target = f">= {plan.target:.2f}" + (
                f", low end > {plan.floor:.2f}" if plan.floor else ""
            )
            held = share >= plan.target and (plan.floor is None or lo > plan.floor)
            if held:
                verdict = "holds"
            elif share >= plan.target:
                verdict = f"share reached; its low end {lo:.3f} is not above {plan.floor:.2f}"
            else:
                verdict = f"missed by {plan.target - share:.3f} in share"
                if plan.floor is not None and lo <= plan.floor:
                    verdict += f", low end {lo:.3f}"
            if held and lo <= fair:
                verdict += " in share; the interval still holds the fair share"
        lines.append(
            f"| {plan.game} | {plan.name} | {n} | `{plan.side}` | {share:.3f} | "
            f"[{lo:.3f}, {hi:.3f}] | {fair:.2f} | {target} | {verdict} |"
        )
    lines += ["", *search_levels(coach_plans())]
    return "\n".join(lines) + "\n"


def search_levels(plans: list[Plan]) -> list[str]:
    """The settings `ismcts:hard` and `ismcts:expert` name now in every game: a results file
    records a seat by its spec, not its settings, so the table says which settings its rows
    are meant to measure (a file played under older ones must be moved out of the folder)."""
    from timelord.agents.hooks import hooks_for
    from timelord.agents.ismcts import parse_settings

    lines = [
        "Settings the rows above were played with (the levels as this checkout names them):",
        "",
    ]
    for game, players in {plan.game: len(plan.seats) for plan in plans}.items():
        hooks = hooks_for(load(game, players=players))
        medium = parse_settings("medium", hooks)  # what a settings text is read against
        named = ", ".join(
            f"`{level}` = {parse_settings(level, hooks).describe(medium)}"
            for level in ("hard", "expert")
        )
        lines.append(f"- `{game}`: {named}")
    return lines


def play_coach(folder: Path, games: int, seed: int, runner: Runner, only: list[str]) -> None:
    """Play every stronger-levels match of the chosen games (saved beside the others in
    `folder`)."""
    for plan in coach_plans():
        if plan.game in only:
            play_match(plan.game, list(plan.seats), games, seed, folder, runner, True)


def _sections(text: str) -> str:
    """The marked sections other commands wrote into the document (kept on a rewrite)."""
    kept = []
    for begin, end in (
        (COACH_BEGIN, COACH_END),
        ("<!-- adapters:begin -->", "<!-- adapters:end -->"),
        ("<!-- simulation:begin -->", "<!-- simulation:end -->"),
    ):
        if begin in text and end in text:
            kept.append(text[text.index(begin) : text.index(end) + len(end)])
    return "".join(f"\n{block}\n" for block in kept)


def write_section(path: Path, text: str, begin: str, end: str) -> None:
    """Replace (or append) the section of `path` between the markers `begin` and `end`."""
    old = path.read_text() if path.exists() else ""
    block = f"{begin}\n{text}{end}\n"
    if begin in old and end in old:
        start, stop = old.index(begin), old.index(end) + len(end)
        new = old[:start] + block.rstrip("\n") + old[stop:]
    else:
        new = old.rstrip("\n") + "\n\n" + block
    path.write_text(new)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--results", default="results/strength", help="match files folder")
    parser.add_argument("--output", "-o", default="docs/strength.md")
    parser.add_argument("--heuristic-games", type=int, default=HEURISTIC_GAMES)
    parser.add_argument("--search-games", type=int, default=SEARCH_GAMES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--workers", "-j", type=int, default=None)
    parser.add_argument("--dask", default=None, help='"local" or tcp://host:port')
    parser.add_argument(
        "--no-play", action="store_true", help="only tabulate matches already in --results"
    )
    parser.add_argument(
        "--coach",
        action="store_true",
        help="the stronger levels' matches instead (expert and hard), into their own section",
    )
    parser.add_argument("--coach-games", type=int, default=COACH_GAMES)
    args = parser.parse_args(argv)
    everything = list(GAMES)
    chosen = args.game or everything
    unknown = set(chosen) - set(everything)
    if unknown:
        print(f"unknown game(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    runner = Runner(dask=args.dask)
    if args.workers:
        runner.workers = args.workers
    folder = Path(args.results)
    if args.coach:
        if not args.no_play:
            play_coach(folder, args.coach_games, args.seed, runner, chosen)
        write_section(Path(args.output), render_coach(folder), COACH_BEGIN, COACH_END)
        print(f"wrote the stronger bots section of {args.output}")
        return 0
    sizes = (args.heuristic_games, args.search_games)
    build_rows(chosen, folder, runner, not args.no_play, sizes, args.seed)
    rows = build_rows(everything, folder, runner, False, sizes, args.seed)
    output = Path(args.output)
    kept = _sections(output.read_text()) if output.exists() else ""
    output.write_text(render(rows, everything, args.seed) + kept)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
