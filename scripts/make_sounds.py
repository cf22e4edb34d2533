"""Synthesize timelord's table sounds into timelord/server/static/sounds/*.wav.

Every sound is made here from sine waves and seeded noise (no samples, no recordings), so
the files are ours to ship; NOTICE.md lists them with this script as their source. Mono,
11 kHz, 16-bit: each is a few kilobytes. Run `python3 scripts/make_sounds.py` after a change;
the output is committed so the server needs no build step.
"""

from __future__ import annotations

import math
import random
import struct
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 11025
OUT = Path(__file__).resolve().parents[1] / "timelord" / "server" / "static" / "sounds"


def note(freq: float, seconds: float, *, decay: float = 6.0, harmonics: int = 3) -> list[float]:
    """A bell-like note: a sine with a few quieter overtones and an exponential decay."""
    n = int(RATE * seconds)
    out = []
    for i in range(n):
        t = i / RATE
        tone = sum(math.sin(2 * math.pi * freq * k * t) / k**1.6 for k in range(1, harmonics + 1))
        attack = min(1.0, i / (RATE * 0.005))
        out.append(tone * attack * math.exp(-decay * t))
    return out


def sweep(f0: float, f1: float, seconds: float, *, decay: float = 4.0) -> list[float]:
    """A tone gliding from f0 to f1 (a creak when low and rough)."""
    n = int(RATE * seconds)
    out, phase = [], 0.0
    for i in range(n):
        t = i / RATE
        f = f0 + (f1 - f0) * i / n
        phase += 2 * math.pi * f / RATE
        rough = math.sin(phase) + 0.4 * math.sin(3.01 * phase)
        out.append(rough * min(1.0, i / (RATE * 0.01)) * math.exp(-decay * t))
    return out


def noise(
    seconds: float, *, decay: float = 30.0, smooth: float = 0.6, seed: int = 1
) -> list[float]:
    """A burst of seeded noise, low-passed by `smooth` (a card's snap on the table)."""
    rng = random.Random(seed)
    out, last = [], 0.0
    for i in range(int(RATE * seconds)):
        last = smooth * last + (1 - smooth) * rng.uniform(-1, 1)
        out.append(last * math.exp(-decay * i / RATE))
    return out


def seq(*parts: tuple[float, list[float]]) -> list[float]:
    """Parts placed at start times (seconds), summed."""
    length = max(int(at * RATE) + len(p) for at, p in parts)
    out = [0.0] * length
    for at, p in parts:
        start = int(at * RATE)
        for i, v in enumerate(p):
            out[start + i] += v
    return out


#: Each sound: what it is for, how it is made.
SOUNDS: dict[str, Callable[[], list[float]]] = {
    # two rising notes: it is your turn
    "your-turn": lambda: seq((0, note(659.3, 0.35)), (0.12, note(880.0, 0.45))),
    # a short soft snap: a card lands on the table
    "card": lambda: seq((0, noise(0.09, decay=45, smooth=0.5)), (0, note(180, 0.06, decay=60))),
    # a low creak and a thud: a door opens
    "door": lambda: seq((0, sweep(140, 95, 0.32, decay=5)), (0.3, note(70, 0.15, decay=25))),
    # a rising major arpeggio: a conflict won
    "won": lambda: seq((0, note(523.3, 0.3)), (0.09, note(659.3, 0.3)), (0.18, note(784.0, 0.4))),
    # two falling minor notes: a conflict lost
    "lost": lambda: seq((0, note(392.0, 0.3, decay=5)), (0.16, note(311.1, 0.45, decay=5))),
    # a short fanfare: the game is over
    "end": lambda: seq(
        (0, note(523.3, 0.25)),
        (0.13, note(523.3, 0.25)),
        (0.26, note(659.3, 0.25)),
        (0.42, note(784.0, 0.6, decay=3)),
    ),
}


def write(path: Path, samples: list[float]) -> None:
    peak = max(abs(v) for v in samples) or 1.0
    frames = b"".join(struct.pack("<h", int(v / peak * 0.7 * 32767)) for v in samples)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        write(OUT / f"{name}.wav", make())


if __name__ == "__main__":
    main()
