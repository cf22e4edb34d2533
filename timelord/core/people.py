"""Seats as people count them. The games number seats as programs do ("Seat 0"); what a
person reads, on a board, at the terminal or in a lesson, numbers them from 1, so one seat
has one number on every screen."""

from __future__ import annotations

import re

#: "Seat 0" as a game names its seats
SEAT_NUMBER = re.compile(r"\bSeat (\d+)")


def people_numbered(text: str) -> str:
    """`text` with each game seat number counted from 1, in one pass: "Seat 0 (north) shows
    a card to Seat 1" -> "Seat 1 (north) shows a card to Seat 2"."""
    return SEAT_NUMBER.sub(lambda m: f"Seat {int(m.group(1)) + 1}", text)
