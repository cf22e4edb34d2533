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
