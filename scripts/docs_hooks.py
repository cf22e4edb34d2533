"""MkDocs hooks (mkdocs.yml): the site reads what the code writes and says, so nothing of it is
copied into docs/ by hand.

- `results/cfr/*`: the CFR curves (table and plot) that the research pages link to, served
  under `results/cfr/`; a page's link that leaves docs/ for `../results/` points at them.
- `CONTRIBUTING.md`, `CHANGELOG.md` and `LICENSE` from the repository's root, as pages.
- `<!-- timelord-help -->` in a page becomes the `--help` of every `timelord` command, and
  `<!-- http-routes -->` the table of every route in the server's OpenAPI document, both as
  the code answers them when the site is built.
"""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parents[1]
#: the results the pages read, served as they are
RESULTS = ("cfr/*.md", "cfr/*.svg")
#: root files shown as pages: (file, page); their links into docs/ become site links
ROOT_PAGES = (
    ("CONTRIBUTING.md", "contributing.md"),
    ("CHANGELOG.md", "changelog.md"),
)
HELP_MARK = "<!-- timelord-help -->"
ROUTES_MARK = "<!-- http-routes -->"


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for pattern in RESULTS:
        for path in sorted((ROOT / "results").glob(pattern)):
            uri = path.relative_to(ROOT).as_posix()
            files.append(File.generated(config, uri, content=path.read_bytes()))
    for name, page in ROOT_PAGES:
        text = (ROOT / name).read_text()
        text = text.replace("](docs/", "](").replace("](LICENSE)", "](license.md)")
        files.append(File.generated(config, page, content=text))
    license_text = (ROOT / "LICENSE").read_text()
    files.append(
        File.generated(config, "license.md", content=f"# License\n\n```text\n{license_text}```\n")
    )
    return files


def on_page_markdown(markdown: str, page: Page, **_: Any) -> str:
    # a link one level above docs/ into results/ is, in the site, a link into results/
    markdown = re.sub(r"\]\(((?:\.\./)*)\.\./results/", r"](\1results/", markdown)
    if HELP_MARK in markdown:
        markdown = markdown.replace(HELP_MARK, command_help())
    if ROUTES_MARK in markdown:
        markdown = markdown.replace(ROUTES_MARK, http_routes())
    return markdown


def command_help() -> str:
    """Every `timelord` command's help, as Markdown sections with the text in code blocks."""
    os.environ["COLUMNS"] = "100"  # argparse wraps to the terminal; pin it for the page
    from timelord.cli.main import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    parts = [f"## timelord\n\n```text\n{parser.format_help()}```\n"]
    for name, command in sub.choices.items():
        parts.append(f"## timelord {name}\n\n```text\n{command.format_help()}```\n")
    return "\n".join(parts)


def http_routes() -> str:
    """A Markdown table of every route the server's OpenAPI document lists (an app on an
    in-memory database: the document does not depend on the data)."""
    from timelord.server import create_app

    spec = create_app("sqlite://").openapi()
    lines = ["| method | path | what | statuses |", "|---|---|---|---|"]
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            statuses = ", ".join(sorted(operation.get("responses", {})))
            summary = operation.get("summary", "").replace("|", "\\|")
            lines.append(f"| `{method.upper()}` | `{path}` | {summary} | {statuses} |")
    return "\n".join(lines)
