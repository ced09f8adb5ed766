"""Reading JSON out of a model's free text, whatever it wraps it in."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_THINKING = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL | re.IGNORECASE)


def without_thinking(text: str) -> str:
    """The reply minus a reasoning model's ``<think>...</think>`` block (JarvisGUI's judge thinks)."""
    return _THINKING.sub("", text).strip()


def json_objects(text: str) -> list[dict[str, Any]]:
    """JSON objects in ``text``: those in fenced blocks first, else every top-level ``{...}``."""
    text = without_thinking(text)
    found: list[dict[str, Any]] = []
    for block in _FENCE.findall(text):
        found.extend(_scan(block))
    return found or _scan(text)


def _scan(text: str) -> list[dict[str, Any]]:
    decoder = json.JSONDecoder()
    out: list[dict[str, Any]] = []
    i = text.find("{")
    while i != -1:
        try:
            value, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find("{", i + 1)
            continue
        if isinstance(value, dict):
            out.append(value)
        i = text.find("{", end)
    return out
