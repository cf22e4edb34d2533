"""The coach: known best moves are found and their misses marked costly, a review depends on
the seat's view only, the estimates hold their stated uncertainty on short endgames, budgets
in seconds are kept (fake clock), and `timelord review` / the terminal `hint` work."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import timelord
from timelord.agents import make_agent
from timelord.agents.coach import (
    Budget,
    Coach,
    Decision,
    mark_costly,
    review,
    review_decision,
    win_share,
)
from timelord.core import Action, Record, Rng, State
from timelord.games.card_game.actions import Finish, PlayDefender
from timelord.games.card_game.scenario import Scenario

_FIELDS = ("version", "game", "options", "seed", "actions")


def _playout_states(game_id: str, players: int, spec: str, seed: int) -> Iterator[State]:
    """Every state of one seeded game played by `spec` at every seat."""
    game = timelord.load(game_id, players=players)
    agents = [make_agent(spec, game) for _ in range(players)]
    rng = Rng(seed)
    state = game.new_game(seed)
    while not state.is_over:
        yield state
        seat = state.to_move
        assert seat is not None
        state = state.apply(agents[seat].act(state.view(seat), state.legal_actions(), rng))


def _position(game_id: str, players: int, spec: str, seed: int, step: int) -> State:
    """The state before action `step` of a seeded game (found once by scanning games)."""
    for i, state in enumerate(_playout_states(game_id, players, spec, seed)):
        if i == step:
            return state
    raise AssertionError("the game ended earlier")


def _wins(state: State, action: Action, seat: int) -> bool:
    after = state.apply(action)
    return after.is_over and win_share(after, seat) == 1


def _judge(game: timelord.Game, state: State, best: Action, played: Action) -> dict:
    seat = state.to_move
    assert seat is not None
    decision = Decision(0, state.view(seat), state.legal_actions(), played)
    item = review_decision(Coach(game), decision, Budget(rollouts=240))
    mark_costly([item])
    assert item["best"][0]["action"] == best.to_json()
    assert item["played"]["action"] == played.to_json()
    return item


#: (game, players, seat spec, seed, step, the move that wins, a move that does not)
WINNING = [
    # Keys, 4 heuristics: moving onto the goal edge wins; staying put lets a rival escape
    ("keys", 4, "heuristic", 3, 251, "move to a1", "stay put"),  # (found again under K-R6, rules 2)
    # Clue, 3 detectives: the last name of a right accusation; a wrong one puts the seat out
    ("clue", 3, "heuristic:hard", 0, 152, "name The Moon", "name Platform One"),
]


@pytest.mark.parametrize(("game_id", "players", "spec", "seed", "step", "good", "bad"), WINNING)
def test_a_winning_move_is_found_and_missing_it_is_costly(
    game_id: str, players: int, spec: str, seed: int, step: int, good: str, bad: str
) -> None:
    state = _position(game_id, players, spec, seed, step)
    seat = state.to_move
    assert seat is not None
    winning = next(a for a in state.legal_actions() if str(a) == good)
    other = next(a for a in state.legal_actions() if str(a) == bad)
    assert _wins(state, winning, seat) and not _wins(state, other, seat)
    game = state.game  # type: ignore[attr-defined]
    item = _judge(game, state, winning, other)
    assert item["best"][0]["value"] == pytest.approx(1.0)
    assert item["costly"] and item["loss"] > 0.3
    if game_id == "keys":
        assert "goal edge" in item["best"][0]["label"]
    # playing the winning move is no mistake
    same = _judge(game, state, winning, winning)
    assert not same["costly"] and same["loss"] == 0.0


def test_the_one_card_that_wins_a_conflict_is_found() -> None:
    """Card Game, last turn: Skaro is attacked with strength 4 and Rory (1) is declared; only
    adding The Doctor (3) wins the conflict (C-5.3) and with it the game. Finishing loses."""
    game = timelord.load("card-game", players=2, max_turns=2)
    t = Scenario(game, active=0)  # type: ignore[arg-type]
    t.location(1)
    t.location(0, "skaro", enemies=["dalek", "dalek"], attacker=1, face_up=True)
    t.hand(0, "the-doctor", "rory", "wilf", "ood", "tardis")
    start = t.state()
    cards = game.cards  # type: ignore[attr-defined]
    rory = next(
        a
        for a in start.legal_actions()
        if isinstance(a, PlayDefender) and cards.key[a.card] == "rory"
    )
    state = start.apply(rory)
    doctor = next(a for a in state.legal_actions() if isinstance(a, PlayDefender))
    item = _judge(game, state, doctor, Finish())
    assert item["costly"] and item["loss"] > 0.5


def test_the_review_reads_only_the_seats_view() -> None:
    """Two worlds the seat cannot tell apart (the true one, and one dealt from its view) give
    the same review of the same decision, though their hidden cards differ."""
    game = timelord.load("episodes", players=3)
    states = list(_playout_states("episodes", 3, "heuristic", 4))
    state = next(s for s in states[20:] if len(s.legal_actions()) > 2)
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    other = game.sample_state(view, Rng(99))
    assert other.view(seat) == view and other.to_json() != state.to_json()
    played = state.legal_actions()[0]
    answers = [
        review_decision(
            Coach(game),
            Decision(0, world.view(seat), world.legal_actions(), played),
            Budget(rollouts=60),
        )
        for world in (state, other)
    ]
    assert answers[0] == answers[1]


def test_estimates_hold_their_interval_on_endgames() -> None:
    """Short Episodes endgames: the review-sized estimate of each move lies within 1.96 combined
    standard errors of a ten times larger one, for most moves (the full check with more
    positions is `python -m timelord.sim.calibration`)."""
    from timelord.sim.calibration import check_position, endgames

    hits = total = 0
    for state in endgames("episodes", 2, positions=6, seed=1):
        h, n = check_position(state, 32, 5)
        hits += h
        total += n
    assert total >= 10
    assert hits / total >= 0.8


def test_a_budget_in_seconds_is_kept_with_a_fake_clock() -> None:
    """With a clock that advances a second a reading, a two-second budget ends after a few
    rounds, however many moves there are, and still values every move it keeps."""
    game = timelord.load("clue", players=4)
    state = next(s for s in _playout_states("clue", 4, "random", 2) if len(s.legal_actions()) > 5)
    ticks = iter(range(10**6))
    coach = Coach(game, clock=lambda: float(next(ticks)))
    seat = state.to_move
    assert seat is not None
    found = coach.value_moves(state.view(seat), state.legal_actions(), Budget(seconds=2.0))
    readings = next(ticks)
    assert readings < 20
    assert 1 <= len(found) <= 3 and all(m.samples >= 2 for m in found)


def test_review_command_prints_the_costly_decisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from timelord.cli.main import main
    from timelord.sim.match import play_game

    game = timelord.load("episodes", players=2)
    out = play_game(game, ["heuristic", "random"], 3, 0)
    record = Record.from_json(
        {k: out[k] for k in ("version", "game", "options", "seed", "actions")}
    )
    path = tmp_path / "game.json"
    record.save(path)
    assert main(["review", str(path), "--seat", "1", "--budget", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == 1 and data["decisions"]
    assert all(record.actions[d["step"]] == d["played"]["action"] for d in data["decisions"])
    assert main(["review", str(path), "--seat", "1", "--budget", "2"]) == 0
    text = capsys.readouterr().out
    assert "Review of" in text and ("better was:" in text or "No costly decision" in text)
    assert main(["review", str(path), "--seat", "7"]) == 2
    unfinished = Record(record.game, record.options, record.seed, record.actions[:5])
    unfinished.save(tmp_path / "half.json")
    assert main(["review", str(tmp_path / "half.json"), "--seat", "0"]) == 2
    assert "not a finished game" in capsys.readouterr().err


def test_review_of_a_record_covers_every_real_decision() -> None:
    game = timelord.load("episodes", players=2)
    from timelord.sim.match import play_game

    out = play_game(game, ["heuristic", "heuristic"], 5, 0)
    record = Record.from_json(
        {k: out[k] for k in ("version", "game", "options", "seed", "actions")}
    )
    done: list[tuple[int, int]] = []
    result = review(record, 0, Budget(rollouts=30 * 40), lambda d, t: done.append((d, t)))
    steps = [d["step"] for d in result["decisions"]]
    real = []
    for i, s in enumerate(_playout_states_of(record)):
        if s.to_move == 0 and len(s.legal_actions()) > 1:
            real.append(i)
    assert steps == real and done[-1] == (len(real), len(real))


def _playout_states_of(record: Record) -> Iterator[State]:
    from timelord.core import replay_steps

    for state, action in replay_steps(record):
        if action is not None:
            yield state
