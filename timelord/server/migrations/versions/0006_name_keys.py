"""Players' name keys become confusable skeletons, so a look-alike of a
taken name is taken too.

Upgrades a database of 0005 in place: each player's `name_key` was the case-folded name;
it becomes `names.name_key` (NFKC, then the UTS #39 skeleton). Where two existing names turn
out to be look-alikes, the older account keeps the key and the newer one's key gets its id
appended, so both stay (the newer can no longer log in by that name, only by a session, and
is asked to rename: it was the impersonation). Downgrading restores case-folded keys.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from timelord.server.names import name_key

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

PLAYERS = sa.table(
    "players",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("created", sa.DateTime),
)


def _rekey(key_of: Callable[[str], str]) -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(PLAYERS.c.id, PLAYERS.c.name).order_by(PLAYERS.c.created, PLAYERS.c.id)
    ).all()
    # first every key to a unique placeholder, so the new keys never meet an old one
    for row in rows:
        conn.execute(
            PLAYERS.update().where(PLAYERS.c.id == row.id).values(name_key=f"#rekey#{row.id}")
        )
    seen: set[str] = set()
    for row in rows:
        key = key_of(row.name)
        if key in seen:
            key = f"{key[:80]}#{row.id}"
        seen.add(key)
        conn.execute(PLAYERS.update().where(PLAYERS.c.id == row.id).values(name_key=key))


def upgrade() -> None:
    _rekey(name_key)


def downgrade() -> None:
    _rekey(str.casefold)
