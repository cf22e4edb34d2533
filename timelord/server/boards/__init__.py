"""How one game's snapshot becomes an HTML/SVG board (rules never know screens).

`render_board(game, seat, snapshot)` checks the snapshot at the door (its legal actions must
decode for the game, its view must be a JSON object) and hands it to the game's board module,
or to the generic board (the text picture and buttons) for a game without one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from timelord.core.errors import GameError, InvalidAction
from timelord.core.game import Game
from timelord.server.boards.common import Snapshot

#: game id -> module under timelord.server.boards with `render(snap) -> str`.
BOARDS = {"keys": "keys", "episodes": "episodes", "card-game": "card_game", "clue": "clue"}


class BoardError(GameError):
    """A snapshot that cannot be drawn (malformed view, legal list or events)."""


def read_snapshot(
    game: Game,
    seat: Any,
    data: Any,
    result: Mapping[str, Any] | None = None,
    replay: bool = False,
) -> Snapshot:
    """Check a snapshot from outside and decode its legal actions; `BoardError` if malformed.
    `result` is a finished game's `{"scores", "winners"}` from the engine, when known."""
    if not isinstance(data, Mapping):
        raise BoardError("the snapshot must be a JSON object")
    view, legal, events = data.get("view"), data.get("legal", []), data.get("events", [])
    if not isinstance(view, dict):
        raise BoardError("snapshot.view must be an object")
    if not isinstance(legal, list) or not isinstance(events, list):
        raise BoardError("snapshot.legal and snapshot.events must be lists")
    if not all(isinstance(e, Mapping) for e in events):
        raise BoardError("each event must be an object")
    to_move, version = data.get("to_move"), data.get("version", 0)
    if to_move is not None and (isinstance(to_move, bool) or not isinstance(to_move, int)):
        raise BoardError("snapshot.to_move must be a seat or null")
    if isinstance(version, bool) or not isinstance(version, int):
        raise BoardError("snapshot.version must be an integer")
    try:
        game.check_seat(seat)
        actions = [game.action_from_json(a) for a in legal]
    except InvalidAction as exc:
        raise BoardError(f"snapshot.legal: {exc}") from exc
    if result is not None and not _is_result(result, game.players):
        raise BoardError("result must be {'scores': [number per seat], 'winners': [seat]}")
    seats = data.get("seats")
    names = None
    guests: list[bool] = []
    lesson_until: list[int | None] = []
    stand_in = None
    if isinstance(seats, list) and len(seats) == game.players:
        found = [s.get("name") if isinstance(s, Mapping) else None for s in seats]
        if all(isinstance(n, str) and n for n in found):
            names = [str(n) for n in found]
            guests = [s.get("guest") is True for s in seats]
        ends = [s.get("lesson_until") if isinstance(s, Mapping) else None for s in seats]
        lesson_until = [e if isinstance(e, int) and not isinstance(e, bool) else None for e in ends]
        own = seats[seat] if seat is not None and isinstance(seats[seat], Mapping) else {}
        if own.get("stand_in"):
            stand_in = str(own.get("stand_in_name") or "the stand-in bot")
    return Snapshot(
        names=names,
        guests=guests,
        result=result,
        game=game,
        seat=seat,
        view=view,
        # the person's moves are refused while the stand-in plays: offer them none
        legal=[] if stand_in else actions,
        events=list(events),
        to_move=to_move,
        over=bool(data.get("over", False)),
        version=version,
        replay=replay,
        stand_in=stand_in,
        lesson_until=lesson_until,
    )


def _is_result(result: Mapping[str, Any], players: int) -> bool:
    scores, winners = result.get("scores"), result.get("winners")
    return (
        isinstance(scores, list)
        and len(scores) == players
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in scores)
        and isinstance(winners, list)
        and all(type(w) is int and 0 <= w < players for w in winners)
    )


def renderer(game_id: str) -> Callable[[Snapshot], str]:
    """The board function for a game; the generic board for a game without its own."""
    name = BOARDS.get(game_id, "generic")
    module = importlib.import_module(f"timelord.server.boards.{name}")
    fn: Callable[[Snapshot], str] = module.render
    return fn


def render_board(
    game: Game,
    seat: int | None,
    snapshot: Any,
    result: Mapping[str, Any] | None = None,
    replay: bool = False,
    log_from: int = 0,
) -> str:
    """The HTML fragment of `seat`'s table, made only from its snapshot (and, once the game
    is over, the public result the server's engine computed, so boards never recount it);
    `replay`: a step of a replay, shown as `seat` saw it to anyone who asks; `log_from`:
    the log lists only the events from that one on."""
    snap = read_snapshot(game, seat, snapshot, result, replay)
    snap.log_from = log_from
    try:
        return renderer(game.id)(snap)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        # A view that does not have the shape this game's views have.
        raise BoardError(f"cannot draw this {game.id} view: {exc!r}") from exc
