"""`timelord simulate` with random seats: games per second of this checkout against another.

Run by hand (not a test):
    python bench/simulate.py --baseline /path/to/other/checkout [--games 40] [--rounds 3]

Each round plays the same seeded games (what `simulate --serial` plays: `play_game`, every seat
`random`) once with this checkout and once with the baseline's code, each in a fresh process
with its own PYTHONPATH, alternating so that machine noise hits both alike; the rate counts
the games' CPU time only (not start-up). The results of both must be the same, game by game.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
#: (game id, players) measured
GAMES = [("card-game", 4), ("clue", 4), ("episodes", 3), ("keys", 4)]

_INNER = """
import json, sys, time
from timelord.core import load
from timelord.sim.match import play_game
game = load(sys.argv[1], players=int(sys.argv[2]))
seats = ["random"] * game.players
results = []
start = time.process_time()
for i in range(int(sys.argv[3])):
    record = play_game(game, seats, seed=1000 + i, index=i)
    result = record["result"]
    results.append([result["scores"], result["winners"], len(record["actions"])])
seconds = time.process_time() - start
import timelord
build = getattr(timelord, "BUILD", "pure Python")
print(json.dumps({"seconds": seconds, "results": results, "build": build}))
"""


def run(root: Path, game: str, players: int, games: int) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", _INNER, game, str(players), str(games)],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    answer: dict[str, object] = json.loads(out)
    return answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another checkout's root")
    parser.add_argument("--games", type=int, default=40, help="games per round and side")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':<12}{'players':>8}{'games/s':>10}{'baseline':>10}{'ratio':>8}  same results")
    for game, players in GAMES:
        ours = theirs = 0.0
        same = True
        for _ in range(args.rounds):
            a = run(HERE, game, players, args.games)
            b = run(args.baseline.resolve(), game, players, args.games)
            ours += float(a["seconds"])  # type: ignore[arg-type]
            theirs += float(b["seconds"])  # type: ignore[arg-type]
            same &= a["results"] == b["results"]
        n = args.games * args.rounds
        print(
            f"{game:<12}{players:>8}{n / ours:>10.2f}{n / theirs:>10.2f}{theirs / ours:>8.2f}"
            f"  {'yes' if same else 'NO'}"
        )
    print(f"this build: {a['build']}; baseline: {b['build']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
