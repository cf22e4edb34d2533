"""toy-tricks with what the report must handle: a first player drawn from the seed (not always
seat 0) and `action_card` naming card designs (a rank; both suits' copies are one design),
with rank 1 standing for a move that plays no card."""

from __future__ import annotations

from tests.support.toy_tricks import PlayCard, TricksGame, TricksState, rank
from timelord.core import Action, Rng, register


class FirstGame(TricksGame):
    id = "toy-first"
    description = "toy-tricks with a drawn first player and card designs"

    def new_game(self, seed: int) -> TricksState:
        state = super().new_game(seed)
        state.leader = Rng(seed ^ 0xF1).below(self.players)
        return state

    def action_card(self, action: Action) -> str | None:
        if not isinstance(action, PlayCard) or rank(action.card) == 1:
            return None
        return f"rank {rank(action.card)}"


register("toy-first", f"{__name__}:FirstGame", FirstGame.description)
