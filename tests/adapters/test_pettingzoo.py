"""The PettingZoo adapter passes PettingZoo's own API and seed tests for every game and
player count, and keeps its promises on rewards, illegal indices, events and rendering."""

from __future__ import annotations

import ast
import copy
import json
import pickle
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tests.adapters.cases import CASES, PLAYERS
from timelord.adapters import pettingzoo as tz
from timelord.core import ConfigError, IllegalAction, Rng


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_pettingzoo_api_and_seed_tests(game_id: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Dict observation warns as in classic envs
        api_test(tz.env(game_id, players=players), num_cycles=60)
        seed_test(lambda: tz.env(game_id, players=players), num_cycles=60)


def _play_out(env: tz.raw_env, seed: int) -> dict[str, float]:
    rng = Rng(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(list(legal))))
    return totals


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_a_whole_game_pays_the_win_shares(game_id: str) -> None:
    env = tz.raw_env(game_id, players=2)
    totals = _play_out(env, seed=3)
    state = env.state_
    assert state is not None and state.is_over
    winners = state.winners()
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == (1.0 / len(winners) if seat in winners else 0.0)


def test_same_seed_same_game_and_engine_state() -> None:
    a, b = tz.raw_env("episodes", players=3), tz.raw_env("episodes", players=3)
    _play_out(a, seed=11)
    _play_out(b, seed=11)
    assert a.state_ is not None and b.state_ is not None
    assert a.state_.to_json() == b.state_.to_json()


def test_observation_is_the_encoded_view_of_that_seat_only() -> None:
    env = tz.raw_env("episodes", players=2)
    env.reset(seed=5)
    state = env.state_
    assert state is not None
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)["observation"]
        assert np.array_equal(obs, env.encoder.encode(state.view(seat)))
        # a world the seat cannot tell apart gives the same observation
        other = env.game.sample_state(state.view(seat), Rng(99))
        assert np.array_equal(obs, env.encoder.encode(other.view(seat)))
    assert env.encoder.size == sum(n for _, n in env.encoder.layout)


def test_an_index_not_offered_is_refused() -> None:
    raw = tz.raw_env("keys", players=2)
    raw.reset(seed=2)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    refused = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction):
        raw.step(refused)

    wrapped = tz.env("keys", players=2)
    wrapped.reset(seed=2)
    offender = wrapped.agent_selection
    wrapped.step(refused)  # PettingZoo's way: the game ends, the offender gets -1
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[offender] == -1


def test_infos_tell_each_seat_the_events_it_may_see() -> None:
    env = tz.raw_env("episodes", players=2)
    env.reset(seed=4)
    state = env.state_
    assert state is not None
    mask = env.observe(env.agent_selection)["action_mask"]
    index = int(np.flatnonzero(mask)[0])
    action = env.index.actions[index]
    expected = state.apply_with_events(env.index.indices(state.legal_actions())[index])[1]
    env.step(index)
    for seat, agent in enumerate(env.possible_agents):
        texts = [e["text"] for e in env.game.tell(expected, seat)]
        assert env.infos[agent]["events"] == texts
        assert texts, f"{action} told seat {seat} nothing"


@pytest.mark.parametrize("read_every_step", [True, False])
def test_infos_gather_a_seats_events_until_it_acts_again(read_every_step: bool) -> None:
    """Like the cumulative reward, a seat's events run from its own last move to now, whether
    they are read after every step or only at the end."""
    env = tz.raw_env("keys", players=3)
    env.reset(seed=6)
    game = env.game
    told: dict[int, list[str]] = {seat: [] for seat in range(3)}
    for _ in range(150):
        state = env.state_
        assert state is not None and not state.is_over
        mover = state.to_move
        assert mover is not None
        index = min(env.index.indices(state.legal_actions()))
        events = state.apply_with_events(env.index.actions[index])[1]
        told[mover] = []
        for seat in range(3):
            told[seat] += [e["text"] for e in game.tell(events, seat)]
        env.step(index)
        if read_every_step:
            for seat, agent in enumerate(env.possible_agents):
                assert env.infos[agent]["events"] == told[seat]
    for seat, agent in enumerate(env.possible_agents):
        assert env.infos[agent]["events"] == told[seat]
    assert len({len(t) for t in told.values()}) > 1, "every seat was told the same amount"
    assert len(env.infos._moves) < 150, "moves every window has passed are kept"


def _stepped(events: bool = True) -> tz.raw_env:
    env = tz.raw_env("episodes", players=3, events=events)
    env.reset(seed=8)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    return env


READS = {
    "dict()": dict,
    "unpacking": lambda infos: {**infos},
    "copy": lambda infos: infos.copy(),
    "items": lambda infos: dict(infos.items()),
    "values": lambda infos: dict(zip(list(infos), infos.values(), strict=True)),
    "json": lambda infos: json.loads(json.dumps(infos)),
    "get": lambda infos: {a: infos.get(a) for a in infos},
    "pop": lambda infos: {a: infos.pop(a) for a in list(infos)},
    "repr": lambda infos: ast.literal_eval(repr(infos)),
}


@pytest.mark.parametrize("how", READS)
def test_infos_read_any_way_give_the_same_sentences(how: str) -> None:
    """The sentences are written when read; every way of reading the dict writes them."""
    reference = _stepped()
    expected = {agent: reference.infos[agent] for agent in reference.possible_agents}
    assert all(info["events"] for info in expected.values())
    assert READS[how](_stepped().infos) == expected
    assert _stepped().infos == expected
    assert _stepped().infos.get("nobody", "missing") == "missing"
    assert all(info == {"events": []} for info in _stepped(events=False).infos.values())


INFO_READS = {
    **{name: read for name, read in READS.items() if name not in ("get", "pop", "values")},
    "pickle": lambda info: pickle.loads(pickle.dumps(info)),
    "deepcopy": copy.deepcopy,
}


@pytest.mark.parametrize("how", INFO_READS)
def test_one_agents_info_read_any_way_gives_its_sentences(how: str) -> None:
    """An info handed out before its sentences were written writes them when read, and
    tells the moves up to when it was handed out, not the later ones."""
    reference = _stepped()
    agent = reference.possible_agents[1]
    expected = reference.infos[agent]
    env = _stepped()
    info = env.infos[agent]
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert INFO_READS[how](info) == expected


@pytest.mark.parametrize("flat", [False, True])
def test_a_loop_with_last_writes_no_sentence(monkeypatch: pytest.MonkeyPatch, flat: bool) -> None:
    """PettingZoo's wrappers and `last()` pass infos on without reading them (in the flat
    mode they read only the mask), so a loop that never reads the sentences never writes one."""
    env = tz.env("keys", players=3, flat=flat)
    game = env.unwrapped.game
    written: list[str] = []
    real = game.event_text
    monkeypatch.setattr(
        game, "event_text", lambda *a: written.append(a[0]) or real(*a), raising=False
    )
    env.reset(seed=4)
    rng = Rng(4)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = info["action_mask"] if flat else obs["action_mask"]
        env.step(int(rng.choice(list(np.flatnonzero(mask)))))
    assert written == []
    assert info["events"] and written


@pytest.mark.parametrize("flat", [False, True])
def test_one_agent_in_one_position_is_encoded_once(
    monkeypatch: pytest.MonkeyPatch, flat: bool
) -> None:
    """The wrapped loop observes the agent to move through the illegal-move wrapper and
    `last()`; both get one observation, encoded once, until the position changes."""
    env = tz.env("episodes", players=3, flat=flat)
    encoder = env.unwrapped.encoder
    encoded: list[int] = []
    real = encoder.encode_state
    monkeypatch.setattr(
        encoder, "encode_state", lambda s, seat, **kw: encoded.append(seat) or real(s, seat, **kw)
    )
    env.reset(seed=2)
    agent = env.agent_selection
    first = env.observe(agent)
    again, *_ = env.last()
    if flat:
        assert again is first
    else:  # a dict of its own around the same arrays
        assert again is not first and again.keys() == first.keys()
        assert all(again[k] is first[k] for k in first)
    assert len(encoded) == 1
    other = next(a for a in env.agents if a != agent)
    env.observe(other)
    assert len(encoded) == 2
    mask = env.infos[agent]["action_mask"] if flat else first["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    after = env.observe(agent)
    assert len(encoded) == 3 and after is not first  # a new position, encoded afresh
    observation = after if flat else after["observation"]
    state = env.unwrapped.state_
    assert np.array_equal(observation, real(state, env.unwrapped._seat[agent]))


def test_render_ansi_shows_the_table() -> None:
    env = tz.raw_env("clue", players=3, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    with pytest.raises(ConfigError, match="render_mode"):
        tz.raw_env("clue", players=3, render_mode="human")


@pytest.mark.parametrize("game_id", list(PLAYERS))
def test_flat_mode_passes_the_api_tests_and_supersuits_wrappers(game_id: str) -> None:
    supersuit = pytest.importorskip("supersuit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(tz.env(game_id, players=2, flat=True), num_cycles=40)
    plain = tz.raw_env(game_id, players=2)
    flat = tz.raw_env(game_id, players=2, flat=True)
    flat_env = tz.env(game_id, players=2, flat=True)
    wrapped = supersuit.frame_stack_v1(supersuit.normalize_obs_v0(flat_env), 2)
    assert wrapped.observation_space("player_0").shape == (2 * flat.encoder.size,)
    for env in (plain, flat, wrapped):
        env.reset(seed=6)
    rng = Rng(6)
    for _ in range(120):
        agent = plain.agent_selection
        want = plain.observe(agent)
        obs = flat.observe(agent)
        assert np.array_equal(obs, want["observation"])
        assert np.array_equal(flat.infos[agent]["action_mask"], want["action_mask"])
        stacked, *_, info = wrapped.last()
        assert np.array_equal(info["action_mask"], want["action_mask"])
        assert stacked.shape == (2 * flat.encoder.size,)
        if plain.terminations[agent]:
            break
        action = int(rng.choice(list(np.flatnonzero(want["action_mask"]))))
        for env in (plain, flat, wrapped):
            env.step(action)


@pytest.mark.parametrize("flat", [False, True])
def test_a_read_cannot_change_the_next_read_of_one_position(flat: bool) -> None:
    """Reads of one agent in one position share their arrays, so those are read-only: an
    in-place change is refused instead of showing up in the next read (and in `last()`)."""
    env = tz.raw_env("keys", players=2, flat=flat)
    env.reset(seed=3)
    agent = env.agent_selection
    first = env.observe(agent)
    vector = first if flat else first["observation"]
    mask = env.infos[agent]["action_mask"] if flat else first["action_mask"]
    kept = vector.copy(), mask.copy()
    with pytest.raises(ValueError, match="read-only"):
        vector += 1.0
    with pytest.raises(ValueError, match="read-only"):
        mask[:] = 0
    for shared in (vector, mask):  # and no reader can make them writable again
        with pytest.raises(ValueError, match="WRITEABLE"):
            shared.flags.writeable = True
    if not flat:
        first["observation"] = None  # the dict is the reader's own
    again, *_, info = env.last()
    again_mask = info["action_mask"] if flat else again["action_mask"]
    assert np.array_equal(again if flat else again["observation"], kept[0])
    assert np.array_equal(again_mask, kept[1])
    mine = vector.copy()
    mine += 1.0  # a copy is the caller's to change
    latest = env.observe(agent)
    assert np.array_equal(latest if flat else latest["observation"], kept[0])


def test_the_wrapped_env_reads_what_the_raw_env_holds_and_enforces_reset() -> None:
    """`env()` is PettingZoo's three standard wrappers (the same classes and names), with
    the attributes a loop reads at every step forwarded without `__getattr__`: they are the
    raw env's own objects, and reading them before `reset` is still refused."""
    from pettingzoo.utils import wrappers

    env = tz.env("keys", players=2)
    assert isinstance(env, wrappers.OrderEnforcingWrapper)
    assert isinstance(env.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(env.env.env, wrappers.TerminateIllegalWrapper)
    assert str(env) == str(env.unwrapped) == "timelord_keys_v0"  # as PettingZoo's says
    for name in ("agent_selection", "agents", "terminations", "infos", "rewards"):
        with pytest.raises(AttributeError, match="cannot be accessed before reset"):
            getattr(env, name)
    env.reset(seed=4)
    raw = env.unwrapped
    for layer in (env, env.env, env.env.env):
        assert layer.agent_selection == raw.agent_selection
        for name in ("agents", "terminations", "truncations", "rewards", "infos"):
            assert getattr(layer, name) is getattr(raw, name)
        assert layer._cumulative_rewards is raw._cumulative_rewards
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.agent_selection == raw.agent_selection
    assert env.infos is raw.infos
