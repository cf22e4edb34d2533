"""Alembic environment: runs on the connection `timelord.server.migrations.upgrade` hands in."""

from __future__ import annotations

from alembic import context

from timelord.server.storage import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
