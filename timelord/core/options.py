"""Game options written as text, `NAME=VALUE`, read the same way by every command and tool
(the terminal's `-o`, the tuner, the benches), so a value means one thing everywhere."""

from __future__ import annotations

import json
from typing import Any

from timelord.core.errors import ConfigError


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """Turn ["target=30", "variant=two-player"] into {"target": 30, "variant": "two-player"}.

    Values are read as JSON when they parse (numbers, true/false), else kept as text.
    """
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"option {pair!r} is not of the form name=value")
        try:
            options[key] = json.loads(raw)
        except (json.JSONDecodeError, RecursionError):
            options[key] = raw
    return options
