"""The tables a server process serves, one module per concern around one hub (see
`timelord.server.table.server` and docs/architecture.md)."""

from timelord.server.table.creating import seat_list
from timelord.server.table.fanout import Outbox
from timelord.server.table.live import Live, hash_token, seat_url
from timelord.server.table.server import Tables

__all__ = ["Live", "Outbox", "Tables", "hash_token", "seat_list", "seat_url"]
