"""The Keys search's own judgement: certain wins played without a search (`certain_win`),
and the playout reflex that stops a rival about to win (`blocking`, `search_rollout`).

Positions are real deals (the box's tiles and cards, so worlds can be dealt from a seat's
view) with pawns, open doors, barriers and seat 0's hand set by `_position`. At four players
seat 0 starts south (goal: rank 7) and seat 1 west (goal: file g)."""

from __future__ import annotations

from collections.abc import Sequence

from timelord.agents import make_agent
from timelord.agents.ismcts import IsmctsAgent
from timelord.agents.keys.heuristic import (
    blocking,
    certain_win,
    goal_steps,
    search_rollout,
)
from timelord.core import Rng, load
from timelord.games.keys import KeysState
from timelord.games.keys.actions import (
    AssaultPawn,
    CloseDoor,
    MovePawn,
    OpenDoor,
    PlaceBarrier,
    PlacePandorica,
    RemoveBarrier,
)
from timelord.games.keys.board import tile_index as T
from timelord.games.keys.doors import state_from_json


def _position(
    pawns: Sequence[str | None],
    open_: Sequence[str] = (),
    *,
    backs: dict[str, str] | None = None,
    seen: Sequence[str] = (),
    barriers: Sequence[str] = (),
    pandorica: Sequence[int] = (0, 0, 0, 0),
    hand: Sequence[str] | None = None,
    phase: str = "play",
) -> KeysState:
    """Seat 0 to act in the first deal of a 4-player game whose tiles under the pawns and
    the named doors have the wanted backs (an Open Door unless `backs` says otherwise);
    those doors and the pawns' tiles are open, and seat 0 holds `hand` (swapped with the
    draw pile, as are the barriers and Pandoricas placed, so every card of the box is still
    in one place)."""
    game = load("keys", players=4)
    wanted = {t: "open" for t in [*open_, *seen, *(p for p in pawns if p)]}
    wanted.update(backs or {})
    for seed in range(500):
        data = game.new_game(seed).to_json()
        if all(data["backs"][T(t)] == b for t, b in wanted.items()):
            break
    else:  # pragma: no cover - the box has plenty of each back
        raise AssertionError("no deal fits")
    data["pawns"] = [None if p is None else T(p) for p in pawns]
    data["open"] = sorted({T(t) for t in open_} | {T(p) for p in pawns if p})
    data["seen"] = sorted({T(t) for t in seen} | set(data["open"]))
    data["barriers"] = sorted(T(t) for t in barriers)
    data["pandorica"] = list(pandorica)
    data["phase"] = phase
    deck = data["deck"]
    if hand is not None:
        deck += data["hands"][0]
        data["hands"][0] = list(hand)
    # the barriers and Pandoricas on the board are cards of the box too
    placed = ["barrier"] * len(barriers) + ["pandorica"] * sum(1 for p in pandorica if p)
    for card in [*(hand or ()), *placed]:
        deck.remove(card)
    state = state_from_json(game, data)
    assert isinstance(state, KeysState)
    return state


def _settled(state: KeysState) -> object:
    return certain_win(state.game, state.view(state.seat), state.legal_actions())


def test_k7_1_the_step_onto_the_goal_edge_is_settled() -> None:
    """K-7.1: a pawn next to an open goal-edge door steps onto it and wins; the search
    plays it without spending a simulation."""
    state = _position(["c6", None, None, None], ["c7"], phase="move")
    assert _settled(state) == MovePawn(T("c7"))
    agent = make_agent("ismcts:hard", state.game)
    assert isinstance(agent, IsmctsAgent)
    move = agent.act(state.view(0), state.legal_actions(), Rng(1))
    assert move == MovePawn(T("c7")) and agent.last_sims == 0
    assert state.apply(move).winners() == [0]


def test_k6_2_removing_the_time_barrier_off_the_goal_step_is_settled() -> None:
    """K-6.2, K-7.1: the open goal door beside the pawn is barred; a Sonic removes the
    barrier and the step that follows wins, so the card is settled."""
    state = _position(
        ["c6", None, None, None], ["c7"], barriers=["c7"], hand=["key-red", "sonic", "cookie"]
    )
    assert _settled(state) == RemoveBarrier(T("c7"))


def test_k5_8_only_a_door_whose_back_was_seen_is_a_certain_way() -> None:
    """K-2.1, K-5.8: a goal door never opened may hide a Dalek, so opening it is left to
    the search; once its back has been seen (opened and closed again) the Key that opens it
    wins for certain."""
    pawns = ["c6", None, None, None]
    unseen = _position(pawns, backs={"c7": "open"}, hand=["sonic"])
    assert _settled(unseen) is None
    seen = _position(pawns, seen=["c7"], hand=["sonic"])
    assert _settled(seen) == OpenDoor(T("c7"), "sonic")


def test_k7_1_nothing_is_settled_away_from_the_goal_edge() -> None:
    """K-7.1: two rows from the goal edge no move wins this turn: the search decides."""
    state = _position(["c5", None, None, None], ["c6", "c7"], phase="move")
    assert _settled(state) is None


def test_k5_5_a_teleport_on_the_goal_edge_is_no_goal_step() -> None:
    """K-5.5, K-7.1: an open Teleport on the goal edge sends the pawn to Control, so it is
    no winning step; a pawn in a Pandorica (K-6.5) has none either."""
    pawns = ["c6", None, None, None]
    teleport = _position(pawns, ["c7"], backs={"c7": "teleport"})
    assert goal_steps(teleport, 0) == 0
    door = _position(pawns, ["c7"])
    assert goal_steps(door, 0) == 1 << T("c7")
    held = _position(pawns, ["c7"], pandorica=[2, 0, 0, 0])
    assert goal_steps(held, 0) == 0


def _threat(hand: list[str]) -> KeysState:
    """Seat 0 to play; seat 1 (goal: file g) stands on f3 beside the open door g3."""
    return _position(["b1", "f3", None, None], ["g3", "e3"], hand=hand)


def test_k6_3_a_time_barrier_stops_the_rival_about_to_win() -> None:
    """K-6.3: a Time Barrier on the rival's only goal step keeps it off the edge; the
    playout policy plays it instead of its own race."""
    state = _threat(["key-red", "barrier", "key-red"])
    assert goal_steps(state, 1) == 1 << T("g3")
    assert blocking(state, state.legal_actions()) == PlaceBarrier(T("g3"))
    assert search_rollout(state, state.legal_actions(), Rng(0)) == PlaceBarrier(T("g3"))


def test_k6_2_k6_5_k6_6_other_cards_that_stop_the_rival() -> None:
    """K-6.2: a Sonic Screwdriver closes the door; K-6.5: a Pandorica holds the pawn;
    K-6.6: a Cyberman Assault pushes it off the goal edge's approach."""
    key = _threat(["sonic"])
    assert blocking(key, key.legal_actions()) == CloseDoor(T("g3"), "sonic")
    box = _threat(["pandorica"])
    assert blocking(box, box.legal_actions()) == PlacePandorica(1)
    push = _threat(["cyberman"])
    assert blocking(push, push.legal_actions()) == AssaultPawn(1, T("e3"))


def test_no_block_without_a_threat_or_a_card_for_it() -> None:
    """Nobody beside an open goal step, or no card that bars it: no block is forced."""
    calm = _position(["b1", "e3", None, None], ["g3"], hand=["barrier"])
    assert blocking(calm, calm.legal_actions()) is None
    helpless = _threat(["key-red", "cookie"])
    assert blocking(helpless, helpless.legal_actions()) is None
