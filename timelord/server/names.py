"""People's names: which are one name, and which no person may take.

Two names are one when they look alike: each is put in Unicode normal form (NFC for what is
stored and shown, so a precomposed and a decomposed "ë" are one text; NFKC for comparing, so
fullwidth and mathematical letters fold to their plain forms) and then to its confusable
skeleton (Unicode Technical Standard #39, as the `disarm` library computes it with its
`tr39` digit policy: Cyrillic U+0430, Greek alpha and Latin "a" share one skeleton, as do
"I", "l" and "1", and "O" and "0"), lowercased. A name key is
that skeleton; accounts are unique by key, so a look-alike of a taken name is taken too.

Reserved names are the ones the server itself shows for seats and bots ("Bot (heuristic)",
"Seat 2", "Open seat", "You", a game's own seat names such as "Red"), a bot's level names
("random", "ismcts:hard") and words that claim a role ("guest", "admin"): a person who took
one could pass for a bot or an empty seat in the log and the seat list. They are compared by
key too, so "Bot" spelt with a Greek omicron is as reserved as "Bot".
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from typing import Any

from disarm import skeleton_key

from timelord.server.errors import ApiError, Code

#: longest name, in characters (after NFC)
NAME_MAX = 32
#: longest key stored as it is; a longer one (NFKC can make one character many) is hashed
KEY_MAX = 120

#: Keys (see `name_key`) no person may take, by pattern: the server's names for seats and
#: bots, and words that claim a role.
RESERVED_PATTERNS = (
    re.compile(r"bot\b.*"),  # "Bot", "Bot (heuristic)", "bot-2"; not "Botanist"
    # "Seat 2", "Seat 0 (south)", "Player 1" (0 and 1 fold to "o" and "l" in a key)
    re.compile(r"(seat|player)\s*[0-9ol]+\b.*"),
    re.compile(r"open\s*seat\b.*"),
    re.compile(r"guest\b.*"),
    re.compile(r"(you|me|spectator|server|system|admin|administrator|moderator|timelord)"),
)


def nfc(name: str) -> str:
    """The canonical form a name is stored and shown in (precomposed where Unicode has it)."""
    return unicodedata.normalize("NFC", name)


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, then the UTS #39 confusable skeleton,
    lowercased ('Ace', 'ACE', and 'Ace' with a Cyrillic or a fullwidth A are one key; digits
    fold as UTS #39 folds them, so 'B0b' is 'Bob' and 'A1' is 'Al'). At most
    `KEY_MAX` characters: a longer key is replaced by its SHA-256."""
    key: str = skeleton_key(unicodedata.normalize("NFKC", name), digit_policy="tr39")
    if len(key) > KEY_MAX:
        return "sha256:" + hashlib.sha256(key.encode()).hexdigest()
    return key


@lru_cache(maxsize=1)
def _reserved_words() -> frozenset[str]:
    """Keys of the names the server gives seats: every game's seat names and bot levels."""
    import timelord
    from timelord.agents import AGENTS

    words: set[str] = set()
    for game_id in timelord.GAMES:
        game = timelord.load(game_id)
        for seat in range(max(game.players, 6)):
            try:
                words.add(name_key(game.seat_name(seat)))
            except (IndexError, KeyError, ValueError):
                break
    for agent in AGENTS:
        words.add(name_key(agent))
        for level in ("easy", "medium", "hard", "expert"):
            words.add(name_key(f"{agent}:{level}"))
    return frozenset(words)


def reserved(name: str) -> bool:
    """Whether `name` (or a look-alike of it) is one the server shows for a seat or a bot,
    or claims a role."""
    key = name_key(name).strip()
    return key in _reserved_words() or any(p.fullmatch(key) for p in RESERVED_PATTERNS)


def check_name(name: Any, code: Code = Code.PLAYER_INVALID) -> str:
    """`name` in NFC if a person may use it: 1-32 printable characters (no control, format,
    bidi or zero-width characters), no surrounding spaces, no '/' (the name is part of the
    player page's address), not reserved; `code` (422) otherwise."""
    if not isinstance(name, str):
        raise ApiError(code, f"a name is 1 to {NAME_MAX} characters")
    name = nfc(name)
    if not 1 <= len(name) <= NAME_MAX:
        raise ApiError(code, f"a name is 1 to {NAME_MAX} characters")
    if not name.isprintable() or name != name.strip() or "/" in name:
        raise ApiError(
            code,
            "a name is printable characters without '/' and without spaces at either end",
        )
    if not name_key(name).strip():
        raise ApiError(code, "a name needs a letter or a digit")
    if reserved(name):
        raise ApiError(
            code,
            f"{name!r} is reserved: the server uses it (or one like it) for seats, bots or roles",
        )
    return name
