"""A new table: the create request checked at the door, the server's limits, the deal, and
the tokens of its seats (given once; only hashes are kept)."""

from __future__ import annotations

import datetime as dt
import functools
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from timelord.core import ConfigError, Game, GameError, load
from timelord.core.keyed import KEY_BYTES
from timelord.server import clocks
from timelord.server.accounts import server_key, tie_seat
from timelord.server.bots import HUMAN, OPEN, check_spec
from timelord.server.clocks import Clock
from timelord.server.errors import ApiError, Code
from timelord.server.limits import Limits, check_count, client_key
from timelord.server.table.database import Db
from timelord.server.table.live import Live, bot_name, hash_token, new_state, seat_url
from timelord.server.table.loading import Loader
from timelord.server.table.seats import check_name


class Creating:
    def __init__(
        self,
        db: Db,
        loader: Loader,
        timer: Clock,
        limits: Limits,
        utcnow: Callable[[], dt.datetime],
        own: frozenset[str],
        allow_seed: bool,
    ) -> None:
        self.db = db
        self.loader = loader
        self.timer = timer
        self.limits = limits
        self.utcnow = utcnow
        self.own = own
        self.allow_seed = allow_seed
        #: the key of creators' address digests (`limits.client_key`), read at first use
        self._secret: bytes | None = None

    async def key_of(self, client: str) -> str:
        """The client's key as tables store it (a keyed digest of its address): what limits
        count by and what the search scheduler shares its workers out between."""
        return client_key(client, await self.db.read(self._client_secret))

    def _client_secret(self) -> bytes:
        """The database's key for creators' address digests (blocking: run it in `db`)."""
        if self._secret is None:
            self._secret = server_key(self.db.store, "client")
        return self._secret

    async def create(
        self,
        game_id: Any,
        options: Any,
        seats: Any,
        seed: Any,
        client: str = "unknown",
        player: tuple[str, str] | None = None,
        *,
        public_deal: bool = False,
        names: Any = None,
        clock: Any = None,
        stand_in: Any = None,
        allow_undo: Any = False,
        lesson: tuple[str, int] | None = None,
    ) -> tuple[Live, list[str | None], str]:
        """A new table, the tokens of its human seats and its creator's token (given once,
        only hashes kept); 429 `rate/limited` past a limit of the creator's `client` address
        or of the server. A table with open seats waits for people to claim them. A
        logged-in `player` (id, name) sits in the first human seat, tied to it.
        `public_deal`: the seed is one everybody may know (a lesson's, in the game's data),
        taken whatever `allow_seed` says; the table is marked seeded like any other.
        `lesson` (bot spec, plan length): the seats after the first are played by a
        lesson's page from its plan: named as that bot (a name people may not take), not
        guests, and marked with the version where the lesson ends."""
        game, specs = configure(game_id, options, seats, self.own)
        key: bytes | None = None
        seeded = seed is not None
        if seed is None:
            key, seed = secrets.token_bytes(KEY_BYTES), 0
        elif not self.allow_seed and not public_deal:
            raise ApiError(
                Code.CONFIG_INVALID,
                "this server deals every table itself; a seed is taken only where the "
                "operator allows it (timelord serve --allow-seed)",
            )
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ApiError(Code.CONFIG_INVALID, "seed must be an integer in 0..2^63-1")
        given = seat_names(names, specs)
        clock_settings = clocks.settings(clock)
        stand_in_spec = "heuristic" if stand_in is None else stand_in
        try:
            stand_in_spec = check_spec(stand_in_spec, game, self.own)
        except (GameError, ValueError, TypeError) as exc:
            raise ApiError(Code.CONFIG_INVALID, f"stand_in: {exc}") from exc
        if stand_in_spec in (HUMAN, OPEN):
            raise ApiError(Code.CONFIG_INVALID, "stand_in must be a bot, such as 'heuristic'")
        if not isinstance(allow_undo, bool):
            raise ApiError(Code.CONFIG_INVALID, "undo must be true or false")
        creator = await self.key_of(client)
        bots = any(spec not in (HUMAN, OPEN) for spec in specs)
        await self.db.read(self._check_limits, creator, bots)  # refuse early, before a deal
        tokens = [secrets.token_urlsafe(32) if spec == HUMAN else None for spec in specs]
        owner = secrets.token_urlsafe(32)
        try:
            state = new_state(game, seed, key)
        except (GameError, ValueError, TypeError) as exc:
            raise ApiError(Code.CONFIG_INVALID, f"cannot start this game: {exc}") from exc
        seats_json: list[dict[str, Any]] = []
        for spec, token, name in zip(specs, tokens, given, strict=True):
            entry: dict[str, Any] = {"agent": spec, "token_hash": token and hash_token(token)}
            if name is not None:
                entry["name"] = name
            if lesson is not None and seats_json:
                entry |= {"name": bot_name(lesson[0]), "lesson": lesson[1]}
            seats_json.append(entry)
        if player is not None and HUMAN in specs:
            seats_json[specs.index(HUMAN)] |= {"player": player[0], "name": player[1]}
        status = "open" if OPEN in specs else "playing"
        if clock_settings is not None and status == "playing":
            clock_settings = clocks.start(clock_settings, game.players, self.timer.now())
        stored = await self.db.read(
            functools.partial(
                self.db.store.create_table,
                secrets.token_urlsafe(9),
                game.id,
                game.options,
                seed,
                seats_json,
                key=key,
                seeded=seeded,
                creator=creator,
                to_move=state.to_move,
                now=self.utcnow(),
                status=status,
                owner_hash=hash_token(owner),
                clock=clock_settings,
                stand_in=stand_in_spec,
                undo=allow_undo,
                check=functools.partial(self._check_limits, creator, bots),
            )
        )
        live = self.loader.from_stored(stored, game, state)
        if player is not None and HUMAN in specs:
            await self.db.read(tie_seat, self.db.store, live.id, specs.index(HUMAN), player[0])
        live.tie_seats(seats_json)
        self.loader.add(live)
        return live, tokens, owner

    def _check_limits(self, creator: str, bots: bool, conn: Any = None) -> None:
        """429 `rate/limited` if one more table would pass a limit (blocking: a worker);
        on `conn`, the transaction that inserts the table (`Store.create_table`'s check)."""
        limits, store = self.limits, self.db.store
        minute_ago = self.utcnow() - dt.timedelta(minutes=1)
        check_count(
            store.created_since(creator, minute_ago, conn),
            limits.creations_per_minute,
            "you created too many tables in the last minute",
        )
        check_count(
            store.in_play(creator, conn=conn),
            limits.tables_per_client,
            "you have too many tables in play",
        )
        check_count(
            store.in_play(conn=conn), limits.tables_total, "this server has too many tables in play"
        )
        if bots:
            # a bot game its person walked away from stops counting after a day, not only
            # when it is archived (30 days): the bots there wait and cost nothing
            awake = self.utcnow() - BOT_TABLE_IDLE
            check_count(
                store.in_play(creator, bots=True, moved_since=awake, conn=conn),
                limits.bot_tables_per_client,
                "you have too many tables with bots in play",
            )
            check_count(
                store.in_play(bots=True, moved_since=awake, conn=conn),
                limits.bot_tables_total,
                "this server has too many tables with bots in play",
            )


#: how long after its last move a table with bots stops counting against the bot-table limits
BOT_TABLE_IDLE = dt.timedelta(days=1)


def configure(
    game_id: Any, options: Any, seats: Any, own: frozenset[str]
) -> tuple[Game, list[str]]:
    """The game and seat specs a create request asks for, or 422 `config/invalid`."""
    if not isinstance(game_id, str):
        raise ApiError(Code.CONFIG_INVALID, "game must be a game id such as 'keys'")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ApiError(Code.CONFIG_INVALID, "options must be an object")
    if not isinstance(seats, list) or not seats or len(seats) > 16:
        raise ApiError(Code.CONFIG_INVALID, "seats must be a list such as ['human', 'random']")
    options = dict(options)
    options.setdefault("players", len(seats))
    try:
        game = load(game_id, **options)
        if game.players != len(seats):
            raise ConfigError(f"{game.players} players but {len(seats)} seats given")
        specs = [check_spec(spec, game, own) for spec in seats]
    except (GameError, ValueError, TypeError) as exc:
        raise ApiError(Code.CONFIG_INVALID, str(exc)) from exc
    return game, specs


def seat_names(names: Any, specs: Sequence[str]) -> list[str | None]:
    """The names a create request gives its human seats (None where it gives none)."""
    if names is None:
        return [None] * len(specs)
    if not isinstance(names, list) or len(names) != len(specs):
        raise ApiError(Code.CONFIG_INVALID, "names must be a list with one entry per seat")
    out: list[str | None] = []
    for name, spec in zip(names, specs, strict=True):
        if name is None:
            out.append(None)
        elif spec != HUMAN:
            raise ApiError(Code.CONFIG_INVALID, "only human seats are given names")
        else:
            out.append(check_name(name))
    return out


def seat_list(live: Live, tokens: Sequence[str | None], base: str) -> list[dict[str, Any]]:
    """The seats part of a create answer: each human seat's token and link."""
    return [
        {
            "seat": seat,
            "agent": spec,
            "token": token,
            "url": None if token is None else seat_url(base, live.id, token),
        }
        for seat, (spec, token) in enumerate(zip(live.specs, tokens, strict=True))
    ]
