"""The catalogue of games. A game is listed once its package exists in the tree."""

from importlib.util import find_spec

from timelord.core.registry import register

_CATALOGUE = (
    # (game id, package under timelord.games, Game class, description)
    ("card-game", "card_game", "CardGame", "Doctor Who: The Card Game (2-4 players)"),
    ("episodes", "episodes", "EpisodesGame", "Episodes, the rummy-style card game (2-6 players)"),
    ("keys", "keys", "KeysGame", "Keys to the TARDIS, a race across door tiles (2-4 players)"),
    ("clue", "clue", "ClueGame", "Clue: Doctor Who, the deduction game (2-6 players)"),
)

for _id, _package, _cls, _text in _CATALOGUE:
    if find_spec(f"timelord.games.{_package}") is not None:
        register(_id, f"timelord.games.{_package}.game:{_cls}", _text)
