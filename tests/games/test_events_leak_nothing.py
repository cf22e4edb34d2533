"""What a seat is told leaks nothing beyond what the rules make public: a log that says more
than the view lets a player (or a bot reading it) learn hidden cards.

A seat's knowledge is the pair (its view, the events it was told). Take two worlds the seat
cannot tell apart: the real one and one `sample_state` deals from the seat's view, with the
same random generator, so that dice and random picks come out alike. Let the same move be made
in both (where it is legal in both). Then:

- if the seat's views after are the same, it must have been told exactly the same, text and
  data (an event cannot say more than the view records, or its perfect recall is false);
- if it was told exactly the same, its views after must be the same (nothing in the view may
  come from a secret the seat was not told of: a step the engine took by itself because a
  hidden hand left one option, a phase skipped because a hand holds nothing to play);
- where they differ, the first event told differently must be one whose content the rules
  make depend on hidden cards (a draw shown to the drawer, a door's back, a card shown), in
  the fields listed in `REVEALS` with their clause, and nothing else.

This is what catches a step forced by hidden cards ("keeps one drawn card (no other choice)")
or a decision skipped because a hand cannot play: the twin world, where the same seat had a
choice, tells the observer something else after the same public move.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import timelord
from timelord.core import Action, Game, Rng, State

#: game -> event kind -> fields whose values the rules make depend on hidden cards, or "*"
#: when whether the event happens at all does. Each names its clause.
REVEALS: dict[str, dict[str, frozenset[str]]] = {
    "episodes": {
        "draw": frozenset({"cards", "seen"}),  # E-R18: the drawer sees what it draws
        "peek": frozenset({"cards"}),  # E-4.2: the Doctor's player sees the next cards
        "look": frozenset({"cards"}),  # E-4.5: the Plot's player sees the hand
        "steal": frozenset({"card"}),  # E-8.5: thief and victim see the stolen card
        "random_discard": frozenset({"card"}),  # E-4.7: the Special's discard is face up
        "keep": frozenset({"card", "discarded"}),  # E-4.6: the Gadget's discards are face up
    },
    "keys": {
        "draw": frozenset({"card"}),  # K-R22: the drawer sees its card
        "open": frozenset({"back"}),  # K-5.8: an opened door shows its back to everyone
    },
    "card-game": {
        "draw": frozenset({"cards"}),  # C-R28: drawn cards are named to the drawer
        "pass-cards": frozenset({"cards"}),  # C-R28: passed cards, to passer and receiver
        "reveal": frozenset({"defenders", "enemies"}),  # C-4.4: a conflict turns cards up
        "attack-tardis": frozenset({"cards"}),  # C-4.3: the spent attack is discarded face up
        "discard": frozenset({"cards"}),  # C-5.5: discards are face up
        "game-over": frozenset({"scores", "winners"}),  # C-6.4, C-R30: attacks turn up to score
    },
    "clue": {
        "accusation": frozenset({"envelope"}),  # C-5.2: the accuser looks in the envelope
        "draw": frozenset({"*"}),  # C-6.2: a Pocketwatch or a card to play is shown
        "cannot-answer": frozenset({"*"}),  # C-4.3: answering in turn is public
        "show": frozenset({"*"}),  # C-4.4: who shows is public, the card to the asker alone
        "unanswered": frozenset({"*"}),  # C-4.5: nobody could answer
        "peek": frozenset({"card"}),  # C-6.4: Psychic Paper sees the card shown
        "out": frozenset({"hand"}),  # C-6.3, CL-15: the eighth Pocketwatch turns a hand up
        "scan": frozenset({"card"}),  # C-6.4, CL-13: a Sonic Scan shows the scanner a card
        "side": frozenset({"card"}),  # C-8.2: the asker looks at a side card
    },
}

CASES = [
    ("episodes", 3, 4, 160),
    ("episodes", 2, 3, 160),
    ("keys", 3, 3, 150),
    ("card-game", 3, 2, 110),
    ("card-game", 2, 2, 110),
    ("clue", 3, 3, 150),
    ("clue", 4, 2, 120),
]
TRIES = 4  # worlds dealt per seat and move until the move is legal in one


def twin(game: Game, state: State, seat: int, salt: int) -> State:
    """A world `seat` cannot tell from `state`, with the same random generator."""
    world = game.sample_state(state.view(seat), Rng(salt)).to_json()
    world["rng"] = state.to_json()["rng"]
    return game.state_from_json(world)


def difference(game: str, told: list[dict[str, Any]], other: list[dict[str, Any]]) -> str:
    """'' when the two accounts agree, else why they may not differ ('' too when the first
    difference is one the rules make public, `REVEALS`)."""
    for i in range(max(len(told), len(other))):
        a = told[i] if i < len(told) else None
        b = other[i] if i < len(other) else None
        if a == b:
            continue
        reveals = REVEALS.get(game, {})
        if a is not None and b is not None and a["kind"] == b["kind"]:
            fields = reveals.get(a["kind"], frozenset())
            keys = set(a["data"]) | set(b["data"])
            differing = {k for k in keys if a["data"].get(k) != b["data"].get(k)}
            if "*" in fields or differing <= fields:
                return ""
            return f"event {i} ({a['kind']}) differs in {sorted(differing - fields)}: {a} / {b}"
        kinds = {e["kind"] for e in (a, b) if e is not None}
        if all("*" in reveals.get(k, frozenset()) for k in kinds):
            return ""
        return f"event {i} is told differently: {a} / {b}"
    return ""


def check_move(game: Game, state: State, action: Action, salt: int, seen: Counter[str]) -> None:
    """The comparison above for one move, seen by every seat; `seen` counts the outcomes."""
    after, events = state.apply_with_events(action)
    for seat in range(game.players):
        for attempt in range(TRIES):
            other = twin(game, state, seat, salt * 5 + seat * 101 + attempt)
            if action in other.legal_actions():
                break
        else:
            continue
        other_after, other_events = other.apply_with_events(action)
        told, other_told = game.tell(events, seat), game.tell(other_events, seat)
        where = f"{game.id} {salt=} ({action}), seen by seat {seat}"
        mine, theirs = after.view(seat), other_after.view(seat)
        if mine == theirs:
            assert told == other_told, (
                f"{where}: the same view after, but told differently:\n"
                f"{[t['text'] for t in told]}\n{[t['text'] for t in other_told]}"
            )
            seen["same"] += 1
        elif told == other_told:
            keys = sorted(k for k in mine if mine.get(k) != theirs.get(k))
            raise AssertionError(
                f"{where}: told the same, but the views differ in {keys} "
                f"({[mine.get(k) for k in keys]} / {[theirs.get(k) for k in keys]}): "
                "something hidden decided what the seat sees"
            )
        else:
            why = difference(game.id, told, other_told)
            assert not why, f"{where}: {why}"
            seen["revealed"] += 1


@pytest.mark.parametrize(("game_id", "players", "seeds", "moves"), CASES)
def test_what_a_seat_is_told_and_sees_is_the_same_in_worlds_it_cannot_tell_apart(
    game_id: str, players: int, seeds: int, moves: int
) -> None:
    game = timelord.load(game_id, players=players)
    seen: Counter[str] = Counter()
    for seed in range(seeds):
        rng = Rng(seed)
        state = game.new_game(seed)
        for move in range(moves):
            if state.is_over:
                break
            action = rng.choice(state.legal_actions())
            check_move(game, state, action, seed * 100_003 + move, seen)
            state = state.apply(action)
    assert seen["same"] >= 150 and seen["revealed"] >= 10, seen
