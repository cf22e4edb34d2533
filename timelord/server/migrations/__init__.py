"""Alembic migrations of the server's database, shipped in the package and run at start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text

#: a key for PostgreSQL's advisory lock, so processes starting together migrate one at a time
_LOCK_KEY = 0x71E10D


def _config() -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent))
    return config


def head() -> str:
    """The newest revision the package ships."""
    from alembic.script import ScriptDirectory

    found = ScriptDirectory.from_config(_config()).get_current_head()
    assert found is not None
    return found


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every migration the database lacks up to `revision` (a no-op when it is up to
    date; tests stop earlier to make a database as an older release left it)."""
    from alembic import command

    config = _config()
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            # A batch migration on SQLite copies a table and drops the original; with foreign
            # keys on, that drop deletes every row that refers to it (`tables` -> `actions`,
            # ON DELETE CASCADE). They are off while migrating and checked after.
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
                config.attributes["connection"] = conn
                command.upgrade(config, revision)
                if sqlite and conn.exec_driver_sql("PRAGMA foreign_key_check").first():
                    raise RuntimeError("the migration left rows whose foreign keys point nowhere")
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()
