"""`timelord rules GAME [CLAUSE]`: the rules a game plays by, from its RULES.md (and the
rulings of docs/rulings.md that refusals also cite, when the source tree is at hand).

Refusals name clauses ("[K-5.3]"), so a player can look one up: `timelord rules keys K-5.3`.
Without a clause the command prints a summary: every section and the first sentence of each
clause under its id.
"""

from __future__ import annotations

import argparse
import re
import textwrap

from timelord.core import ConfigError
from timelord.core.rulebook import Clause, all_rulings, parse_rules, rules_text, ruling_prefixes

_SENTENCE = re.compile(r"(.+?\.)(\s+[A-Z(]|$)")
_RULING_ID = re.compile(r"^([A-Z]+-R|CL-)\d+$")
#: a summary line stops after this many characters
_SUMMARY_CHARS = 180


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `timelord games`)")
    parser.add_argument("clause", nargs="?", help="a clause or section id, e.g. K-5.3 or K-5")


def _first_sentence(text: str) -> str:
    found = _SENTENCE.match(text)
    sentence = found[1] if found else text
    if len(sentence) > _SUMMARY_CHARS:
        sentence = sentence[:_SUMMARY_CHARS].rsplit(" ", 1)[0] + " ..."
    return sentence


def summary(game_id: str, width: int = 100) -> str:
    """Each section with the first sentence of each of its clauses, under the clause id."""
    lines = [f"Rules of {game_id} (`timelord rules {game_id} CLAUSE` prints one in full)"]
    for section in parse_rules(rules_text(game_id)):
        if not section.clauses:
            continue
        lines.append("")
        lines.append(section.heading)
        for clause in section.clauses:
            label = ", ".join(clause.ids)
            lines.append(
                textwrap.fill(
                    _first_sentence(clause.text),
                    width,
                    initial_indent=f"  {label:<9} ",
                    subsequent_indent=" " * 12,
                )
            )
    return "\n".join(lines)


def clause_text(game_id: str, clause_id: str, width: int = 100) -> str:
    """One clause in full, or a whole section; `ConfigError` naming near ids if unknown."""
    wanted = clause_id.strip().upper()
    text = rules_text(game_id)
    sections = parse_rules(text)
    known: list[str] = []
    for section in sections:
        if section.id and section.id.upper() == wanted:
            body = [section.heading]
            body.extend(_fill(c, width) for c in section.clauses)
            return "\n".join(body)
        known.append(section.id)
        for clause in section.clauses:
            if wanted in (i.upper() for i in clause.ids):
                return f"({section.heading})\n{_fill(clause, width)}".strip()
            known.extend(clause.ids)
    # a ruling of this game: its prefix is one the game's rules cite ("[K-R9]")
    prefixes = ruling_prefixes(game_id)
    ruling = ruling_text(wanted, width) if prefixes and wanted.startswith(prefixes) else None
    if ruling is not None:
        return ruling
    import difflib

    near = difflib.get_close_matches(clause_id, [k for k in known if k], n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(near)}?" if near else ""
    if _RULING_ID.match(wanted):
        hint = "; it names a ruling (docs/rulings.md in the source tree)"
    raise ConfigError(
        f"{game_id} has no rule clause {clause_id!r}{hint} "
        f"(`timelord rules {game_id}` lists them all)"
    )


def ruling_text(ruling_id: str, width: int = 100) -> str | None:
    """A ruling (`K-R9`, `CL-3`: how the engine decides where the rulebook is silent) from
    docs/rulings.md, when the source tree is at hand (it is not installed with the package)."""
    found = next((r for r in all_rulings() if r.ids[0].upper() == ruling_id.upper()), None)
    return None if found is None else _fill(found, width)


def _fill(clause: Clause, width: int) -> str:
    label = ", ".join(clause.ids)
    return textwrap.fill(clause.text, width, initial_indent=f"{label} ", subsequent_indent="    ")


def run(args: argparse.Namespace) -> int:
    if args.clause:
        print(clause_text(args.game, args.clause))
    else:
        print(summary(args.game))
    return 0
