"""Windows paths (``C:\\Users\\user\\Desktop\\x.txt``) and where they live on the host.

Tasks, observations and checks speak Windows: a drive letter, backslashes, case
insensitive. The device's files live in three places on the host:

* ``C:\\Users\\user\\Desktop``, ``Documents``, ``Downloads`` and ``Pictures`` are Wine's
  links to the device home's folders of those names (see :mod:`.prefix`), so they map to the home;
* the rest of ``C:`` is the prefix's ``drive_c``;
* ``N:`` is the task's shared network drive.

This module only parses and normalises; :mod:`.files` does the safe file access.
Components are matched case-insensitively against what exists, as Windows does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from devicesworld.devices.safefs import resolve_dots

USER = "user"
PROFILE = rf"C:\Users\{USER}"
SHELL_FOLDERS = {
    "desktop": "Desktop",
    "documents": "Documents",
    "downloads": "Downloads",
    "pictures": "Pictures",
}
"""The profile folders that live in the device home (lower-cased name -> the home's folder)."""
DRIVE_LETTER = "N"
"""The shared network drive's letter."""

_DRIVE = re.compile(r"^(?P<letter>[A-Za-z]):(?:[\\/]|$)")
_BAD_CHARS = set('<>:"|?*') | {chr(c) for c in range(32)}
_RESERVED = {
    "con",
    "prn",
    "aux",
    "nul",
    *(f"com{i}" for i in range(1, 10)),
    *(f"lpt{i}" for i in range(1, 10)),
}
MAX_PATH = 260


class PathError(ValueError):
    """A path that is not a usable Windows path on this device."""


@dataclass(frozen=True)
class WinPath:
    """A normalised absolute Windows path: drive letter (upper case) and its parts."""

    drive: str
    parts: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.drive}:\\" + "\\".join(self.parts)

    @property
    def name(self) -> str:
        return self.parts[-1] if self.parts else ""

    @property
    def parent(self) -> WinPath:
        return WinPath(self.drive, self.parts[:-1])

    def join(self, name: str) -> WinPath:
        return WinPath(self.drive, (*self.parts, name))

    @property
    def key(self) -> str:
        """Case-folded ``C:/users/user/desktop/x.txt``: how state paths name a file."""
        return f"{self.drive.lower()}:/" + "/".join(p.lower() for p in self.parts)

    def location(self) -> tuple[str, tuple[str, ...]]:
        """Which host area holds the path: ``("home", parts)``, ``("drive_c", parts)`` or ``("drive", parts)``."""
        if self.drive == DRIVE_LETTER:
            return "drive", self.parts
        low = [p.lower() for p in self.parts]
        if len(low) >= 3 and low[0] == "users" and low[1] == USER and low[2] in SHELL_FOLDERS:
            return "home", (SHELL_FOLDERS[low[2]], *self.parts[3:])
        return "drive_c", self.parts


def parse_path(raw: str) -> WinPath:
    """``C:\\Users\\user\\Desktop\\a.txt``, ``c:/users/user/desktop/a.txt`` or ``%USERPROFILE%\\...``."""
    text = raw.strip()
    if not text:
        raise PathError("empty path")
    if len(text) > MAX_PATH:
        raise PathError(f"path longer than {MAX_PATH} characters")
    if text.upper().startswith("%USERPROFILE%"):
        text = PROFILE + text[len("%USERPROFILE%") :]
    m = _DRIVE.match(text)
    if m is None:
        raise PathError(
            f"{raw[:120]!r} is not an absolute Windows path (like C:\\Users\\user\\Desktop\\notes.txt)"
        )
    letter = m.group("letter").upper()
    if letter not in ("C", DRIVE_LETTER):
        raise PathError(f"drive {letter}: does not exist (the drives are C: and {DRIVE_LETTER}:)")
    parts = re.split(r"[\\/]+", text[2:])
    for part in parts:  # every name is checked, even one a later ``..`` takes back
        if part in ("", ".", ".."):
            continue
        if any(c in _BAD_CHARS for c in part):
            raise PathError(f"{part[:80]!r} contains a character Windows does not allow in names")
        if part.rstrip(" .") != part:
            raise PathError(f"{part[:80]!r} ends with a space or a dot")
        if part.split(".")[0].lower() in _RESERVED:
            raise PathError(f"{part[:80]!r} is a reserved device name")
    return WinPath(letter, tuple(resolve_dots(parts)))


def state_key(raw: str) -> str | None:
    """A path's key in the device's state (``files/c:/...`` or ``drive/...``), ``None`` if unparsable."""
    try:
        p = parse_path(raw)
    except PathError:
        return None
    where, parts = p.location()
    if where == "drive":
        return "drive/" + "/".join(parts) if parts else "drive"
    return "files/" + p.key
