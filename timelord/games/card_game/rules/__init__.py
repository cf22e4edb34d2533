"""The rules, split by concern: turn structure, conflicts, support cards, the end of the game.

Every function here works on a fresh copy made by `CardGameState.apply_unchecked` and
mutates it in place; none calls out to a player: choices become pending decisions.
"""
