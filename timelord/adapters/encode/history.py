"""A seat's perfect-recall record: what it saw at each of its decisions and what it chose.

A view is a snapshot: two histories can reach one view though the seat's own past differs
(in Keys, seat 1 discards a Key before or after seat 0 opens a door: the table ends the same,
but seat 1 decided in two different positions). The information state is therefore the
ordered sequence of the seat's decision points, each what it saw then (its view, the whole
of what the table told it) and the action it took, followed by what it sees now. Two
histories share it only when the seat's own (information state, action) sequences are
equal: perfect recall holds by construction, whatever a game's view keeps or forgets.

It is also what a seat at the table can rebuild alone (an agent is shown its view at each
decision and knows what it chose), so a tabular policy over these keys can be played by a
seat (`timelord.agents.tabular`).

- `Recall` is the record of every seat of one table, immutable; `after(state, action)` is
  the record once the mover of `state` took `action` there.
- `information_state(record, seat, view)`: the canonical JSON text of the seat's decisions
  (each the change of its view since its previous decision, then the action) and its view;
  `past_of` reads it back as whole views and actions.
- `HistoryEncoder`: the perfect-recall observation of the view, a digest of the information
  state string and a fixed-size segment of the seat's decisions (per decision slot, its
  action), for learners and OpenSpiel's information state tensor.
- `observation_encoder(game, actions, recall)`: what the learners' adapters encode with
  (the Gymnasium, vector and PettingZoo envs, the policy agent, datasets): the view's encoder,
  or with `recall` a `HistoryEncoder`, whose caller keeps the `Recall`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from timelord.core import Action, Game, State, View

from . import Array, Encoder, encoder_for

#: `json.dumps(value, sort_keys=True, separators=(",", ":"))` without building an encoder
#: at every call (a learner's recall observation makes dozens of these a step)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
#: the C encoder `_CANONICAL.encode` builds afresh at each call for anything but a string
#: (the same arguments, circular check off: views are trees), made once here
_make_c_encoder = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODE = (
    _make_c_encoder(
        None,
        _CANONICAL.default,
        json.encoder.encode_basestring_ascii,
        None,
        ":",
        ",",
        True,
        False,
        True,
    )
    if _make_c_encoder is not None
    else None
)


def canonical(value: Any) -> str:
    """Canonical JSON text (sorted keys, no spaces): equal values, equal texts."""
    if _C_ENCODE is None:
        return _CANONICAL.encode(value)
    return "".join(_C_ENCODE(value, 0))


#: a view's top-level field name -> the canonical text of its value
Texts = dict[str, str]

#: the view `field_texts` last wrote, and its texts: an env encodes a view, then records
#: the decision taken at it, and both need its texts (the view is held, so its id is not
#: reused while it is here; views are never changed in place once built)
_last_texts: tuple[Mapping[str, Any], Texts] | None = None


def field_texts(view: Mapping[str, Any]) -> Texts:
    """The canonical text of each top-level field of `view`: `view_text` joins them into
    `canonical(view)`, and two views' fields compare by them (as `view_change` compares)."""
    global _last_texts
    last = _last_texts
    if last is not None and last[0] is view:
        return last[1]
    texts = {k: canonical(v) for k, v in view.items()}
    _last_texts = (view, texts)
    return texts


def _str_keys(view: Mapping[str, Any]) -> bool:
    """Whether every field name of `view` is a string (the types gathered in C)."""
    return set(map(type, view)) <= _STR


_STR = {str}


def _members(texts: Texts, keys: list[str]) -> str:
    """`"key":text` of each of `keys` (sorted), as a canonical object's members."""
    return ",".join([canonical(k) + ":" + texts[k] for k in keys])


def view_text(view: Mapping[str, Any]) -> str:
    """`canonical(view)` from its fields' texts (the same text: a canonical object is its
    sorted members, each key's text and its value's)."""
    if not _str_keys(view):  # json turns other keys to text after sorting
        return canonical(view)
    texts = field_texts(view)
    return "{" + _members(texts, sorted(texts)) + "}"


def _change_text(before: Texts | None, after: Texts) -> str:
    """`canonical(view_change(before, after))` from the two views' field texts."""
    old = before or {}
    changed = sorted(k for k, t in after.items() if old.get(k) != t)
    text = '{"set":{' + _members(after, changed) + "}"
    gone = sorted(k for k in old if k not in after)
    if gone:
        text += ',"unset":' + canonical(gone)
    return text + "}"


def view_change(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> dict[str, Any]:
    """What changed in a view: its top-level fields that are new or differ (`set`) and
    those it no longer has (`unset`); `after` is `before` with the change applied, so a
    sequence of changes gives back every view of the sequence."""
    old = before or {}
    # compared as JSON texts: 1 == True == 1.0 in Python, but not in the view's JSON
    changed = {k: v for k, v in after.items() if k not in old or canonical(old[k]) != canonical(v)}
    change: dict[str, Any] = {"set": changed}
    gone = sorted(k for k in old if k not in after)
    if gone:
        change["unset"] = gone
    return change


class Decision(NamedTuple):
    """One decision of a seat: the index of the action it took, its view then, and the
    entry's text (view change and action)."""

    action: int
    view: View
    text: str


class Recall:
    """Each seat's decisions so far at one table (immutable; shared by the states after it).

    It also keeps, per seat, what the next decision and observation reuse instead of
    rewriting the whole past (a recall observation used to canonicalise every view twice
    and hash the whole record again at every step): the field texts of the seat's last
    view, and the SHA-256 of its information state string up to the end of its decisions.
    Both are derived from `seats`, so a pickle or a copy leaves them out and they are made
    again when first needed."""

    __slots__ = ("_hashes", "_texts", "seats")

    def __init__(
        self,
        seats: tuple[tuple[Decision, ...], ...],
        texts: tuple[Texts | None, ...] | None = None,
        hashes: tuple[Any, ...] | None = None,
    ) -> None:
        self.seats = seats
        #: per seat, the field texts of its last decision's view (None: not made yet)
        self._texts: tuple[Texts | None, ...] = texts or (None,) * len(seats)
        #: per seat, the hash of `'{"decisions":[' + its entries joined by ","`; never
        #: updated in place (a record shares it with the records before it): copied first
        self._hashes: tuple[Any, ...] = hashes or (None,) * len(seats)

    def __reduce__(self) -> tuple[Any, tuple[tuple[tuple[Decision, ...], ...]]]:
        return Recall, (self.seats,)

    @classmethod
    def start(cls, players: int) -> Recall:
        """The record at the deal: no decisions yet."""
        return cls(((),) * players)

    def after(self, state: State, action: Action, index: int) -> Recall:
        """The record once the seat to move in `state` took `action` (its `index` in the
        game's action space) there."""
        seat = state.to_move
        assert seat is not None, "no decision at a finished game"
        return self.decided(seat, state.view(seat), action, index)

    def decided(self, seat: int, view: View, action: Action, index: int) -> Recall:
        """The record once `seat`, shown `view`, took `action` (`index`)."""
        mine = self.seats[seat]
        texts = field_texts(view) if _str_keys(view) else None
        if texts is None:  # not a view of this package's games: the plain path
            before = mine[-1].view if mine else None
            change = canonical(view_change(before, view))
        else:
            change = _change_text(self._view_texts(seat), texts)
        text = "[" + change + "," + canonical(action.to_json()) + "]"
        seats = (*self.seats[:seat], (*mine, Decision(index, view, text)), *self.seats[seat + 1 :])
        known = self._hashes[seat]
        if known is not None:
            known = known.copy()
            known.update(("," + text if mine else text).encode())
        return Recall(
            seats,
            (*self._texts[:seat], texts, *self._texts[seat + 1 :]),
            (*self._hashes[:seat], known, *self._hashes[seat + 1 :]),
        )

    def _view_texts(self, seat: int) -> Texts | None:
        """The field texts of `seat`'s last decision's view (None before its first)."""
        mine = self.seats[seat]
        if not mine:
            return None
        texts = self._texts[seat]
        if texts is None:
            texts = {k: canonical(v) for k, v in mine[-1].view.items()}
        return texts

    def decisions_hash(self, seat: int) -> Any:
        """The SHA-256 (a `hashlib` object: copy it before updating) of the start of
        `seat`'s information state string, up to the end of its decisions' entries."""
        known = self._hashes[seat]
        if known is None:
            entries = ",".join(d.text for d in self.seats[seat])
            known = hashlib.sha256(('{"decisions":[' + entries).encode())
            self._hashes = (*self._hashes[:seat], known, *self._hashes[seat + 1 :])
        return known

    def only(self, seat: int) -> Recall:
        """The record as `seat` alone knows it: its own decisions (what a resampled state,
        consistent with its view, carries)."""
        seats = tuple(d if s == seat else () for s, d in enumerate(self.seats))
        keep = tuple(x if s == seat else None for s, x in enumerate(self._texts))
        hashes = tuple(x if s == seat else None for s, x in enumerate(self._hashes))
        return Recall(seats, keep, hashes)

    def to_json(self) -> list[list[list[Any]]]:
        return [[[d.action, d.view, d.text] for d in mine] for mine in self.seats]

    @classmethod
    def from_json(cls, data: Any) -> Recall:
        return cls(tuple(tuple(Decision(int(a), v, str(t)) for a, v, t in mine) for mine in data))


def information_state(record: Recall, seat: int, view: View) -> str:
    """The seat's information state as canonical JSON: `{"decisions": [[change, action],
    ...], "view": view}`, each change the view's change since the seat's previous decision
    (`view_change`), each action its JSON form."""
    entries = ",".join(d.text for d in record.seats[seat])
    return '{"decisions":[' + entries + '],"view":' + view_text(view) + "}"


def information_state_digest(record: Recall, seat: int, view: View) -> tuple[float, float]:
    """`digest(information_state(record, seat, view))`, hashing only the view's text on top
    of the record's hash of the seat's decisions (`Recall.decisions_hash`)."""
    h = record.decisions_hash(seat).copy()
    h.update(('],"view":' + view_text(view) + "}").encode())
    return _digest_numbers(h.digest())


def past_of(game: Game, text: str) -> tuple[list[tuple[View, Action]], View]:
    """The seat's decisions (each the whole view it was shown and the action it took) and its
    view now, read back from an information state string (`information_state`)."""
    data = json.loads(text)
    decisions: list[tuple[View, Action]] = []
    view: dict[str, Any] = {}
    for change, action in data["decisions"]:
        view = {**view, **change["set"]}
        for gone in change.get("unset", ()):
            del view[gone]
        decisions.append((view, game.action_from_json(action)))
    return decisions, data["view"]


#: decision slots the tensor spells out (their actions) at most; past them only the digest
#: (which covers every decision) tells pasts apart
SLOTS = 256


def digest(text: str) -> tuple[float, float]:
    """48 bits of the SHA-256 of `text` as two numbers in [0, 1), each exact in float32 (24
    bits): two different texts give equal numbers with a chance of 2**-48."""
    return _digest_numbers(hashlib.sha256(text.encode()).digest())


def _digest_numbers(sha: bytes) -> tuple[float, float]:
    """The two numbers of `digest` from the SHA-256 bytes."""
    top = int.from_bytes(sha[:6], "big")
    return (top >> 24) / _TWO24, (top & 0xFFFFFF) / _TWO24


_TWO24 = float(1 << 24)


class HistoryEncoder:
    """The perfect-recall observation of a seat's view, then the digest of its information
    state string (`information_state`, `digest`), then one slot per decision in order (at
    most `SLOTS`, or the game's longest history if less): (action index + 1) / actions,
    zeros for slots not reached. (When others moved is left out: how many moves a seat
    makes can be its secret.)

    The view's observation says what the seat sees now and the slots which actions it took,
    for a learner to read; neither alone tells every past apart (in the two-suit
    Episodes, two draws after one Foe ability reach one hand: the seat's earlier hands
    differed, its actions and view now do not). The digest does, by construction, save a
    2**-48 chance per pair of pasts (checked over the small variants' trees and sampled
    transpositions of the standard games: tests/adapters/test_recall_history.py)."""

    def __init__(self, game: Game, actions: int) -> None:
        self.game = game
        self.view_encoder: Encoder = encoder_for(game, recall=True)
        self.actions = actions
        self.slots = min(SLOTS, game.max_actions)
        self.size = self.view_encoder.size + 2 + self.slots
        #: the named segments in order, as `Encoder.layout`: the view's, then the digest and
        #: the decision slots
        self.layout: tuple[tuple[str, int], ...] = (
            *self.view_encoder.layout,
            ("digest", 2),
            ("decisions", self.slots),
        )
        self.high: Array = np.concatenate(
            [self.view_encoder.high, np.ones(2 + self.slots, np.float32)]
        ).astype(np.float32)

    def encode(self, view: View, record: Recall, seat: int, state: State | None = None) -> Array:
        """The observation of `view` and the seat's decisions in `record`; given `state`
        (whose view of `seat` is `view`), the view's part is read straight from it where
        the game has `state_parts` (`Encoder.encode_state`: the same numbers, faster)."""
        out: Array = np.zeros(self.size, np.float32)
        at = self.view_encoder.size
        if state is not None and self.view_encoder.direct:
            out[:at] = self.view_encoder.encode_state(state, seat)
        else:
            out[:at] = self.view_encoder.encode(view)
        out[at : at + 2] = information_state_digest(record, seat, view)
        mine = record.seats[seat][: self.slots]
        out[at + 2 : at + 2 + len(mine)] = [(d.action + 1) / self.actions for d in mine]
        return out


def observation_encoder(game: Game, actions: int, recall: bool) -> Encoder | HistoryEncoder:
    """The encoder of a learner's observation of `game` (`actions` indices in its action
    space): the view's (`encoder_for`), or with `recall` the perfect-recall one of the view
    and the seat's decisions (`HistoryEncoder`; the caller keeps the seat's `Recall`, from
    what the seat saw and chose, and nothing else)."""
    return HistoryEncoder(game, actions) if recall else encoder_for(game)
