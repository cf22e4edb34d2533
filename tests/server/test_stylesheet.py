"""The stylesheet parses as a whole: one unclosed block (a merge that lost a brace) turns every
later rule into part of that block, and the page silently loses them (the lesson panel was
left in the page's flow on a phone that way)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "timelord" / "server" / "static"


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.css")), ids=lambda p: p.name)
def test_every_block_of_the_stylesheet_closes(path: Path) -> None:
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)  # comments hold no rules
    text = re.sub(r'"[^"\n]*"|\'[^\'\n]*\'', '""', text)  # nor do strings
    depth = 0
    for number, line in enumerate(text.splitlines(), 1):
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"{path.name}:{number}: a block closes that never opened"
    assert depth == 0, f"{path.name}: {depth} block(s) never close"
