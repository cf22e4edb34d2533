"""Mutated saved states, actions, views and records of every game: refused with a library
error, or accepted and played on correctly (see tests/support/fuzz.py).

Bounded and derandomised so the suite stays fast and gives the same inputs on every run;
`python -m tests.fuzz.run --minutes 10` runs the same fuzzer for longer.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import GAMES, KINDS, corpus, fuzz_one

#: per game and door; 16 pairs of them stay well under a minute on one core
EXAMPLES = 30

#: (game, door) -> a failure its owner had not fixed when the fuzzer was merged; each is in
#: FUZZ_FINDINGS of the hardening round. Not strict: the test passes again once it is fixed.
KNOWN: dict[tuple[str, str], str] = {}


def _pairs() -> list[Any]:
    return [
        pytest.param(game, kind, marks=pytest.mark.xfail(reason=KNOWN[game, kind], strict=False))
        if (game, kind) in KNOWN
        else pytest.param(game, kind)
        for game in GAMES
        for kind in KINDS
    ]


@pytest.mark.parametrize(("game_id", "kind"), _pairs())
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_mutated_input_is_refused_or_plays_on(game_id: str, kind: str, data: st.DataObject) -> None:
    def choose(n: int) -> int:
        return data.draw(st.integers(0, n - 1)) if n > 1 else 0

    outcome = fuzz_one(corpus(game_id), kind, choose)
    assert outcome.verdict != "failed", outcome.reproducer()
