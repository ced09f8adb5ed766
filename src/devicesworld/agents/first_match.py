"""``first-match``: a scripted baseline that knows the plan but reads naively.

Difficulty must mean something (issue #15), so it is calibrated against agents whose
weakness is known. This one is handed the reference solution (it is privileged,
like the oracle) and follows it step by step, but it reads the values it needs the
way a careless person does: it looks only at the **first screen** each device shows
it (the first result or screen text of that device — a GUI desktop's element texts —, cut
to :data:`SCREEN_CHARS`)
and takes the **first value of the right shape** there. Every data value a step
would write (a code, a time, an amount, an e-mail address) is replaced by the first same-shaped value
of what it has read that it has not used yet — the instruction first, then those
first screens in the order it saw them — so the first two-digit value the plan
needs gets the first two-digit value read, the second the second; when nothing is
left, the agent gives up. (The plan's own values are never trusted: a decision's
branch or a conflict's winner would otherwise leak.) It therefore succeeds exactly when every value it needs is the
first of its kind on the first screen — no scrolling, search, document, reasoning or
twin in the way — and it never reports a request infeasible.
"""

from __future__ import annotations

import re
from typing import Any

from devicesworld.agents.base import AgentOptions, Decision, EpisodeInfo, Feedback
from devicesworld.spec.actions import FINISH
from devicesworld.spec.models import Step
from devicesworld.textshape import FIRST_SCREEN_CHARS, TOKEN, candidates, first_screen, shape

SCREEN_CHARS = FIRST_SCREEN_CHARS
"""How much of a device's first screen the agent reads (about one phone screen)."""
END_STEPS = ("finish", "report_infeasible", "answer")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
"""An e-mail address: read like a number (the first address seen), never copied from the plan."""
UI_KEYS = frozenset({"index", "x", "y", "nth", "direction", "app_name", "element"})
"""Arguments that point at the interface (an element's index, a tap's pixels), never values read."""


def _element_text(elements: list[Any]) -> str:
    """A GUI desktop's screen as text: its elements' names, texts and values in list order (the
    document an app opened is on the screen, as a file's text is in a tool step's result)."""
    out: list[str] = []
    for e in elements:
        if isinstance(e, dict):
            out += [str(e[k]) for k in ("name", "text", "value") if e.get(k) not in (None, "")]
    return "\n".join(out)


class FirstMatchAgent:
    def __init__(self, options: AgentOptions) -> None:
        self._plan: list[Step] = []
        self._next = 0
        self._instruction = ""
        self._screens: dict[str, str] = {}
        self._last_device: str | None = None
        self._assigned: dict[str, str] = {}
        """Plan value -> the value read for it (the same plan value always reads the same)."""

    def start(self, info: EpisodeInfo) -> None:
        if info.solution is None:
            raise ValueError(
                "the first-match agent must be run as a privileged agent (it follows the solution)"
            )
        self._plan = [s for s in info.solution if s.action not in END_STEPS]
        self._next = 0
        self._instruction = info.instruction
        self._screens = {}
        self._last_device = None
        self._assigned = {}

    def act(self, observation: dict[str, dict[str, Any]], feedback: Feedback | None) -> Decision:
        self._look(observation, feedback)
        if self._next >= len(self._plan):
            return Decision(action=Step(action=FINISH))
        step = self._plan[self._next]
        self._next += 1
        args, gave_up = self._read_values(step.args)
        if gave_up:
            return Decision(action=Step(action=FINISH), notes={"gave_up": True})
        self._last_device = step.device
        return Decision(action=step.model_copy(update={"args": args}))

    # ------------------------------------------------------------------ reading
    def _look(self, observation: dict[str, dict[str, Any]], feedback: Feedback | None) -> None:
        """Remember the first screen of the device the previous step ran on."""
        device = self._last_device
        if device is None or device in self._screens:
            return
        shown: list[str] = []
        view = observation.get(device, {})
        screen = view.get("screen_text")
        if isinstance(screen, str) and screen.strip():
            shown.append(screen)
        elif isinstance(view.get("elements"), list):
            shown.append(_element_text(view["elements"]))
        if feedback is not None:
            text = first_screen(shown, feedback.result.message, feedback.result.data)
        else:
            text = first_screen(shown)
        if text:
            self._screens[device] = text

    def _read_values(self, args: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """``args`` with every data value replaced by its first match in what the agent has read."""
        screens = [self._instruction, *self._screens.values()]
        gave_up = False

        def assign(value: str, left: list[str]) -> str:
            """``value`` becomes the first of ``left`` (the unused look-alikes read); none left: give up."""
            nonlocal gave_up
            if not left:
                gave_up = True
                return value
            self._assigned[value] = left[0]
            return left[0]

        def replace_token(token: str) -> str:
            if len(token) < 2:
                return token
            if token in self._assigned:
                return self._assigned[token]
            pattern = shape(token).pattern
            used = {v for k, v in self._assigned.items() if shape(k).pattern == pattern}
            return assign(token, [c for c in candidates(token, screens) if c not in used])

        def replace_email(address: str) -> str:
            if address in self._assigned:
                return self._assigned[address]
            used = {v for k, v in self._assigned.items() if EMAIL.fullmatch(k)}
            seen = dict.fromkeys(m.group(0) for text in screens for m in EMAIL.finditer(text))
            return assign(address, [c for c in seen if c not in used])

        def replace_text(text: str) -> str:
            parts: list[str] = []
            end = 0
            for m in EMAIL.finditer(text):
                parts += [TOKEN.sub(lambda t: replace_token(t.group(0)), text[end : m.start()])]
                parts.append(replace_email(m.group(0)))
                end = m.end()
            parts.append(TOKEN.sub(lambda t: replace_token(t.group(0)), text[end:]))
            return "".join(parts)

        def walk(value: Any) -> Any:
            if isinstance(value, dict):
                return {k: v if k in UI_KEYS else walk(v) for k, v in value.items()}
            if isinstance(value, list):
                return [walk(v) for v in value]
            if isinstance(value, bool):
                return value
            if isinstance(value, int | float):
                text = f"{value:g}" if isinstance(value, float) else str(value)
                new = replace_token(text)
                if new == text:
                    return value
                try:
                    return type(value)(float(new)) if isinstance(value, float) else int(float(new))
                except ValueError:
                    return value
            if isinstance(value, str):
                return replace_text(value)
            return value

        return walk(args), gave_up
