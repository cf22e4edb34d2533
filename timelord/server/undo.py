"""Whether a seat may take its last action back: the safe rule, for every game at once.

An action may be taken back only if taking it taught nobody anything they could use: the
state's generator did not move (nothing was shuffled, rolled or dealt), no event of the step
is seen by only some seats (no card drawn or shown in secret), and the game itself says the
action showed no seat anything it did not know (`State.reveals`, part of the protocol and
checked by the conformance suite against sampled worlds; it replaced six sampled worlds
per seat, which let about 2.6% of Keys door openings through).
"""

from __future__ import annotations

from collections.abc import Sequence

from timelord.core import Action, Game, State
from timelord.core.events import Event

#: moves that bind whoever makes them, though they show nothing: (game id, action type) -> why
BINDING: dict[tuple[str, str], str] = {
    ("clue", "Accuse"): "an accusation cannot be taken back once begun (C-5.1)",
}


def why_not(
    game: Game,
    before: State,
    action: Action,
    after: State,
    events: Sequence[Event],
    seed: int,
) -> str | None:
    """The reason `action` (which took `before` to `after` with `events`) cannot be taken
    back, or None if it can."""
    binding = BINDING.get((game.id, type(action).__name__))
    if binding is not None:
        return binding
    rng_before, rng_after = before.to_json().get("rng"), after.to_json().get("rng")
    if rng_before is None or rng_before != rng_after:
        return "something random was drawn (a shuffle, a roll or a card from a deck)"
    if any(event.private for event in events):
        return "a card was drawn or shown to only some seats"
    if before.reveals(action):
        return "the move showed something that was hidden"
    return None
