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


def canonical(value: Any) -> str:
    """Canonical JSON text (sorted keys, no spaces): equal values, equal texts."""
    return _CANONICAL.encode(value)


#: `json.dumps(value, sort_keys=True, separators=(",", ":"))` without building an encoder
#: at every call (a learner's recall observation makes dozens of these a step)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


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
    """Each seat's decisions so far at one table (immutable; shared by the states after it)."""

    __slots__ = ("seats",)

    def __init__(self, seats: tuple[tuple[Decision, ...], ...]) -> None:
        self.seats = seats

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
        before = mine[-1].view if mine else None
        text = "[" + canonical(view_change(before, view)) + "," + canonical(action.to_json()) + "]"
        seats = (*self.seats[:seat], (*mine, Decision(index, view, text)), *self.seats[seat + 1 :])
        return Recall(seats)

    def only(self, seat: int) -> Recall:
        """The record as `seat` alone knows it: its own decisions (what a resampled state,
        consistent with its view, carries)."""
        return Recall(tuple(d if s == seat else () for s, d in enumerate(self.seats)))

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
    return '{"decisions":[' + entries + '],"view":' + canonical(view) + "}"


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
    top = int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")
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
        out[at : at + 2] = digest(information_state(record, seat, view))
        mine = record.seats[seat][: self.slots]
        out[at + 2 : at + 2 + len(mine)] = [(d.action + 1) / self.actions for d in mine]
        return out


def observation_encoder(game: Game, actions: int, recall: bool) -> Encoder | HistoryEncoder:
    """The encoder of a learner's observation of `game` (`actions` indices in its action
    space): the view's (`encoder_for`), or with `recall` the perfect-recall one of the view
    and the seat's decisions (`HistoryEncoder`; the caller keeps the seat's `Recall`, from
    what the seat saw and chose, and nothing else)."""
    return HistoryEncoder(game, actions) if recall else encoder_for(game)
