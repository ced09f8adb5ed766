"""Cuts that say what they cut, and the two reading actions that get the rest.

Why one module: every place that shortens what an agent sees (an element's text, an element
list, a long result) must say what it left out and how to get it, in the same words, so an
agent learns one rule. A cut is written ``[cut: <what was left out>; <how to get the rest>]``
(:func:`cut_note`), and the way to the rest is always an action of the unified action space:
``read_element`` (one element's full text, in chunks) and ``list_elements`` (the element list
filtered and paged), which a device kind declares on its own action table with the argument
models here. Nothing here names a device kind: the device hands in its element list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import Field

from devicesworld.devices.base import ActionResult, Args

CUT_PREFIX = "[cut: "
"""Every cut note starts with this (tests and agents look for it)."""

READ_CHUNK = 2000
"""Characters ``read_element`` returns per call (fits the agent's feedback budget)."""

LIST_PAGE = 40
"""Elements ``list_elements`` returns per call unless asked for fewer."""


def cut_note(what: str, how: str) -> str:
    """The one wording of a cut: what was left out, then how to get the rest."""
    return f"{CUT_PREFIX}{what}; {how}]"


def clip(text: str, limit: int, how: str) -> str:
    """``text`` within ``limit`` characters, ending in a cut note when it had to be shortened."""
    if len(text) <= limit:
        return text
    note = cut_note(f"{len(text) - limit:,} of {len(text):,} chars not shown", how)
    keep = max(limit - len(note) - 1, 0)
    return text[:keep] + "…" + note


class ReadElementArgs(Args):
    index: int = Field(ge=0, description="Element index.")
    offset: int = Field(0, ge=0, description="First char to read.")


class ListElementsArgs(Args):
    start: int = Field(0, ge=0, description="First element index.")
    limit: int = Field(LIST_PAGE, ge=1, le=100)
    contains: str | None = Field(None, description="Text or name has this (any case).")
    role: str | None = None


READ_DOC = "Read an element's full text, in chunks (offset)."
LIST_DOC = "List the last observation's elements, filtered, in pages."


def read_element(texts: Sequence[str | None], args: ReadElementArgs) -> ActionResult:
    """Chunk ``offset..offset+READ_CHUNK`` of element ``index``'s full text (``texts[i]``)."""
    if args.index >= len(texts):
        return ActionResult.failure(
            "STALE_ELEMENT", f"element [{args.index}] is not in the last observation ({len(texts)} elements)"
        )
    text = texts[args.index] or ""
    if args.offset > len(text):
        return ActionResult.failure(
            "OUT_OF_RANGE",
            f"element [{args.index}] has {len(text):,} chars; offset {args.offset} is past its end",
        )
    end = min(args.offset + READ_CHUNK, len(text))
    chunk = text[args.offset : end]
    data: dict[str, Any] = {"index": args.index, "offset": args.offset, "chars": len(text), "text": chunk}
    if end < len(text):
        data["more"] = cut_note(
            f"chars {end:,}-{len(text):,} not shown",
            f'read_element {{"index": {args.index}, "offset": {end}}} reads on',
        )
    return ActionResult.success(
        f"element [{args.index}]: chars {args.offset:,}-{end:,} of {len(text):,}", data
    )


def list_elements(
    count: int,
    line: Callable[[int], str],
    haystack: Callable[[int], str],
    role_of: Callable[[int], str],
    args: ListElementsArgs,
) -> ActionResult:
    """A page of the element list as lines (``line(i)``), after the filters; the result says
    where the next page starts when there is one."""
    wanted = args.contains.casefold() if args.contains else None
    matching = [
        i
        for i in range(count)
        if (wanted is None or wanted in haystack(i).casefold())
        and (args.role is None or role_of(i) == args.role)
    ]
    after = [i for i in matching if i >= args.start]
    page = after[: args.limit]
    data: dict[str, Any] = {"total": count, "matching": len(matching), "elements": [line(i) for i in page]}
    if len(after) > len(page):
        nxt = after[len(page)]
        data["more"] = cut_note(
            f"{len(after) - len(page)} more matching elements from [{nxt}]",
            f'list_elements {{"start": {nxt}}} (same filters) lists them',
        )
    shown = f"[{page[0]}]-[{page[-1]}]" if page else "none"
    return ActionResult.success(f"{len(page)} of {len(matching)} matching elements listed ({shown})", data)


def index_ranges(indices: Sequence[int]) -> str:
    """``[3]-[9], [12]`` for indices 3..9 and 12 (sorted)."""
    out: list[str] = []
    run: list[int] = []
    for i in sorted(indices):
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(f"[{run[0]}]" if len(run) == 1 else f"[{run[0]}]-[{run[-1]}]")
        run = [i]
    if run:
        out.append(f"[{run[0]}]" if len(run) == 1 else f"[{run[0]}]-[{run[-1]}]")
    return ", ".join(out)


TREE_REST = "observe again, close windows you no longer need, or scroll the part you want into view"
"""How to get elements an element-tree walk did not reach."""


def tree_cut(reason: str) -> str:
    """The note of an element-tree walk that stopped early (its time budget, its node cap)."""
    return cut_note(
        f"tree incomplete: the element walk stopped early ({reason}); elements past it are not listed",
        TREE_REST,
    )
