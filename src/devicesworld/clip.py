"""Bounded echoes of user input in error messages.

An error message that repeats what it rejects helps, until the input is a 3 MB
string: then one message fills the terminal and the log. Every message that quotes
input from a task file, a step or a request quotes it through :func:`clip`, so what
is shown is at most ``limit`` characters plus a note of how long the original was.
"""

from __future__ import annotations

from typing import Final

ECHO_LIMIT: Final = 200
"""Characters of an input value an error message shows."""


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with ``… (N chars)`` when it was longer."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text)} chars)"


def clip_repr(value: object, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)``, bounded like :func:`clip` (the count is of the repr's characters)."""
    return clip(repr(value), limit)


LOG_LIMIT: Final = 64 * 1024
"""Characters of one agent-written string (a note, a model reply, a prompt) a log keeps."""


def log_cut(text: str, limit: int = LOG_LIMIT) -> str:
    """``text`` cut to ``limit`` characters for a log, ending ``[cut: N chars]`` when it was longer.

    ``N`` is how many characters were dropped, so a reader knows the log is not the whole.
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]} [cut: {len(text) - limit} chars]"


def log_cut_all(value: object, limit: int = LOG_LIMIT, *, max_items: int = 1000) -> object:
    """``value`` (JSON-like) with every string cut by :func:`log_cut`, walked without recursion.

    Lists and objects longer than ``max_items`` keep their first ``max_items`` entries
    and say how many were cut; values that are not JSON-like are left as they are.
    """
    root: list[object] = [value]
    stack: list[tuple[object, list[object] | dict[str, object], int | str]] = [(value, root, 0)]
    while stack:
        item, parent, key = stack.pop()
        out: object
        if isinstance(item, str):
            out = log_cut(item, limit)
        elif isinstance(item, dict):
            copy: dict[str, object] = {}
            for i, (k, v) in enumerate(item.items()):
                if i >= max_items:
                    copy["[cut]"] = f"{len(item) - max_items} more entries"
                    break
                copy[log_cut(str(k), limit)] = v
                stack.append((v, copy, log_cut(str(k), limit)))
            out = copy
        elif isinstance(item, list | tuple):
            items = list(item[:max_items])
            stack.extend((v, items, i) for i, v in enumerate(items))
            if len(item) > max_items:
                items.append(f"[cut: {len(item) - max_items} more items]")
            out = items
        else:
            out = item
        if isinstance(parent, dict):
            parent[str(key)] = out
        else:
            parent[int(key)] = out
    return root[0]
