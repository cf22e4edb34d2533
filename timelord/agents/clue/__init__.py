"""Bot pieces for Clue: the deducer-driven detective."""
