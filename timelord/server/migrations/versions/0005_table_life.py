"""The life of a table: its creator, clock, stand-in bot, undo, rematch and chat.

Upgrades a database of 0004 in place: existing tables get no owner, no clock, the heuristic
stand-in and no undo; they keep playing as before.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("clock", sa.JSON, nullable=True))
        batch.add_column(
            sa.Column("stand_in", sa.String(64), nullable=False, server_default="heuristic")
        )
        batch.add_column(sa.Column("undo", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(
            sa.Column("undo_used", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))
        batch.add_column(sa.Column("rev", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "chat",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "n", name="pk_chat_table_n"),
    )


def downgrade() -> None:
    op.drop_table("chat")
    with op.batch_alter_table("tables") as batch:
        for column in ("rev", "rematch", "undo_used", "undo", "stand_in", "clock", "owner_hash"):
            batch.drop_column(column)
