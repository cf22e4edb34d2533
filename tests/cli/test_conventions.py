"""The command's conventions: --version, one error style and exit code 2 for every usage
error, and no traceback for any user mistake."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tests.cli.toys  # noqa: F401  (registers toy)
import timelord
from timelord.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps a long version line
    assert out == f"timelord {timelord.__version__} ({timelord.BUILD})"
    assert ("compiled with mypyc" in out) is timelord.COMPILED


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "rec.json"
    assert (
        main(["play", "toy", "--seats", "random,random", "--seed", "1", "--record", str(path)]) == 0
    )
    return path


def _bad_record(tmp_path: Path) -> str:
    path = tmp_path / "bad.json"
    path.write_text("{nope")
    return str(path)


def _edited_record(tmp_path: Path) -> str:
    path = tmp_path / "edited.json"
    data = {"version": 1, "game": "toy", "options": {"players": 2}, "seed": 1}
    data["actions"] = [{"type": "PlayCard", "card": 99}]
    path.write_text(json.dumps(data))
    return str(path)


USAGE_ERRORS = {
    "no command": ([], "required"),
    "unknown command": (["fly"], "invalid choice"),
    "unknown game": (["play", "chess"], "unknown game 'chess'"),
    "unknown game in rules": (["rules", "chess"], "unknown game 'chess'"),
    "unknown game in games": (["games", "chess"], "unknown game 'chess'"),
    "unknown agent": (["play", "toy", "--seats", "random,wizard"], "unknown agent 'wizard'"),
    "empty seat": (["play", "toy", "--seats", "random,,random"], "empty entry"),
    "seed wider than a record holds": (
        ["play", "toy", "--seats", "random,random", "--seed", str(2**70)],
        "64 bits",
    ),
    "seats against players": (
        ["play", "toy", "--seats", "random,random", "-o", "players=3"],
        "3 players but 2 seats",
    ),
    "unknown option": (["play", "toy", "--seats", "random,random", "-o", "colour=red"], "colour"),
    "malformed option": (
        ["play", "toy", "--seats", "random,random", "-o", "players"],
        "name=value",
    ),
    "bad option value": (["play", "keys", "--seats", "random,random", "-o", "round_limit=0"], ""),
    "bad seed": (["play", "toy", "--seed", "soon"], "invalid int value"),
    "unwritable record": (
        ["play", "toy", "--seats", "random,random", "--record", "/no/such/x"],
        "",
    ),
    "unknown clause": (["rules", "keys", "K-99"], "no rule clause 'K-99'"),
}


@pytest.mark.parametrize("case", sorted(USAGE_ERRORS))
def test_every_usage_error_is_one_line_and_exit_2(
    case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, words = USAGE_ERRORS[case]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("timelord: error: ") and words in err
    assert "Traceback" not in err


def test_bad_option_names_the_valid_ones_in_one_short_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 33 item 12: the error names the options and where they are explained, not
    their whole documentation (about 600 characters before)."""
    assert main(["play", "keys", "--seats", "random,random", "-o", "colour=red"]) == 2
    err = capsys.readouterr().err
    assert "its options: players, round_limit, turn_limit, variant" in err
    assert "`timelord games keys`" in err and len(err) < 200 and err.count("\n") == 1
    assert main(["play", "keys", "--seats", "random,random", "-o", "round_limit=-1"]) == 2
    err = capsys.readouterr().err
    assert "round_limit" in err and "`timelord games keys`" in err and len(err) < 200


def test_each_option_default_is_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    for game_id in ("keys", "episodes", "clue", "card-game"):
        assert main(["games", game_id]) == 0
        for line in capsys.readouterr().out.splitlines():
            assert line.count("default") <= 1, line


@pytest.mark.parametrize("seat", ["2", "-1", "x"])
def test_replay_refuses_a_seat_not_at_the_table(
    seat: str, record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(record), "--seat", seat]) == 2
    err = capsys.readouterr().err
    assert err.startswith("timelord: error: ")
    assert "no seat" in err or "invalid int value" in err


def test_unreadable_and_edited_records_are_clear_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in (_bad_record(tmp_path), _edited_record(tmp_path), str(tmp_path / "missing")):
        assert main(["replay", path]) == 2
        err = capsys.readouterr().err
        assert err.startswith("timelord: error: ") and "Traceback" not in err


def test_replay_tells_each_seat_its_events_as_sentences(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["replay", str(record), "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "toy (players=2), seed 1, 4 moves" in out and "as Seat 2 saw it" in out
    assert out.count("You: play") == 2 and out.count("Seat 1: play") == 2
    assert "{" not in out.splitlines()[0] and "[" not in out.splitlines()[-1]
    assert "Game over." in out


_NO_WEB = (
    "import sys; sys.modules['fastapi'] = sys.modules['uvicorn'] = None; "
    "sys.modules['sqlalchemy'] = None; "
    "from timelord.cli.main import main; sys.exit(main(sys.argv[1:]))"
)


@pytest.mark.parametrize(
    ("argv", "code"), [(["--version"], 0), (["games"], 0), (["serve"], 2), (["rate", "keys"], 2)]
)
def test_the_cli_runs_without_the_web_extra(argv: list[str], code: int) -> None:
    """An install without `[web]` (fastapi, uvicorn and SQLAlchemy absent): `--version` and
    the other commands work, and `serve` and `rate` say in one line what they need (the parser
    imported the web app and the rating pool, so even `--version` was a traceback)."""
    done = subprocess.run(
        [sys.executable, "-c", _NO_WEB, *argv], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr
    if code:
        assert done.stderr.startswith("timelord: error: ") and "timelord[web" in done.stderr


def test_a_real_process_prints_no_traceback(tmp_path: Path) -> None:
    """The installed entry point, as a user runs it: bad input, exit 2, one line."""
    done = subprocess.run(
        [sys.executable, "-m", "timelord", "replay", _bad_record(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("timelord: error: ") and "bad.json" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bad_seat_prints_no_game_header(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "keys", "--seats", "human,wizard", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "unknown agent 'wizard'" in captured.err


def test_ctrl_c_at_the_prompt_keeps_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["1"])

    def typed(prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr("builtins.input", typed)
    path = tmp_path / "rec.json"
    argv = ["play", "keys", "--seats", "human,random", "--seed", "3", "--record", str(path)]
    assert main(argv) == 1
    assert "Record saved to" in capsys.readouterr().out
    from timelord.core import Record

    assert Record.load(path).actions  # the move made before Ctrl-C is in it


def test_help_speaks_to_users_and_names_the_bot_levels(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--help"]) == 0
    top = capsys.readouterr().out
    assert "Entry point" not in top and "Doctor Who" in top and "timelord learn" in top
    assert main(["play", "--help"]) == 0
    seats = " ".join(capsys.readouterr().out.split())
    for level in ("ismcts:easy", "ismcts:medium", "ismcts:hard", "heuristic", "random"):
        assert level in seats
