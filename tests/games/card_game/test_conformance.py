"""The shared conformance suite for 2, 3 and 4 players (C-2.5, C-7), and many more plain
random games checked for the invariants that cost little (C-1.1, C-6)."""

import pytest

import timelord
from timelord.core import Rng
from timelord.core.conformance import check_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance(players: int) -> None:
    game = timelord.load("card-game", players=players)
    report = check_game(game, games=30, seed=players, deep_every=25, illegal_per_step=1)
    assert report.games == 30
    assert report.samples_checked > 0
    assert report.longest <= game.max_actions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_end_by_the_rules(players: int) -> None:
    """C-6: 400 random games per player count end by the rules (counters or the End Game,
    never the turn limit) within `max_actions`, with every card in one place at the end."""
    game = timelord.load("card-game", players=players)
    rng = Rng(77 + players)
    n_cards = len(game.cards.cards_in_play(players)) + len(game.cards.start_cards)
    for seed in range(400):
        s = game.new_game(10_000 + seed)
        steps = 0
        while not s.is_over:
            legal = s.legal_actions()
            assert legal
            s = s.apply(legal[rng.below(len(legal))])
            steps += 1
        assert steps <= game.max_actions
        assert s.ended in ("counters", "end-game")
        assert s.legal_actions() == [] and s.to_move is None
        assert set(s.winners()) and len(s.scores()) == players
        where = [c for h in s.hands for c in h] + [c for r in s.reserve for c in r]
        where += [c for u in s.upres for c in u] + [c for d in s.loc_def for c in d]
        where += [c for e in s.loc_en for c in e] + list(s.loc_card) + list(s.deck)
        where += list(s.discard) + list(s.aside)
        assert len(where) == len(set(where)) == n_cards
