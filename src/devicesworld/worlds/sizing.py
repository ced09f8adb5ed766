"""How much of everything a world of each size holds, and the world's unique phone numbers.

The ``lived`` ranges follow issue #13 (a phone with 40-150 contacts, 15-40 threads, ...);
``small`` keeps unit tests and the smoke suite quick while still planting every twin.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from devicesworld.worlds.model import WorldSize


@dataclass(frozen=True)
class Sizing:
    """How much of everything a world of one size holds (ranges are inclusive)."""

    contacts: tuple[int, int]
    threads: tuple[int, int]
    messages_per_thread: tuple[int, int]
    code_senders: int
    days_back: int
    events_span_days: int
    one_off_events: tuple[int, int]
    series: int
    artists: tuple[int, int]
    songs_per_artist: tuple[int, int]
    notes: tuple[int, int]
    phone_files: tuple[int, int]
    calls: tuple[int, int]
    places: tuple[int, int]
    pages: tuple[int, int]
    projects: int
    sheet_rows: tuple[int, int]
    mails: tuple[int, int]
    pictures: tuple[int, int]
    rooms: tuple[int, int]
    devices: tuple[int, int]


SIZING: dict[WorldSize, Sizing] = {
    "small": Sizing(
        contacts=(12, 16),
        threads=(6, 8),
        messages_per_thread=(2, 4),
        code_senders=3,
        days_back=14,
        events_span_days=14,
        one_off_events=(4, 6),
        series=2,
        artists=(3, 4),
        songs_per_artist=(2, 3),
        notes=(4, 4),
        phone_files=(4, 6),
        calls=(6, 10),
        places=(3, 5),
        pages=(2, 4),
        projects=1,
        sheet_rows=(20, 30),
        mails=(2, 3),
        pictures=(2, 3),
        rooms=(5, 5),
        devices=(12, 12),
    ),
    "lived": Sizing(
        contacts=(45, 120),
        threads=(18, 34),
        messages_per_thread=(3, 9),
        code_senders=4,
        days_back=42,
        events_span_days=60,
        one_off_events=(25, 45),
        series=5,
        artists=(7, 12),
        songs_per_artist=(3, 7),
        notes=(12, 24),
        phone_files=(14, 26),
        calls=(30, 60),
        places=(10, 22),
        pages=(8, 16),
        projects=3,
        sheet_rows=(60, 400),
        mails=(8, 16),
        pictures=(6, 14),
        rooms=(6, 10),
        devices=(16, 32),
    ),
}


def between(rng: random.Random, span: tuple[int, int]) -> int:
    return rng.randint(span[0], span[1])


class Numbers:
    """Unique, realistic phone numbers (``+1 555 ddd dddd``) for one world."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def new(self) -> str:
        while True:
            n = f"+1 555 {self.rng.randrange(200, 1000)} {self.rng.randrange(1000, 10000)}"
            if n not in self.used and not n.startswith("+1 555 555"):  # phones' own numbers
                self.used.add(n)
                return n
