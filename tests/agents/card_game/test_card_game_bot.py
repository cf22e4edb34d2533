"""The Card Game heuristic in constructed positions, its determinism, and the search hooks."""

from __future__ import annotations

import timelord
from timelord.agents import hooks_for, make_agent
from timelord.agents.card_game.heuristic import HOOKS, evaluate, heuristic_rollout
from timelord.agents.card_game.play import choose, table_from_state, table_from_view
from timelord.core import Action, Rng, State
from timelord.games.card_game.actions import (
    BuyCards,
    DiscardForTime,
    EndTurn,
    Finish,
    PlaceReserve,
    PlayDefender,
    PlayEnemy,
    PlayLocation,
    PlaySupport,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario


def _game() -> CardGame:
    game = timelord.load("card-game", players=4)
    assert isinstance(game, CardGame)
    return game


def _act(state: State, seat: int | None = None) -> Action:
    game = state.game  # type: ignore[attr-defined]
    seat = state.to_move if seat is None else seat
    agent = make_agent("heuristic", game)
    return agent.act(state.view(seat), state.legal_actions(), Rng(1))


def _play_turn(state: State) -> tuple[State, list[Action]]:
    """The heuristic's moves until the turn passes to another seat."""
    seat = state.to_move
    done: list[Action] = []
    while not state.is_over and state.to_move == seat and len(done) < 30:
        a = _act(state)
        done.append(a)
        state = state.apply(a)
    return state, done


def test_plays_a_location_first() -> None:
    """C-4.1: a Location in hand is played before anything else (VP and TP)."""
    t = Scenario(_game(), active=0)
    for p in range(4):
        t.location(p)
    t.hand(0, "skaro", "dalek", "the-doctor", "rose", "wilf")
    a = _act(t.state())
    assert isinstance(a, PlayLocation)


def test_defends_an_attacked_location_with_enough_strength() -> None:
    """C-4.2 / C-5.3: a face-up attack of strength 2 is met with a Defender that beats it,
    and the defence wins (TARDIS counter placed, attack gone)."""
    t = Scenario(_game(), active=0)
    home = t.location(0, "skaro")
    for p in range(1, 4):
        t.location(p)
    t.location(0, enemies=["dalek"], attacker=1, face_up=True)
    t.hand(0, "the-doctor", "clara", "cybermen", "sonic-screwdriver", "tardis")
    state = t.state()
    attacked = len(state.loc_card) - 1
    a = _act(state)
    assert isinstance(a, PlayDefender) and a.location == attacked
    after, moves = _play_turn(state)
    assert after.loc_att[attacked] == -1 and after.loc_tardis[attacked]
    assert home >= 0 and moves[-1] == EndTurn()


def test_reveals_a_face_down_attack_before_defending() -> None:
    """C-card-sonic-screwdriver: a face-down attack is turned up first, when the seat can."""
    t = Scenario(_game(), active=0)
    for p in range(4):
        t.location(p)
    L = t.location(0, "skaro", enemies=["dalek"], attacker=2)
    t.hand(0, "sonic-screwdriver", "the-doctor", "cybermen", "dalek", "weeping-angels")
    a = _act(t.state())
    assert isinstance(a, PlaySupport) and a.location == L


def test_does_not_defend_a_hopeless_conflict() -> None:
    """C-5.4: with only a strength-1 Defender against a face-up attack of 6, it keeps it."""
    t = Scenario(_game(), active=0)
    for p in range(1, 4):
        t.location(p)
    L = t.location(0, "skaro", enemies=["dalek-flagship", "dalek"], attacker=1, face_up=True)
    t.hand(0, "rory", "cybermen", "sontarans", "weeping-angels", "clerics")
    legal = t.state().legal_actions()
    assert PlayDefender(card=next(iter(_cards(legal, PlayDefender))), location=L) in legal
    a = _act(t.state())
    assert not isinstance(a, PlayDefender)


def _cards(legal: list[Action], kind: type) -> list[int]:
    return [a.card for a in legal if isinstance(a, kind)]  # type: ignore[attr-defined]


def test_defeat_attack_support_breaks_an_attack() -> None:
    """C-card-jammy-dodger: an attack on its own Location is defeated with the card."""
    t = Scenario(_game(), active=0)
    for p in range(1, 4):
        t.location(p)
    L = t.location(0, "gallifrey", enemies=["sontarans", "dalek"], attacker=3)
    t.hand(0, "jammy-dodger", "rory", "cybermen", "weeping-angels", "clerics")
    a = _act(t.state())
    assert isinstance(a, PlaySupport) and a.location == L


def test_attacks_the_richest_undefended_location() -> None:
    """C-4.3: an undefended Location worth the most VP is attacked (one Enemy is enough)."""
    t = Scenario(_game(), active=0)
    t.location(0)
    t.location(1, "colchester")
    rich = t.location(2, "skaro")
    t.location(3, "lake-silencio")
    t.hand(0, "dalek", "rose", "clara", "wilf", "cybermen")
    state = t.state()
    a = _act(state)
    assert isinstance(a, PlayEnemy) and a.location == rich
    after = state.apply(a)
    assert _act(after) == Finish()


def test_does_not_attack_with_hopeless_strength() -> None:
    """C-5.3: two face-down Defenders are likely worth about 5; one Enemy of 1 stays home."""
    t = Scenario(_game(), active=0)
    t.location(0)
    for p in range(1, 4):
        t.location(p, "skaro" if p == 1 else None, defenders=["the-doctor", "amy-pond"])
    t.hand(0, "weeping-angels", "rose", "clara", "wilf", "martha")
    a = _act(t.state())
    assert not isinstance(a, PlayEnemy)


def test_fifth_dalek_counter_only_when_leading() -> None:
    """C-6.1: a fifth attack that would end the game while behind is not made."""
    t = Scenario(_game(), active=0)
    t.location(0, "luna-university")
    # four attacks of seat 0 on cheap Locations; seat 1 is far ahead
    for key in ("sardick-town", "messaline", "roman-britain", "colchester"):
        t.location(2, key, enemies=["cybermen"], attacker=0)
    for key in ("skaro", "gallifrey", "trenzalore", "the-pandorica"):
        t.location(1, key)
    t.location(3, "platform-one")
    t.hand(0, "clerics", "rose", "clara", "wilf", "martha")
    a = _act(t.state())
    assert not isinstance(a, PlayEnemy)


def test_fifth_dalek_counter_when_it_wins() -> None:
    """C-6.1: the fifth attack that leaves the seat first is made."""
    t = Scenario(_game(), active=0)
    for key in ("skaro", "gallifrey"):
        t.location(0, key)
    for key in ("sardick-town", "messaline", "roman-britain", "colchester"):
        t.location(2, key, enemies=["cybermen"], attacker=0)
    t.location(1, "platform-one")
    target = t.location(3, "trenzalore")
    t.hand(0, "clerics", "rose", "clara", "wilf", "martha")
    a = _act(t.state())
    assert isinstance(a, PlayEnemy) and a.location == target


def test_passes_the_worst_cards() -> None:
    """C-3.3: with nothing to play, the best spare cards are reserved or discarded and the
    three weakest are passed right."""
    t = Scenario(_game(), active=0)
    for p in range(4):
        t.location(p, tardis=True)
    t.hand(0, "the-doctor", "jammy-dodger", "clerics", "weeping-angels", "papal-mainframe")
    state = t.state()
    weakest = set(t.s.hands[0]) - {t.s.hands[0][0]}
    after, moves = _play_turn(state)
    assert moves[-1] == EndTurn()
    assert all(
        isinstance(m, (PlaceReserve, DiscardForTime, PlayDefender, Finish)) for m in moves[:-1]
    )
    passed = set(after.passed[0][-1])  # type: ignore[attr-defined]
    cs = state.game.cards  # type: ignore[attr-defined]
    assert {cs.key[c] for c in passed} == {"clerics", "weeping-angels", "papal-mainframe"}
    assert passed <= weakest


def test_buys_cards_with_time_points() -> None:
    """C-4.8: five Time Points buy a card."""
    t = Scenario(_game(), active=0)
    for p in range(4):
        t.location(p, tardis=True)
    t.hand(0, "clerics", "weeping-angels", "papal-mainframe")
    t.time(0, 5)
    assert _act(t.state()) == BuyCards(count=1)


def test_view_and_state_tables_agree_when_nothing_is_hidden() -> None:
    """The agent (view) and the rollout (state) read the same table when no card on the
    table is hidden from the seat, so they choose alike."""
    game = _game()
    compared = 0
    for seed in range(6):
        state = game.new_game(seed)
        for _ in range(40):
            seat = state.to_move
            assert seat is not None
            legal = state.legal_actions()
            view = state.view(seat)
            a = choose(table_from_view(view, game.cards, game.pass_count), legal)
            b = choose(table_from_state(state), legal)
            hidden = [x for loc in view["locations"] for x in loc["defenders"] + loc["enemies"]]
            if None not in hidden:
                assert a == b
                compared += 1
            state = state.apply(a)
    assert compared > 20


def test_breaks_the_rush_of_a_leader_with_four_counters() -> None:
    """C-6.1: a leader with four Dalek counters out is one attack from ending the game, so
    breaking one of its attacks comes before attacking a richer Location."""
    t = Scenario(_game(), active=0)
    mine = t.location(0, "luna-university", enemies=["weeping-angels"], attacker=1, face_up=True)
    for key in ("sardick-town", "messaline", "roman-britain"):
        t.location(2 if key != "messaline" else 3, key, enemies=["cybermen"], attacker=1)
    t.location(1, "skaro")
    t.location(3, "gallifrey")
    t.location(2, "trenzalore")
    t.hand(0, "rose", "dalek", "clerics", "wilf", "papal-mainframe")
    a = _act(t.state())
    assert isinstance(a, PlayDefender) and a.location == mine


def test_same_seed_same_game() -> None:
    """Determinism: a heuristic match replays exactly for a seed."""
    game = _game()

    def play(seed: int) -> list[Action]:
        state = game.new_game(seed)
        agent = make_agent("heuristic", game)
        rng = Rng(seed)
        out = []
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            a = agent.act(state.view(seat), state.legal_actions(), rng)
            out.append(a)
            state = state.apply(a)
        return out

    assert play(11) == play(11)


def test_hooks_are_found_and_rollout_is_legal() -> None:
    game = _game()
    assert hooks_for(game) is HOOKS
    state = game.new_game(2)
    rng = Rng(2)
    steps = 0
    while not state.is_over and steps < 400:
        legal = state.legal_actions()
        a = heuristic_rollout(state, legal, rng)
        assert a in legal
        state = state.apply(a)
        steps += 1
    shares = evaluate(state)
    assert abs(sum(shares) - 1.0) < 1e-9
