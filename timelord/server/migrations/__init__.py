"""Alembic migrations of the server's database, shipped in the package and run at start."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, text

#: a key for PostgreSQL's advisory lock, so processes starting together migrate one at a time
_LOCK_KEY = 0x71E10D


def upgrade(engine: Engine) -> None:
    """Apply every migration the database lacks (a no-op when it is up to date)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent))
    with engine.begin() as conn:
        postgres = conn.dialect.name == "postgresql"
        if postgres:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
