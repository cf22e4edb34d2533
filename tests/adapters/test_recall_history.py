"""Perfect recall of the information state (`timelord.adapters.encode.history`, the OpenSpiel
adapters' `information_state_string` and tensor): over the small variants' whole trees, an
information state fixes the seat's own past; over sampled transpositions of the standard
games (two move orders reaching one position), two pasts of a seat that differ in its own
views or actions differ in its information state, and equal ones do not."""

from __future__ import annotations

import json
from pathlib import Path

import pyspiel
import pytest

import timelord
import timelord.adapters.openspiel as tos
from tests.adapters.transpositions import own_past, transpositions
from timelord.adapters.encode.history import (
    HistoryEncoder,
    Recall,
    information_state,
    past_of,
    view_change,
)
from timelord.adapters.space import ActionIndex
from timelord.agents import make_agent
from timelord.agents.tabular import TabularAgent, history_key, view_key
from timelord.core import Action, Game, Rng, State
from timelord.sim.cfr import load, recall_violations

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("keys", {"variant": "tiny", "turn_limit": 2}),
        ("episodes", {"variant": "tiny"}),
        ("card-game", {"variant": "tiny", "max_turns": 1}),
        ("clue", {"variant": "tiny", "max_turns": 1}),
    ],
)
def test_small_trees_have_perfect_recall(game_id: str, options: dict[str, object]) -> None:
    """Strings and tensors: no history shares an information state with one whose own past
    differs (the CFR variants' whole trees are checked for strings where their sizes are
    pinned: tests/sim/test_cfr_keys.py, test_cfr_variants.py, test_cfr_clue.py)."""
    game = load(game_id, **options)
    assert recall_violations(game) == 0
    assert recall_violations(game, tensors=True) == 0


def _record(game: Game, index: ActionIndex, start: State, line: list[Action]) -> Recall:
    record, state = Recall.start(game.players), start
    for action in line:
        record = record.after(state, action, index.index(action))
        state = state.apply_unchecked(action)
    return record


@pytest.mark.parametrize(
    ("game_id", "players", "seed", "depth", "own_pasts_differ"),
    [
        ("keys", 2, 72306, 3, True),
        ("card-game", 3, 1, 2, True),
        # transpositions of others' moves only: the seat's information state must not split
        ("episodes", 2, 3, 4, False),
        ("clue", 3, 1, 3, False),
    ],
)
def test_sampled_transpositions_of_the_standard_games(
    game_id: str, players: int, seed: int, depth: int, own_pasts_differ: bool
) -> None:
    """Two orders of moves reaching one position: each seat's information state string and
    tensor differ exactly when its own past (views at its decisions, actions) differs; its
    view alone, the old information state, did not tell them apart."""
    game = timelord.load(game_id, players=players)
    index = ActionIndex(game)
    encoder = HistoryEncoder(game, len(index))
    differing = met = 0
    for steps in (0, 9):
        for start, lines in transpositions(game_id, players, seed, steps, depth):
            met += 1
            end = start
            for action in lines[0]:
                end = end.apply_unchecked(action)
            records = [_record(game, index, start, line) for line in lines]
            for seat in range(players):
                view = end.view(seat)
                pasts = [own_past(start, line, seat) for line in lines]
                texts = [information_state(r, seat, view) for r in records]
                tensors = [encoder.encode(view, r, seat).tobytes() for r in records]
                for i in range(1, len(lines)):
                    same = pasts[i] == pasts[0]
                    differing += not same
                    assert (texts[i] == texts[0]) == same
                    assert (tensors[i] == tensors[0]) == same
    assert met > 0, "no transposition met: the check saw nothing"
    assert (differing > 0) == own_pasts_differ


def test_keys_two_orders_of_two_plays_are_two_information_states() -> None:
    """The case that showed the bug (Keys, seed 72306): two orders of the same plays reach
    one position and one view of seat 1, whose own decision differs between them; through
    the OpenSpiel adapter, its information state string and tensor differ."""
    game = pyspiel.load_game(tos.short_name("keys"), {"players": 2})
    start, lines = next(
        (s, ls)
        for s, ls in transpositions("keys", 2, 72306, 0, 3)
        if len(ls) == 2 and own_past(s, ls[0], 1) != own_past(s, ls[1], 1)
    )
    assert start.to_move is not None
    states = []
    for line in lines:
        state = game.new_initial_state()
        state.reseed(72306)
        for action in line:
            state.apply_action(game.index.index(action))
        states.append(state)
    a, b = states
    assert a.timelord_state.to_json() == b.timelord_state.to_json()
    told_apart = [
        p
        for p in range(2)
        if a.information_state_string(p) != b.information_state_string(p)
        and a.information_state_tensor(p) != b.information_state_tensor(p)
    ]
    assert told_apart
    for p in told_apart:
        assert own_past(start, lines[0], p) != own_past(start, lines[1], p)
        assert a.timelord_state.view(p) == b.timelord_state.view(p)  # the old key: one


def test_a_record_reads_back_as_the_views_and_actions_a_seat_saw() -> None:
    """`past_of` rebuilds each decision's whole view from the record's changes, which is
    what a tabular seat keys its policy by."""
    game = timelord.load("keys", players=2)
    index = ActionIndex(game)
    state, record, rng, seen = game.new_game(4), Recall.start(2), Rng(4), []
    for _ in range(12):
        action = state.random_legal(rng)
        if state.to_move == 1:
            seen.append((state.view(1), action))
        record = record.after(state, action, index.index(action))
        state = state.apply_unchecked(action)
    decisions, view = past_of(game, information_state(record, 1, state.view(1)))
    assert decisions == seen and view == state.view(1)
    assert Recall.from_json(json.loads(json.dumps(record.to_json()))).seats == record.seats


@pytest.mark.parametrize(
    ("name", "game_id", "options"),
    [
        ("episodes-two-suit-2p", "episodes", {"variant": "two-suit"}),
        ("keys-tiny-2p", "keys", {"variant": "tiny"}),
        ("card-game-tiny-2p", "card-game", {"variant": "tiny"}),
        ("clue-tiny-2p", "clue", {"variant": "tiny"}),
    ],
)
def test_a_committed_cfr_policy_holds_every_decision_a_seat_meets(
    name: str, game_id: str, options: dict[str, object]
) -> None:
    """The `cfr:` seat finds its information state (its decisions of this game and its view)
    in CFR's table at every decision, over several games in a row with one agent."""
    game = timelord.load(game_id, players=2, **options)
    path = ROOT / "results" / "cfr" / f"{name}.policy.json"
    agents = [make_agent(f"cfr:{path}", game) for _ in range(2)]
    assert isinstance(agents[0], TabularAgent)
    rng, met = Rng(11), 0
    for seed in range(6):
        state, first = game.new_game(seed), {0, 1}
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            agent = agents[seat]
            assert isinstance(agent, TabularAgent)
            view = state.view(seat)
            if seat in first:  # the agent still remembers the game before
                assert view_key(view) in agent.policy
                first.discard(seat)
            else:
                assert history_key(agent.decisions, view) in agent.policy
            state = state.apply(agent.act(view, state.legal_actions(), rng))
            met += 1
    assert met > 12


def test_a_view_change_keeps_what_json_tells_apart() -> None:
    """1 == True in Python; a view that turns a count into a flag still changed."""
    assert view_change({"a": 1, "b": [1]}, {"a": True, "b": [1]}) == {"set": {"a": True}}
    assert view_change({"a": 1, "b": 2}, {"b": 2}) == {"set": {}, "unset": ["a"]}


@pytest.mark.parametrize(("game_id", "players"), [("clue", 3), ("keys", 2), ("card-game", 2)])
def test_the_kept_texts_and_hashes_give_what_the_whole_record_gives(
    game_id: str, players: int
) -> None:
    """A record keeps each seat's last field texts and the hash of its decisions so far, so
    a step canonicalises one view and hashes only what is new: every entry, string and digest
    equals the one written from the whole record, also after a pickle (which drops what is
    kept) and for the record a seat alone knows (`only`)."""
    import pickle

    from timelord.adapters.encode.history import (
        canonical,
        digest,
        information_state_digest,
        view_text,
    )

    game = timelord.load(game_id, players=players)
    index = ActionIndex(game)
    state, rng = game.new_game(8), Rng(8)
    record = Recall.start(players)
    views: dict[int, dict[str, object]] = {}
    for _ in range(60):
        if state.is_over:
            break
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        assert view_text(view) == canonical(view)
        for copy in (record, pickle.loads(pickle.dumps(record)), record.only(seat)):
            whole = digest(information_state(copy, seat, view))
            assert information_state_digest(copy, seat, view) == whole
        action = rng.choice(state.legal_actions())
        record = record.after(state, action, index.index(action))
        change = canonical(view_change(views.get(seat), view))
        assert record.seats[seat][-1].text == f"[{change},{canonical(action.to_json())}]"
        views[seat] = view
        state = state.apply(action)
