"""One table as this process knows it: a cache of the database's record (seed + accepted
actions) with the table's life (seats, status, clock), and what each seat may be told."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import hashlib
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from timelord.agents import Agent
from timelord.core import Action, Game, GameError, State, load
from timelord.core.events import Event
from timelord.core.keyed import KeyedRng, derive_seed
from timelord.server import clocks
from timelord.server.bots import HUMAN, OPEN, bot_seed
from timelord.server.errors import ApiError, Code, forbidden
from timelord.server.storage import StoredTable
from timelord.server.table.encoded import Encoded

#: the columns of a table's life, as `StoredTable` and `Live` both name them
LIFE = ("status", "owner_hash", "clock", "stand_in", "undo", "undo_used", "rematch", "rev")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Live:
    """One table in memory. Changed only under `lock` by the modules that commit changes,
    each of which then announces the change on the hub."""

    id: str
    game: Game
    seed: int
    #: per seat: {"agent", "token_hash", "name"?, "stand_in"?, "muted"?} as stored
    seats: list[dict[str, Any]]
    created: dt.datetime
    state: State
    #: the generator key the game was dealt from (else it was dealt from `seed`)
    key: bytes | None = None
    #: the creator chose the seed
    seeded: bool = False
    version: int = 0
    #: "open", "playing", "over" or "abandoned" (see `storage.TableRow.status`)
    status: str = "playing"
    owner_hash: str | None = None
    clock: dict[str, Any] | None = None
    stand_in: str = "heuristic"
    undo: bool = False
    undo_used: bool = False
    rematch: str | None = None
    rev: int = 0
    #: the state before the last action and that action (what an undo goes back to)
    previous: tuple[State, Action] | None = None
    #: events[v - 1]: the events of the action that made version v
    events: list[list[Event]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: per seat (None: spectators), how many sockets of this process watch the table
    watchers: Counter[int | None] = field(default_factory=Counter)
    agents: dict[tuple[int, str], Agent] = field(default_factory=dict)
    #: archived after a long pause: read-only, no bots
    archived: bool = False
    #: the number of the last chat line sent to this process's sockets
    chat_seen: int = 0
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: per seat, the rate at which it may chat (`admission.RateLimit`)
    chat_limits: dict[int, Any] = field(default_factory=dict)
    #: the time, as the server's `Clock` tells it
    now: Callable[[], float] = time.time
    #: the JSON texts already encoded for this table
    encoded: Encoded = field(default_factory=Encoded)
    #: per seat, the id of the logged-in player the seat is tied to (None: a guest or bot)
    players: list[str | None] = field(default_factory=list)
    #: per person's seat, [decisions its person made, decisions its stand-in made], counted
    #: from the stored actions (what ratings read: docs/ratings.md)
    decided: dict[int, list[int]] = field(default_factory=dict)
    #: per version v, (the seat that acted for it, whether the stand-in played it): `acted[v - 1]`
    acted: list[tuple[int | None, bool]] = field(default_factory=list)
    #: the creator's client key: whose share of the search pool the table's bots use
    creator: str = ""
    #: the version a commit of this process is storing now (0: none), so the notice of
    #: that commit, which may come back before the commit returns, is known as its own
    committing: int = 0

    def bot_seed(self, seat: int, version: int) -> int:
        """The seed of a bot's decision; at a keyed table an HMAC of the key, so a bot's
        choices tell nothing of the deal beyond what its own view does."""
        if self.key is None:
            return bot_seed(self.seed, seat, version)
        return derive_seed(self.key, "bot", seat, version)

    @property
    def specs(self) -> list[str]:
        return [s["agent"] for s in self.seats]

    @property
    def over(self) -> bool:
        """Whether nothing more is played here: the game ended or its creator ended it."""
        return self.state.is_over or self.status == "abandoned"

    @property
    def running(self) -> bool:
        """Whether moves are played now (not open, over, abandoned or archived)."""
        return self.status == "playing" and not self.over and not self.archived

    def advance(
        self,
        state: State,
        events: list[Event],
        action: Action | None = None,
        standin: bool = False,
    ) -> None:
        """Move on to `state`, reached by `action` (`standin`: the stand-in played it for
        the seat's person) with `events`."""
        acting = self.state.to_move
        self._count(acting, standin, 1)
        self.acted.append((acting, standin))
        self.previous = None if action is None else (self.state, action)
        self.state = state
        self.version += 1
        self.events.append(events)
        self.encoded.moved()
        if state.is_over and self.status == "playing":
            self.status = "over"

    def rewind(self, state: State) -> None:
        """Go back one version to `state` (an undo): the last action never happened."""
        self.previous = None
        self.state = state
        self.version -= 1
        del self.events[self.version :]
        for acting, standin in self.acted[self.version :]:
            self._count(acting, standin, -1)
        del self.acted[self.version :]
        self.encoded.rewound(self.version)

    def _count(self, acting: int | None, standin: bool, by: int) -> None:
        if acting is not None and self.seats[acting]["agent"] == HUMAN:
            self.decided.setdefault(acting, [0, 0])[1 if standin else 0] += by

    def standin_for(self, version: int) -> int | None:
        """The seat whose person's stand-in played the action that made `version` (1 for
        the first), or None when no stand-in played it."""
        if 0 < version <= len(self.acted):
            acting, standin = self.acted[version - 1]
            return acting if standin else None
        return None

    def take_life(self, stored: StoredTable) -> None:
        """Copy what the database says of the table's life onto the live table."""
        self.seats = [dict(s) for s in stored.seats]
        for name in LIFE:
            setattr(self, name, getattr(stored, name))
        self.encoded.moved()

    def apply_life(self, values: dict[str, Any]) -> None:
        """Set the life columns just committed (`result` is the database's alone)."""
        for name, value in values.items():
            if name == "seats":
                self.seats = value
            elif name != "result":
                setattr(self, name, value)
        self.encoded.moved()

    def tie_seats(self, seats: list[dict[str, Any]]) -> None:
        """The players the table's stored seats are tied to."""
        self.players = [s.get("player") for s in seats]

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token opens (None without a token: a spectator); 403 for a bad one."""
        if token is None:
            return None
        digest = hash_token(token)
        for seat, entry in enumerate(self.seats):
            known = entry.get("token_hash")
            if known is not None and secrets.compare_digest(known, digest):
                return seat
        raise forbidden("this token opens no seat at this table")

    def seats_of_player(self, player_id: str) -> list[int]:
        """The seats tied to a logged-in player."""
        return [seat for seat, known in enumerate(self.players) if known == player_id]

    def owns(self, token: str | None) -> None:
        """403 `owner/forbidden` unless `token` is this table's creator's."""
        if (
            token is None
            or self.owner_hash is None
            or not secrets.compare_digest(self.owner_hash, hash_token(token))
        ):
            raise ApiError(Code.OWNER_FORBIDDEN, "this is not the token of the table's creator")

    def check_seat(self, seat: int) -> None:
        """404 `seat/not_found` unless the table has `seat`."""
        if not 0 <= seat < len(self.seats):
            raise ApiError(Code.SEAT_NOT_FOUND, f"this table has seats 0 to {len(self.seats) - 1}")

    def check_turn(self, seat: int | None) -> int:
        """`seat` if it is the seat to move; 403 seat/forbidden otherwise (a spectator never
        is)."""
        if seat is None:
            raise forbidden("a spectator cannot act; use your seat's token")
        to_move = self.state.to_move
        if seat != to_move:
            assert to_move is not None  # a game not over has a seat to move
            raise forbidden(f"it is {self.name(to_move)}'s turn, not yours")
        return seat

    def name(self, seat: int) -> str:
        """The seat's one name on every screen; seats that would share one (two bots of a
        level, two people called Sam) are told apart by their number."""
        plain = [seat_name(self.game, s, e) for s, e in enumerate(self.seats)]
        name = plain[seat]
        return f"{name} #{seat + 1}" if plain.count(name) > 1 else name

    def names(self) -> list[str]:
        return [self.name(s) for s in range(len(self.seats))]

    def player(self, seat: int) -> str | None:
        """Who decides for the seat now: a bot spec, or None for its person."""
        entry = self.seats[seat]
        if entry["agent"] in (HUMAN, OPEN):
            return self.stand_in if entry.get("stand_in") else None
        return str(entry["agent"])

    def guest(self, seat: int) -> bool:
        """Whether a person without an account sits at the seat (shown as a guest)."""
        entry = self.seats[seat]
        return entry["agent"] == HUMAN and not entry.get("player") and "lesson" not in entry

    def seats_json(self) -> list[dict[str, Any]]:
        """The snapshot's `seats`: name, kind, presence and stand-in of each seat."""
        out = []
        for seat, entry in enumerate(self.seats):
            person = entry["agent"] in (HUMAN, OPEN)
            out.append(
                {
                    "seat": seat,
                    "name": self.name(seat),
                    "agent": entry["agent"],
                    "guest": self.guest(seat),
                    "connected": self.watchers[seat] > 0 if person else True,
                    "stand_in": self.stand_in if person and entry.get("stand_in") else None,
                    "stand_in_name": (
                        bot_name(self.stand_in) if person and entry.get("stand_in") else None
                    ),
                    "muted": bool(entry.get("muted")),
                    "named": bool(entry.get("name")),
                    **({"lesson_until": entry["lesson"]} if "lesson" in entry else {}),
                }
            )
        return out

    def clock_json(self) -> dict[str, Any] | None:
        return clocks.public(self.clock, self.state.to_move, self.now(), self.running)

    def life_json(self, seats: bool = True) -> dict[str, Any]:
        """The table's part of a snapshot (as of now): status, seats (unless not `seats`:
        a delta after a move leaves them out), clock, undo, rematch."""
        life: dict[str, Any] = {"status": self.status}
        if seats:
            life["seats"] = self.seats_json()
        life |= {"clock": self.clock_json(), "undo": self.undo, "rematch": self.rematch}
        return life

    def legal_json(self, seat: int | None) -> list[dict[str, Any]]:
        """The seat's legal actions: only for the seat to move, never once the table ended
        (an archived table still shows them: it is paused, and the refusal says so)."""
        if seat is None or seat != self.state.to_move or self.over:
            return []
        return [a.to_json() for a in self.state.legal_actions()]

    def summary(self) -> dict[str, Any]:
        over = self.over
        return {
            "id": self.id,
            "game": self.game.id,
            "options": self.game.options,
            "seats": [
                {
                    "seat": i,
                    "agent": entry["agent"],
                    "name": self.name(i),
                    "guest": self.guest(i),
                }
                for i, entry in enumerate(self.seats)
            ],
            "status": self.status,
            "version": self.version,
            "to_move": None if over else self.state.to_move,
            "created": self.created.isoformat(),
            "clock": self.clock_json(),
            "winners": self.state.winners() if over else None,
            "seeded": self.seeded,
        }


def stored_summary(stored: StoredTable) -> dict[str, Any]:
    """A table's summary from its stored row alone (a table not in memory)."""
    return {
        "id": stored.id,
        "game": stored.game,
        "options": stored.options,
        "seats": [
            {
                "seat": i,
                "agent": s["agent"],
                "name": stored_seat_name(stored.game, len(stored.seats), i, s),
                "guest": s["agent"] == HUMAN and not s.get("player") and "lesson" not in s,
            }
            for i, s in enumerate(stored.seats)
        ],
        "status": stored.status,
        "version": stored.version,
        "to_move": None,
        "created": stored.created.isoformat(),
        "clock": None if stored.clock is None else clocks.public(stored.clock, None, 0, False),
        "winners": None if stored.result is None else stored.result.get("winners"),
        "seeded": stored.seeded,
    }


@functools.lru_cache(maxsize=32)
def _seat_names_game(game_id: str, players: int) -> Game | None:
    """A game to read its seat names from (loading one is cheap, but lists show many tables);
    None for a game id this server does not know."""
    try:
        return load(game_id, players=players)
    except (GameError, KeyError, ValueError):
        return None


def stored_seat_name(game_id: str, players: int, seat: int, entry: dict[str, Any]) -> str:
    """A stored table's seat name as the table itself shows it (`seat_name`): an unnamed
    person's seat by the game's name for it ("Red"), not "Seat 1"."""
    game = _seat_names_game(game_id, players)
    return default_name(seat, entry) if game is None else seat_name(game, seat, entry)


def default_name(seat: int, entry: dict[str, Any]) -> str:
    agent = entry["agent"]
    if agent == OPEN:
        return "Open seat"
    if agent == HUMAN:
        return f"Seat {seat + 1}"
    return bot_name(agent)


def seat_name(game: Game, seat: int, entry: dict[str, Any]) -> str:
    """A seat's display name: the person's own, "Bot (level)" for a bot, the game's name of
    the seat for a person who gave none, "Open seat" while nobody has claimed it."""
    name = entry.get("name")
    if name:
        return str(name)
    if entry["agent"] == HUMAN:
        return game.seat_name(seat).replace(f"Seat {seat}", f"Seat {seat + 1}", 1)
    return default_name(seat, entry)


#: the lobby's bot levels as a player names them (`pages.SEAT_KINDS` describes each); a
#: name starts with "Bot" so a board marks the seat by its number, as it marks "Seat N"
BOT_NAMES = {
    "random": "Bot (beginner)",
    "heuristic": "Bot (casual)",
    "heuristic:hard": "Bot (casual+)",
    "ismcts:easy": "Bot (thinker)",
    "ismcts:medium": "Bot (strong thinker)",
    "ismcts:hard": "Bot (hard)",
    "ismcts:expert": "Bot (expert)",
}


def bot_name(spec: str) -> str:
    """A bot's name on screen: its level in words ("Bot (casual)"), not its spec; an agent
    the lobby does not offer (an operator's own) by its spec."""
    return BOT_NAMES.get(spec, f"Bot ({spec})")


def new_state(game: Game, seed: int, key: bytes | None) -> State:
    """The opening state of a table: from its keyed generator, or from a chosen seed."""
    return game.new_game(seed if key is None else KeyedRng(key))


def seat_url(base: str, table_id: str, token: str | None) -> str:
    """A table's page: a seat's with its token, the spectator's without."""
    link = f"{base}/tables/{table_id}"
    return link if token is None else f"{link}?token={token}"
