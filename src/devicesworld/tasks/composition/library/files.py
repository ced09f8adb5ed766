"""Files flowing along composition edges: what a file slot's value carries.

A file value is a plain dict (so it serialises and prints without surprises):
its name, its text content, where it is on its device, and the code written
inside it, which a downstream reader extracts. Producers on each platform
make such files in setup; transfer tasks move them; readers consume them.
"""

from __future__ import annotations

import random
from typing import Any

FILE_KINDS: tuple[tuple[str, str, str], ...] = (
    ("text_file", "txt", "Access code: {code}\nValid for one sign-in only.\n"),
    ("markdown_file", "md", "# Locker\n\nThe locker code is **{code}**.\n"),
    ("csv_file", "csv", "item,value\nlocker code,{code}\nfloor,3\n"),
    ("json_file", "json", '{{"door": {{"code": "{code}", "floor": 3}}}}\n'),
)


def make_file(rng: random.Random, stems: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """A slot type and a file value (name, content, code) for a new code-carrying file."""
    slot_type, ext, template = rng.choice(FILE_KINDS)
    code = f"{rng.randrange(10**5, 10**6)}"
    name = f"{rng.choice(stems)}_{rng.randrange(100, 1000)}.{ext}"
    return slot_type, {"name": name, "content": template.format(code=code), "code": code}


def located(ref: dict[str, Any], *, path: str, location: str) -> dict[str, Any]:
    """The same file at another place (``location``: 'home', 'sdcard' or 'drive')."""
    return {**ref, "path": path, "location": location}
