"""Events, the log a seat reads to follow the game: what each seat is told of every action,
redacted exactly as views are
(C-7.1): a seat never sees a card in an event that its views do not show it, the spectator
only face-up cards, and what a seat is told never depends on what it cannot see."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

import timelord
from timelord.core import Rng
from timelord.games.card_game import actions as A
from timelord.games.card_game.game import CardGame
from timelord.games.card_game.scenario import Scenario
from timelord.games.card_game.state import PHASES, CardGameState

FILL = ("rory", "rory", "clara")

#: The event kind each action type always produces (its own account of the move).
OWN_KIND: dict[type, set[str]] = {
    A.PlayLocation: {"play-location"},
    A.PlayDefender: {"declare"},
    A.PlayEnemy: {"declare"},
    A.TakeOver: {"take-over"},
    A.PlaySupport: {"play-support"},
    A.PlaceReserve: {"reserve"},
    A.PickUp: {"pick-up"},
    A.BuyCards: {"buy"},
    A.DiscardForTime: {"discard"},
    A.EndTurn: {"pass-cards"},
    A.Finish: {"defend", "attack", "attack-tardis", "decline", "regenerate"},
    A.Pass: {"decline"},
    A.TakeTime: {"time"},
    A.RemoveTardis: {"tardis"},
    A.PlaceTardis: {"tardis"},
    A.DiscardToRegenerate: {"discard"},
    A.UseIronsides: {"ironsides"},
    A.PlayValiant: {"valiant"},
    A.DiscardEnemies: {"discard"},
}
CARD_KEYS = ("card", "cards", "defenders", "enemies")
#: Ids for programs that must never reach a sentence.
INTERNAL_IDS = {
    *(p for p in PHASES if "-" in p), *(k for ks in OWN_KIND.values() for k in ks if "-" in k),
    "turn-limit", "end-game", "game-over", "move-attack", "return-to-hand", "None",
}  # fmt: skip


def _cards_in(data: dict[str, Any]) -> set[int]:
    out: set[int] = set()
    for key in CARD_KEYS:
        v = data.get(key)
        if isinstance(v, int):
            out.add(v)
        elif isinstance(v, list):
            out.update(c for c in v if isinstance(c, int))
    return out


#: Events that show cards face-up on their way back to a hand (C-card-rory, The Valiant):
#: every seat, the spectator too, saw them, though hands are secret afterwards.
FACE_UP_TO_HAND = ("reveal", "return-to-hand", "valiant")


def _public_in_hands(s: CardGameState) -> set[int]:
    full = (1 << s.game.players) - 1
    return {c for h in s.hands for c in h if s.known[c] == full}


def _cards_in_view(v: Any) -> set[int]:
    """Every card id a view shows anywhere (lists of ids and `card` fields)."""
    out: set[int] = set()
    if isinstance(v, dict):
        for key, x in v.items():
            if key in ("card", "known", "defenders", "enemies", "discard", "aside", "cards"):
                out |= {c for c in (x if isinstance(x, list) else [x]) if isinstance(c, int)}
            if key in ("reshuffled", "reserve_up", "passed", "reserve_new"):
                out |= {c for c in _flat(x)}
            out |= _cards_in_view(x)
    elif isinstance(v, list):
        for x in v:
            out |= _cards_in_view(x)
    return out


def _flat(x: Any) -> list[int]:
    if isinstance(x, list):
        return [c for y in x for c in _flat(y)]
    return [x] if isinstance(x, int) else []


def _play(players: int, seeds: range) -> list[tuple[CardGameState, Any, CardGameState, list[Any]]]:
    game = timelord.load("card-game", players=players)
    rng = Rng(players * 31)
    out = []
    for seed in seeds:
        s = game.new_game(seed)
        while not s.is_over:
            legal = s.legal_actions()
            a = legal[rng.below(len(legal))]
            nxt, events = s.apply_with_events(a)
            out.append((s, a, nxt, events))
            s = nxt
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_action_is_told_and_names_no_hidden_card(players: int) -> None:
    """C-7.1: every action yields its own event; each seat's told events name only cards its
    views show (before or after), the spectator only face-up ones; texts are plain sentences
    with no internal ids; the checked path reaches the same state as `apply`."""
    game = timelord.load("card-game", players=players)
    kinds: dict[type, set[str]] = defaultdict(set)
    for s, a, nxt, events in _play(players, range(6)):
        assert nxt.to_json() == s.apply(a).to_json()
        got = {e.kind for e in events}
        assert got & OWN_KIND[type(a)], (a, got)
        kinds[type(a)] |= got
        for seat in [None, *range(players)]:
            shown = _cards_in_view(s.view(seat)) | _cards_in_view(nxt.view(seat))
            for told in game.tell(events, seat):
                seen = shown
                if told["kind"] in FACE_UP_TO_HAND:
                    seen = shown | _public_in_hands(nxt)
                assert _cards_in(told["data"]) <= seen, (seat, a, told)
                text = told["text"]
                assert text and not any(i in text for i in INTERNAL_IDS), text
                if seat is None:
                    assert not text.startswith("You")
    assert len(kinds) >= 12


def _swap_hidden(s: CardGameState, seat: int | None, exclude: set[int], rng: Rng) -> Any:
    """A copy of `s` in which two hand cards of two other seats, both unknown to `seat`,
    change places (with their knowledge marks): the same position as far as `seat` can
    tell. None if there are no such cards."""
    n = s.game.players
    others = [p for p in range(n) if p != seat and s.hands[p]]
    if len(others) < 2:
        return None
    p, q = others[rng.below(len(others))], others[rng.below(len(others))]
    bit = 0 if seat is None else 1 << seat
    hid_p = [c for c in s.hands[p] if not s.known[c] & bit and c not in exclude]
    hid_q = [c for c in s.hands[q] if not s.known[c] & bit and c not in exclude]
    if p == q or not hid_p or not hid_q:
        return None
    a, b = hid_p[rng.below(len(hid_p))], hid_q[rng.below(len(hid_q))]
    t = s.copy()
    t.hands[p] = tuple(sorted(c if c != a else b for c in s.hands[p]))
    t.hands[q] = tuple(sorted(c if c != b else a for c in s.hands[q]))
    t.known[a], t.known[b] = s.known[b], s.known[a]
    return t


def _action_cards(a: Any) -> set[int]:
    out = {getattr(a, f) for f in ("card", "extra") if isinstance(getattr(a, f, None), int)}
    return out | set(getattr(a, "cards", ()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_told_events_do_not_depend_on_what_a_seat_cannot_see(players: int) -> None:
    """C-7.1 leak test: two states that differ only in cards seat s cannot see (two hidden
    hand cards of other seats swapped) tell s exactly the same events for the same action;
    the spectator likewise."""
    game = timelord.load("card-game", players=players)
    rng = Rng(players)
    compared = 0
    for s, a, _nxt, events in _play(players, range(3)):
        for seat in [None, *range(players)]:
            t = _swap_hidden(s, seat, _action_cards(a), rng)
            if t is None:
                continue
            assert t.view(seat) == s.view(seat)
            if a not in t.legal_actions():
                continue
            mover = s.to_move
            if isinstance(a, A.EndTurn) and seat == (mover - 1) % players:
                continue  # the receiver is handed the cards: it sees them now
            _, other = t.apply_with_events(a)
            assert game.tell(other, seat) == game.tell(events, seat), (seat, a)
            compared += 1
    assert compared > 200


def test_conflict_is_told_with_both_strengths_and_the_losses(game3: CardGame) -> None:
    """C-5.2 to C-5.5: the conflict names the Location, both strengths and the winner, and
    what each side discards; the face-down Enemy is named to the attacker only until the
    reveal, then to everyone."""
    t = Scenario(game3, active=0)
    L = t.location(1, defenders=["rory"])
    h = t.hand(0, "dalek-flagship", *FILL)
    s = t.state().apply(A.PlayEnemy(h[0], L))
    place = game3.cards.name[s.loc_card[L]]
    s, events = s.apply_with_events(A.Finish())
    texts = [x["text"] for x in game3.tell(events, 2)]
    assert texts[0] == f"Red attacks {place} with a face-down Enemy"
    assert f"Conflict at {place}: attack 4 against defence 1, the attack wins" in texts
    assert game3.tell(events, 0)[0]["text"] == f"You attack {place} with Dalek Flagship"
    # The defender decides on The Valiant; passing discards the Defender.
    s, events = s.apply_with_events(A.Pass())
    told = [x["text"] for x in game3.tell(events, 1)]
    assert "You do not play The Valiant" in told
    assert any(x.startswith("Red discards") for x in told)


def test_draws_are_private_and_passes_go_to_passer_and_receiver(game3: CardGame) -> None:
    """C-7.1 / C-3.3: the passed cards are named to the passer and the receiver only; the
    cards drawn to the drawer only; everyone is told how many."""
    t = Scenario(game3, active=1)
    h = t.hand(1, *FILL)
    s = t.state()
    _, events = s.apply_with_events(A.EndTurn())
    by_seat = {q: game3.tell(events, q) for q in (None, 0, 1, 2)}
    names = {game3.cards.name[c] for c in h}
    pass_text = {q: told[0]["text"] for q, told in by_seat.items()}
    assert all(n in pass_text[0] and n in pass_text[1] for n in names)
    assert pass_text[2] == "Blue passes 3 cards to Red" == pass_text[None]
    assert pass_text[0].endswith("to you") and pass_text[1].startswith("You pass")
    draw = {q: next(x for x in told if x["kind"] == "draw") for q, told in by_seat.items()}
    assert None not in draw[1]["data"]["cards"]
    for q in (None, 0, 2):
        assert draw[q]["data"]["cards"] == [None, None] and draw[q]["text"] == "Blue draws 2 cards"


def test_game_over_is_told() -> None:
    """C-6.4: the last action tells that the game is over, why, the scores and winners."""
    moves = _play(2, range(1))
    _, _, last, events = moves[-1]
    over = [e for e in events if e.kind == "game-over"]
    assert last.is_over and len(over) == 1
    assert over[0].data["winners"] == last.winners()
