"""A table page's own scripts and styles stay light (issue 34, "Still light and fast"): the
scripts table.html loads, with every module they import, and the stylesheet, weighed raw and
gzipped (as a compressing proxy in front of the server sends them; the app itself does not
compress). The budget leaves room to grow, not to double."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "timelord" / "server"
#: gzipped bytes the table page's scripts and stylesheet may weigh together (46 KB today)
BUDGET_GZIP = 56_000


def _modules(names: list[str]) -> list[Path]:
    """The scripts `names` and every module they import, each once."""
    seen: list[Path] = []
    todo = [SERVER / "static" / n for n in names]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        for name in re.findall(r'from\s+"\./([\w.-]+\.js)"', path.read_text()):
            todo.append(SERVER / "static" / name)
    return seen


def test_the_table_page_scripts_and_styles_stay_light() -> None:
    page = (SERVER / "templates" / "table.html").read_text()
    scripts = _modules(re.findall(r'src="/static/([\w.-]+\.js)"', page))
    assert {p.name for p in scripts} >= {"table.js", "life.js", "motion.js", "log.js"}
    files = [*scripts, SERVER / "static" / "style.css"]
    raw = sum(len(p.read_bytes()) for p in files)
    packed = sum(len(gzip.compress(p.read_bytes(), 9)) for p in files)
    print(f"table page: {len(files)} files, {raw} bytes raw, {packed} bytes gzipped")
    assert packed <= BUDGET_GZIP, (raw, packed)
