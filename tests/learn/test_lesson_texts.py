"""Every lesson step's text is true of the position it is shown in (issue 33 item 2), and
reads the same in both clients: the cards and tiles it names are where it says (in the hand,
on the board, in what the learner was just told, among the offered moves), its sums add up,
and it never speaks of clicking, glowing or a page that the terminal does not have."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from timelord.core import Game, State
from timelord.learn import LEARNER, Lesson, load_lesson, plan

GAMES = ("card-game", "clue", "episodes", "keys")

#: words that belong to one client only: the browser's pointer and page, the terminal's keys
CLIENT_WORDS = re.compile(
    r"\bclick|\btap\b|\bglow|\bbutton|\bhover|\bthe page\b|\bthe log\b|★|\bpress\b|\btype\b",
    re.IGNORECASE,
)
SUITS = ("Doctor", "Companion", "Gadget", "Foe", "Plot", "Special")


@dataclass
class Shown:
    """A learner's step as the learner meets it."""

    n: int
    say: str
    label: str
    state: State
    #: what the learner was told from their last move on, and what this step's move told
    told_before: list[str]
    told_after: list[str]

    def text(self, game: Game) -> str:
        view = self.state.view(LEARNER)
        menu = [game.action_label(view, a) for a in self.state.legal_actions()]
        return "\n".join([game.render_view(view), *self.told_before, *menu])


def _walk(lesson: Lesson) -> list[Shown]:
    game = lesson.game()
    state = game.new_game(lesson.seed)
    shown: list[Shown] = []
    told: list[str] = []
    for ply in plan(lesson):
        mine = ply.seat == LEARNER and ply.step is not None
        before = state
        state, events = state.apply_with_events(ply.action)
        texts = [t["text"] for t in game.tell(events, LEARNER)]
        if mine:
            assert ply.step is not None
            shown.append(Shown(len(shown) + 1, ply.step.say, ply.label, before, told, texts))
            told = texts  # what the learner's own move showed is in sight at the next step
        else:
            told = told + texts
    return shown


@pytest.fixture(scope="module", params=GAMES)
def walked(request: pytest.FixtureRequest) -> tuple[Lesson, list[Shown]]:
    lesson = load_lesson(request.param)
    return lesson, _walk(lesson)


def test_texts_speak_to_both_clients(walked: tuple[Lesson, list[Shown]]) -> None:
    lesson, steps = walked
    for where, text in [("intro", lesson.intro), ("outro", lesson.outro)] + [
        (f"step {s.n}", s.say) for s in steps
    ]:
        assert not CLIENT_WORDS.search(text), (lesson.game_id, where, text)


def test_lines_a_step_quotes_are_drawn(walked: tuple[Lesson, list[Shown]]) -> None:
    lesson, steps = walked
    game = lesson.game()
    for s in steps:
        for quoted in re.findall(r"line “([^”]+)”", s.say):
            assert quoted in game.render_view(s.state.view(LEARNER)), (s.n, quoted)


def test_sums_add_up(walked: tuple[Lesson, list[Shown]]) -> None:
    _, steps = walked
    for s in steps:
        for terms, total in re.findall(r"(\d+(?: \+ \d+)+) = (\d+)", s.say):
            assert sum(int(t) for t in terms.split(" + ")) == int(total), (s.n, terms)


def _names(game: Game) -> list[str]:
    """The names a lesson may mention that the learner must be able to find on screen."""
    if game.id == "card-game":
        return sorted(set(game.cards.name))  # type: ignore[attr-defined]
    if game.id == "keys":  # the cards (tiles' backs are named once they are seen)
        return [n for n, e in game.glossary().items() if e.get("kind") == "card"]
    return []  # Clue's notebook lists every card always (its claims are checked below);
    # Episodes' cards are "Suit N", checked below


def test_named_cards_and_tiles_are_in_sight(walked: tuple[Lesson, list[Shown]]) -> None:
    """A card, tile or place a step names is in the hand, on the board, in what the learner
    was just told or among the moves offered: where the learner can find it."""
    lesson, steps = walked
    game = lesson.game()
    names = _names(game)
    for s in steps:
        sight = s.text(game)
        for name in names:
            if re.search(rf"\b{re.escape(name)}\b", s.say):
                assert name in sight, (lesson.game_id, s.n, name)
        if game.id == "episodes":
            for suit, value in re.findall(rf"\b({'|'.join(SUITS)}) (\d+)", s.say):
                card = f"{suit} {value}"
                assert card in s.state.view(LEARNER)["hand"] or card in " ".join(s.told_before), (
                    s.n,
                    card,
                )
        if game.id == "keys":
            for tile in re.findall(r"\b([a-g][1-7])\b", s.say):
                assert re.search(rf"\b{tile}\b", sight), (s.n, tile)


def test_episodes_hand_claims_hold() -> None:
    """ "You lack a Foe", "every suit but a Special", "two Companion 3s", "scores 14 VP"."""
    for s in _walk(load_lesson("episodes")):
        hand = s.state.view(LEARNER)["hand"]
        suits = {card.split()[0] for card in hand}
        for lacked in re.findall(r"\black an? (\w+)(?: and an? (\w+))?", s.say):
            for suit in filter(None, lacked):
                assert suit not in suits, (s.n, suit, hand)
        for but in re.findall(r"every suit but an? (\w+)", s.say):
            assert suits == set(SUITS) - {but}, (s.n, but, hand)
        for card in re.findall(r"\btwo (\w+ \d+)s\b", s.say):
            assert hand.count(card) == 2, (s.n, card, hand)
        for vp in re.findall(r"\bscores (\d+) VP", s.say):
            assert any(f"for {vp} VP" in t for t in s.told_after), (s.n, vp, s.told_after)


def test_the_episodes_lesson_plays_to_the_rulebooks_target() -> None:
    """E-7.1: the first to 50 VP wins; the lesson and its follow-up game say and use that."""
    lesson = load_lesson("episodes")
    assert lesson.game().options["target"] == 50
    assert "50 VP" in lesson.intro and "30 VP" not in lesson.intro


def _keys_colours(game: Game, state: State) -> dict[str, str]:
    """Tile -> door colour word, read from the learner's board as drawn."""
    letters = {"B": "blue", "R": "red", "G": "green", "Y": "yellow"}
    colours = {}
    for line in game.render_view(state.view(LEARNER)).splitlines():
        row = re.match(r"^(\d) (.*)", line)
        if not row:
            continue
        for col, cell in zip("abcdefg", row.group(2).split("|"), strict=False):
            cell = cell.strip()
            if cell[:1] in letters:
                colours[f"{col}{row.group(1)}"] = letters[cell[0]]
    return colours


def test_keys_door_colours_are_the_colours_drawn() -> None:
    lesson = load_lesson("keys")
    game = lesson.game()
    for s in _walk(lesson):
        colours = _keys_colours(game, s.state)
        said = re.findall(r"\b([a-g][1-7])\b(?:, [^,.]+,)? is (red|blue|green|yellow)\b", s.say)
        said += re.findall(r"\b([a-g][1-7]), the (red|blue|green|yellow) door", s.say)
        said += re.findall(r"\b([a-g][1-7]), the door [^,.]*?, is (red|blue|green|yellow)", s.say)
        for tile, colour in said:
            assert colours[tile] == colour, (s.n, tile, colour)


def _clue_card(game: Game, short: str) -> int:
    """The one card whose name contains `short` ("the Sonic" -> Sonic Screwdriver)."""
    short = re.sub(r"^the ", "", short.strip())
    found = [i for i, name in enumerate(game.card_names) if short in name]  # type: ignore[attr-defined]
    assert len(found) == 1, (short, found)
    return found[0]


def test_clue_envelope_and_hand_claims_hold() -> None:
    lesson = load_lesson("clue")
    game = lesson.game()
    for s in _walk(lesson):
        envelope = set(s.state.env)  # type: ignore[attr-defined]
        hand = s.state.view(LEARNER)["hand"]
        for names in re.findall(r"so (.+?) (?:must be|are all) in the envelope", s.say):
            for short in re.split(r", | and ", names):
                assert _clue_card(game, short) in envelope, (s.n, short)
        for short in re.findall(r"(?:showed you|in your hand:?) the ([\w' ]+?)[,:.]", s.say):
            assert _clue_card(game, short) not in envelope, (s.n, short)
        for short in re.findall(r"asks about ([\w' ]+?), which you hold", s.say):
            assert _clue_card(game, short) in hand, (s.n, short)
        for short in re.findall(r"asks about ([\w' ]+?), in your hand", s.say):
            assert _clue_card(game, short) in hand, (s.n, short)


@pytest.mark.parametrize("game_id", GAMES)
def test_lesson_texts_number_seats_as_people_do(game_id: str) -> None:
    """Lessons name seats as both clients show them, from 1: the learner is Seat 1 (called
    "you" everywhere but where the intro says which seat that is), so "Seat 1" in a step
    about another player ("you saw what Seat 1 threw away") was the learner by mistake,
    and "Seat N" beyond the table's seats names nobody."""
    lesson = load_lesson(game_id)
    players = lesson.game().players
    texts = [("intro", lesson.intro), ("outro", lesson.outro)]
    texts += [(f"step {n}", f"{s.say} {s.do or ''}") for n, s in enumerate(lesson.steps, 1)]
    for where, text in texts:
        for m in re.finditer(r"\bSeat (\d+)", text):
            number = int(m.group(1))
            assert 1 <= number <= players, (game_id, where, text)
            if number == 1:
                assert text[: m.start()].endswith("You are "), (game_id, where, text)
