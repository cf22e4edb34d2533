"""A game's rulebook as data: its RULES.md split into sections and numbered clauses.

The terminal prints it (`timelord rules GAME [CLAUSE]`) and the web app serves it as a page
with an anchor per clause, so a refusal naming "[K-5.3]" can link straight to the clause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from timelord.core.errors import ConfigError
from timelord.core.registry import game_class

_SECTION = re.compile(r"^##\s+(?:(?P<id>[A-Z]+-\d+)\s+)?(?P<title>.+?)\s*$")
_CLAUSE = re.compile(r"^- ((?:\*\*[^*\s]+\*\*(?:,\s*)?)+)\s*(.*)$")
_ID = re.compile(r"\*\*([^*\s]+)\*\*")
_RULING = re.compile(r"^- \*\*(?P<id>[A-Z]+-R?\d+)(?P<title>[^*]*)\*\*\s*(?P<text>.*)$")
_RULING_PREFIX = re.compile(r"\b([A-Z]+-R|CL-)\d+")
#: How the engine decides where a rulebook is silent: in the source tree, not installed.
RULINGS = Path(__file__).resolve().parents[2] / "docs" / "rulings.md"


@dataclass
class Clause:
    ids: list[str]
    text: str


@dataclass
class Section:
    id: str
    title: str
    clauses: list[Clause] = field(default_factory=list)

    @property
    def heading(self) -> str:
        """The section's heading as printed: "C-5 Conflicts", or the title alone when the
        section has no number ("Card effects")."""
        return f"{self.id} {self.title}" if self.id else self.title


def rules_text(game_id: str) -> str:
    """The game's RULES.md as shipped in its package."""
    package = game_class(game_id).__module__.rpartition(".")[0]
    try:
        return (resources.files(package) / "RULES.md").read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{game_id} ships no RULES.md") from exc


def parse_rules(text: str) -> list[Section]:
    """Sections and their clauses; a clause's text runs over its indented continuation lines."""
    sections: list[Section] = []
    current: Clause | None = None
    for line in text.splitlines():
        heading = _SECTION.match(line)
        if heading:
            sections.append(Section(heading["id"] or "", heading["title"]))
            current = None
            continue
        bullet = _CLAUSE.match(line)
        if bullet and sections:
            current = Clause(_ID.findall(bullet[1]), bullet[2].strip())
            sections[-1].clauses.append(current)
        elif current is not None and line.startswith("  ") and line.strip():
            current.text += " " + line.strip()
        else:
            current = None
    return sections


def all_rulings() -> list[Clause]:
    """Every ruling of docs/rulings.md (`K-R9`, `CL-3`), title and text as one clause; none
    when the source tree is not at hand."""
    try:
        text = RULINGS.read_text(encoding="utf-8")
    except OSError:
        return []
    out: list[Clause] = []
    current: Clause | None = None
    for line in text.splitlines():
        head = _RULING.match(line)
        if head:
            current = Clause([head["id"]], f"{head['title'].strip()} {head['text']}".strip())
            out.append(current)
        elif current is not None and line.startswith("  ") and line.strip():
            current.text += " " + line.strip()
        else:
            current = None
    return out


def ruling_prefixes(game_id: str) -> tuple[str, ...]:
    """The ruling id prefixes a game's rules cite ("K-R", "CL-"): its rulings start so."""
    return tuple(sorted({m.upper() for m in _RULING_PREFIX.findall(rules_text(game_id))}))


def game_rulings(game_id: str) -> list[Clause]:
    """The rulings that belong to a game (their prefix is one its rules cite)."""
    prefixes = ruling_prefixes(game_id)
    return [r for r in all_rulings() if prefixes and r.ids[0].upper().startswith(prefixes)]
