"""The web app of `timelord serve`: API, storage, bots, pages and boards."""
