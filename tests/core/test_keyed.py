"""The keyed generator of served tables, so no seat can work out the deals to come from the
draws it has seen: the `Rng` interface over BLAKE2b in counter mode, its state carried by a
game from the deal to the last draw."""

from __future__ import annotations

import json

import pytest

from timelord.core import GAMES, KeyedRng, Rng, generator, is_state, load, resume
from timelord.core.keyed import KEY_BYTES, derive, derive_seed

KEY = bytes(range(KEY_BYTES))


def test_one_key_gives_one_stream_and_another_key_another() -> None:
    a, b, c = KeyedRng(KEY), KeyedRng(KEY), KeyedRng(bytes(KEY_BYTES))
    first = [a.next64() for _ in range(20)]
    assert first == [b.next64() for _ in range(20)]
    assert first != [c.next64() for _ in range(20)]
    assert len(set(first)) == 20


def test_every_draw_comes_from_the_keyed_stream() -> None:
    """Two keys at the same counter shuffle differently: no method falls back on the 64-bit
    arithmetic of `Rng` (which would see only the counter)."""
    one, two = KeyedRng(KEY), KeyedRng(bytes(KEY_BYTES))
    cards_one, cards_two = list(range(52)), list(range(52))
    one.shuffle(cards_one)
    two.shuffle(cards_two)
    assert cards_one != cards_two
    assert [one.below(1000) for _ in range(8)] != [two.below(1000) for _ in range(8)]
    assert one.sample(range(100), 5) != two.sample(range(100), 5)


def test_the_state_resumes_the_stream_exactly_and_hides_the_key_from_repr() -> None:
    rng = KeyedRng(KEY)
    for _ in range(13):  # mid-block
        rng.next64()
    again = resume(rng.state)
    assert isinstance(again, KeyedRng)
    copied = rng.copy()
    expected = [rng.next64() for _ in range(20)]
    assert [again.next64() for _ in range(20)] == expected
    assert [copied.next64() for _ in range(20)] == expected
    assert is_state(rng.state) and rng.state >= 1 << 64
    assert KEY.hex() not in repr(rng)
    assert isinstance(resume(5), Rng) and not isinstance(resume(5), KeyedRng)
    assert generator(7).next64() == Rng(7).next64()


def test_a_fresh_key_comes_from_the_os_and_keys_are_checked() -> None:
    assert KeyedRng().key != KeyedRng().key
    with pytest.raises(ValueError):
        KeyedRng(b"short")


def test_derived_keys_and_seeds_are_one_way_and_separate() -> None:
    assert derive(KEY, "bot", 0, 1) != derive(KEY, "bot", 1, 0)
    assert derive_seed(KEY, "bot", 0, 1) == derive_seed(KEY, "bot", 0, 1)
    assert derive_seed(KEY, "bot", 0, 1) < 1 << 64
    spawned = KeyedRng(KEY).spawn()
    assert isinstance(spawned, KeyedRng) and spawned.key != KEY


#: the package's games (tests register toy games of their own in the same registry)
BUILT_IN = ["card-game", "clue", "episodes", "keys"]


def test_every_built_in_game_is_covered() -> None:
    assert set(BUILT_IN) <= set(GAMES)


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_a_game_dealt_from_a_key_draws_from_it_to_the_end(game_id: str) -> None:
    """Every draw of a whole game (deals, reshuffles, mid-game draws) goes through the keyed
    generator: the state's generator stays keyed at every step, the state reads back from
    its JSON, and the same key plays the same game."""
    game = load(game_id, players=3)
    state = game.new_game(KeyedRng(KEY))
    twin = game.new_game(KeyedRng(KEY))
    other = game.new_game(KeyedRng(bytes(KEY_BYTES)))
    assert state.view(0) == twin.view(0)
    assert state.to_json() != other.to_json()
    pick = Rng(3)
    steps = 0
    while not state.is_over and steps < game.max_actions:
        data = json.loads(json.dumps(state.to_json()))
        assert data["rng"] >= 1 << 64, f"step {steps}: the generator fell back to 64 bits"
        assert game.state_from_json(data).to_json() == state.to_json()
        action = pick.choice(state.legal_actions())
        state = state.apply(action)
        twin = twin.apply(action)
        steps += 1
    assert state.to_json() == twin.to_json()
