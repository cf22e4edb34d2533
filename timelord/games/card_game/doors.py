"""The doors of the Card Game: a saved state and a view are checked once, here, before the
rules or the sampler trust them (the fast paths behind never check again).

A state is accepted only if it could have come from play: every field of the right type,
every card of the game in exactly one place (conservation), the pending decision naming a
real Location and seat, the knowledge table saying that each holder knows its own cards and
that face-up cards are known to all, and at least one legal action unless the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from timelord.core import CorruptRecord, InvalidSeat, is_state
from timelord.games.card_game.state import (
    ATTACK,
    DEFEND,
    IRON,
    JACK,
    MATCH,
    OVER,
    PHASES,
    REGEN,
    VALIANT,
    CardGameRules,
    CardGameState,
)

#: Why a game ended (`CardGameState.ended`); "" while it runs.
ENDINGS = ("", "counters", "turn-limit", "end-game")
_U64 = 1 << 64


def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise CorruptRecord(f"{what} must be an integer, not {v!r}")
    if not lo <= v <= hi:
        raise CorruptRecord(f"{what} must lie in {lo}..{hi}, not {v}")
    return v


def _bool(v: Any, what: str) -> bool:
    if not isinstance(v, bool):
        raise CorruptRecord(f"{what} must be true or false, not {v!r}")
    return v


def _list(v: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(v, list):
        raise CorruptRecord(f"{what} must be a list, not {type(v).__name__}")
    if length is not None and len(v) != length:
        raise CorruptRecord(f"{what} must have {length} entries, not {len(v)}")
    return v


def _cards(v: Any, what: str, ncards: int, ordered: bool = False) -> tuple[int, ...]:
    out = tuple(_int(c, f"a card of {what}", 0, ncards - 1) for c in _list(v, what))
    if ordered and list(out) != sorted(out):
        raise CorruptRecord(f"{what} must be sorted")
    return out


def state_from_data(game: CardGameRules, data: Any) -> CardGameState:
    """A state from its JSON form, or `CorruptRecord` saying what is wrong with it."""
    if not isinstance(data, Mapping):
        raise CorruptRecord("a card-game state is a JSON object")
    cs = game.cards
    n = game.players
    nc = len(cs.design)
    full = (1 << n) - 1
    P = game.pass_count

    def get(name: str) -> Any:
        if name not in data:
            raise CorruptRecord(f"the state has no {name!r}")
        return data[name]

    def seats(name: str) -> list[Any]:
        return _list(get(name), name, n)

    s = CardGameState(game)
    s.hands = [_cards(h, f"hand {p}", nc, ordered=True) for p, h in enumerate(seats("hands"))]
    s.reserve = [
        _cards(r, f"reserve {p}", nc, ordered=True) for p, r in enumerate(seats("reserve"))
    ]
    s.upres = [_cards(u, f"cards in play of {p}", nc) for p, u in enumerate(seats("upres"))]
    s.newres = _cards(get("newres"), "newres", nc)
    s.passed = []
    for p, log in enumerate(seats("passed")):
        passes = tuple(
            _cards(x, f"a pass of seat {p}", nc, ordered=True) for x in _list(log, "passed")
        )
        if any(len(x) != P for x in passes):
            raise CorruptRecord(f"every pass of seat {p} holds {P} cards")
        s.passed.append(passes)
    tp_total = cs.constants.time_points
    s.tp = [_int(v, "Time Points", 0, tp_total) for v in seats("tp")]
    s.supply = _int(get("supply"), "supply", 0, tp_total)
    if sum(s.tp) + s.supply != tp_total:
        raise CorruptRecord(f"the Time Points do not add up to {tp_total}")
    s.loc_card = list(_cards(get("loc_card"), "loc_card", nc))
    m = len(s.loc_card)
    s.loc_owner = [_int(o, "loc_owner", 0, n - 1) for o in _list(get("loc_owner"), "loc_owner", m)]
    s.loc_def = [_cards(d, "loc_def", nc) for d in _list(get("loc_def"), "loc_def", m)]
    s.loc_en = [_cards(e, "loc_en", nc) for e in _list(get("loc_en"), "loc_en", m)]
    s.loc_up = [_int(u, "loc_up", 0, _U64) for u in _list(get("loc_up"), "loc_up", m)]
    s.loc_att = [_int(a, "loc_att", -1, n - 1) for a in _list(get("loc_att"), "loc_att", m)]
    s.loc_tardis = [_bool(t, "loc_tardis") for t in _list(get("loc_tardis"), "loc_tardis", m)]
    s.deck = _cards(get("deck"), "deck", nc, ordered=True)
    s.end_depth = _int(get("end_depth"), "end_depth", -1, len(s.deck))
    s.end_now = _bool(get("end_now"), "end_now")
    s.discard = _cards(get("discard"), "discard", nc)
    s.aside = _cards(get("aside"), "aside", nc, ordered=True)
    s.known = bytearray(_int(k, "known", 0, full) for k in _list(get("known"), "known", nc))
    s.active = _int(get("active"), "active", 0, n - 1)
    s.first = _int(get("first"), "first", 0, n - 1)
    s.turn = _int(get("turn"), "turn", 1, game.max_turns + 1)
    s.steps = _int(get("steps"), "steps", 0, game.max_actions)
    s.endgame = _bool(get("endgame"), "endgame")
    phase = get("phase")
    if phase not in PHASES:
        raise CorruptRecord(f"unknown phase {phase!r}")
    s.phase = phase
    s.p_loc = _int(get("p_loc"), "p_loc", -1, m - 1)
    s.p_cards = _cards(get("p_cards"), "p_cards", nc)
    fought = data.get("fought", [])
    s.fought = tuple(_int(L, "fought", 0, m - 1) for L in _list(fought, "fought"))
    if list(s.fought) != sorted(set(s.fought)) or (s.fought and game.rules < 2):
        raise CorruptRecord("fought: Locations of lost defences, sorted, from rules 2 on")
    s.p_n = _int(get("p_n"), "p_n", 0, 10**9)
    s.rng = _int(get("rng"), "rng", 0, get("rng"))
    if not is_state(s.rng):
        raise CorruptRecord("rng must be a generator state (64 bits, or keyed)")
    ended = get("ended")
    if ended not in ENDINGS or (ended != "") != (phase == OVER):
        raise CorruptRecord(f"ended {ended!r} does not fit phase {phase!r}")
    s.ended = ended
    # `shuffled` came with ruling C-R26; older records have no reshuffle in them.
    s.shuffled = _cards(data.get("shuffled", []), "shuffled", nc, ordered=True)
    _check_places(s)
    _check_hands(s)
    _check_pending(s)
    _check_knowledge(s)
    if s.phase != OVER and not s.legal_actions():
        raise CorruptRecord("the seat to move would have no legal action")
    return s


def _check_places(s: CardGameState) -> None:
    """Conservation: every card of the game in exactly one place, of a kind that fits it."""
    cs = s.cs
    n = s.game.players
    staged = s.p_cards if s.phase in (DEFEND, ATTACK) else ()
    places: list[tuple[int, ...]] = [
        *s.hands, *s.reserve, *s.upres, tuple(s.loc_card), *s.loc_def, *s.loc_en,
        s.deck, s.discard, s.aside, staged,
    ]  # fmt: skip
    seen: set[int] = set()
    for group in places:
        for c in group:
            if c in seen:
                raise CorruptRecord(f"card {c} lies in two places")
            seen.add(c)
    expected = set(cs.cards_in_play(n)) | set(cs.start_cards)
    if seen != expected:
        missing = sorted(expected - seen)[:5]
        extra = sorted(seen - expected)[:5]
        raise CorruptRecord(f"cards missing {missing} or not in this game {extra}")
    if any(not (cs.is_location[c] or c in cs.start_cards) for c in s.loc_card):
        raise CorruptRecord("a Location slot holds a card that is not a Location")
    if any(c not in cs.start_cards for c in s.aside):
        raise CorruptRecord("only starting Locations are set aside")
    for p in range(n):
        if any(not (cs.is_support[c] and cs.param(c, "stays", False)) for c in s.upres[p]):
            raise CorruptRecord("only Support cards that stay lie in play")
    for L, owner in enumerate(s.loc_owner):
        defs, ens, att = s.loc_def[L], s.loc_en[L], s.loc_att[L]
        if any(not cs.is_defender[d] for d in defs):
            raise CorruptRecord(f"location {L} is defended by a card that is no Defender")
        if len({cs.type[d] for d in defs}) != len(defs):
            raise CorruptRecord(f"location {L} has two Defenders of one type")
        if any(not (cs.is_enemy[e] or cs.is_defender[e]) for e in ens):
            raise CorruptRecord(f"location {L} is attacked by a card that is no Enemy")
        enemies = [e for e in ens if cs.is_enemy[e]]
        for i, a in enumerate(enemies):
            for b in enemies[i + 1 :]:
                if not cs.combine[cs.design[a]][cs.design[b]]:
                    raise CorruptRecord(f"the Enemies at location {L} cannot combine")
        # While the conflict there is being decided (C-5.2 Ironsides, C-5.4 The Valiant, the
        # match), its Enemies may all be gone: the Impossible Astronaut discards itself against
        # River Song (C-card-impossible-astronaut); the attack ends with the conflict.
        deciding = s.p_loc == L and s.phase in (IRON, VALIANT, MATCH)
        if att == owner or (ens and att < 0) or (not ens and att >= 0 and not deciding):
            raise CorruptRecord(f"location {L}: the attacker does not fit its Enemy cards")
        if s.loc_up[L] >> len(ens):
            raise CorruptRecord(f"location {L}: face-up marks for cards that are not there")
    new = set(s.newres)
    if len(new) != len(s.newres) or not new <= set(s.reserve[s.active]):
        raise CorruptRecord("cards new in the reserve are not in the active player's reserve")
    if s.shuffled and not set(s.deck) <= set(s.shuffled):
        raise CorruptRecord("after a reshuffle the deck holds only cards of that pile (C-7.3)")


def _check_hands(s: CardGameState) -> None:
    """Before the End Game every seat can still end its turn: the active player keeps the
    cards it passes (C-3.2; Regeneration discards first and draws after), and every other
    seat but the one about to receive the active player's pass already holds that many."""
    if s.endgame or s.phase == OVER:
        return
    P = s.game.pass_count
    n = s.game.players
    if s.phase != REGEN and len(s.hands[s.active]) < P:
        raise CorruptRecord(f"the active player holds fewer than {P} cards (C-3.2)")
    receiver = (s.active - 1) % n
    for q in range(n):
        if q not in (s.active, receiver) and len(s.hands[q]) < P:
            raise CorruptRecord(f"seat {q} holds fewer than {P} cards between its turns")


def _check_pending(s: CardGameState) -> None:
    """The pending decision names a real Location and a seat that can make it."""
    cs = s.cs
    ph = s.phase
    L = s.p_loc
    needs_loc = (DEFEND, ATTACK, IRON, VALIANT, MATCH, JACK)
    if (L >= 0) != (ph in needs_loc):
        raise CorruptRecord(f"phase {ph!r} does not fit pending location {L}")
    if ph not in (DEFEND, ATTACK, IRON, VALIANT) and s.p_cards:
        raise CorruptRecord(f"phase {ph!r} has no staged cards")
    if (
        ph == VALIANT
        and s.p_cards
        and (
            s.game.rules < 2 or any(not cs.is_defender[c] or c not in s.discard for c in s.p_cards)
        )
    ):
        raise CorruptRecord("The Valiant returns only discarded Defenders, from rules 2 on")
    if ph == DEFEND and (
        s.loc_owner[L] != s.active or any(not cs.is_defender[c] for c in s.p_cards)
    ):
        raise CorruptRecord("Defenders are declared only for the active player's Location")
    if ph == ATTACK and (
        s.loc_owner[L] == s.active
        or s.loc_att[L] not in (-1, s.active)
        or any(not cs.is_enemy[c] for c in s.p_cards)
    ):
        raise CorruptRecord("Enemies are declared only against another player's Location")
    if ph in (IRON, VALIANT, MATCH) and s.loc_att[L] < 0:
        raise CorruptRecord(f"phase {ph!r} needs an attack at location {L}")
    if ph == IRON:
        owner = s.loc_owner[L]
        # Not a subset of the Location's Defenders: Impossible Astronaut, Madame Kovarian
        # and "removes" effects take Defenders away after they were staged (a real game
        # reached this, and the sampler's door then refused a true view mid-search).
        if any(not cs.is_defender[c] for c in s.p_cards):
            raise CorruptRecord("only Defenders are staged for Ironsides")
        if not any("ironsides" in cs.effects[c] for c in s.upres[owner]):
            raise CorruptRecord("Ironsides is offered only to a defender who has it in play")


def _check_knowledge(s: CardGameState) -> None:
    """Each holder knows its own cards, and face-up cards are known to every seat."""
    n = s.game.players
    full = (1 << n) - 1
    k = s.known
    public = [*s.loc_card, *s.discard, *s.aside, *(c for u in s.upres for c in u)]
    for L, ens in enumerate(s.loc_en):
        up = s.loc_up[L]
        public += [e for i, e in enumerate(ens) if up >> i & 1]
    if any(k[c] != full for c in public):
        raise CorruptRecord("a face-up card is not known to every seat")
    held: list[tuple[int, tuple[int, ...]]] = []
    for p in range(n):
        held += [(p, s.hands[p]), (p, s.reserve[p])]
    for L, owner in enumerate(s.loc_owner):
        held.append((owner, s.loc_def[L]))
        if s.loc_att[L] >= 0:
            held.append((s.loc_att[L], s.loc_en[L]))
    if s.phase in (DEFEND, ATTACK):
        held.append((s.active, s.p_cards))
    for p, cards in held:
        if any(not k[c] >> p & 1 for c in cards):
            raise CorruptRecord(f"seat {p} does not know a card it holds")


def check_view(game: CardGameRules, view: Any) -> None:
    """The cheap part of the `sample_state` door: a seat's view of this table, with hidden
    counts that are whole numbers no larger than the deck (a count of 10**20 would never
    finish dealing). The rest is proven by a deal (`check_dealt`)."""
    if not isinstance(view, Mapping) or "seat" not in view:
        raise CorruptRecord("a card-game view is a JSON object with a seat")
    if view["seat"] is None:
        raise InvalidSeat("sample_state needs a seat's view; a spectator's hides too much")
    game.check_seat(view["seat"])
    n = game.players
    if view.get("players") != n:
        raise CorruptRecord(f"the view is not of a {n}-player table")
    nc = len(game.cards.design)
    for key in ("hands", "reserves"):
        for zone in _list(view.get(key), key, n):
            if not isinstance(zone, Mapping):
                raise CorruptRecord(f"{key} entries are objects")
            count = _int(zone.get("count"), f"a count of {key}", 0, nc)
            if len(_cards(zone.get("known"), key, nc)) > count:
                raise CorruptRecord(f"{key}: more known cards than the count")
    # Seat numbers become bit masks (1 << seat): a huge one would take memory and time.
    _int(view.get("active"), "active", 0, n - 1)
    _int(view.get("first"), "first", 0, n - 1)
    for x in _list(view.get("locations"), "locations"):
        if not isinstance(x, Mapping):
            raise CorruptRecord("locations entries are objects")
        _int(x.get("owner"), "a location owner", 0, n - 1)
        _int(x.get("attacker"), "a location attacker", -1, n - 1)
        if len(_list(x.get("face_up"), "face_up")) != len(_list(x.get("enemies"), "enemies")):
            raise CorruptRecord("each Enemy card is face-up or not")
    deck = view.get("deck")
    if not isinstance(deck, Mapping):
        raise CorruptRecord("the view's deck is an object")
    _int(deck.get("count"), "the deck count", 0, nc)
    _cards(deck.get("known"), "the deck", nc)
    _int(view.get("reserve_new_count"), "reserve_new_count", 0, nc)


def check_dealt(dealt: CardGameState, view: Mapping[str, Any]) -> None:
    """The proof that `view` is one the game can show: a state dealt from it passes the
    state door and shows the seat exactly this view."""
    state = state_from_data(dealt.game, dealt.to_json())
    if state.view(view["seat"]) != view:
        raise CorruptRecord("no state of this game shows that view")
