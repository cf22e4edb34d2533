"""Each stored action says whether the stand-in bot played it for the seat's person.

Whether a seat is rated for its person depends on how many of its decisions the stand-in
made (docs/ratings.md); that count was kept in memory only, so a restart or another process
reading the table forgot it. Actions stored before this migration were played before it was
kept: they read as the person's own (false).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(
            sa.Column("standin", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("standin")
