"""`sample_state`: a full state consistent with one seat's view, hidden cards dealt at random.

The seat's knowledge is read by `notebook.knowledge_from_view` (its hand, face-up cards,
cards shown to it, revealed hands, who could not answer, who showed one of three cards, wrong
accusations) and the hidden cards are drawn by the deducer's `DealSampler`: uniformly over
every deal consistent with the view, the same measure the deducer counts (one sampler is
cached per distinct knowledge, so a search sampling one view pays its set-up once). Only a
seat that has seen the envelope (out, or the game is over) falls back to a randomised
depth-first search (`_Deal`), consistent but not exactly uniform; such a seat no longer
plays for the envelope. Kept intrigue cards and the pile are dealt from what nobody has seen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from timelord.core import Rng
from timelord.games.clue.deduction import DealSampler
from timelord.games.clue.notebook import knowledge_from_view
from timelord.games.clue.state import CTX_NAMES, PHASES, WATCH, ClueState
from timelord.games.clue.view import make_state

if TYPE_CHECKING:
    from timelord.games.clue.game import ClueGame

# Holders: a seat (>= 0), the face-down side cards, or the envelope slot of a category.
SIDE = -2


def envelope_slot(category: int) -> int:
    return -11 - category


def is_envelope(holder: int) -> bool:
    return holder <= -11


class _Deal:
    """Where each unknown card lies: envelope, a hand or a side slot.

    The search picks an envelope, then for every "showed one of three" constraint a witness
    card in that player's hand, then deals the rest by bipartite matching (augmenting paths)
    so that hand sizes and "holds none of" constraints hold. Each stage is randomised.
    """

    def __init__(
        self,
        game: ClueGame,
        fixed: dict[int, int],
        capacity: dict[int, int],
        none_of: dict[int, set[int]],
        one_of: list[tuple[int, tuple[int, ...]]],
        not_env: list[tuple[int, ...]],
    ) -> None:
        self.game = game
        self.fixed = fixed
        self.capacity = capacity
        self.none_of = none_of
        self.one_of = one_of
        self.not_env = {frozenset(t) for t in not_env}

    def run(self, cards: list[int], rng: Rng) -> dict[int, int]:
        cats = self.game.categories
        slots = [envelope_slot(i) for i in range(len(cats))]
        env_free = [s for s in slots if self.capacity.get(s, 0) > 0]
        choices: list[list[int]] = []
        for slot in env_free:
            cat = cats[slots.index(slot)]
            options = [c for c in cards if c in cat]
            rng.shuffle(options)
            choices.append(options)
        fixed_env = [c for c, h in self.fixed.items() if is_envelope(h)]
        envelopes = _product(choices)
        rng.shuffle(envelopes)
        for env in envelopes:
            if self.not_env and frozenset((*fixed_env, *env)) in self.not_env:
                continue
            place = {c: slot for c, slot in zip(env, env_free, strict=True)}
            cap = {h: v for h, v in self.capacity.items() if not is_envelope(h)}
            rest = [c for c in cards if c not in place]
            got = self._witness(0, place, cap, rest, rng)
            if got is not None:
                return got
        raise ValueError("no deal of the hidden cards agrees with this view")

    def _witness(
        self,
        i: int,
        place: dict[int, int],
        cap: dict[int, int],
        rest: list[int],
        rng: Rng,
    ) -> dict[int, int] | None:
        while i < len(self.one_of):
            player, triple = self.one_of[i]
            if any(self.fixed.get(c, place.get(c)) == player for c in triple):
                i += 1
                continue
            break
        else:
            return self._match(place, cap, rest, rng)
        if cap.get(player, 0) <= 0:
            return None
        banned = self.none_of.get(player, ())
        options = [c for c in triple if c not in self.fixed and c not in place and c not in banned]
        rng.shuffle(options)
        for c in options:
            place[c] = player
            cap[player] -= 1
            got = self._witness(i + 1, place, cap, rest, rng)
            if got is not None:
                return got
            cap[player] += 1
            del place[c]
        return None

    def _match(
        self, place: dict[int, int], cap: dict[int, int], rest: list[int], rng: Rng
    ) -> dict[int, int] | None:
        todo = [c for c in rest if c not in place]
        rng.shuffle(todo)
        holders = [h for h, v in cap.items() if v > 0]
        allowed = {
            c: [h for h in holders if h < 0 or c not in self.none_of.get(h, ())] for c in todo
        }
        held: dict[int, list[int]] = {h: [] for h in holders}
        owner: dict[int, int] = {}

        def augment(card: int, seen: set[int]) -> bool:
            options = allowed[card]
            rng.shuffle(options)
            for h in options:
                if h not in seen and len(held[h]) < cap[h]:
                    held[h].append(card)
                    owner[card] = h
                    return True
            for h in options:
                if h in seen:
                    continue
                seen.add(h)
                for i, other in enumerate(held[h]):
                    if augment(other, seen):
                        held[h][i] = card
                        owner[card] = h
                        return True
            return False

        for card in todo:
            if not augment(card, set()):
                return None
        out = dict(place)
        out.update(owner)
        return out


def _product(choices: list[list[int]]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for options in choices:
        out = [(*t, c) for t in out for c in options]
    return out


#: One exact uniform sampler per seat's knowledge (search bots sample the same view many
#: times); bounded so a long session does not grow it without end.
_SAMPLERS: dict[tuple[Any, ...], DealSampler] = {}
_SAMPLERS_MAX = 256


def _uniform_deal(view: dict[str, Any], rng: Rng) -> dict[int, int]:
    """A deal drawn uniformly from all deals consistent with `view` (the deducer's measure),
    as card -> holder in this module's numbering (seat, `SIDE`, envelope slot)."""
    k = knowledge_from_view(view)
    key = (
        k.categories,
        k.seat,
        k.hand_sizes,
        k.own_hand,
        k.public,
        tuple(sorted(k.known.items())),
        k.events,
    )
    sampler = _SAMPLERS.get(key)
    if sampler is None:
        if len(_SAMPLERS) >= _SAMPLERS_MAX:
            _SAMPLERS.clear()
        sampler = _SAMPLERS[key] = DealSampler(k)
    deal = sampler.draw(rng)
    where: dict[int, int] = {}
    for p, hand in enumerate(deal.hands):
        for c in hand:
            where[c] = p
    for c in deal.aside:
        where[c] = SIDE
    for i, c in enumerate(deal.envelope):
        where[c] = envelope_slot(i)
    return where


def sample_state(game: ClueGame, view: dict[str, Any], rng: Rng) -> ClueState:
    seat = view["seat"]
    if not isinstance(seat, int):
        raise ValueError("sample_state needs a seat's view, not the spectator's")
    n = game.players
    hand_sizes = view["hand_sizes"]
    log = view["log"]
    cats = game.categories
    cat_of = {c: i for i, cat in enumerate(cats) for c in cat}

    def env_slot(card: int) -> int:
        return envelope_slot(cat_of[card])

    fixed: dict[int, int] = {}
    for c in view["hand"]:
        fixed[c] = seat
    public = set(view["leftovers"])
    for p, cards in view["revealed"].items():
        for c in cards:
            fixed[c] = int(p)
    side_count = view["side_count"]
    side_known: dict[int, int] = {int(i): c for i, c in view["side_seen"].items()}
    none_of: dict[int, set[int]] = {}
    one_of: list[tuple[int, tuple[int, ...]]] = []
    not_env: list[tuple[int, ...]] = []
    triple: tuple[int, ...] = ()
    for ev in log:
        kind = ev[0]
        if kind == "rumour":
            triple = tuple(ev[2:5])
        elif kind == "pass":
            none_of.setdefault(ev[1], set()).update(triple)
        elif kind == "show":
            if ev[3] is None:
                one_of.append((ev[1], triple))
            else:
                fixed[ev[3]] = ev[1]
        elif kind in ("peek", "scan"):
            if ev[3] is not None:
                fixed[ev[3]] = ev[2]
        elif kind == "accuse" and not ev[5]:
            not_env.append(tuple(ev[2:5]))
    # A peek event names (peeker, shower): the card is the shower's.
    for ev in log:
        if ev[0] == "peek" and ev[3] is not None:
            fixed[ev[3]] = ev[2]
    env_known = view["envelope"] is not None
    if env_known:
        for c in view["envelope"]:
            fixed[c] = env_slot(c)
    capacity: dict[int, int] = {}
    for p in range(n):
        if p == seat or str(p) in view["revealed"]:
            continue
        have = sum(1 for h in fixed.values() if h == p)
        capacity[p] = hand_sizes[p] - have
    for i in range(len(cats)):
        slot = envelope_slot(i)
        capacity[slot] = 0 if any(h == slot for h in fixed.values()) else 1
    unseen_side = [i for i in range(side_count) if i not in side_known]
    if unseen_side:
        capacity[SIDE] = len(unseen_side)
    known_side_cards = set(side_known.values())
    unknown = [
        c
        for c in range(len(game.card_names))
        if c not in fixed and c not in public and c not in known_side_cards
    ]
    if env_known:
        # A seat that has seen the envelope: the deducer cannot take the envelope as a fact
        # (see notebook.py), so the randomised search deals the few cards left.
        deal = _Deal(game, fixed, capacity, none_of, one_of, not_env).run(unknown, rng)
        where = dict(fixed)
        where.update(deal)
    else:
        where = _uniform_deal(view, rng)
    hands: list[list[int]] = [[] for _ in range(n)]
    env = [0, 0, 0]
    aside = []
    for c, h in where.items():
        if h >= 0:
            hands[h].append(c)
        elif h == SIDE:
            aside.append(c)
        else:
            env[cat_of[c]] = c
    rng.shuffle(aside)
    side = [0] * side_count
    it = iter(aside)
    for i in range(side_count):
        side[i] = side_known[i] if i in side_known else next(it)
    hand_sets = [set(h) for h in hands]

    # The history with every hidden card filled in from the sampled deal.
    events: list[tuple[Any, ...]] = []
    last_show = 0
    for ev in log:
        kind = ev[0]
        if kind == "rumour":
            triple = tuple(ev[2:5])
        if kind == "show":
            card = ev[3]
            if card is None:
                card = next(c for c in triple if c in hand_sets[ev[1]])
            last_show = card
            events.append(("show", ev[1], ev[2], card))
        elif kind == "peek":
            events.append(("peek", ev[1], ev[2], last_show if ev[3] is None else ev[3]))
        elif kind == "side":
            events.append(("side", ev[1], ev[2], side[ev[2]] if ev[3] is None else ev[3]))
        elif kind == "scan":
            card = ev[3]
            if card is None:
                target = sorted(hand_sets[ev[2]])
                card = target[rng.below(len(target))]
            events.append(("scan", ev[1], ev[2], card))
        else:
            events.append(tuple(ev))
    log_cons: Any = None
    for e in events:
        log_cons = (e, log_cons)

    # Intrigue cards: the pile and the others' kept cards come from what nobody has seen.
    pool = list(game.intrigue_deck) if game.intrigue else []
    gone = list(view["discards"]) + list(view["kept"])
    gone += [WATCH] * min(view["watches"], game.watches - 1)
    for kind in gone:
        pool.remove(kind)
    rng.shuffle(pool)
    kept: list[tuple[str, ...]] = []
    for p in range(n):
        if p == seat:
            kept.append(tuple(view["kept"]))
            continue
        mine = []
        for _ in range(view["kept_counts"][p]):
            k = next(k for k in pool if k != WATCH and game.keep[k])
            pool.remove(k)
            mine.append(k)
        kept.append(tuple(sorted(mine)))
    if len(pool) != view["pile_size"]:
        raise ValueError("the intrigue cards in this view do not add up")
    seen_side: list[tuple[int, ...]] = [() for _ in range(n)]
    seen_side[seat] = tuple(sorted(side_known))
    for ev in log:
        if ev[0] == "side" and ev[1] != seat:
            seen_side[ev[1]] = tuple(sorted((*seen_side[ev[1]], ev[2])))
    saw = [False] * n  # who has looked in the envelope: every wrong accuser
    for ev in log:
        if ev[0] == "accuse" and not ev[5]:
            saw[ev[1]] = True
    winner = view["winner"]
    return make_state(
        game,
        {
            "game": game,
            "rng": rng.next64(),
            "hands": tuple(tuple(sorted(h)) for h in hands),
            "env": tuple(env),
            "left": tuple(view["leftovers"]),
            "side": tuple(side),
            "chars": tuple(view["characters"]),
            "pos": tuple(view["movers"]),
            "wpos": tuple(view["weapons"]),
            "cur": view["current"],
            "phase": PHASES.index(view["phase"]),
            "dec": view["to_move"] if view["to_move"] is not None else -1,
            "roll": tuple(view["roll"]),
            "steps": view["steps"],
            "moved": tuple(view["moved"]),
            "out": tuple(view["out"]),
            "saw": tuple(saw),
            "seen_side": tuple(seen_side),
            "pile": tuple(pool),
            "kept": tuple(kept),
            "discards": tuple(view["discards"]),
            "watches": view["watches"],
            "used": tuple(view["powers_used"]),
            "extra": tuple(view["extra_turns"]),
            "turn": view["turn"],
            "naming": tuple(view["naming"]),
            "purpose": view["purpose"],
            "nloc": view["naming_location"],
            "rum": tuple(view["rumour"]),
            "ask": view["ask"],
            "shows": view["shows"],
            "peekq": tuple(view["peek_queue"]),
            "second": view["second"],
            "ctx": CTX_NAMES.index(view["ctx"]),
            "winner": -1 if winner is None else winner,
            "log": log_cons,
        },
    )
