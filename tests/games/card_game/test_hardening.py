"""Every door refuses bad input with a library error, since clients, edited records and agents
send what no legal game makes: seats, spectators,
saved states, views given to `sample_state`, actions built outside the legal list, options."""

from __future__ import annotations

import copy
import sys
import threading
from typing import Any

import pytest

import timelord
from timelord.core import ConfigError, CorruptRecord, IllegalAction, InvalidSeat, Rng
from timelord.games.card_game.actions import (
    BuyCards,
    DiscardForTime,
    EndTurn,
    Finish,
    Pass,
    PlaceReserve,
    PlayDefender,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario

from .conftest import make_game

FILL = ("rory", "rory", "clara")


@pytest.mark.parametrize("seat", [-1, 3, 4, 99, True, "0", 1.0])
def test_c_7_1_view_refuses_a_seat_not_at_the_table(game3: CardGame, seat: object) -> None:
    """C-7.1: only None and 0..players-1 have a view; view(-1) must not be the last hand."""
    s = game3.new_game(1)
    with pytest.raises(InvalidSeat):
        s.view(seat)  # type: ignore[arg-type]


def test_c_7_1_spectator_never_sees_passed_cards_in_two_player_game(game2: CardGame) -> None:
    """C-7.1: with two players every passed card is known to both seats, yet hands stay
    secret: the spectator sees only face-up cards."""
    t = Scenario(game2, active=1)
    h = t.hand(1, "rory", "clara")
    t.hand(0, "dalek", "dalek")
    s = t.state().apply(EndTurn())
    assert set(h) <= set(s.view(0)["hands"][0]["known"])  # the receiver sees them
    assert set(h) <= set(s.view(1)["hands"][0]["known"])  # the passer remembers them
    spectator = s.view(None)
    assert all(x["known"] == [] for x in spectator["hands"])
    assert all(x["known"] == [] for x in spectator["reserves"])
    assert spectator["deck"]["known"] == []


def test_c_7_1_spectator_sees_no_hand_card_in_real_two_player_games() -> None:
    """C-7.1 over random 2-player games: no spectator view ever names a card in a hand, a
    reserve or the deck."""
    game = timelord.load("card-game", players=2)
    rng = Rng(3)
    for seed in range(5):
        s = game.new_game(seed)
        while not s.is_over:
            v = s.view(None)
            assert all(x["known"] == [] for x in v["hands"] + v["reserves"])
            assert v["deck"]["known"] == []
            legal = s.legal_actions()
            s = s.apply_unchecked(legal[rng.below(len(legal))])


# ---------------------------------------------------------------- saved states


def _mid_game_states(players: int, seeds: range, every: int = 7) -> list[dict[str, Any]]:
    """JSON forms of real states, every few actions of seeded random games."""
    game = timelord.load("card-game", players=players)
    rng = Rng(players)
    out = []
    for seed in seeds:
        s = game.new_game(seed)
        i = 0
        while not s.is_over:
            if i % every == 0:
                out.append(s.to_json())
            legal = s.legal_actions()
            s = s.apply_unchecked(legal[rng.below(len(legal))])
            i += 1
        out.append(s.to_json())
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_of_play_passes_the_door(players: int) -> None:
    """Negative control for the checks below: no state reached in play is refused."""
    game = timelord.load("card-game", players=players)
    for data in _mid_game_states(players, range(4), every=1):
        assert game.state_from_json(data).to_json() == data


def _edit(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    where = out
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return out


def _a_state(game: CardGame) -> dict[str, Any]:
    """A real mid-game 3-player state with cards in hands, deck and on the table."""
    s = game.new_game(4)
    rng = Rng(1)
    for _ in range(40):
        legal = s.legal_actions()
        s = s.apply(legal[rng.below(len(legal))])
    return s.to_json()


def _bad_states(game: CardGame) -> dict[str, dict[str, Any]]:
    d = _a_state(game)
    c0 = d["hands"][0][0]
    return {
        "card in two hands": _edit(d, ("hands", 1), sorted([*d["hands"][1], c0])),
        "card in hand and deck": _edit(d, ("deck",), sorted([*d["deck"], c0])),
        "card missing": _edit(d, ("hands", 0), d["hands"][0][1:]),
        "unknown card id": _edit(d, ("hands", 0), [*d["hands"][0][1:], 9999]),
        "negative card id": _edit(d, ("hands", 0), [-1, *d["hands"][0][1:]]),
        "unknown phase": _edit(d, ("phase",), "dance"),
        "seat past the table": _edit(d, ("active",), 3),
        "owner past the table": _edit(d, ("loc_owner", 0), 7),
        "string for a number": _edit(d, ("turn",), "5"),
        "bool for a number": _edit(d, ("supply",), True),
        "float for a number": _edit(d, ("steps",), 1.0),
        "string for a list": _edit(d, ("deck",), "abc"),
        "empty seat lists": _edit(d, ("hands",), []),
        "too many seats": _edit(d, ("tp",), [*d["tp"], 0]),
        "malformed pass log": _edit(d, ("passed", 0), [[1]]),
        "pass log not a list": _edit(d, ("passed",), 5),
        "time points do not add up": _edit(d, ("supply",), d["supply"] + 1),
        "knowledge too short": _edit(d, ("known",), d["known"][:-1]),
        "holder does not know its card": _edit(d, ("known", c0), 0),
        "rng not a number": _edit(d, ("rng",), None),
        "huge rng": _edit(d, ("rng",), 1 << 70),
        "missing field": {k: v for k, v in d.items() if k != "deck"},
        "not an object": [1, 2, 3],  # type: ignore[dict-item]
        "pending location out of range": _edit(d, ("p_loc",), 40),
        "ended while playing": _edit(d, ("ended",), "counters"),
        "location not a location": _edit(d, ("loc_card", 0), c0),
    }


@pytest.mark.parametrize("case", sorted(_bad_states(make_game(3))))
def test_state_from_json_refuses_inconsistent_states(case: str) -> None:
    """Issue 10: each inconsistency is refused at the door with CorruptRecord, not accepted
    to crash later in legal_actions, view or sample_state."""
    game = make_game(3)
    with pytest.raises(CorruptRecord):
        game.state_from_json(_bad_states(game)[case])


def _mutations(d: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """One or two random edits of a state's JSON: +-1, delete, duplicate, swap, wrong type,
    a card copied into a second place."""
    out = copy.deepcopy(d)
    for _ in range(1 + rng.below(2)):
        key = sorted(out)[rng.below(len(out))]
        holder: Any = out
        path: Any = key
        value = out[key]
        while isinstance(value, list) and value and rng.below(3):
            holder, path = value, rng.below(len(value))
            value = value[path]
        op = rng.below(7)
        if op == 0 and isinstance(value, int):
            holder[path] = value + (1 if rng.below(2) else -1)
        elif op == 1 and isinstance(holder, list):
            del holder[path]
        elif op == 2 and isinstance(holder, list):
            holder.insert(path, value)
        elif op == 3 and isinstance(value, list) and len(value) > 1:
            i, j = rng.below(len(value)), rng.below(len(value))
            value[i], value[j] = value[j], value[i]
        elif op == 4:
            holder[path] = [None, "x", 1.5, {}, [], -1, True][rng.below(7)]
        elif op == 5 and isinstance(out.get("hands"), list) and out["hands"]:
            hand = out["hands"][rng.below(len(out["hands"]))]
            if isinstance(hand, list) and all(type(c) is int for c in hand):
                hand.append(rng.below(140))  # often a card already elsewhere
                hand.sort()
        elif isinstance(holder, dict):
            del holder[path]
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mutated_states_are_refused_or_play_on(players: int) -> None:
    """Issue 10 fuzz (seeded, bounded): a mutated saved state is refused with a library
    error, or it is a state the engine can use: every view, `sample_state` for every seat
    and 30 further random moves work."""
    game = timelord.load("card-game", players=players)
    states = _mid_game_states(players, range(2), every=9)
    rng = Rng(100 + players)
    accepted = 0
    for i in range(300):
        bad = _mutations(states[i % len(states)], rng)
        try:
            s = game.state_from_json(bad)
        except CorruptRecord:
            continue
        accepted += 1
        for seat in [None, *range(players)]:
            v = s.view(seat)
            if seat is not None:
                assert game.sample_state(v, rng).view(seat) == v
        for _ in range(30):
            if s.is_over:
                break
            legal = s.legal_actions()
            s = s.apply(legal[rng.below(len(legal))])
    assert accepted < 300


# ---------------------------------------------------------------- views given to sample_state


def _a_view(game: CardGame) -> dict[str, Any]:
    return game.state_from_json(_a_state(game)).view(1)


def _doctored_views(game: CardGame) -> dict[str, Any]:
    v = _a_view(game)
    other = 0 if v["hands"][0]["count"] else 2
    return {
        "huge hand count": _edit(v, ("hands", other, "count"), 10**20),
        "count one too many": _edit(v, ("hands", other, "count"), v["hands"][other]["count"] + 1),
        "count one too few": _edit(v, ("deck", "count"), v["deck"]["count"] - 1),
        "negative count": _edit(v, ("reserves", other, "count"), -1),
        "string count": _edit(v, ("hands", other, "count"), "3"),
        "empty view": {},
        "not a view": [v],
        "another table": _edit(v, ("players",), 4),
        "card id out of range": _edit(v, ("discard",), [*v["discard"], 10_000]),
        "card shown twice": _edit(v, ("discard",), [*v["discard"], v["locations"][0]["card"]]),
        "unknown phase": _edit(v, ("phase",), "nap"),
        "active past the table": _edit(v, ("active",), 9),
        "wrong to_move": _edit(v, ("to_move",), (v["to_move"] + 1) % 3),
        "turn as text": _edit(v, ("turn",), "7"),
        "no locations": _edit(v, ("locations",), []),
        "time not a list": _edit(v, ("time",), 5),
        "owner 10**9": _edit(v, ("locations", 0, "owner"), 10**9),
        "active 10**20": _edit(v, ("active",), 10**20),
    }


@pytest.mark.parametrize("case", sorted(_doctored_views(make_game(3))))
def test_c_7_2_sample_state_refuses_a_doctored_view(case: str) -> None:
    """C-7.2 / issue 10: `sample_state` checks the view at the door and refuses a doctored
    one with a library error (it used to hang, or raise KeyError, ZeroDivisionError or an
    AssertionError that vanishes under `python -O`)."""
    game = make_game(3)
    with pytest.raises(CorruptRecord):
        game.sample_state(_doctored_views(game)[case], Rng(1))


@pytest.mark.parametrize("seat", [None, 5, -1])
def test_c_7_2_sample_state_refuses_views_of_no_seat(seat: object) -> None:
    """C-7.2: a spectator's view (or one naming a seat not at the table) cannot be sampled."""
    game = make_game(3)
    view = _edit(_a_view(game), ("seat",), seat)
    with pytest.raises(InvalidSeat):
        game.sample_state(view, Rng(1))


def test_c_7_2_sample_state_is_thread_safe() -> None:
    """C-7.2: 8 threads sampling at once from more views than the cache holds (so entries
    are evicted while other threads read) get only valid states, never RuntimeError or
    KeyError."""
    game = timelord.load("card-game", players=4)
    views = []
    for seed in range(4):
        s = game.new_game(seed)
        rng = Rng(seed)
        while not s.is_over and len(views) < 25 * (seed + 1):
            views.append(s.view(s.to_move))
            legal = s.legal_actions()
            s = s.apply(legal[rng.below(len(legal))])
    errors: list[BaseException] = []

    def work(k: int) -> None:
        rng = Rng(k)
        try:
            for i in range(300):
                v = views[(7 * k + i) % len(views)]
                assert game.sample_state(v, rng).view(v["seat"]) == v
        except BaseException as exc:  # every failure of a thread is reported
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, so races show on a small machine
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    assert errors == []


def _mutated_view(v: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """One or two random edits anywhere in a view: +-1, delete, duplicate, wrong type."""
    out = copy.deepcopy(v)
    for _ in range(1 + rng.below(2)):
        keys = sorted(out)
        holder: Any = out
        path: Any = keys[rng.below(len(keys))]
        value = out[path]
        while isinstance(value, (list, dict)) and value and rng.below(3):
            holder = value
            path = rng.below(len(value)) if isinstance(value, list) else sorted(value)[0]
            value = value[path]
        op = rng.below(5)
        if op == 0 and type(value) is int:
            holder[path] = value + (1 if rng.below(2) else -1)
        elif op == 1 and isinstance(holder, list):
            del holder[path]
        elif op == 2 and isinstance(holder, list):
            holder.insert(path, value)
        elif op == 3:
            holder[path] = [None, "x", 1.5, {}, [], -1, True, 10**20][rng.below(8)]
        elif isinstance(holder, dict):
            del holder[path]
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c_7_2_mutated_views_are_refused_or_sampled_exactly(players: int) -> None:
    """C-7.2 fuzz (seeded, bounded): `sample_state` of a mutated view raises a library error
    or gives a state showing exactly that view."""
    game = timelord.load("card-game", players=players)
    views = []
    for data in _mid_game_states(players, range(1), every=8):
        s = game.state_from_json(data)
        if s.to_move is not None:
            views.append(s.view(s.to_move))
    rng = Rng(players)
    for i in range(300):
        v = _mutated_view(views[i % len(views)], rng)
        try:
            s = game.sample_state(v, rng)
        except (CorruptRecord, InvalidSeat):
            continue
        assert s.view(v["seat"]) == v


def test_c_7_2_a_view_changed_in_place_is_prepared_again() -> None:
    """C-7.2: the cache never serves the preparation of a view edited since."""
    game = make_game(3)
    v = _a_view(game)
    game.sample_state(v, Rng(1))
    v["hands"][0]["count"] += 1
    with pytest.raises(CorruptRecord):
        game.sample_state(v, Rng(1))


# ---------------------------------------------------------------- refusals


def _refusal(s: Any, action: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        s.apply(action)
    return e.value


def test_c_1_1_reserve_and_discard_refusals_name_the_listed_form(game3: CardGame) -> None:
    """C-1.1: a reserve or discard given out of hand order, or naming a later copy of a
    design, is refused for that (with the listed form), not for "no room" or a bare "not
    allowed now"."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "dalek", "dalek", "sontarans", "clara", "amy-pond", "rory")
    s = t.state()
    d1, d2, son = h[0], h[1], h[2]
    for bad in (
        PlaceReserve((son, d1)),
        PlaceReserve((d2,)),
        DiscardForTime((son, d1)),
        DiscardForTime((d2,)),
        DiscardForTime((d2, son)),
    ):
        e = _refusal(s, bad)
        assert e.rule == "C-1.1", (bad, e)
        assert "room" not in e.reason and "not allowed now" not in e.reason
    assert str(PlaceReserve((d1, son))) in _refusal(s, PlaceReserve((son, d1))).reason
    assert s.apply(PlaceReserve((d1, son)))  # the listed form itself is legal


def test_c_4_7_reserve_without_room_says_so(game3: CardGame) -> None:
    """C-4.7 negative control: a listed-form reserve that does not fit says how much room."""
    t = Scenario(game3, active=0)
    h = t.hand(0, "dalek", "sontarans", "clara", "amy-pond", "rory", "rory")
    t.reserve(0, "clara")
    s = t.state()
    e = _refusal(s, PlaceReserve((h[0], h[1])))
    assert e.rule == "C-4.7" and "room for 1 card more" in e.reason


def test_c_4_8_buy_refusals(game3: CardGame) -> None:
    """C-4.8: BuyCards(0) asks for at least one card (not "needs 0 Time Points"); too few
    Time Points names both figures."""
    t = Scenario(game3, active=0)
    t.hand(0, *FILL, "clara")
    t.s.tp[0] = 7
    t.s.supply -= 7
    s = t.state()
    assert "at least one" in _refusal(s, BuyCards(0)).reason
    assert "at least one" in _refusal(s, BuyCards(-2)).reason
    e = _refusal(s, BuyCards(2))
    assert e.rule == "C-4.8" and "10 Time Points; you have 7" in e.reason


def test_pass_outside_an_optional_choice_does_not_cite_ironsides(game3: CardGame) -> None:
    """C-3.1: Pass in the main decision or while declaring cards names the decision at hand,
    not the Ironsides clause C-5.2."""
    t = Scenario(game3, active=0)
    L = t.location(0)
    h = t.hand(0, "clara", *FILL)
    s = t.state()
    for state in (s, s.apply(PlayDefender(h[0], L))):
        e = _refusal(state, Pass())
        assert e.rule != "C-5.2" and e.rule
        assert _PHASE_WORDS[state.phase] in e.reason


_PHASE_WORDS = {"main": "choosing an action", "declare-defenders": "Defenders are being declared"}


def _variants(s: Any, legal: list[Any]) -> list[Any]:
    """Actions an API client might build that are close to the offered ones."""
    design = s.cs.design
    out: list[Any] = [Pass(), Finish(), EndTurn(), BuyCards(0), BuyCards(9)]
    for a in legal:
        cards = getattr(a, "cards", None)
        if cards and len(cards) == 2:
            out.append(type(a)(cards[::-1]))
        card = getattr(a, "card", None)
        if card is not None:
            for c in s.hands[s.to_move]:
                if c > card and design[c] == design[card]:
                    out.append(a.__class__(c, *[getattr(a, f) for f in a.__slots__[1:]]))
        if cards:
            for c in s.hands[s.to_move]:
                if c > cards[0] and design[c] == design[cards[0]]:
                    out.append(type(a)((c, *cards[1:])))
    return [v for v in out if v not in legal]


def test_refusals_of_near_moves_name_a_reason_and_clause() -> None:
    """Issue 10: over random games, every refusal of an action built outside the legal list
    names a real reason and a clause (never the bare fallback)."""
    game = timelord.load("card-game", players=3)
    rng = Rng(5)
    checked = 0
    for seed in range(3):
        s = game.new_game(seed)
        while not s.is_over:
            legal = s.legal_actions()
            for v in _variants(s, legal):
                e = _refusal(s, v)
                assert e.rule and "not allowed now" not in e.reason, (v, e)
                checked += 1
            s = s.apply(legal[rng.below(len(legal))])
    assert checked > 1000


# ---------------------------------------------------------------- options


def _manifest() -> dict[str, Any]:
    from .conftest import CARDS

    return copy.deepcopy(CARDS.to_data())


def _bad_manifests() -> dict[str, Any]:
    m = _manifest()
    return {
        "copies 10**12": _edit(m, ("card", 0, "copies"), 10**12),
        "copies as text": _edit(m, ("card", 0, "copies"), "3"),
        "copies zero": _edit(m, ("card", 0, "copies"), 0),
        "too many designs": _edit(m, ("card",), [m["card"][0]] * 400),
        "strength as list": _edit(m, ("card", 0, "strength"), [1]),
        "unknown kind": _edit(m, ("card", 0, "kind"), "spaceship"),
        "effects not a list": _edit(m, ("card", 0, "effects"), "reveal-gain"),
        "unhashable effect": _edit(m, ("card", 0, "effects"), [["x"]]),
        "param of wrong type": _edit(m, ("card", 0, "reveal_tp"), "1"),
        "nested param": _edit(m, ("card", 0, "surprise"), {"a": 1}),
        "huge time points": _edit(m, ("game", "time_points"), 10**15),
        "hand size as float": _edit(m, ("game", "hand_size"), 5.0),
        "pass as many as the hand": _edit(m, ("game", "pass_cards"), 5),
        "no starts": _edit(m, ("start",), []),
        "records not objects": _edit(m, ("card",), [1, 2]),
        "colours not a list": _edit(m, ("colours", "names"), "Red"),
        "too few cards to deal": _edit(m, ("card",), m["card"][:1]),
        "not an object": [m],
    }


@pytest.mark.parametrize("case", sorted(_bad_manifests()))
def test_the_cards_option_is_checked(case: str) -> None:
    """Issue 10: the `cards` option is typed and bounded, so no manifest can exhaust memory
    (10**12 copies) or slip a wrong type into the rules; each is a ConfigError."""
    with pytest.raises(ConfigError):
        timelord.load("card-game", players=3, cards=_bad_manifests()[case])


@pytest.mark.parametrize("turns", [0, -1, 10**6, 10**100, "400", 400.0, True, None])
def test_c_6_5_max_turns_is_bounded(turns: object) -> None:
    """C-6.5: max_turns is a whole number from 1 to 10,000."""
    with pytest.raises(ConfigError):
        timelord.load("card-game", players=3, max_turns=turns)


def test_options_negative_control() -> None:
    """The test manifest and the limits themselves are accepted."""
    game = timelord.load("card-game", players=3, cards=_manifest(), max_turns=10_000)
    assert game.new_game(1).legal_actions()


def test_c_3_2_a_state_where_a_seat_could_never_end_its_turn_is_refused(game3: CardGame) -> None:
    """C-3.2 / C-3.3: a saved state whose active seat was changed leaves a seat that will
    hold fewer cards than it must pass (the fuzzer found one stuck 30 moves later)."""
    t = Scenario(game3, active=0)
    t.hand(0, *FILL)
    t.hand(1, "clara", "clara", "amy-pond")
    t.hand(2, "dalek", "dalek")  # seat 0 passes to seat 2 when its turn ends
    ok = t.state().to_json()
    assert game3.state_from_json(ok).legal_actions()
    with pytest.raises(CorruptRecord):
        game3.state_from_json(_edit(ok, ("active",), 1))


def test_defenders_staged_for_ironsides_may_have_left_the_location() -> None:
    """C-card-ironsides after C-card-impossible-astronaut / C-card-madame-kovarian: the
    Defenders staged for the conflict may have been taken from the Location before the
    Ironsides choice. A head-to-head game reached this; the door refused the true state, so
    sampling from the seat's true view failed in the middle of a search."""
    from timelord.games.card_game.state import IRON

    game = CardGame(players=2)
    state, rng = game.new_game(5), Rng(5)
    while state.phase != IRON:
        legal = state.legal_actions()
        state = state.apply(legal[rng.below(len(legal))])
    data = state.to_json()
    where = data["p_loc"]
    taken = data["loc_def"][where][0]
    data["loc_def"][where].remove(taken)
    data["discard"].append(taken)  # as Impossible Astronaut or Kovarian would leave it
    data["p_cards"] = [taken]
    moved = game.state_from_json(data)
    assert [str(a) for a in moved.legal_actions()] == [
        "pay for Ironsides: +1 defence",
        "pass",
    ]
    assert not moved.apply(moved.legal_actions()[0]).is_over


def test_a_listing_is_the_callers_own_and_never_vouches_for_an_action(game3: CardGame) -> None:
    """`legal_actions` hands out a fresh list and the state keeps none of it (playouts list a
    state once): a caller that adds an action to its list does not make that action legal,
    and the next listing is equal, of the same shared objects, and a new list."""
    s = game3.new_game(4)
    legal = s.legal_actions()
    other, rng = s, Rng(2)
    while all(a in legal for a in other.legal_actions()):  # another seat's hand lists other cards
        listed = other.legal_actions()
        other = other.apply(listed[rng.below(len(listed))])
    foreign = next(a for a in other.legal_actions() if a not in legal)
    legal.append(foreign)
    with pytest.raises(IllegalAction):
        s.apply(foreign)
    again = s.legal_actions()
    assert again is not s.legal_actions()
    assert again == legal[:-1]
    assert all(a is b for a, b in zip(again, legal, strict=False))
