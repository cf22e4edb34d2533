"""The generic board: the game's own text picture and a button per legal action."""

from __future__ import annotations

from timelord.server.boards.common import Snapshot, frame, result_panel


def render(snap: Snapshot) -> str:
    """Text picture of the view plus the shared frame (log, moves, result)."""
    view = snap.view
    winners = view.get("winners")
    if winners is None:
        winner = view.get("winner")
        winners = [winner] if isinstance(winner, int) else []
    result = result_panel(snap, None, winners)
    board = {"text": snap.game.render_view(view)}
    return frame(snap, snap.game.id, "generic.html", board, result)
