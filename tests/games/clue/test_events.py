"""Every action tells what happened as events (the log a seat follows the game by), redacted
per seat like views, and
what a seat is told never depends on what it cannot see."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

import timelord
from timelord.core import IllegalAction, Rng
from timelord.core.events import Event
from timelord.games.clue.actions import ACTION_TYPES, NameCard, RollDice, ShowCard
from timelord.games.clue.game import ClueGame
from timelord.games.clue.text import _TEXTS

CONFIGS: list[tuple[int, dict[str, Any], int]] = [
    (4, {}, 6),
    (2, {"variant": "two-player"}, 6),
    (6, {"max_rounds": 8}, 4),
]


def _games() -> Any:
    """(game, state before, action, events) for every action of some random games."""
    for players, options, games in CONFIGS:
        game = timelord.load("clue", players=players, **options)
        assert isinstance(game, ClueGame)
        for seed in range(games):
            state, rng = game.new_game(seed), Rng(seed)
            while not state.is_over:
                legal = state.legal_actions()
                action = legal[rng.below(len(legal))]
                nxt, events = state.apply_with_events(action)
                yield game, state, action, events
                state = nxt


def test_every_action_kind_tells_events_with_the_actor_and_every_kind_has_words() -> None:
    actions: set[str] = set()
    kinds: set[str] = set()
    for game, state, action, events in _games():
        assert events, action
        assert events[0].data["actor"] == state.to_move, (action, events[0])
        actions.add(type(action).__name__)
        for event in events:
            kinds.add(event.kind)
            assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event
            for seat in [None, *range(game.players)]:
                text = game.event_text(event.kind, event.seen_by(seat), seat)
                assert text and "_" not in text and "None" not in text, (event, text)
    assert actions == {t.__name__ for t in ACTION_TYPES}
    assert kinds == set(_TEXTS)


def test_a_shown_card_is_told_only_to_the_asker_and_the_answerer(h: SimpleNamespace) -> None:
    state = h.build(phase="name", purpose="rumour", naming_location=2, movers=[2, 9, 9, 9, 9, 9])
    state = h.play(state, NameCard(h.RIVER), NameCard(h.SONIC))
    assert state.to_move == 1  # seat 1 holds River Song
    _, events = state.apply_with_events(ShowCard(h.RIVER))
    show = next(e for e in events if e.kind == "show")
    game = state.game
    for seat in (0, 1):
        told = game.tell([show], seat)[0]
        assert told["data"]["card"] == h.RIVER and "River Song" in told["text"]
    assert game.tell([show], 0)[0]["text"] == "Seat 1 shows you River Song"
    assert game.tell([show], 1)[0]["text"] == "You show Seat 0 River Song"
    for seat in (2, 3, None):
        told = game.tell([show], seat)[0]
        assert told["data"]["card"] is None and "River" not in told["text"]
        assert told["text"] == "Seat 1 shows Seat 0 a card"


def test_describe_tells_what_was_done_and_refuses_what_is_not_legal(h: SimpleNamespace) -> None:
    state = h.build()
    assert state.describe(RollDice(), 1).startswith("Seat 0 rolls")
    with pytest.raises(IllegalAction):
        state.describe(ShowCard(h.RIVER), 0)


def test_what_a_seat_is_told_depends_only_on_what_it_can_see() -> None:
    """Leak test: a state sampled from seat s's view (its hidden cards dealt anew, the dice
    and the intrigue pile kept), with the same action (or another card shown), that reaches
    the same view for s must tell s exactly the same events."""
    compared = 0
    rng = Rng(3)
    for i, (game, state, action, events) in enumerate(_games()):
        if i % 5:
            continue
        after = state.apply_unchecked(action)
        for seat in range(game.players):
            other = game.sample_state(state.view(seat), rng)._copy()
            other.rng, other.pile = state.rng, state.pile
            # The same action; and for an answer, any card the answerer could show instead
            # (the one action whose choice is secret from the others).
            alts = [a for a in other.legal_actions() if a == action or type(a) is ShowCard]
            for alt in alts if type(action) is ShowCard else alts[:1]:
                if alt != action and type(alt) is not ShowCard:
                    continue
                other_after, other_events = other.apply_with_events(alt)
                if other_after.view(seat) != after.view(seat):
                    continue  # s can tell these apart (who could answer, what it was shown)
                assert game.tell(other_events, seat) == game.tell(events, seat), action
                compared += 1
    assert compared > 300


def test_weapon_names_and_extra_turns_read_as_english() -> None:
    """Issue 21 item 2: "accuses Amy & Rory with the The Moment", "Seat 2's another turn"."""
    game = timelord.load("clue", players=3)
    assert isinstance(game, ClueGame)
    card = {name: i for i, name in enumerate(game.card_names)}
    amy, room = card["Amy & Rory"], card["The Library"]
    texts = {
        w: game.event_text("rumour", {"actor": 1, "cards": [amy, card[w], room]}, 0)
        for w in ("The Moment", "Strax's Gun", "Sonic Screwdriver")
    }
    assert texts["The Moment"] == "Seat 1 suggests Amy & Rory with The Moment in The Library"
    assert texts["Strax's Gun"] == "Seat 1 suggests Amy & Rory with Strax's Gun in The Library"
    assert texts["Sonic Screwdriver"].endswith("with the Sonic Screwdriver in The Library")
    accused = game.event_text(
        "accusation", {"actor": 0, "cards": [amy, card["The Moment"], room], "right": True}, 0
    )
    assert accused == "You accuse Amy & Rory with The Moment in The Library: right!"
    extra = {"actor": 2, "turn": 31, "extra": True}
    assert game.event_text("turn", extra, 0) == "Seat 2's extra turn (turn 31)"
    assert game.event_text("turn", extra, 2) == "Your extra turn (turn 31)"
    assert game.event_text("turn", {**extra, "extra": False}, 0) == "Seat 2's turn (turn 31)"
