"""JSON objects in a model's free text: shared by the LLM agents and task refinement.

Kept apart from both so that reading a reply needs neither the ``openai`` package
nor an agent: models wrap JSON in fences, prose or several objects, and one scanner
serves every reader.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


def json_objects(text: str) -> list[dict[str, Any]]:
    """JSON objects in free text: fenced blocks first, else every top-level ``{...}``."""
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
