"""Shared action objects: building frozen dataclasses is the slow part of listing actions,
and shared objects make the legality check of `apply` an identity test."""

from __future__ import annotations

from timelord.core import Action

_INTERN: dict[tuple[object, ...], Action] = {}


def mk(cls: type[Action], *args: object) -> Action:
    key = (cls, *args)
    a = _INTERN.get(key)
    if a is None:
        a = _INTERN[key] = cls(*args)
    return a


# Integer-keyed caches for the most frequent actions (no tuple to build per lookup).
# Card ids and locations stay below 1024 in any card set.
PLAY_LOCATION: dict[int, Action] = {}
PLAY_DEFENDER: dict[int, Action] = {}
PLAY_ENEMY: dict[int, Action] = {}
RESERVE: dict[int, Action] = {}
DISCARD: dict[int, Action] = {}


def make(cache: dict[int, Action], key: int, cls: type[Action], *args: object) -> Action:
    a = cache.get(key)
    if a is None:
        a = cache[key] = cls(*args)
    return a
