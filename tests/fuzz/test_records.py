"""The record door, which reads files from anyone: every field capped and checked; any bytes
give a record or `CorruptRecord`, never TypeError, ValueError from int parsing, or
RecursionError."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import corpus
from timelord.core import CorruptRecord, InvalidAction, Record, load, replay


def _record() -> dict[str, Any]:
    return json.loads(json.dumps(corpus("keys").records[0][1]))


def _refused(change: dict[str, Any]) -> None:
    data = {**_record(), **change}
    with pytest.raises(CorruptRecord):
        replay(Record.from_json(data))


@pytest.mark.parametrize(
    "change",
    [
        {"seats": 5},
        {"seats": "abc"},
        {"seats": ["random"] * 3},  # a 2-player game
        {"seats": [None, "random"]},
        {"seed": 10**5000},
        {"seed": 1 << 64},
        {"seed": 1.5},
        {"options": {"players": [[[[[[[[[[[2]]]]]]]]]]]}},
        {"options": {"players": "abc"}},
        {"game": ["keys"]},
        {"result": {"winners": "0"}},
        {"result": {"winners": [99]}},
        {"result": {"length": -1}},
        {"result": [1, 2]},
        {"actions": [{"type": "OpenDoor", "tile": [[1]], "card": "sonic"}]},
        {"actions": [{"type": "OpenDoor", "tile": 10**30, "card": "sonic"}]},
        {"actions": [{"type": "StayPut"}] * 100_000},
        {"extra": 1},
    ],
    ids=lambda change: next(iter(change)),
)
def test_bad_record_fields_are_corrupt_records(change: dict[str, Any]) -> None:
    _refused(change)


def test_a_real_record_with_its_result_is_read_back_whole() -> None:
    data = _record()
    data["result"] = {"index": 0, "scores": [1.0, 0], "winners": [0], "length": 3, "movers": []}
    record = Record.from_json(data)
    assert record.to_json() == data
    assert replay(record).is_over


@pytest.mark.parametrize(
    "text",
    [
        '{"version": 1, "game": "keys", "options": {}, "seed": ' + "9" * 5000 + "}",
        "[" * 100_000 + "]" * 100_000,
        '{"version": 1, "game": "keys", "options": {}, "seed": 0, "actions": '
        + "[" * 50_000
        + "]" * 50_000
        + "}",
        "\xff\xfe",
    ],
    ids=["5000-digit seed", "deep list", "deep actions", "not utf-8"],
)
def test_bad_record_files_are_corrupt_records(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(CorruptRecord):
        Record.load(path)


def test_an_action_nested_thousands_deep_is_an_invalid_action() -> None:
    game = load("keys")
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    for data in ({"type": deep}, {"type": "OpenDoor", "tile": deep, "card": "sonic"}):
        with pytest.raises(InvalidAction):
            game.action_from_json(data)


@settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    cut=st.integers(0, 10_000),
    flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=3),
    junk=st.binary(max_size=40),
)
def test_any_bytes_give_a_record_or_a_corrupt_record(
    tmp_path: Path, cut: int, flips: list[tuple[int, int]], junk: bytes
) -> None:
    raw = bytearray(json.dumps(_record()).encode())
    for at, byte in flips:
        raw[at % len(raw)] = byte
    raw = raw[: len(raw) - cut % 50] + junk if cut % 3 == 0 else raw
    path = tmp_path / "fuzzed.json"
    path.write_bytes(bytes(raw))
    try:
        record = Record.load(path)
    except CorruptRecord:
        return
    with contextlib.suppress(CorruptRecord):
        replay(record)


def test_a_view_nested_thousands_deep_is_refused_by_the_view_cache() -> None:
    from timelord.core.viewcache import ViewCache

    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    cache: ViewCache[int] = ViewCache(lambda view: 1)
    with pytest.raises(CorruptRecord):
        cache.get({"seat": 0, "hand": deep})
