"""Clue: Doctor Who: rules engine, board and the deducer."""
