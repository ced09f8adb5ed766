"""Few-shot demonstrations in the ``llm`` agent's prompt (B-MoCA §D.2: examples of expert episodes).

``--agent-opt demos=FILE`` names a demonstration file (:mod:`devicesworld.demos`). Each
episode is shown compactly — the instruction, then one line per step: the action, the
element it touched (by its text, description or resource id, read from the recorded
element list, since indexes mean nothing without the screen), and whether it worked —
and no screens, which would cost thousands of tokens each. Demonstrations of the task
being played come first, then the others; whole episodes are added while they fit in
``demo_chars`` characters (about four per token), so the prompt stays bounded.
"""

from __future__ import annotations

import json
from pathlib import Path

from devicesworld.demos.model import DemoError, Demonstration, DemoStep, read_demos
from devicesworld.devices.listing import cut_note


def load(path: str) -> list[Demonstration]:
    """The successful demonstrations in ``path``; a clear :class:`ValueError` if it cannot be read."""
    try:
        demos = read_demos(Path(path))
    except DemoError as exc:
        raise ValueError(f"demos: {exc}") from None
    return [d for d in demos if d.success is not False]


def _target(step: DemoStep) -> str:
    """What a step touched, in words: the element at its index, if the step has one."""
    index = step.action.get("args", {}).get("index")
    device = step.action.get("device")
    view = step.observation.get(str(device)) if device else None
    if not isinstance(index, int) or view is None:
        return ""
    el = next((e for e in view.elements if e.index == index), None)
    if el is None:
        return ""
    name = el.text or el.desc or (f"#{el.rid}" if el.rid else "")
    return f" ({el.cls} '{name}')" if name else f" ({el.cls})"


def format_demo(demo: Demonstration) -> str:
    lines = [f"Task: {demo.instruction}"]
    for s in demo.steps:
        where = f"{s.action['device']}." if s.action.get("device") else ""
        args = json.dumps(s.action.get("args", {}), ensure_ascii=False, separators=(",", ":"))
        status = "ok" if s.result.ok else "failed"
        lines.append(f"{s.step}. {where}{s.action.get('action')} {args}{_target(s)} -> {status}")
    return "\n".join(lines)


NOTE_ROOM = 120
"""Characters kept for the note that counts the demonstrations left out."""


def few_shot(demos: list[Demonstration], task_id: str, limit: int) -> str:
    """The demonstrations as prompt text, same-task first, whole episodes only, within ``limit`` characters."""
    ordered = sorted(demos, key=lambda d: d.task_id != task_id)  # stable: file order within each group
    texts = [f"## Example {i}\n{format_demo(d)}" for i, d in enumerate(ordered, 1)]
    if sum(len(t) + 1 for t in texts) <= limit + 1:
        return "\n".join(texts)
    budget = limit - NOTE_ROOM  # the cut note fits in the limit too
    parts: list[str] = []
    used = 0
    left_out = 0
    for demo in ordered:
        text = f"## Example {len(parts) + 1}\n{format_demo(demo)}"
        if used + len(text) > budget:
            left_out += 1
            continue
        parts.append(text)
        used += len(text) + 1
    if left_out:
        parts.append(
            cut_note(
                f"{left_out} of {len(ordered)} demonstrations not shown (demo_chars {limit:,})",
                "raise --agent-opt demo_chars to show more",
            )
        )
    return "\n".join(parts)
