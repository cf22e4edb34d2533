"""Every game's lesson plays through to its end against the engine; its steps cite clauses
that exist and point at places a board has; the terminal walks it and refuses another move;
the server starts a lesson table whose plan replays on it; malformed lessons are refused."""

from __future__ import annotations

import builtins
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from timelord.agents import make_agent
from timelord.cli.main import main
from timelord.core.people import people_numbered
from timelord.core.rulebook import parse_rules, rules_text
from timelord.learn import (
    LEARNER,
    LESSON_BOT,
    REGIONS,
    LessonError,
    lesson_from_toml,
    load_lesson,
    plan,
    play_plan,
)
from timelord.server import create_app
from timelord.server.table.live import bot_name

#: The special moments each lesson must reach (what a newcomer must have seen once before a
#: real game), as event kinds the learner is told.
MOMENTS = {
    "card-game": {"conflict", "pass-cards", "attack", "defend"},
    "episodes": {"episode", "steal"},
    "keys": {"open", "move"},
    "clue": {"rumour", "show", "accusation"},
}


@pytest.mark.parametrize("game_id", sorted(MOMENTS))
def test_every_lesson_plays_through_to_its_end(game_id: str) -> None:
    lesson = load_lesson(game_id)
    plies = plan(lesson)
    game = lesson.game()
    mine = [p for p in plies if p.seat == LEARNER]
    assert len(mine) == sum(1 for s in lesson.steps if s.seat == LEARNER) >= 6
    # replayed move by move, each planned move is legal when its turn comes, and the
    # learner is told each moment the lesson is there to show
    state = game.new_game(lesson.seed)
    told: set[str] = set()
    for ply in plies:
        assert state.to_move == ply.seat
        assert ply.action in state.legal_actions()
        # the label as people read it: seats counted from 1
        assert people_numbered(game.action_label(state.view(ply.seat), ply.action)) == ply.label
        state, events = state.apply_with_events(ply.action)
        told.update(t["kind"] for t in game.tell(events, LEARNER))
    assert MOMENTS[game_id] <= told, MOMENTS[game_id] - told
    assert play_plan(lesson, plies).to_json() == state.to_json()
    # the normal game after the lesson seats the lesson's easy bot
    assert make_agent(lesson.bot, game) is not None


def test_keys_lesson_shows_a_dalek_door_and_a_teleport() -> None:
    lesson = load_lesson("keys")
    game = lesson.game()
    state = game.new_game(lesson.seed)
    texts = []
    for ply in plan(lesson):
        state, events = state.apply_with_events(ply.action)
        if ply.seat == LEARNER:
            texts += [t["text"] for t in game.tell(events, LEARNER)]
    assert any("You open" in t and "Dalek Door" in t for t in texts)
    assert any("teleport" in t for t in texts)


def test_clue_lesson_ends_with_the_learner_solving_it() -> None:
    lesson = load_lesson("clue")
    final = play_plan(lesson, plan(lesson))
    assert final.is_over and final.winners() == [LEARNER]


@pytest.mark.parametrize("game_id", sorted(MOMENTS))
def test_lesson_steps_cite_real_clauses_and_point_at_real_places(game_id: str) -> None:
    clauses = {
        i for section in parse_rules(rules_text(game_id)) for c in section.clauses for i in c.ids
    }
    for n, step in enumerate(load_lesson(game_id).steps, 1):
        if step.seat != LEARNER:
            continue
        assert step.rule in clauses, (n, step.rule)
        cited = re.findall(r"\(([A-Z]-\d+\.\d+)\)", step.say)
        assert set(cited) <= clauses, (n, cited)
        assert step.point in REGIONS or re.fullmatch(r"[A-Z]?\d+", step.point), (n, step.point)


def test_malformed_or_unplayable_lessons_are_refused() -> None:
    with pytest.raises(LessonError, match="seed"):
        lesson_from_toml("keys", 'title = "t"\n[[step]]\ndo = "x"\nsay = "y"\n')
    with pytest.raises(LessonError, match="unknown keys"):
        lesson_from_toml("keys", 'title = "t"\nseed = 1\ncolour = 2\n[[step]]\ndo="x"\nsay="y"')
    with pytest.raises(LessonError, match="needs do and say"):
        lesson_from_toml("keys", 'title = "t"\nseed = 1\n[[step]]\ndo = "stay put"\n')
    with pytest.raises(LessonError):
        lesson_from_toml("keys", "title = ")
    bad = lesson_from_toml(
        "keys", 'title = "t"\nseed = 0\n[options]\nplayers = 2\n[[step]]\ndo = "fly"\nsay = "s"'
    )
    with pytest.raises(LessonError, match=r"'fly' is not a legal move now .*seat 0 may: "):
        plan(bad)


def _answers(monkeypatch: pytest.MonkeyPatch, answers: list[str]) -> None:
    it: Iterator[str] = iter(answers)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", fake_input)


def test_timelord_learn_walks_the_lesson_and_refuses_another_move(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lesson = load_lesson("episodes")
    labels = [p.label for p in plan(lesson) if p.seat == LEARNER]
    # the first answer is a legal move the lesson does not ask for; then each step's move
    game = lesson.game()
    state = game.new_game(lesson.seed)
    other = next(
        game.action_label(state.view(0), a)
        for a in state.legal_actions()
        if game.action_label(state.view(0), a) != labels[0]
    )
    _answers(monkeypatch, [other, *labels])
    assert main(["learn", "episodes", "--no-game"]) == 0
    out = capsys.readouterr().out
    assert f"Not this time: the lesson asks you to {labels[0]}" in out
    assert f"Lesson, step {len(labels)} of {len(labels)}" in out
    assert "[E-4.3]" in out and lesson.outro.split()[0] in out


def test_timelord_learn_goes_on_to_a_normal_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = [p.label for p in plan(load_lesson("keys")) if p.seat == LEARNER]
    _answers(monkeypatch, [*labels, "y", "q"])  # then leave the normal game at once
    assert main(["learn", "keys"]) == 1
    out = capsys.readouterr().out
    assert "A new deal, you against an easy bot" in out and "Lesson left" in out


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # as `timelord serve` runs by default: create requests may not choose a seed
    with TestClient(create_app(f"sqlite:///{tmp_path / 'learn.db'}", 0.0, allow_seed=False)) as c:
        yield c


def test_the_server_starts_a_lesson_table_the_plan_replays_on(client: TestClient) -> None:
    assert client.get("/learn/episodes").status_code == 200
    assert 'data-learn="episodes"' in client.get("/").text
    answer = client.post("/api/learn/episodes")
    assert answer.status_code == 201
    data = answer.json()
    assert [s["agent"] for s in data["seats"]] == ["human", "human"]
    tokens = [s["token"] for s in data["seats"]]
    assert client.get(f"/api/tables/{data['id']}").json()["seeded"] is True  # others can tell
    for version, ply in enumerate(data["plan"]):
        step = {"version": version, "action": ply["action"]}
        url = f"/api/tables/{data['id']}/actions?token={tokens[ply['seat']]}"
        moved = client.post(url, json=step)
        assert moved.status_code == 200, (version, moved.text)
        assert ("say" in ply) == (ply["seat"] == LEARNER)
    assert client.post("/api/learn/no-such-game").json()["code"] == "lesson/not_found"
    assert client.post("/api/learn/keys", json={"seed": 1}).status_code == 400
    assert client.get("/learn/no-such-game").status_code == 404


def test_a_lesson_table_seats_its_other_players_as_bots_and_ends_as_a_lesson(
    client: TestClient,
) -> None:
    """Issue 33 item 4: the lesson's other seats showed as "Seat 2 (guest)", and once the
    plan ran out the board said "Waiting for Seat 2 (north) (guest)". They are the lesson's
    bot, named as bots are named ("Bot (casual)"), and the end says the lesson is over."""
    data = client.post("/api/learn/keys").json()
    tokens = [s["token"] for s in data["seats"]]
    seats = client.get(f"/api/tables/{data['id']}").json()["seats"]
    assert [s["name"] for s in seats] == ["Seat 1 (south)", bot_name(LESSON_BOT)]
    assert [s["guest"] for s in seats] == [True, False]
    board = f"/tables/{data['id']}/board?token={tokens[LEARNER]}"
    waited = False
    for version, ply in enumerate(data["plan"]):
        if ply["seat"] != LEARNER and not waited:  # mid-lesson: the bot is waited for
            assert f"Waiting for {bot_name(LESSON_BOT)}." in client.get(board).text
            waited = True
        step = {"version": version, "action": ply["action"]}
        url = f"/api/tables/{data['id']}/actions?token={tokens[ply['seat']]}"
        assert client.post(url, json=step).status_code == 200
    assert waited
    snap = client.get(f"/api/tables/{data['id']}?token={tokens[LEARNER]}").json()
    assert snap["to_move"] != LEARNER  # the lesson ends on the learner's move
    assert snap["seats"][1]["lesson_until"] == len(data["plan"])
    page = client.get(board).text
    assert "The lesson is over" in page and "Waiting for" not in page
    assert "Lesson over" in page and "to move" not in page
    assert f"{bot_name(LESSON_BOT)} (guest)" not in page and "Seat 2" not in page
