"""Prompt text shared by the LLM agents.

Following the DevicesWorld paper (§4.1), every step is one fresh request holding the
instruction, the currently visible observation of every device (and screenshots for
vision models), the previous action with its execution feedback, and the text
history of the last ten steps — not an ever-growing chat. The texts are plain and
deterministic so that a prompt's sha256 identifies it.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from pydantic import BaseModel

from devicesworld.agents.base import EpisodeInfo
from devicesworld.agents.llm.catalog import SIGNATURE_HELP
from devicesworld.agents.llm.observe import OBSERVATION_CHARS, render_device
from devicesworld.agents.llm.tools import ToolBook
from devicesworld.devices.base import kind_names
from devicesworld.devices.listing import CUT_PREFIX, READ_CHUNK, clip, cut_note
from devicesworld.prompthints import PromptHint, hint_of

FEEDBACK_CHARS = 3000
"""Characters of the previous action's feedback."""
HISTORY_CHARS = 300
"""Characters of each history line's outcome."""
HISTORY_STEPS = 10
"""Steps of text history by default (the paper's ten; ``--agent-opt history=N``)."""

RULES_HEAD = """\
Rules:
- One action a turn, on one device (or a global action).
"""
LIMITS = f"""\
Limits (a cut is never silent: it ends in {CUT_PREFIX}what was left out; how to get the rest]):
- Observation: {OBSERVATION_CHARS:,} chars a device; dialogs, changed elements, the focused window first;
  list_elements lists the rest. Element texts may be cut (desktops: 300 chars): read_element reads
  {READ_CHUNK:,} chars a call.
- Feedback: {{feedback:,}} chars. History: the last {{steps}} steps, {{history:,}} chars a line. Listings come in
  pages (start). Screenshots are whole, at the device's resolution.
"""

RULES_TAIL = """\
- Use your previous action's feedback: if it failed, fix the cause rather than repeat it.
- Call finish only when every part of the task is done on every device; report_infeasible (with a
  reason) if the request cannot be carried out."""


def _hints() -> list[PromptHint]:
    """The prompt hints of the registered kinds (:mod:`devicesworld.prompthints`), in kind order."""
    return [h for h in (hint_of(k) for k in kind_names()) if h is not None]


def action_rules(history_steps: int = HISTORY_STEPS) -> str:
    """The rules every acting agent is told, with each registered kind's prompt hint as one rule,
    and the limits (``history_steps``: the steps of history the agent shows)."""
    hints = "".join(f"- {h.act}\n" for h in _hints())
    return (
        RULES_HEAD
        + hints
        + RULES_TAIL
        + "\n"
        + LIMITS.format(feedback=FEEDBACK_CHARS, history=HISTORY_CHARS, steps=history_steps)
    )


def planner_hints() -> str:
    """Each registered kind's planner hint, one line each (for planner prompts)."""
    return "".join(f"{h.plan}\n" for h in _hints() if h.plan)


TOOLS_FORMAT = """\
Call exactly one tool. A device's tool is named after its kind and takes {{"device": id, "action": name,
"args": {{...}}}}; a global action's tool takes its args directly.
Actions by device, name(args): what it does; {help}.
{catalog}"""

TEXT_FORMAT = """\
Reply with exactly one JSON object, nothing after it: {{"device": id, "action": name, "args": {{...}}}};
a global action has no device: {{"action": "report_infeasible", "args": {{"reason": "..."}}}}.
Actions by device, name(args): what it does; {help}.
{catalog}"""


FEEDBACK_HOW = "ask for less at a time: a page (start/offset) or filter of that action"
"""How to get the rest of a cut feedback (every listing and reading action takes pages)."""


class StepLog(BaseModel):
    """One past step as the agents remember it."""

    step: int
    device: str | None
    action: str
    args: dict[str, Any]
    ok: bool
    error_code: str | None = None
    message: str = ""
    data: Any = None
    reply_error: str | None = None
    """Why the model's reply could not be used, when the step stood for a bad reply."""

    def headline(self) -> str:
        where = f"{self.device}." if self.device else ""
        return f"{where}{self.action} {_dumps(self.args)}"

    def outcome(self, limit: int, how: str = FEEDBACK_HOW) -> str:
        if self.reply_error:
            return f"ERROR: your reply could not be used: {self.reply_error}"
        status = "ok" if self.ok else f"FAILED [{self.error_code}]"
        text = f"{status}: {self.message}"
        if self.data is not None:
            text += f" | data: {_dumps(self.data)}"
        return clip(text, limit, how)


def devices_line(info: EpisodeInfo) -> str:
    """The task's devices, each kind named once after its devices: ``android_0, android_1 (android), ...``."""
    by_kind: dict[str, list[str]] = {}
    for d in info.devices:
        by_kind.setdefault(d.kind, []).append(d.id)
    return ", ".join(f"{', '.join(ids)} ({kind})" for kind, ids in by_kind.items())


def format_observations(
    observation: dict[str, dict[str, Any]],
    only: list[str] | None = None,
    previous: dict[str, dict[str, Any]] | None = None,
) -> str:
    """Each device's observation (:func:`.observe.render_device`); ``previous`` (the observation
    of the agent's last step) puts the elements that changed since then first.

    A device whose text is an earlier device's, line for line (two phones on their launcher), says
    so instead of repeating it, and one that differs from it in a few lines only (the clock's
    format) gives those lines: nothing is lost, and a four-device first prompt stays in its bound
    (issue #34)."""
    parts = []
    shown: list[tuple[str, str]] = []  # (device, text) written out in full
    for device_id, view in observation.items():
        if only is not None and device_id not in only:
            continue
        before = (previous or {}).get(device_id)
        text = render_device(device_id, view, before if isinstance(before, dict) else None)
        parts.append(f"## {device_id}\n{_against_earlier(device_id, text, shown)}")
    return "\n".join(parts) or "(none)"


SAME_AS = "(the same text as {device}'s above, element indices included)"
"""What a device's observation says when its text is an earlier device's, character for character."""
SAME_BUT = "(the same lines as {device}'s above, element indices included, but for these:)"
"""The heading of a device's observation written as the few lines where it differs from an earlier one's."""


HEAD_LINES = 3
"""The lines of a device's text before its element lines (its fields, ``screen:``, a screen's title):
a differing one among them is the header's, so a diff may give it without an index."""
_INDEXED = re.compile(r"^\[\d+\] ")


def _against_earlier(device_id: str, text: str, shown: list[tuple[str, str]]) -> str:
    """``text`` as written in the prompt: :data:`SAME_AS` an earlier device's, or :data:`SAME_BUT`
    with the lines that differ (when both have as many lines, at most a quarter differ and each is
    an element's, named by its index, or a header line), or whole
    (then remembered in ``shown`` for the devices after it)."""
    lines = text.splitlines()
    best: tuple[str, list[str]] | None = None
    for device, earlier in shown:
        old = earlier.splitlines()
        if len(old) != len(lines):
            continue
        at = [n for n, (new, was) in enumerate(zip(lines, old, strict=True)) if new != was]
        differ = [lines[n] for n in at]
        placed = all(n < HEAD_LINES or _INDEXED.match(lines[n]) for n in at)  # each says where it goes
        if placed and len(differ) * 4 <= len(lines) and (best is None or len(differ) < len(best[1])):
            best = (device, differ)
    if best is None:
        shown.append((device_id, text))
        return text
    device, differ = best
    return (
        SAME_AS.format(device=device) if not differ else "\n".join([SAME_BUT.format(device=device), *differ])
    )


def format_previous(last: StepLog | None) -> str:
    if last is None:
        return "(none)"
    return f"step {last.step}: {last.headline()}\n-> {last.outcome(FEEDBACK_CHARS)}"


def format_history(history: list[StepLog], n: int) -> str:
    recent = history[-n:] if n > 0 else []
    if not recent:
        return older_steps_note(history, 0) or "(none)"
    lines = (
        [older_steps_note(history[: len(history) - len(recent)], len(recent))]
        if len(history) > len(recent)
        else []
    )
    return "\n".join(
        lines
        + [
            f"step {h.step}: {h.headline()} -> "
            + h.outcome(
                HISTORY_CHARS, f"step {h.step + 1} showed it whole; repeat the action to see it again"
            )
            for h in recent
        ]
    )


def older_steps_note(left: list[StepLog], kept: int) -> str:
    """The cut note for the steps ``left`` out of a history that keeps the last ``kept`` ("" when none)."""
    if not left:
        return ""
    span = f"step {left[0].step}" if len(left) == 1 else f"steps {left[0].step}-{left[-1].step}"
    return cut_note(
        f"{span} not shown (the history keeps the last {kept} steps)",
        "what they changed is in the current observations; keep values you need in mind or in a note",
    )


def action_format(book: ToolBook, *, use_tools: bool) -> str:
    """How to act, with the action catalog (each schema once) in either form (issue #34)."""
    return (TOOLS_FORMAT if use_tools else TEXT_FORMAT).format(
        catalog=book.catalog_text(), help=SIGNATURE_HELP
    )


def user_message(text: str, images: dict[str, bytes] | None = None) -> dict[str, Any]:
    """A user message; with images, OpenAI's multi-part content (a label before each image)."""
    if not images:
        return {"role": "user", "content": text}
    parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
    for device_id, png in images.items():
        url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        parts.append({"type": "text", "text": f"Screenshot of {device_id}:"})
        parts.append({"type": "image_url", "image_url": {"url": url}})
    return {"role": "user", "content": parts}


def screenshots_of(observation: dict[str, dict[str, Any]], only: list[str] | None = None) -> dict[str, bytes]:
    """PNG screenshots carried in the observation under ``_screenshot_png`` (base64), if any."""
    out: dict[str, bytes] = {}
    for device_id, view in observation.items():
        if only is not None and device_id not in only:
            continue
        value = view.get("_screenshot_png")
        if isinstance(value, str):
            try:
                out[device_id] = base64.b64decode(value)
            except ValueError:
                continue
    return out


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))
