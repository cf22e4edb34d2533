"""The browser tests run last: Playwright's sync API keeps an event loop running in the main
thread for the rest of the session once a browser has started, and a later test that calls
`asyncio.run` (the scheduler's, the leases', a lagging socket's) would then fail for a reason
that has nothing to do with what it checks."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: "/e2e/" in item.nodeid.replace("\\", "/"))  # stable: order kept
