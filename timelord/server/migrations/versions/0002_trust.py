"""Tables: the generator key, whether the creator chose the seed, who created it (a digest of
the address, for per-client limits) and whether it has a bot seat, the seat to move (which
tables to resume at start) and when it last moved (archiving idle tables).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rng_key", sa.String(64), nullable=True))
        batch.add_column(sa.Column("seeded", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("creator", sa.String(32), nullable=True))
        batch.add_column(sa.Column("bots", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("to_move", sa.Integer, nullable=True))
        batch.add_column(sa.Column("touched", sa.DateTime(timezone=True), nullable=True))
    # tables made before this revision took a creator-chosen seed or a 20-bit one: both guessable
    op.execute("UPDATE tables SET seeded = true, touched = created")
    op.create_index("ix_tables_creator", "tables", ["creator"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator", "tables")
    with op.batch_alter_table("tables") as batch:
        for name in ("touched", "to_move", "bots", "creator", "seeded", "rng_key"):
            batch.drop_column(name)
