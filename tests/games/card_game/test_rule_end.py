"""The end: C-6.1 to C-6.5."""

from __future__ import annotations

import pytest

import timelord
from timelord.core import Action, IllegalAction, Rng, State
from timelord.games.card_game.actions import (
    BuyCards,
    DiscardForTime,
    EndTurn,
    PickUp,
    PlaceReserve,
)
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario
from timelord.games.card_game.state import MAIN

FILL = ("rory", "rory", "clara")


@pytest.mark.parametrize("kind", ["tardis", "dalek"])
@pytest.mark.parametrize("count,over", [(5, True), (4, False)])
def test_c_6_1_counters_end_the_game(game3: CardGame, kind: str, count: int, over: bool) -> None:
    """C-6.1: beginning a turn with all 5 TARDIS (or Dalek) counters in play ends the game."""
    t = Scenario(game3, active=0)
    t.hand(0, *FILL)
    t.hand(1, "dalek", "dalek")
    foes = ["sontarans", "sontarans", "cybermen", "cybermen", "the-silence"]
    for i in range(count):
        if kind == "tardis":
            t.location(1, tardis=True)
        else:
            t.location(2, enemies=[foes[i]], attacker=1)
    s = t.state().apply(EndTurn())
    assert s.is_over is over
    if over:
        assert s.ended == "counters" and s.to_move is None and s.legal_actions() == []


def test_c_6_2_end_card_during_turn(game3: CardGame) -> None:
    """C-6.2: uncovered while buying: set aside, the turn goes on; 5 cards drawn at its end;
    the End Game starts with the next player."""
    t = Scenario(game3, active=0)
    t.hand(0, *FILL)
    t.time(0, 10)
    t.deck_top("dalek", "dalek")
    s = t.state(end_card=True)
    s = s.apply(BuyCards(2))
    assert s.end_depth == -1 and s.end_now and s.phase == MAIN and s.to_move == 0
    s = s.apply(DiscardForTime((s.hands[0][0], s.hands[0][1])))
    s = s.apply(EndTurn())
    assert len(s.hands[0]) == 5
    assert s.endgame and s.active == 1


def test_c_6_2_end_card_at_end_of_turn(game3: CardGame) -> None:
    """C-6.2: uncovered by the end-of-turn draw: hand topped up to 5."""
    t = Scenario(game3, active=0)
    t.hand(0, *FILL)
    t.hand(1, "dalek")
    t.deck_top("dalek", "dalek")
    s = t.state(end_card=True).apply(EndTurn())
    assert len(s.hands[0]) == 5 and s.endgame


def test_c_6_2_negative_not_yet(game3: CardGame) -> None:
    """C-6.2 negative: with cards still above the End card, a normal turn follows."""
    t = Scenario(game3, active=0)
    t.hand(0, *FILL)
    t.hand(1, "dalek")
    t.deck_top("dalek", "dalek", "dalek")
    s = t.state(end_card=True).apply(EndTurn())
    assert len(s.hands[0]) == 2 and not s.endgame and s.end_depth > 0


def _endgame(game: CardGame) -> Scenario:
    t = Scenario(game, active=0)
    t.s.endgame = True
    return t


def test_c_6_3_one_action_per_turn(game3: CardGame) -> None:
    """C-6.3: exactly one action, then the next player; no ending without acting."""
    t = _endgame(game3)
    r = t.reserve(0, "sontarans")[0]
    h = t.hand(0, "dalek", "clara")
    t.hand(1, "rory")
    s = t.state()
    assert EndTurn() not in s.legal_actions()
    with pytest.raises(IllegalAction) as e:
        s.apply(EndTurn())
    assert e.value.rule == "C-6.3"
    s = s.apply(PickUp(r))  # free
    assert s.active == 0
    s = s.apply(DiscardForTime((h[0],)))  # below 3 cards is fine in the End Game
    assert s.active == 1 and s.hands[0] == tuple(sorted((r, h[1])))


def test_c_6_3_no_passing_no_refill(game3: CardGame) -> None:
    """C-6.3: the turn ends after the action with no cards passed or drawn."""
    t = _endgame(game3)
    h = t.hand(0, "dalek", "clara", "rory")
    t.hand(1, "rory")
    s = t.state().apply(PlaceReserve((h[0],)))
    assert len(s.hands[0]) == 2 and len(s.hands[2]) == 0 and s.active == 1


def test_c_6_3_game_ends_when_player_cannot_act(game3: CardGame) -> None:
    """C-6.3: the game ends when the player to move has no card and cannot buy."""
    t = _endgame(game3)
    h = t.hand(0, "dalek")
    t.time(1, 4)
    s = t.state().apply(DiscardForTime((h[0],)))
    assert s.is_over and s.ended == "end-game"
    t = _endgame(game3)
    h = t.hand(0, "dalek")
    t.time(1, 5)
    s = t.state().apply(DiscardForTime((h[0],)))
    assert not s.is_over and s.active == 1 and BuyCards(1) in s.legal_actions()


def test_c_6_3_reshuffle_exhausted_deck(game3: CardGame) -> None:
    """C-6.3: an exhausted deck is rebuilt from the discard pile."""
    t = _endgame(game3)
    t.hand(0, "dalek")
    t.time(0, 5)
    pile = t.discard("sontarans", "sontarans")
    s = t.state(rest_to_deck=False)
    assert s.deck == ()
    s = s.apply(BuyCards(1))
    assert len(s.deck) == 1 and s.discard == ()
    assert set(s.deck) | (set(s.hands[0]) & set(pile)) == set(pile)


def test_c_6_4_scoring(game3: CardGame) -> None:
    """C-6.4: own unattacked Locations plus Locations one attacks; ties share the win."""
    t = Scenario(game3, active=0)
    t.location(0, "big-place")  # 4 for seat 0
    t.location(1, "big-place", enemies=["dalek"], attacker=0)  # 4 more for seat 0
    t.location(1, "small-place")  # 1 for seat 1
    t.location(2, "small-place", enemies=["dalek"], attacker=1)  # 1 for seat 1
    s = t.state()
    assert s.scores() == [8.0, 2.0, 0.0]
    s.phase = "over"
    assert s.winners() == [0]
    t = Scenario(game3, active=0)
    t.location(0, "big-place")
    t.location(1, "big-place")
    s = t.state()
    s.phase = "over"
    assert s.winners() == [0, 1]


def test_c_6_4_vp_as_it_stands_counts_only_what_the_table_shows(game3: CardGame) -> None:
    """C-6.4 applied to the table now, for the board and the terminal: unattacked Locations
    count for their owners, face-up attacks for their attackers (a face-up Papal Mainframe
    for nobody), and an attack with a face-down Enemy for nobody yet: it is listed as
    unknown, and every seat (and the spectator) is shown the same standing."""
    t = Scenario(game3, active=0)
    t.location(0, "big-place")  # 4 for seat 0
    t.location(1, "big-place", enemies=["dalek"], attacker=0, face_up=True)  # 4 for seat 0
    t.location(1, "small-place")  # 1 for seat 1
    t.location(2, "small-place", enemies=["dalek"], attacker=1)  # face down: unknown
    t.location(2, "small-place", enemies=["papal-mainframe"], attacker=1, face_up=True)
    s = t.state()
    views = [s.view(seat)["standing"] for seat in (None, 0, 1, 2)]
    assert views == [{"vp": [8, 1, 0], "unknown": [3]}] * 4
    picture = game3.render_view(s.view(1))  # the terminal's table shows it
    assert "8 VP as it stands" in picture and "VP unknown until the attack turns up" in picture
    assert s.scores() == [8.0, 2.0, 0.0]  # the face-down Dalek does not void: seat 1's
    s.phase = "over"  # the end turns it up (C-R30): the standing is the score
    assert s.view(None)["standing"] == {"vp": [8, 2, 0], "unknown": []}


def test_c_6_4_vp_as_it_stands_is_the_same_in_every_world_a_seat_cannot_tell_apart() -> None:
    """C-6.4, C-7: the standing comes from public facts only: a world dealt from any seat's
    view stands the same, and at the end it is the final score."""
    game = timelord.load("card-game", players=3)
    for seed in range(3):
        state, rng = game.new_game(seed), Rng(seed)
        while not state.is_over:
            public = state.view(None)["standing"]
            for seat in range(3):
                world = game.sample_state(state.view(seat), Rng(seed))
                assert world.view(None)["standing"] == public == state.view(seat)["standing"]
            state = state.apply(rng.choice(state.legal_actions()))
        assert state.view(None)["standing"]["vp"] == [int(v) for v in state.scores()]


def test_c_6_5_turn_limit() -> None:
    """C-6.5: the simulation bound ends the game at max_turns and scores it."""
    g = timelord.load("card-game", players=3, max_turns=2)
    s = g.new_game(1)
    from timelord.core import Rng

    r = Rng(3)
    while not s.is_over:
        legal = s.legal_actions()
        s = s.apply(legal[r.below(len(legal))])
    assert s.ended == "turn-limit" and s.turn == 3
    assert s.winners()


def test_c_6_5_random_games_end_naturally() -> None:
    """C-6.5: random games end by the rules, well before the bound."""
    from timelord.core import Rng

    for players in (2, 3, 4):
        g = timelord.load("card-game", players=players)
        r = Rng(players)
        for seed in range(3):
            s = g.new_game(seed)
            while not s.is_over:
                legal = s.legal_actions()
                s = s.apply(legal[r.below(len(legal))])
            assert s.ended in ("counters", "end-game")
            assert s.turn < g.max_turns // 2


def _last_move(game: timelord.Game, seed: int) -> tuple[State, Action, State]:
    """A random game of `seed` played to its end: the state before the last move, the move,
    and the end."""
    state, rng = game.new_game(seed), Rng(seed)
    while True:
        action = rng.choice(state.legal_actions())
        after = state.apply(action)
        if after.is_over:
            return state, action, after
        state = after


def test_c6_4_the_end_turns_every_attack_up_to_score_it() -> None:
    """C-6.4 / C-R30: a face-down Enemy that voids its Location decides the score, and the
    end told to everyone gives the scores; so at the end every seat's view shows every Enemy,
    and every seat is told each attack that turns up."""
    game = timelord.load("card-game", players=4)
    # the first seed whose game ends with an attack still face down
    state, action, after = next(
        end
        for end in (_last_move(game, seed) for seed in range(40))
        if any(not all(loc["face_up"]) for loc in end[2].view(0)["locations"])
    )
    for seat in (None, 0, 1, 2, 3):
        for loc in after.view(seat)["locations"]:
            assert None not in loc["enemies"], (seat, loc)
    _, events = state.apply_with_events(action)
    down = [L for L, loc in enumerate(after.view(None)["locations"]) if not all(loc["face_up"])]
    for seat in (None, 0, 1, 2, 3):
        told = [t for t in game.tell(events, seat) if t["kind"] == "reveal"]
        assert [t["data"]["location"] for t in told] == down, seat
        for t in told:
            assert (
                t["data"]["enemies"]
                == after.view(seat)["locations"][t["data"]["location"]]["enemies"]
            )
            assert "turns face-up to be scored" in t["text"]
    assert [t["kind"] for t in game.tell(events, 0)][-1] == "game-over"


@pytest.mark.parametrize("rules", [1, 2])
@pytest.mark.parametrize("players", [2, 3])
def test_c_r30_what_each_seat_is_told_at_the_end_accounts_for_its_final_view(
    rules: int, players: int
) -> None:
    """C-R30: the last move of every random game (seeds 0-11) passes the leak check of
    `test_events_leak_nothing`: worlds a seat cannot tell apart that end with the same
    account end with the same view, and views that differ were told differently."""
    from collections import Counter

    from tests.games.test_events_leak_nothing import check_move

    game = timelord.load("card-game", players=players, rules=rules)
    seen: Counter[str] = Counter()
    for seed in range(12):
        state, action, _ = _last_move(game, seed)
        check_move(game, state, action, seed, seen)
    assert seen["revealed"] + seen["same"] >= 12  # (where the move is legal in a twin)
