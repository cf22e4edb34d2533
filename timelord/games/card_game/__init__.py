"""Doctor Who: The Card Game: the complete rules engine (game id `card-game`)."""

from timelord.games.card_game.game import CardGame
from timelord.games.card_game.state import CardGameState

__all__ = ["CardGame", "CardGameState"]
