"""Reading JSON out of a model's free text, whatever it wraps it in.

The scanning itself is the agents' (:func:`devicesworld.jsontext.json_objects`);
refinement adds only the removal of a reasoning model's thinking block.
"""

from __future__ import annotations

import re
from typing import Any

from devicesworld import jsontext

_THINKING = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL | re.IGNORECASE)


def without_thinking(text: str) -> str:
    """The reply minus a reasoning model's ``<think>...</think>`` block (JarvisGUI's judge thinks)."""
    return _THINKING.sub("", text).strip()


def json_objects(text: str) -> list[dict[str, Any]]:
    """JSON objects in ``text``: those in fenced blocks first, else every top-level ``{...}``."""
    return jsontext.json_objects(without_thinking(text))
