"""The errors the API answers with: one registry of every refusal (`Code`: its code, HTTP
status and meaning), raised as `ApiError` and listed in /openapi.json from the same registry,
so a route, its documentation and the table in docs/architecture.md cannot disagree."""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, Field


class Code(Enum):
    """Every refusal of the API: (code, HTTP status, meaning). A code answers one status,
    except `table/not_over`, which a record or review answers with 403 and a rematch with
    409 (both as they were first published)."""

    REQUEST_MALFORMED = (
        "request/malformed",
        400,
        "the body, query or path is not what the route takes",
    )
    SESSION_REFUSED = ("session/refused", 401, "wrong name or password")
    SESSION_NONE = ("session/none", 401, "the request is not logged in")
    SEAT_FORBIDDEN = ("seat/forbidden", 403, "the token opens no seat here, or not the seat to act")
    OWNER_FORBIDDEN = ("owner/forbidden", 403, "only the table's creator's token may do this")
    CHAT_MUTED = ("chat/muted", 403, "the table's creator muted this seat's chat")
    HINT_FORBIDDEN = ("hint/forbidden", 403, "the table was created without hints")
    ORIGIN_FORBIDDEN = (
        "origin/forbidden",
        403,
        "a browser sent this change from another site's page (Origin or Sec-Fetch-Site)",
    )
    TABLE_NOT_OVER = (
        "table/not_over",
        403,
        "the record and reviews are given once the game is over",
    )
    TABLE_NOT_FOUND = ("table/not_found", 404, "there is no table with this id")
    SEAT_NOT_FOUND = ("seat/not_found", 404, "the table has no seat with this number")
    PLAYER_NOT_FOUND = ("player/not_found", 404, "there is no player with this name")
    GAME_NOT_FOUND = ("game/not_found", 404, "there is no game with this id")
    LESSON_NOT_FOUND = ("lesson/not_found", 404, "the game has no lesson")
    HTTP_NOT_FOUND = ("http/not_found", 404, "no route has this path")
    ACTION_STALE = ("action/stale", 409, "the table is not at the version the request names")
    SEAT_STAND_IN = ("seat/stand_in", 409, "the stand-in bot plays this seat; take it back first")
    SEAT_TAKEN = ("seat/taken", 409, "the seat is not open (someone claimed it)")
    SEAT_NOT_HUMAN = ("seat/not_human", 409, "only a person's seat can do this")
    TABLE_OPEN = ("table/open", 409, "the table waits for its open seats")
    TABLE_ARCHIVED = ("table/archived", 409, "the table was archived: it can be read, not played")
    TABLE_OVER = ("table/over", 409, "the table has ended")
    REMATCH_NOT_OVER = ("table/not_over", 409, "a rematch is offered once the game is over")
    UNDO_FORBIDDEN = (
        "undo/forbidden",
        409,
        "the last action cannot be taken back (the reason says why)",
    )
    HINT_NOT_YOUR_TURN = ("hint/not_your_turn", 409, "a hint is given on the seat's own turn")
    PLAYER_TAKEN = ("player/taken", 409, "another player has this name")
    NAME_TAKEN = (
        "name/taken",
        409,
        "a guest may not sit under a player's name or a look-alike of it",
    )
    REQUEST_TOO_LARGE = ("request/too_large", 413, "the body or message is too large")
    REQUEST_MEDIA_TYPE = (
        "request/media_type",
        415,
        "the API takes JSON bodies only (Content-Type: application/json)",
    )
    ACTION_ILLEGAL = ("action/illegal", 422, "the rules forbid the action now (reason and rule)")
    ACTION_INVALID = ("action/invalid", 422, "the action is not one of the game's actions")
    CONFIG_INVALID = ("config/invalid", 422, "unknown game, option, seat, clock, stand-in or seed")
    NAME_INVALID = ("name/invalid", 422, "a display name is 1 to 32 printable characters")
    CHAT_INVALID = ("chat/invalid", 422, "a chat message is text of 1 to 500 characters")
    CHAT_TOO_LONG = ("chat/too_long", 422, "a chat message is at most 500 characters")
    PLAYER_INVALID = ("player/invalid", 422, "the player's name or password is not allowed")
    BOARD_INVALID = ("board/invalid", 422, "the seat's board cannot be drawn")
    REPLAY_INVALID = ("replay/invalid", 422, "no such seat or step in this replay")
    RATE_LIMITED = ("rate/limited", 429, "too many requests or messages; slow down")
    RECORD_CORRUPT = ("record/corrupt", 500, "the stored table cannot be replayed by this code")
    REVIEW_FAILED = ("review/failed", 500, "the review failed; the next request starts it again")
    SERVER_ERROR = ("server/error", 500, "the server failed; this is a bug")
    SERVER_UNAVAILABLE = ("server/unavailable", 503, "the database did not answer; try again")
    REQUEST_ABANDONED = (
        "request/abandoned",
        503,
        "the client hung up before the answer was ready; its work was stopped",
    )

    def __init__(self, code: str, status: int, meaning: str) -> None:
        self.code = code
        self.status = status
        self.meaning = meaning


class ApiError(Exception):
    """A refusal with a stable code; nothing has changed on any table when one is raised."""

    def __init__(self, error: Code, reason: str | None = None, rule: str = "") -> None:
        reason = error.meaning if reason is None else reason
        super().__init__(f"{error.code}: {reason}")
        self.error = error
        self.status = error.status
        self.code = error.code
        self.reason = reason
        self.rule = rule

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "reason": self.reason, "rule": self.rule}


class ErrorBody(BaseModel):
    """Every refusal's body, whatever its status."""

    code: str = Field(examples=["action/stale"])
    reason: str
    rule: str = Field("", description="the rule clause that forbids an illegal action")


def responses(*codes: Code) -> dict[int | str, dict[str, Any]]:
    """A route's refusals for /openapi.json: per status, the body and the codes it may carry."""
    by_status: dict[int, list[Code]] = {}
    for code in codes:
        by_status.setdefault(code.status, []).append(code)
    return {
        status: {
            "model": ErrorBody,
            "description": "; ".join(f"{c.code}: {c.meaning}" for c in found),
        }
        for status, found in sorted(by_status.items())
    }


def summary() -> str:
    """The codes, grouped by status, as the API's description lists them."""
    by_status: dict[int, list[str]] = {}
    for code in Code:
        names = by_status.setdefault(code.status, [])
        if code.code not in names:
            names.append(code.code)
    return ",\n".join(
        f"{status} {' | '.join(names)}" for status, names in sorted(by_status.items())
    )


def not_found(table_id: str) -> ApiError:
    return ApiError(Code.TABLE_NOT_FOUND, f"there is no table {table_id!r}")


def malformed(reason: str) -> ApiError:
    return ApiError(Code.REQUEST_MALFORMED, reason)


def too_large(limit: int) -> ApiError:
    return ApiError(Code.REQUEST_TOO_LARGE, f"the body is larger than {limit} bytes")


def rate_limited(
    reason: str = "too many requests or messages on this connection; slow down",
) -> ApiError:
    return ApiError(Code.RATE_LIMITED, reason)


def forbidden(reason: str) -> ApiError:
    return ApiError(Code.SEAT_FORBIDDEN, reason)
