"""``tracked``: the agent the DevicesWorld discussion (§5) calls for.

It keeps an explicit cross-device task state instead of leaning on a long history:

* **device roles** — what each device is for in this task (source, target, ...);
* **facts** — values acquired, each with the device it came from;
* **subgoals** — with their device and status (open / done / blocked);
* **checklist** — the final conditions, each on a device.

The state is set up by one planning call at the start, updated by the model through
``record_fact`` and ``update_subgoal`` tool calls that ride along with its action in
the same reply, and shown in every prompt. **Replanning**: when ``STALL_STEPS`` (3)
steps in a row bring nothing new (no new fact, no finished subgoal, no result not
seen before) or the same error comes back twice in a row, a replan call rewrites the open subgoals
and the prompt says that the current approach failed. **Review before finishing**:
``finish`` is only let through after a review call has gone over the checklist and
every device's latest observation and facts and found nothing missing; missing
items become open subgoals and the model acts again (at most ``MAX_REVIEW_BLOCKS``
times an episode, so that the budget cannot be burnt on reviews).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from devicesworld.agents.base import Decision, EpisodeInfo
from devicesworld.agents.llm.core import LLMAgentCore
from devicesworld.agents.llm.parsing import Call, NoAction, decode_action, first_json
from devicesworld.agents.llm.prompts import (
    action_format,
    action_rules,
    devices_line,
    format_history,
    format_observations,
)
from devicesworld.agents.llm.tools import ReplyError, object_schema
from devicesworld.devices.listing import clip
from devicesworld.spec.actions import FINISH

STALL_STEPS = 3
MAX_REVIEW_BLOCKS = 2
REPLAN_COOLDOWN = 2
"""Steps after a replan before the next one may happen (the new plan needs a chance)."""
HISTORY_STEPS = 5
"""The state carries what matters, so the text history is shorter than the direct agent's."""


class Fact(BaseModel):
    name: str
    value: str
    source_device: str
    step: int = 0


class Subgoal(BaseModel):
    id: str
    description: str
    device: str | None = None
    status: Literal["open", "done", "blocked"] = "open"
    depends_on: list[str] = Field(default_factory=list)


class ChecklistItem(BaseModel):
    item: str
    device: str | None = None


class TaskState(BaseModel):
    device_roles: dict[str, str] = Field(default_factory=dict)
    facts: list[Fact] = Field(default_factory=list)
    subgoals: list[Subgoal] = Field(default_factory=list)
    checklist: list[ChecklistItem] = Field(default_factory=list)

    def render(self) -> str:
        roles = "\n".join(f"- {d}: {r}" for d, r in self.device_roles.items()) or "(none)"
        facts = "\n".join(
            f"- {f.name} = {f.value} (from {f.source_device}, step {f.step})" for f in self.facts
        )
        goals = "\n".join(
            f"- [{g.status}] {g.id} on {g.device or 'any'}: {g.description}"
            + (f" (after {', '.join(g.depends_on)})" if g.depends_on else "")
            for g in self.subgoals
        )
        checks = "\n".join(f"- {c.item} (on {c.device or 'any'})" for c in self.checklist)
        return (
            f"Device roles:\n{roles}\nFacts acquired:\n{facts or '(none)'}\n"
            f"Subgoals:\n{goals or '(none)'}\nFinal checklist:\n{checks or '(none)'}"
        )


class Review(BaseModel):
    ready: bool = False
    missing: list[str] = Field(default_factory=list)
    items: list[dict[str, Any]] = Field(default_factory=list)


INIT = """\
You set up the explicit task state of a cross-device agent. Devices: {devices}.
Reply with one JSON object:
{{"device_roles": {{"<device id>": "<its role in this task: where information comes from, where results go>"}},
 "subgoals": [{{"id": "g1", "description": "...", "device": "<device id>", "depends_on": []}}],
 "checklist": [{{"item": "<a final condition to verify>", "device": "<device id>"}}]}}"""

REPLAN = """\
You replan a cross-device agent whose current approach is not working ({why}). Devices: {devices}.
Change the method: another search, another path, another device, or decide the request is infeasible.
Keep subgoals that are done; reply with one JSON object of the open subgoals that should replace the others:
{{"subgoals": [{{"id": "...", "description": "...", "device": "<device id>", "depends_on": []}}], "strategy": "<what to do differently>"}}"""

REVIEW = """\
Before the agent may finish, review every item of the final checklist on every device.
For each item say whether the latest observations, results and facts show it is done: the output is
on the correct device and location, it exists, its content is right, device-state changes took effect,
and results on different devices agree. Reply with one JSON object:
{{"items": [{{"item": "...", "device": "...", "status": "verified|missing|wrong", "evidence": "..."}}],
 "ready": <true only if every item is verified>, "missing": ["<what must still be done or checked>"]}}"""

ACTOR = """\
You are a cross-device agent with an explicit task state. Devices: {devices}.
{rules}
- Keep the task state current: in the same reply as your action, call record_fact for every value you
  learn (with the device it came from) and update_subgoal when a subgoal is done or blocked.
- finish is checked against the final checklist on every device before it is accepted.
{format}"""


class TrackedAgent(LLMAgentCore):
    def on_start(self, info: EpisodeInfo) -> None:
        self.state = TaskState()
        self.initialised = False
        self.stall = 0
        self.seen_results: set[str] = set()
        self.replan_note: str | None = None
        self.review_blocks = 0
        self.last_replan_step = -REPLAN_COOLDOWN
        self.book.add_plain_tool(
            "record_fact",
            "Record a value you learnt, with the device it came from (no environment step).",
            object_schema(
                {
                    "name": {"type": "string"},
                    "value": {"type": "string"},
                    "source_device": {"type": "string", "enum": [d.id for d in info.devices]},
                },
                ["name", "value", "source_device"],
            ),
        )
        self.book.add_plain_tool(
            "update_subgoal",
            "Mark a subgoal done or blocked, or add one (no environment step).",
            object_schema(
                {
                    "id": {"type": "string"},
                    "status": {"type": "string", "enum": ["open", "done", "blocked"]},
                    "description": {"type": "string"},
                    "device": {"type": "string"},
                },
                ["id", "status"],
            ),
        )

    def decide(self, observation: dict[str, dict[str, Any]]) -> Decision:
        assert self.info is not None
        notes: dict[str, Any] = {}
        if not self.initialised:
            self._init_state(observation, notes)
        progress = self._progress_from_last()
        why = self._replan_reason(progress)
        if why is not None:
            self._replan(observation, why, notes)
        review_feedback: str | None = None
        for _attempt in range(2):

            def build(use_tools: bool, rf: str | None = review_feedback) -> list[dict[str, Any]]:
                return self._actor_messages(observation, use_tools, rf)

            reply = self.chat(
                build,
                role="actor",
                tools=self.book.tools,
            )
            try:
                step, internal = decode_action(reply, self.book)
            except NoAction as control:
                self._apply(control.calls)
                return self.decision(
                    None,
                    reply_error="your reply only updated the task state; also take one action in the same reply",
                    state=self._state_note(),
                    **notes,
                )
            except ReplyError as exc:
                return self.decision(None, reply_error=str(exc), **notes)
            self._apply(internal)
            if step.action != FINISH or self.review_blocks >= MAX_REVIEW_BLOCKS:
                return self.decision(step, state=self._state_note(), **notes)
            review = self._review(observation, notes)
            if review.ready:
                return self.decision(step, state=self._state_note(), **notes)
            self.review_blocks += 1
            for i, missing in enumerate(review.missing or ["an unverified checklist item"]):
                self.state.subgoals.append(
                    Subgoal(id=f"r{self.review_blocks}.{i + 1}", description=f"(from review) {missing}")
                )
            review_feedback = "finish was refused by the review; still missing: " + "; ".join(
                review.missing or ["unverified checklist items"]
            )
            notes["review_blocked"] = review_feedback
        return self.decision(None, reply_error="finish refused by the review twice in one step", **notes)

    # ------------------------------------------------------------- task state
    def _init_state(self, observation: dict[str, dict[str, Any]], notes: dict[str, Any]) -> None:
        assert self.info is not None
        info = self.info
        self.initialised = True
        messages = [
            {"role": "system", "content": INIT.format(devices=devices_line(info))},
            {
                "role": "user",
                "content": f"# Task\n{info.instruction}\n\n# Current observations\n{format_observations(observation)}",
            },
        ]
        reply = self.chat(lambda _tools: messages, role="init")
        try:
            obj = first_json(reply, what="the task state")
            self.state = TaskState.model_validate({k: obj.get(k) or v for k, v in _EMPTY.items()})
        except (ReplyError, ValidationError) as exc:
            notes["init_error"] = str(exc)[:300]
            self.state = TaskState(subgoals=[Subgoal(id="g1", description=info.instruction)])
        if not self.state.checklist:
            self.state.checklist = [ChecklistItem(item=info.instruction)]
        notes["init_state"] = self.state.model_dump()

    def _progress_from_last(self) -> bool:
        """Whether the last step brought something new (a result not seen before)."""
        last = self.last
        if last is None:
            return True
        if not last.ok:
            return False
        digest = hashlib.sha256(
            json.dumps([last.device, last.data, last.message], sort_keys=True, default=str).encode()
        ).hexdigest()
        new = digest not in self.seen_results
        self.seen_results.add(digest)
        return new

    def _replan_reason(self, progress: bool) -> str | None:
        self.stall = 0 if progress else self.stall + 1
        if self.step_number - self.last_replan_step <= REPLAN_COOLDOWN:
            return None
        failed = [(h.error_code, h.message, h.reply_error) for h in self.history[-3:] if not h.ok]
        if len(failed) >= 2 and failed[-1] == failed[-2]:
            return f"the same error came back: {failed[-1][2] or failed[-1][1]}"
        if self.stall >= STALL_STEPS:
            return f"{self.stall} steps in a row brought nothing new"
        return None

    def _replan(self, observation: dict[str, dict[str, Any]], why: str, notes: dict[str, Any]) -> None:
        assert self.info is not None
        info = self.info
        self.stall = 0
        self.last_replan_step = self.step_number
        messages = [
            {"role": "system", "content": REPLAN.format(why=why, devices=devices_line(info))},
            {
                "role": "user",
                "content": f"# Task\n{info.instruction}\n\n# Task state\n{self.state.render()}\n\n"
                f"# Current observations\n{format_observations(observation)}\n\n"
                f"# History (last {HISTORY_STEPS} steps)\n{format_history(self.history, HISTORY_STEPS)}",
            },
        ]
        reply = self.chat(lambda _tools: messages, role="replan")
        try:
            obj = first_json(reply, what="the new subgoals")
            fresh = [Subgoal.model_validate(g) for g in obj.get("subgoals") or []]
        except (ReplyError, ValidationError) as exc:
            notes["replan_error"] = str(exc)[:300]
            fresh = []
        if fresh:
            self.state.subgoals = [g for g in self.state.subgoals if g.status == "done"] + fresh
        strategy = obj.get("strategy") if fresh else None
        self.replan_note = f"Replanned because {why}." + (f" New strategy: {strategy}" if strategy else "")
        notes["replan"] = self.replan_note

    def _apply(self, calls: list[Call]) -> None:
        for call in calls:
            if call.name == "record_fact":
                self.state.facts.append(
                    Fact(
                        name=str(call.args.get("name", "")),
                        value=str(call.args.get("value", "")),
                        source_device=str(call.args.get("source_device", "")),
                        step=self.step_number,
                    )
                )
                self.stall = 0
            elif call.name == "update_subgoal":
                self._update_subgoal(call.args)

    def _update_subgoal(self, args: dict[str, Any]) -> None:
        goal_id = str(args.get("id", ""))
        status = args.get("status", "open")
        if status not in ("open", "done", "blocked"):
            return
        for g in self.state.subgoals:
            if g.id == goal_id:
                if status == "done" and g.status != "done":
                    self.stall = 0
                g.status = status
                return
        self.state.subgoals.append(
            Subgoal(
                id=goal_id,
                description=str(args.get("description", goal_id)),
                device=args.get("device") if isinstance(args.get("device"), str) else None,
                status=status,
            )
        )

    def _review(self, observation: dict[str, dict[str, Any]], notes: dict[str, Any]) -> Review:
        assert self.info is not None
        info = self.info
        by_device = "\n".join(
            f"## {d.id}: role {self.state.device_roles.get(d.id, '?')}\n"
            + "\n".join(f"- fact {f.name} = {f.value}" for f in self.state.facts if f.source_device == d.id)
            for d in info.devices
        )
        messages = [
            {"role": "system", "content": REVIEW},
            {
                "role": "user",
                "content": f"# Task\n{info.instruction}\n\n# Task state\n{self.state.render()}\n\n"
                f"# Per device\n{by_device}\n\n"
                f"# Current observations\n{format_observations(observation)}\n\n"
                f"# History (last {self.config.history} steps)\n{format_history(self.history, self.config.history)}",
            },
        ]
        reply = self.chat(lambda _tools: messages, role="review")
        try:
            review = Review.model_validate(first_json(reply, what="the review"))
        except (ReplyError, ValidationError) as exc:
            review = Review(
                ready=False,
                missing=[
                    f"the review could not be read ({clip(str(exc), 160, 'the reason above is the start')})"
                ],
            )
        notes["review"] = review.model_dump()
        return review

    # ---------------------------------------------------------------- prompts
    def _actor_messages(
        self, observation: dict[str, dict[str, Any]], use_tools: bool, review_feedback: str | None
    ) -> list[dict[str, Any]]:
        assert self.info is not None
        info = self.info
        fmt = action_format(self.book, use_tools=use_tools)
        if not use_tools:
            fmt += (
                '\nTo record state, put extra JSON objects before your action: {"action": "record_fact", '
                '"args": {"name": ..., "value": ..., "source_device": ...}}'
            )
        system = ACTOR.format(devices=devices_line(info), rules=action_rules(HISTORY_STEPS), format=fmt)
        notes = "\n".join(x for x in (self.replan_note, review_feedback) if x)
        text = (
            f"# Task\n{info.instruction}\n\n"
            f"# Step {self.step_number} of at most {info.max_steps}\n\n"
            f"# Task state\n{self.state.render()}\n\n"
            + (f"# Attention\n{notes}\n\n" if notes else "")
            + f"# Current observations\n{format_observations(observation, previous=self.previous_observation)}\n\n"
            + self.previous_section()
            + f"# History (last {HISTORY_STEPS} steps)\n{format_history(self.history, HISTORY_STEPS)}\n\n"
            "Your state updates and next action:"
        )
        return self.messages(system, text, observation)

    def _state_note(self) -> dict[str, Any]:
        return {
            "facts": len(self.state.facts),
            "open_subgoals": [g.id for g in self.state.subgoals if g.status == "open"],
        }


_EMPTY: dict[str, Any] = {"device_roles": {}, "subgoals": [], "checklist": []}
