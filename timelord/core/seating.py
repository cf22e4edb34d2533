"""How a match seeds, seats and places its players: shared by the terminal, the server, the
simulations and the learning environments, so a game dealt by one replays the same in another.

Game `i` of a match seeded `S` is dealt with `game_seed(S, i)`; its seats hold the match's
specs rotated by `i` (`arrangement`), and each seat's bot draws from its own generator derived
from the game seed (`seat_rngs`), the same ones `timelord play` gives its bots.
"""

from __future__ import annotations

from timelord.core.rng import Rng

#: mixed into a game seed to derive the seats' generators, so they never repeat the deal's stream
SEAT_SEED_MIX = 0xA6E475
_MASK63 = (1 << 63) - 1


def game_seed(match_seed: int, index: int) -> int:
    """The seed of game `index` of a match seeded `match_seed` (non-negative, 63 bits)."""
    mixer = Rng(match_seed)
    mixer.state = (mixer.state + index * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    return mixer.next64() & _MASK63


def seat_rngs(seed: int, players: int) -> list[Rng]:
    """One generator per seat for the bots of a game dealt with `seed`."""
    master = Rng(seed ^ SEAT_SEED_MIX)
    return [master.spawn() for _ in range(players)]


def arrangement(specs: tuple[str, ...], index: int, rotate: bool) -> list[str]:
    """The spec at each seat in game `index`: the list rotated right by `index`."""
    n = len(specs)
    r = index % n if rotate else 0
    return [specs[(s - r) % n] for s in range(n)]


def places(scores: list[float], winners: list[int]) -> list[int]:
    """Finishing place of each seat (1 = first): winners first, then by score; ties share."""
    won = set(winners)
    keys = [(i in won, s) for i, s in enumerate(scores)]
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]
