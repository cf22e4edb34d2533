"""The coach: known best moves are found and their misses marked costly, a review depends on
the seat's view only, the estimates hold their stated uncertainty on short endgames, budgets
in seconds are counted in samples, hint and review agree, and `timelord review` works."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import timelord
from timelord.agents import make_agent
from timelord.agents.coach import (
    SAMPLES_PER_SECOND,
    Budget,
    Coach,
    Decision,
    hint,
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


#: (game, players, seat spec, seed, step, the move that wins, a move that does not); a step
#: of None: the first position of that game where the two moves are legal and the first wins
WINNING = [
    # Keys K-7.1, 4 heuristics: moving onto the goal edge wins; staying put lets a rival escape
    ("keys", 4, "heuristic", 2, None, "move to ", "stay put"),
    # Clue, 3 detectives: the last name of a right accusation; a wrong one puts the seat out
    ("clue", 3, "heuristic:hard", 0, 152, "name The Moon", "name Platform One"),
]


@pytest.mark.parametrize(("game_id", "players", "spec", "seed", "step", "good", "bad"), WINNING)
def test_a_winning_move_is_found_and_missing_it_is_costly(
    game_id: str, players: int, spec: str, seed: int, step: int | None, good: str, bad: str
) -> None:
    if step is None:
        state = next(
            s
            for s in _playout_states(game_id, players, spec, seed)
            if any(str(a) == bad for a in s.legal_actions())
            and any(str(a).startswith(good) and _wins(s, a, s.to_move) for a in s.legal_actions())
        )
    else:
        state = _position(game_id, players, spec, seed, step)
    seat = state.to_move
    assert seat is not None
    winning = next(
        a for a in state.legal_actions() if str(a).startswith(good) and _wins(state, a, seat)
    )
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


def _known_best(
    state: State, good: Action, rollouts: int = 240, also: Sequence[Action] = ()
) -> None:
    """The hint ranks `good` (or another of the equally good moves `also`) first, and a
    review of playing `good` marks nothing costly."""
    game = state.game  # type: ignore[attr-defined]
    seat = state.to_move
    assert seat is not None
    view, legal = state.view(seat), state.legal_actions()
    found = Coach(game).value_moves(view, legal, Budget(rollouts=rollouts))
    assert found[0].action in (good, *also), [(str(m.action), m.value) for m in found]
    item = review_decision(Coach(game), Decision(0, view, legal, good), Budget(rollouts=rollouts))
    mark_costly([item])
    assert not item["costly"] and item["loss"] == 0.0
    assert item["best"][0]["action"] in [a.to_json() for a in (good, *also)]


#: (game, players, seat spec, seed, step, the move that wins at once or opens the win)
KNOWN_BEST = [
    # Clue C-5.3, 3 notebooks: in the TARDIS, certain of the envelope (exact deducer): accuse
    ("clue", 3, "heuristic", 0, 166, "make an accusation"),
    # Keys K-6.1 / K-5.8 / K-7.1: the blue Key opens b7, a goal-edge door whose back the seat
    # has seen (no Dalek), and the pawn steps onto it next: a win in every world of its view
    ("keys", 2, "heuristic", 14, 128, "open b7 with key-blue"),
    # Episodes E-5: an episode that takes the seat to the target and ends the game
    ("episodes", 2, "heuristic", 1, 47, None),
]


@pytest.mark.parametrize(("game_id", "players", "spec", "seed", "step", "good"), KNOWN_BEST)
def test_a_known_best_move_is_ranked_first_and_never_costly(
    game_id: str, players: int, spec: str, seed: int, step: int, good: str | None
) -> None:
    state = _position(game_id, players, spec, seed, step)
    seat = state.to_move
    assert seat is not None
    legal = state.legal_actions()
    winning: list[Action] = []
    if good is None:  # the moves that end the game with the seat winning
        winning = [a for a in legal if _wins(state, a, seat)]
        assert winning and len(winning) < len(legal)
        move = winning[0]
    else:
        move = next(a for a in legal if str(a) == good)
    if game_id == "clue":
        from timelord.games.clue.deduction import deduce
        from timelord.games.clue.notebook import knowledge_from_view

        assert deduce(knowledge_from_view(state.view(seat))).certain_envelope() is not None
    if game_id == "keys":  # only some cards open the way this turn
        from timelord.agents.keys.heuristic import winning as opens

        assert opens(state, [move]) == move
        assert any(opens(state, [a]) is None for a in legal)
    _known_best(state, move, also=winning)


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
    _known_best(state, doctor)


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


def test_estimates_hold_their_interval_against_the_bots_play() -> None:
    """Short Episodes endgames: most of the coach's intervals (model error included) hold the
    value the table's bots get by playing each move out (the full check with more positions
    is `python -m timelord.sim.calibration`, its table in docs/coach.md)."""
    from timelord.sim.calibration import Tally, check_position, endgames

    tally = Tally()
    for state in endgames("episodes", 2, positions=5, seed=1):
        check_position(state, 120, 12, tally)
    assert tally.total >= 8
    assert tally.hits / tally.total >= 0.75


def test_a_budget_in_seconds_is_counted_in_samples() -> None:
    """A budget in seconds is a fixed number of samples for the game (no clock is read), so
    the same position gives the same hint however loaded the machine is, and a hint is the
    review's valuation of that position with the same budget."""
    game = timelord.load("episodes", players=2)
    state = next(
        s for s in _playout_states("episodes", 2, "heuristic", 4) if len(s.legal_actions()) > 3
    )
    seat = state.to_move
    assert seat is not None
    view, legal = state.view(seat), state.legal_actions()
    assert Budget(seconds=0.5).samples(game) == SAMPLES_PER_SECOND["episodes"] // 2
    first = hint(game, view, legal, 0.5)
    assert first == hint(game, view, legal, 0.5)
    played = legal[-1]
    item = review_decision(Coach(game), Decision(0, view, legal, played), Budget(seconds=0.5))
    assert [m["action"] for m in item["best"] if m["action"] != played.to_json()] == [
        m["action"] for m in first if m["action"] != played.to_json()
    ]
    for m in first:
        assert 0.0 <= m["low"] <= m["value"] <= m["high"] <= 1.0
        assert m["verdict"] in ("best", "worse", "close", "unsure")


def test_too_small_a_budget_says_unsure() -> None:
    """With two samples a move the coach cannot rank anything: every verdict is unsure."""
    game = timelord.load("episodes", players=2)
    state = next(
        s for s in _playout_states("episodes", 2, "heuristic", 4) if len(s.legal_actions()) > 3
    )
    seat = state.to_move
    assert seat is not None
    found = Coach(game).value_moves(state.view(seat), state.legal_actions(), Budget(rollouts=6))
    assert found and all(m.verdict == "unsure" for m in found)


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
