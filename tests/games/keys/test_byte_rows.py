"""The byte rows the play step lists doors and barriers from (`ByteRows`, `_spread`): every
set bit's action, lowest tile first, the first mask's before the second's, on the standard
grid (its last byte holds one tile) and the tiny one (9 tiles: a byte and one bit), on
either layout of the rows (flat: the compiled build's walk; lanes: the interpreted one's),
whichever build runs the test."""

from __future__ import annotations

import pytest

from timelord.core import Action, Rng
from timelord.games.keys import KeysGame
from timelord.games.keys.state import ByteRows, _spread, bits


def _by_bits(actions: tuple[Action, ...], mask: int) -> list[Action]:
    return [actions[t] for t in bits(mask)]


@pytest.mark.parametrize("flat", [True, False])
@pytest.mark.parametrize("variant", ["standard", "tiny"])
def test_spread_lists_each_bit_in_tile_order_first_mask_first(variant: str, flat: bool) -> None:
    game = KeysGame(players=2, variant=variant)
    tables = game.tables
    cells = tables.geo.cells
    rng = Rng(35)
    masks = [0, 1, 1 << (cells - 1), (1 << cells) - 1, tables.door_mask]
    masks += [rng.next64() & ((1 << cells) - 1) for _ in range(200)]
    for opening, closing in zip(tables.open_, tables.close, strict=True):
        rows = ByteRows(opening, closing, flat)
        for first, second in zip(masks, reversed(masks), strict=True):
            out: list[Action] = [tables.stay]  # appended to, not replaced
            _spread(rows, first, second, out)
            assert out == [tables.stay, *_by_bits(opening, first), *_by_bits(closing, second)]
    barriers = ByteRows(tables.barrier, tables.remove, flat)
    for mask in masks:
        out = []
        _spread(barriers, mask, mask, out)
        assert out == _by_bits(tables.barrier, mask) + _by_bits(tables.remove, mask)


@pytest.mark.parametrize("flat", [True, False])
def test_rows_are_filled_only_where_read(flat: bool) -> None:
    first = tuple(f"a{t}" for t in range(20))
    second = tuple(f"b{t}" for t in range(20))
    table = ByteRows(first, second, flat)  # type: ignore[arg-type]  # any values spread alike
    out: list[str] = []
    _spread(table, 0b101 << 8, 1 << 19, out)  # type: ignore[arg-type]
    assert out == ["a8", "a10", "b19"]
    if flat:
        filled = [divmod(i, 256) for i, row in enumerate(table.rows) if row]
    else:
        filled = [(k, v) for k, lane in enumerate(table.lanes) for v, row in enumerate(lane) if row]
    assert filled == [(1, 0b101), (table.width + 2, 0b1000)]
