"""Whether a seat may take its last action back: the safe rule, for every game at once.

An action may be taken back only if taking it taught nobody anything they could use: the
state's generator did not move (nothing was shuffled, rolled or dealt), no event of the step
is seen by only some seats (no card drawn or shown in secret), and for every seat the step's
outcome, as that seat sees it, follows from what it knew before: applied to any position
consistent with its view before, the action leaves the same view after (so nothing hidden
from it, a tile's back, a card from a deck, was shown). This reads only the engine's public
protocol (`to_json`, events, `view`, `sample_state`), so it holds for every game.
"""

from __future__ import annotations

from collections.abc import Sequence

from timelord.core import Action, Game, GameError, Rng, State
from timelord.core.events import Event

#: positions sampled per seat; any one whose outcome differs refuses the undo
SAMPLES = 6

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
    rng = Rng(seed)
    for seat in range(game.players):
        seen_before, seen_after = before.view(seat), after.view(seat)
        for _ in range(SAMPLES):
            try:
                other = game.sample_state(seen_before, rng)
                if other.apply(action).view(seat) != seen_after:
                    return "the move showed something that was hidden"
            except GameError:
                return "the move showed something that was hidden"
    return None
