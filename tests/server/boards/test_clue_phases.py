"""The Clue board speaks of the engine's real phases: its hints were keyed by ids the engine
never uses ("accuse", "show", "roll"), so the TARDIS and answer hints never appeared, and the
status line printed raw ids ("phase name")."""

from __future__ import annotations

from timelord.games.clue.state import PHASES
from timelord.server.boards.clue import PHASE_TEXT, PHASE_WORDS


def test_every_phase_has_words_and_every_hint_names_a_real_phase() -> None:
    assert set(PHASE_WORDS) == set(PHASES)
    assert set(PHASE_TEXT) == set(PHASES) - {"over"}
    assert all(words and "_" not in words for words in PHASE_WORDS.values())
