"""Reading game options and seat lists from the command line."""

from __future__ import annotations

import json
from typing import Any

from timelord.core import ConfigError


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """Turn ["target=30", "variant=two-player"] into {"target": 30, "variant": "two-player"}.

    Values are read as JSON when they parse (numbers, true/false), else kept as text.
    """
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"option {pair!r} is not of the form name=value")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def parse_seats(text: str) -> list[str]:
    """Split "human,random,ismcts:hard" into seat specs."""
    seats = [s.strip() for s in text.split(",")]
    if not all(seats):
        raise ConfigError(f"bad seat list {text!r}: empty entry")
    return seats
