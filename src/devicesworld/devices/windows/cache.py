"""Where the Windows kind keeps what it builds once per machine (the template prefix, the tree helper).

``$DEVICESWORLD_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/devicesworld``, else
``~/.cache/devicesworld``. Everything in it is rebuilt when missing, so deleting the
folder is always safe.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "DEVICESWORLD_CACHE_DIR"


def cache_root() -> Path:
    """The devicesworld cache folder (not created here)."""
    explicit = os.environ.get(CACHE_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg else Path.home() / ".cache") / "devicesworld"
