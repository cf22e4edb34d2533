"""Players, their sessions and the seats they sit in; ratings per game and each finished
table's per-seat results; the cookie-signing key.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(128), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "seat_players",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_seat_players_table_seat"),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Float, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game", "subject", name="pk_ratings_game_subject"),
    )
    op.create_table(
        "results",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False, index=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("mu", sa.Float, nullable=True),
        sa.Column("sigma", sa.Float, nullable=True),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_results_table_seat"),
    )


def downgrade() -> None:
    op.drop_table("results")
    op.drop_table("ratings")
    op.drop_table("server_keys")
    op.drop_table("seat_players")
    op.drop_table("sessions")
    op.drop_table("players")
