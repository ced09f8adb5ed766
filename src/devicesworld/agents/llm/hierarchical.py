"""``hierarchical``: a planner splits the goal into device-level subtasks, a device
agent carries out each one and reports back (after UFO³, as evaluated in the paper).

The planner answers once at the start with subtasks ``{id, device, goal,
depends_on}``. The device agent of the first ready subtask sees only its device's
observation and tools, plus the reports of the subtasks it depends on (that is how
facts cross devices), and ends its subtask with ``subtask_done(report)`` or
``subtask_failed(reason)`` — control calls that cost a model call but no
environment step. A failed subtask sends the planner back to replan the rest; when
every subtask is done the planner reviews the reports and either finishes or adds
subtasks.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from devicesworld.agents.base import Decision, EpisodeInfo
from devicesworld.agents.llm.core import LLMAgentCore
from devicesworld.agents.llm.parsing import NoAction, decode_action, first_json
from devicesworld.agents.llm.prompts import (
    action_format,
    action_rules,
    devices_line,
    format_history,
    format_observations,
)
from devicesworld.agents.llm.tools import ReplyError, ToolBook, object_schema
from devicesworld.spec.actions import FINISH, REPORT_INFEASIBLE
from devicesworld.spec.models import Step

MAX_CONTROL_CALLS = 6
"""Model calls one environment step may take (plan, subtask reports, review)."""
MAX_PLAN_ROUNDS = 4

PLANNER = """\
You are the planner of a cross-device agent. Devices: {devices}.
Split the user's task into subtasks, each carried out on ONE device by a device agent.
A subtask may depend on others (its device agent will see their reports, e.g. values read elsewhere).
Reply with one JSON object:
{{"subtasks": [{{"id": "s1", "device": "<device id>", "goal": "...", "depends_on": []}}, ...]}}
or, if the task cannot be carried out at all: {{"infeasible": "<reason>"}}"""

REVIEW = """\
You are the planner of a cross-device agent. Devices: {devices}.
Every subtask has ended. Check the reports against the user's task, on every device.
Reply with one JSON object: {{"done": true}} if the whole task is complete, or
{{"done": false, "subtasks": [...new subtasks, same format as before...]}} for what is still missing,
or {{"infeasible": "<reason>"}}."""

DEVICE = """\
You are the device agent for {device} ({kind}), one part of a cross-device agent.
Your subtask: {goal}
Overall user task (for context only; do only your subtask): {instruction}
{rules}
When your subtask is complete call subtask_done with a report of what you did and any values
other devices need; if it cannot be done call subtask_failed with the reason.
{format}"""


class Subtask(BaseModel):
    id: str
    device: str
    goal: str
    depends_on: list[str] = Field(default_factory=list)
    status: Literal["pending", "done", "failed"] = "pending"
    report: str = ""
    steps: int = 0


class Plan(BaseModel):
    subtasks: list[Subtask] = Field(default_factory=list)
    infeasible: str | None = None
    done: bool | None = None


class HierarchicalAgent(LLMAgentCore):
    def on_start(self, info: EpisodeInfo) -> None:
        self.subtasks: list[Subtask] = []
        self.planned = False
        self.plan_rounds = 0
        self.current: Subtask | None = None
        self.device_books: dict[str, ToolBook] = {}
        for d in info.devices:
            book = ToolBook.build(info, devices=[d.id], include_global=False)
            book.add_plain_tool(
                "subtask_done",
                "Your subtask is complete; report what you did and values other devices need.",
                object_schema({"report": {"type": "string"}}, ["report"]),
            )
            book.add_plain_tool(
                "subtask_failed",
                "Your subtask cannot be completed; say why.",
                object_schema({"reason": {"type": "string"}}, ["reason"]),
            )
            self.device_books[d.id] = book

    def decide(self, observation: dict[str, dict[str, Any]]) -> Decision:
        notes: dict[str, Any] = {}
        for _ in range(MAX_CONTROL_CALLS):
            if not self.planned:
                try:
                    plan = self._ask_plan(observation, review=False)
                except ReplyError as exc:
                    return self.decision(None, reply_error=f"planner: {exc}")
                self.planned = True
                if plan.infeasible:
                    return self.decision(Step(action=REPORT_INFEASIBLE, args={"reason": plan.infeasible}))
                self._replace_pending(plan.subtasks)
                notes["plan"] = [s.model_dump() for s in self.subtasks]
            sub = self._ready()
            if sub is None:
                if any(s.status == "failed" for s in self.subtasks) or not self._all_done():
                    self.planned = False  # a failure or a blocked dependency: replan
                    if self.plan_rounds >= MAX_PLAN_ROUNDS:
                        return self.decision(Step(action=FINISH), subtasks=self._summary())
                    continue
                if self.plan_rounds >= MAX_PLAN_ROUNDS:
                    return self.decision(Step(action=FINISH), subtasks=self._summary())
                try:
                    review = self._ask_plan(observation, review=True)
                except ReplyError as exc:
                    return self.decision(None, reply_error=f"planner review: {exc}")
                if review.infeasible:
                    return self.decision(Step(action=REPORT_INFEASIBLE, args={"reason": review.infeasible}))
                if review.done or not review.subtasks:
                    return self.decision(Step(action=FINISH), subtasks=self._summary())
                self._replace_pending(review.subtasks)
                continue
            self.current = sub
            book = self.device_books.get(sub.device)
            if book is None:
                sub.status, sub.report = "failed", f"no device {sub.device!r} in this task"
                continue

            def build(use_tools: bool, sub: Subtask = sub) -> list[dict[str, Any]]:
                return self._device_messages(sub, observation, use_tools)

            reply = self.chat(
                build,
                role="device",
                tools=book.tools,
                turn=sub.steps,
            )
            try:
                step, _ = decode_action(reply, book)
            except NoAction as control:
                call = control.calls[0]
                if call.name == "subtask_done":
                    sub.status, sub.report = "done", str(call.args.get("report", ""))
                else:
                    sub.status, sub.report = "failed", str(call.args.get("reason", ""))
                continue
            except ReplyError as exc:
                sub.steps += 1
                return self.decision(None, reply_error=str(exc), subtask=sub.id)
            sub.steps += 1
            return self.decision(step, subtask=sub.id, **notes)
        return self.decision(None, reply_error="too many planning calls without an action")

    # ----------------------------------------------------------------- helpers
    def _ready(self) -> Subtask | None:
        done = {s.id for s in self.subtasks if s.status == "done"}
        for s in self.subtasks:
            if s.status == "pending" and all(d in done for d in s.depends_on):
                return s
        return None

    def _all_done(self) -> bool:
        return all(s.status == "done" for s in self.subtasks)

    def _replace_pending(self, new: list[Subtask]) -> None:
        kept = [s for s in self.subtasks if s.status == "done"]
        taken = {s.id for s in kept}
        for s in new:
            if s.id in taken:
                s.id = f"{s.id}-{self.plan_rounds}"
            s.depends_on = [d for d in s.depends_on if d != s.id]
        self.subtasks = kept + new

    def _summary(self) -> list[dict[str, Any]]:
        return [{"id": s.id, "device": s.device, "status": s.status} for s in self.subtasks]

    def _ask_plan(self, observation: dict[str, dict[str, Any]], *, review: bool) -> Plan:
        assert self.info is not None
        info = self.info
        self.plan_rounds += 1
        reports = "\n".join(
            f"- {s.id} [{s.device}] {s.status}: {s.goal} | report: {s.report}" for s in self.subtasks
        )
        text = (
            f"# Task\n{info.instruction}\n\n"
            f"# Current observations\n{format_observations(observation)}\n\n"
            f"# Subtasks so far\n{reports or '(none yet)'}\n\n"
            f"# History (last {self.config.history} steps)\n{format_history(self.history, self.config.history)}"
        )
        system = (REVIEW if review else PLANNER).format(devices=devices_line(info))
        messages = [{"role": "system", "content": system}, {"role": "user", "content": text}]
        reply = self.chat(lambda _tools: messages, role="review" if review else "plan")
        obj = first_json(reply, what="a plan")
        try:
            plan = Plan.model_validate(obj)
        except ValidationError as exc:
            raise ReplyError(f"the plan does not fit the format: {exc.errors()[0]['msg']}") from None
        if not review and not plan.subtasks and not plan.infeasible:
            raise ReplyError("the plan has no subtasks")
        return plan

    def _device_messages(
        self, sub: Subtask, observation: dict[str, dict[str, Any]], use_tools: bool
    ) -> list[dict[str, Any]]:
        assert self.info is not None
        info = self.info
        kind = next((d.kind for d in info.devices if d.id == sub.device), "?")
        system = DEVICE.format(
            device=sub.device,
            kind=kind,
            goal=sub.goal,
            instruction=info.instruction,
            rules=action_rules(self.config.history),
            format=action_format(self.device_books[sub.device], use_tools=use_tools)
            + (
                ""
                if use_tools
                else '\nTo end your subtask: {"action": "subtask_done", "args": {"report": "..."}} '
                'or {"action": "subtask_failed", "args": {"reason": "..."}}'
            ),
        )
        deps = [s for s in self.subtasks if s.id in sub.depends_on]
        reports = "\n".join(f"- {s.id} on {s.device}: {s.report}" for s in deps) or "(none)"
        mine = [h for h in self.history if h.device == sub.device or h.device is None]
        text = (
            f"# Reports of the subtasks yours depends on\n{reports}\n\n"
            f"# Current observation of {sub.device}\n{format_observations(observation, only=[sub.device])}\n\n"
            + self.previous_section()
            + f"# History on this device (last {self.config.history} steps)\n"
            f"{format_history(mine, self.config.history)}\n\n"
            f"Your next action (subtask steps so far: {sub.steps}):"
        )
        return self.messages(system, text, observation, only=[sub.device])
