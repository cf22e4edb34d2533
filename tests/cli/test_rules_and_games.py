"""`timelord rules` and `timelord games`: clause ids, one clause, every option."""

from __future__ import annotations

import inspect
import re
from importlib import resources

import pytest

from timelord.cli.main import main
from timelord.cli.rules import parse_rules
from timelord.core import GAMES, game_class

#: the shipped games (tests register toy games in the same catalogue)
REAL_GAMES = ("card-game", "episodes", "keys", "clue")
CLAUSE_ID = re.compile(r"^- \*\*([A-Z]+-[0-9][^*]*)\*\*", re.M)


def _rules_file(game_id: str) -> str:
    package = game_class(game_id).__module__.rpartition(".")[0]
    return (resources.files(package) / "RULES.md").read_text()


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_the_summary_names_every_numbered_clause(
    game_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = CLAUSE_ID.findall(_rules_file(game_id))
    assert len(ids) >= 20
    assert main(["rules", game_id]) == 0
    out = capsys.readouterr().out
    for clause in ids:
        assert re.search(rf"^  {re.escape(clause)}\s", out, re.M), clause
    assert len(out.splitlines()) < 2 * len(_rules_file(game_id).splitlines())


def test_one_clause_in_full_and_a_section(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "keys", "k-5.3"]) == 0
    assert "K-5.3 A Dalek Door cannot be entered unless a Jam Cookie is on it" in (
        capsys.readouterr().out
    )
    assert main(["rules", "keys", "K-4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("K-4 Movement") and all(f"K-4.{i}" in out for i in range(1, 6))


def test_a_clause_spread_over_lines_is_read_whole() -> None:
    text = "## X-1 Things\n- **X-1.1** One\n  two.\n- **X-1.2**, **X-1.3** Three.\n\nprose\n"
    (section,) = parse_rules(text)
    assert section.id == "X-1" and section.title == "Things"
    assert [(c.ids, c.text) for c in section.clauses] == [
        (["X-1.1"], "One two."),
        (["X-1.2", "X-1.3"], "Three."),
    ]


def test_an_unknown_clause_suggests_near_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "episodes", "E-4.99"]) == 2
    err = capsys.readouterr().err
    assert "no rule clause 'E-4.99'" in err and "did you mean E-4.9" in err


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_games_lists_every_constructor_option_with_its_default(
    game_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["games", game_id]) == 0
    out = capsys.readouterr().out
    cls = game_class(game_id)
    for name, param in inspect.signature(cls).parameters.items():
        line = next(
            x
            for x in out.splitlines()
            if x.startswith(f"    {name} ") or x.startswith(f"    {name}:")
        )
        if "(default" in line.split(":", 1)[0]:  # the default said after the name
            default = "none" if param.default is None else str(param.default).lower()
            assert re.search(rf"^    {name} \(default \"?{re.escape(default)}\"?\)", line), name
        else:  # said by the option's own text (which may say "true for the standard
            # variant"), and only there
            assert line.count("default") == 1, line
    for name, text in cls.options_doc.items():
        assert f"    {name}" in out and text in out


def test_games_options_covers_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--options"]) == 0
    out = capsys.readouterr().out
    for game_id in GAMES:
        assert f"{game_id}: {GAMES[game_id]}" in out


def test_rulings_cited_by_refusals_are_found_for_their_own_game_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "keys", "K-R9"]) == 0
    assert capsys.readouterr().out.startswith("K-R9 Nothing to draw, nothing to play.")
    assert main(["rules", "clue", "cl-3"]) == 0
    assert 'CL-3 The "?" replaces the 1 on the first die' in capsys.readouterr().out
    assert main(["rules", "keys", "CL-3"]) == 2  # Clue's ruling is not a Keys rule
    assert main(["rules", "keys", "K-R999"]) == 2
    assert "it names a ruling" in capsys.readouterr().err
