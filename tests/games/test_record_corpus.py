"""Records outlive rule changes: every record in the corpus, made by the engine of its rules
version (tests/games/records/<game>/rules-<n>/, see make_corpus.py), still replays to the
very final state that engine reached, under the version it was played by (docs/rulings.md,
"Rules versions")."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from timelord.core import GameError, Record, State, game_class, replay
from timelord.core.record import rules_of

CORPUS = Path(__file__).parent / "records"
FILES = sorted(CORPUS.glob("*/rules-*/*.json"))
#: the games this package ships (tests register toy games of their own beside them)
GAME_IDS = ("card-game", "clue", "episodes", "keys")


def _hash(state: State) -> str:
    text = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _version(path: Path) -> int:
    return int(path.parent.name.removeprefix("rules-"))


def test_every_released_rules_version_of_every_game_has_records() -> None:
    for game_id in GAME_IDS:
        versions = game_class(game_id).rules_versions
        for version in versions:
            assert list((CORPUS / game_id / f"rules-{version}").glob("*.json")), (
                game_id,
                version,
            )


@pytest.mark.parametrize(
    "path", FILES, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}"
)
def test_a_record_replays_under_the_rules_it_was_played_by(path: Path) -> None:
    data = json.loads(path.read_text())
    record = Record.from_json(data["record"])
    assert rules_of(record)["rules"] == _version(path)
    final = replay(record)
    assert _hash(final) == data["final_hash"]
    assert final.scores() == record.result["scores"]


def test_earlier_rules_are_kept_behind_their_version() -> None:
    """Without its version, some record of each earlier version would not replay (or end
    otherwise): the old behaviour is really what replays them, not a coincidence."""
    changed: set[tuple[str, int]] = set()
    for path in FILES:
        version = _version(path)
        data = json.loads(path.read_text())
        record = Record.from_json(data["record"])
        current = game_class(record.game).rules_versions[-1]
        if version == current:
            continue
        record.options = {**record.options, "rules": current}
        try:
            if _hash(replay(record)) != data["final_hash"]:
                changed.add((record.game, version))
        except GameError:
            changed.add((record.game, version))
    expected = {
        (game_id, v) for game_id in GAME_IDS for v in game_class(game_id).rules_versions[:-1]
    }
    assert changed == expected
