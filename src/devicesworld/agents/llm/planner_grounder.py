"""``planner-grounder``: JarvisGUI's two-stage agent (Appendix A.1, A.3).

The *planner* sees every device's observation, the instruction and its own past
step plans (with the framework's execution errors, as JarvisGUI feeds them back),
and follows an Observation-Planning-Action protocol: it names the target device and
an abstract action in words, or finishes. The *grounder* sees only that device's
observation and tools and turns the abstract action into one concrete action.
Two model calls per step; their tokens are added up.
"""

from __future__ import annotations

from typing import Any

from devicesworld.agents.base import Decision, EpisodeInfo
from devicesworld.agents.llm.core import LLMAgentCore
from devicesworld.agents.llm.parsing import decode_action, first_json
from devicesworld.agents.llm.prompts import (
    HISTORY_CHARS,
    action_format,
    devices_line,
    format_observations,
    older_steps_note,
    planner_hints,
    user_message,
)
from devicesworld.agents.llm.tools import ReplyError, ToolBook
from devicesworld.devices.listing import clip
from devicesworld.spec.actions import FINISH, REPORT_INFEASIBLE
from devicesworld.spec.models import Step

PLANNER = """\
You are the planner of a cross-device GUI agent. Devices: {devices}.
Follow the Observation-Planning-Action protocol. At each step:
1. Observation: describe what the devices currently show that matters for the task.
2. Planning: say what remains to be done, on which device, and what the next step is.
3. Action: choose ONE target device and describe ONE abstract action on it in words
   (e.g. "open the Messages app", "query the state of the hallway light").
   A grounding agent will turn it into a concrete action on that device.
{hints}Reply with one JSON object:
{{"observation": "...", "plan": "...", "device": "<device id>", "action": "<abstract action>"}}
When the whole task is complete on every device: {{"observation": "...", "plan": "...", "device": null, "action": "finish"}}
If it cannot be done: {{"observation": "...", "plan": "...", "device": null, "action": "report_infeasible", "reason": "..."}}"""

PLAN_CHARS = 300
"""Characters of each of the planner's own step plans kept in its history."""

GROUNDER = """\
You are the grounding agent for device {device} ({kind}).
Turn the planner's instruction into exactly one concrete action on this device.
{format}"""


class PlannerGrounderAgent(LLMAgentCore):
    def on_start(self, info: EpisodeInfo) -> None:
        self.plans: list[str] = []
        self.books = {d.id: ToolBook.build(info, devices=[d.id], include_global=False) for d in info.devices}
        self.kinds = {d.id: d.kind for d in info.devices}

    def decide(self, observation: dict[str, dict[str, Any]]) -> Decision:
        assert self.info is not None
        info = self.info
        history = self._history_text()
        planner_messages = [
            {"role": "system", "content": PLANNER.format(devices=devices_line(info), hints=planner_hints())},
            user_message(
                f"# Task\n{info.instruction}\n\n"
                f"# Step {self.step_number} of at most {info.max_steps}\n\n"
                f"# Current observations\n{format_observations(observation)}\n\n"
                f"# Current history (your step plans, with execution feedback)\n{history}\n\n"
                "Your Observation-Planning-Action JSON:",
                self.images(observation),
            ),
        ]
        reply = self.chat(lambda _tools: planner_messages, role="planner")
        try:
            plan = first_json(reply, what="the planner's decision")
            action = str(plan.get("action") or "").strip()
            if not action:
                raise ReplyError('the planner JSON needs an "action"')
        except ReplyError as exc:
            self.plans.append(f"(unusable planner reply: {exc})")
            return self.decision(None, reply_error=f"planner: {exc}")
        device = plan.get("device")
        step_plan = f"{device or '-'}: {action} | plan: " + clip(
            str(plan.get("plan", "")), PLAN_CHARS, "your own plan; keep plans short"
        )
        self.plans.append(step_plan)
        if action in (FINISH, REPORT_INFEASIBLE) and not device:
            args = (
                {"reason": str(plan.get("reason") or plan.get("plan") or "")}
                if action == REPORT_INFEASIBLE
                else {}
            )
            return self.decision(Step(action=action, args=args), planner=plan)
        if not isinstance(device, str) or device not in self.books:
            return self.decision(
                None,
                reply_error=f"planner: device unavailable: {device!r}; devices are {', '.join(self.books)}",
                planner=plan,
            )
        book = self.books[device]

        def grounder_messages(use_tools: bool) -> list[dict[str, Any]]:
            system = GROUNDER.format(
                device=device, kind=self.kinds[device], format=action_format(book, use_tools=use_tools)
            )
            text = (
                f"# Instruction from the planner\n{action}\n\n"
                f"# Current observation of {device}\n{format_observations(observation, only=[device])}\n\n"
                + self.previous_section()
                + "Your action:"
            )
            return self.messages(system, text, observation, only=[device])

        reply = self.chat(grounder_messages, role="grounder", tools=book.tools)
        try:
            step, _ = decode_action(reply, book)
        except ReplyError as exc:
            return self.decision(None, reply_error=f"grounder: {exc}", planner=plan)
        return self.decision(step, planner=plan)

    def _history_text(self) -> str:
        """Each past step plan with what came of it (errors included, as in JarvisGUI A.1)."""
        n = self.config.history
        first = max(0, len(self.plans) - n) if n else len(self.plans)
        lines = [older_steps_note(self.history[:first], n)] if first else []
        for index in range(first, len(self.plans)):
            outcome = self.history[index].outcome(HISTORY_CHARS) if index < len(self.history) else "(pending)"
            lines.append(f"step {index + 1}: {self.plans[index]}\n  -> {outcome}")
        return "\n".join(lines) or "(empty)"
