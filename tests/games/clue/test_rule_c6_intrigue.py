"""C-6 intrigue cards: draws, Pocketwatches, kept and play-immediately action cards."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from timelord.core import IllegalAction, Rng
from timelord.games.clue.actions import (
    DrawIntrigue,
    Move,
    NameCard,
    Pass,
    PlayCard,
    RollDice,
    ShowCard,
    StayPut,
    Target,
)
from timelord.games.clue.board import TARDIS, standard_board
from timelord.games.clue.state import ClueState

G = 2


def _question_square() -> tuple[int, int]:
    board = standard_board()
    dist = board.distances(TARDIS)
    q = min(board.intrigue, key=lambda n: dist[n])
    return q, dist[q]


def _land(h: SimpleNamespace, pile: list[str], **fields: object) -> object:
    q, d = _question_square()
    state = h.build(phase="move", steps=d, roll=[0, d], pile=pile, **fields)
    return state.apply(Move(q))


def test_c6_2_the_first_seven_pocketwatches_do_nothing(h: SimpleNamespace) -> None:
    state = _land(h, ["timey-wimey", "pocketwatch"], watches=6)
    view = state.view(2)
    assert view["watches"] == 7 and view["out"][0] == "" and view["pile_size"] == 1


def test_c6_3_the_eighth_pocketwatch_puts_the_drawer_out(h: SimpleNamespace) -> None:
    state = _land(h, ["timey-wimey", "pocketwatch"], watches=7, kept=[["sonic-scan"], [], [], []])
    view = state.view(2)
    assert view["out"][0] == "pocketwatch"
    assert view["revealed"] == {"0": [1, 2, 3, 4]}
    assert "sonic-scan" in view["discards"]
    assert view["pile_size"] == 2  # shuffled back in
    assert state.to_move == 1


def test_c6_3_the_eighth_pocketwatch_comes_back_even_alone(h: SimpleNamespace) -> None:
    state = _land(h, ["pocketwatch"], watches=8)
    assert state.view(1)["out"][0] == "pocketwatch" and state.to_json()["pile"] == ["pocketwatch"]


def test_c6_1_moved_player_may_decline_the_draw(h: SimpleNamespace) -> None:
    state = h.build(
        options={"powers": False},
        phase="name",
        purpose="rumour",
        naming_location=G,
        movers=[G, 9, 9, 9, 9, 9],
        pile=["pocketwatch"],
    )
    state = h.play(state, NameCard(h.STRAX), NameCard(h.SONIC), Pass())
    assert state.to_json()["pile"] == ["pocketwatch"] and state.to_move == 2


def test_c6_1_empty_pile_draws_nothing(h: SimpleNamespace) -> None:
    state = _land(h, [])
    assert state.to_move == 1 and state.view(0)["kept"] == []


def test_c6_4_jammie_dodger_adds_six_after_rolling(h: SimpleNamespace) -> None:
    state = h.build(kept=[["jammie-dodger"], [], [], []]).apply(RollDice())
    steps = state.view(0)["steps"]
    assert PlayCard("jammie-dodger") in state.legal_actions()
    state = state.apply(PlayCard("jammie-dodger"))
    assert state.view(0)["steps"] == steps + 6 and state.view(1)["discards"] == ["jammie-dodger"]


def test_c6_4_vortex_jump_moves_into_any_location_then_a_rumour(h: SimpleNamespace) -> None:
    state = h.build(kept=[["vortex-jump"], [], [], []]).apply(PlayCard("vortex-jump"))
    assert state.legal_actions() == [Move(r) for r in range(9)]
    state = state.apply(Move(7))
    assert state.view(0)["phase"] == "name" and state.to_json()["movers"][0] == 7


def test_c6_4_perception_filter_names_any_location(h: SimpleNamespace) -> None:
    state = h.build(kept=[["perception-filter"], [], [], []], options={"powers": False})
    state = h.play(state, PlayCard("perception-filter"), NameCard(h.RIVER), NameCard(h.SONIC))
    state = state.apply(NameCard(h.LONDON))
    data = state.to_json()
    assert data["movers"][0] == TARDIS and data["movers"][h.RIVER] == h.room(h.LONDON)
    assert state.view(0)["log"][1] == ["rumour", 0, h.RIVER, h.SONIC, h.LONDON]


def test_c6_4_timey_wimey_gives_another_turn(h: SimpleNamespace) -> None:
    state = h.build(kept=[["timey-wimey"], [], [], []], pile=[])
    state = state.apply(PlayCard("timey-wimey"))
    assert state.view(1)["extra_turns"] == [1, 0, 0, 0]
    state = state.apply(RollDice())
    board = standard_board()
    plain = [a for a in state.legal_actions() if a.to >= 10 and a.to not in board.intrigue]
    state = state.apply(plain[0])
    assert state.to_move == 0 and state.view(0)["phase"] == "start"
    assert state.view(0)["extra_turns"] == [0, 0, 0, 0]


def test_c6_4_sonic_scan_sees_a_random_card(h: SimpleNamespace) -> None:
    state = h.build(kept=[["sonic-scan"], [], [], []]).apply(PlayCard("sonic-scan"))
    assert state.legal_actions() == [Target(1), Target(2), Target(3)]
    state = state.apply(Target(2))
    event = state.view(0)["log"][-1]
    assert event[:3] == ["scan", 0, 2] and event[3] in (10, 11, 13, 14)
    assert state.view(2)["log"][-1] == event and state.view(1)["log"][-1][3] is None
    assert state.view(0)["phase"] == "start"


def test_c6_4_psychic_paper_sees_the_shown_card(h: SimpleNamespace) -> None:
    state = h.build(
        options={"powers": False},
        phase="name",
        purpose="rumour",
        naming_location=G,
        movers=[G, 9, 9, 9, 9, 9],
        kept=[[], [], [], ["psychic-paper"]],
    )
    state = h.play(state, NameCard(h.AMY), NameCard(h.MOMENT), ShowCard(h.MOMENT))
    assert state.to_move == 3
    assert state.legal_actions() == [PlayCard("psychic-paper"), Pass()]
    state = state.apply(PlayCard("psychic-paper"))
    assert state.view(3)["log"][-1] == ["peek", 3, 2, h.MOMENT]
    assert state.view(1)["log"][-1] == ["peek", 3, 2, None]


def test_c6_5_emergency_materialisation_ends_the_move_in_the_tardis(h: SimpleNamespace) -> None:
    seed = next(s for s in range(500) if Rng(s).randint(1, 6) == 1)
    state = h.build(rng=seed, movers=[G, 9, 9, 9, 9, 9], pile=["emergency-materialisation"])
    state = state.apply(RollDice())
    assert state.to_json()["movers"][0] == TARDIS and state.view(0)["phase"] == "centre"


def test_c6_5_time_slip_moves_to_the_nearest_secret_passage(h: SimpleNamespace) -> None:
    state = _land(h, ["time-slip"])
    nearest = standard_board().nearest_secret(_question_square()[0])
    if len(nearest) > 1:
        state = state.apply(Move(nearest[0]))
    assert state.to_json()["movers"][0] == nearest[0]
    assert state.view(0)["phase"] == "name"


# Board steps from the TARDIS (reconstructed board): Platform One 9, The Moon 8, The Library
# and Victorian London 7, Gallifrey and Starship UK 6, Trenzalore 5, Skaro 4.
P1, MOON, GAL, SKARO, TRENZ, LIB, UK, DEMONS, LONDON = range(9)


def test_c6_5_closer_locations_are_one_rank_nearer_the_centre() -> None:
    board = standard_board()
    assert board.closer_locations(P1) == (MOON,)
    assert board.closer_locations(MOON) == (LIB, LONDON)
    assert board.closer_locations(TRENZ) == (SKARO,)
    assert board.closer_locations(SKARO) == ()  # no location is nearer the centre
    assert board.closer_locations(TARDIS) == ()


def test_c6_5_cloister_bell_moves_every_other_player_one_location_closer(
    h: SimpleNamespace,
) -> None:
    # Seat 0 lands on "?" and draws the Bell; seat 1 stands on The Moon (a tie: it chooses),
    # seat 2 on Platform One (one choice: moved at once), seat 3 in Skaro (nothing closer).
    state = _land(h, ["cloister-bell"], movers=[TARDIS, MOON, P1, SKARO, 6, 7])
    assert state.to_move == 1 and state.view(1)["phase"] == "bell"
    assert state.legal_actions() == [Move(LIB), Move(LONDON)]
    assert state.view(1)["discards"] == ["cloister-bell"]
    state = state.apply(Move(LONDON))
    movers = state.to_json()["movers"]
    assert movers[:6] == [_question_square()[0], LONDON, MOON, SKARO, 6, 7]
    # No rumour now; the drawer's turn ends (it landed on "?"); seat 1 plays next and, moved
    # by another player, may stay and make a rumour (C-2.3).
    assert state.to_move == 1 and state.view(1)["phase"] == "start"
    assert StayPut() in state.legal_actions()
    assert state.view(2)["moved"] == [False, True, True, False]


def test_c6_5_cloister_bell_refuses_a_location_not_one_closer(h: SimpleNamespace) -> None:
    state = _land(h, ["cloister-bell"], movers=[TARDIS, MOON, TARDIS, TARDIS, 6, 7])
    with pytest.raises(IllegalAction) as err:
        state.apply(Move(SKARO))
    assert err.value.rule == "C-6.5"
    # The movers of players who are out are not moved; a mover in the TARDIS stays.
    state = _land(
        h, ["cloister-bell"], movers=[TARDIS, P1, TARDIS, P1, 6, 7], out=["", "", "", "accused"]
    )
    assert state.to_json()["movers"][:4] == [_question_square()[0], MOON, TARDIS, P1]


def test_c6_5_cloister_bell_on_the_die_lets_the_drawer_move_after(h: SimpleNamespace) -> None:
    state = h.build(pile=["cloister-bell"], movers=[TARDIS, P1, 2, 3, 6, 7], rng=5)
    while True:  # find a roll with the "?" face
        rolled = state.apply(RollDice())
        if rolled.view(0)["roll"][0] == 0:
            break
        state = h.build(pile=["cloister-bell"], movers=[TARDIS, P1, 2, 3, 6, 7], rng=state.rng + 1)
    assert rolled.to_move == 0 and rolled.view(0)["phase"] == "move"
    assert rolled.to_json()["movers"][1] == MOON


def test_c6_6_played_cards_are_discarded_for_good(h: SimpleNamespace) -> None:
    pile = list(h.build().game.intrigue_deck)
    pile.remove("vortex-jump")
    state = h.build(kept=[["vortex-jump"], [], [], []], pile=pile)
    state = state.apply(PlayCard("vortex-jump"))
    assert state.view(3)["discards"] == ["vortex-jump"]
    # Whoever rebuilds the hidden pile from a view leaves the discarded card out.
    for seed in range(5):
        sampled = state.game.sample_state(state.view(3), Rng(seed))
        assert sorted(sampled.to_json()["pile"]) == sorted(pile)


def test_c6_3_a_player_out_by_the_pocketwatch_can_still_be_named_but_draws_no_more(
    h: SimpleNamespace,
) -> None:
    # RB: "You no longer play in the game or draw any Intrigue Cards. However, your mover can
    # still be part of a Rumor."
    state = h.build(
        options={"powers": False},
        phase="name",
        purpose="rumour",
        naming_location=G,
        movers=[G, 9, 9, 9, 9, 9],
        out=["", "pocketwatch", "", ""],
        pile=["sonic-scan"],
    )
    state = h.play(state, NameCard(h.STRAX), NameCard(h.SONIC))
    assert state.to_json()["movers"][h.STRAX] == G
    assert state.view(0)["phase"] != "offer" and state.to_json()["pile"] == ["sonic-scan"]


def test_c6_3_when_everyone_draws_the_eighth_pocketwatch_nobody_wins(h: SimpleNamespace) -> None:
    # RB: "it is possible for all of the suspects to draw a Pocketwatch, and nobody wins."
    state = _land(h, ["pocketwatch"], watches=8, out=["", "pocketwatch", "accused", "pocketwatch"])
    assert state.is_over and state.winners() == []
    assert state.view(1)["envelope"] == [h.AMY, h.LIPSTICK, h.PLATFORM]


def _eighth_watch_in_a_rumour(h: SimpleNamespace, rules: int | None) -> ClueState:
    """Seat 1's mover is moved by seat 0's rumour; it draws the eighth Pocketwatch and is out
    (its cards face up) while it holds a card the rumour names."""
    state = h.build(
        options={"powers": False, "rules": rules},
        phase="name",
        purpose="rumour",
        naming_location=G,
        movers=[G, 9, 9, 9, 9, 9],
        watches=7,
        pile=["pocketwatch"],
    )
    assert h.CYBERGUN in state.to_json()["hands"][1]
    state = h.play(state, NameCard(h.STRAX), NameCard(h.CYBERGUN), DrawIntrigue())
    assert state.view(2)["out"][1] == "pocketwatch"
    return state


def test_c6_3_the_eighth_pocketwatch_drawn_in_a_rumour_no_longer_answers(
    h: SimpleNamespace,
) -> None:
    """C-6.3 / C-4.3 (ruling CL-7, rules 2): a player out by the 8th Pocketwatch "no longer
    play[s] in the game" (unlike a wrong accuser, who must "keep answering"): the rumour
    passes it by, so the players after it are asked, and it is never told as passing."""
    state = _eighth_watch_in_a_rumour(h, None)
    assert state.to_move != 1 or state.view(1)["phase"] != "answer"
    log = state.to_json()["log"]
    rumour = max(i for i, e in enumerate(log) if e[0] == "rumour")
    assert ["pass", 1] not in log[rumour:]
    assert any(e[0] in ("pass", "show") and e[1] == 2 for e in log[rumour:]) or (state.to_move == 2)


def test_c6_3_rules_1_kept_the_eighth_pocketwatch_answering(h: SimpleNamespace) -> None:
    """CL-7 as rules 1 played it (kept for its records): the player out still answered."""
    state = _eighth_watch_in_a_rumour(h, 1)
    assert state.to_move == 1 and state.view(1)["phase"] == "answer"
