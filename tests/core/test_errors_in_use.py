"""Every error the library exports is one it raises: an exported class nobody raises (a
`NotYourTurn`, a `StaleState`) promises callers a case that never comes, and they write
handlers for it."""

from __future__ import annotations

import re
from pathlib import Path

import timelord
import timelord.core
from timelord.core import GameError

PACKAGE = Path(timelord.__file__).resolve().parent


def test_every_exported_error_is_raised_somewhere_in_the_package() -> None:
    exported = _errors(timelord.core)
    assert {"GameError", "IllegalAction", "GameOver", "InvalidSeat"} <= exported
    source = "\n".join(p.read_text() for p in PACKAGE.rglob("*.py"))
    for name in exported - {"GameError"}:  # the root is what callers catch
        assert re.search(rf"\b{name}\(", source.replace(f"class {name}(", "")), name


def test_the_package_exports_the_same_errors_as_the_core() -> None:
    """`timelord` re-exports the core's errors, no more and no fewer."""
    assert _errors(timelord) == _errors(timelord.core)


def _errors(module: object) -> set[str]:
    names: list[str] = module.__all__
    return {
        n
        for n in names
        if isinstance(getattr(module, n), type) and issubclass(getattr(module, n), GameError)
    }
