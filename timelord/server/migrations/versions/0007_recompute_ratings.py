"""Ratings rebuilt from the stored results under the rules docs/ratings.md states
(one seat per account, stand-in seats, ties), so farmed ratings stored earlier are repaired.

The old rules rated an account sitting at two seats of one table (from its better place),
and openskill's default damping let each tied pairing shrink a seat's uncertainty as if it
were a game of its own, so one six-player table with tied losers froze their sigma at the
floor (0.083), and `random` stood second on a leaderboard for good. `ratings.recompute`
replays every rated table, oldest first, under today's rules (docs/ratings.md). Bot ratings
that came only from `timelord rate` (no stored results) start afresh: rerun it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

from timelord.server.ratings import recompute

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    recompute(op.get_bind())


def downgrade() -> None:
    """Nothing to undo: the old ratings were the wrong ones."""
