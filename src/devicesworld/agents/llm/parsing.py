"""Turning a model reply into calls: tool calls first, JSON in the text otherwise.

A reply the agent cannot use — no action, broken JSON, an unknown tool, a refusal —
raises :class:`ReplyError`. The agents then answer the step with an *invalid step*
(:func:`invalid_reply_step`): the environment rejects it with ``INVALID_ACTION``, so
it counts as a step and shows in the trajectory like any other bad action, and the
agent shows the model its own, more precise, parse error in the next prompt. We
chose this over a silent retry because the paper counts every model turn against
the 50-step budget, and a model that keeps replying badly must not loop forever.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from devicesworld.agents.llm.tools import ReplyError, ToolBook
from devicesworld.devices.listing import clip
from devicesworld.jsontext import json_objects
from devicesworld.llmclient import ChatReply
from devicesworld.spec.models import Step

INVALID_REPLY_ACTION = "invalid_reply"
"""The action name of the step that stands for an unusable reply."""


@dataclass(frozen=True)
class Call:
    """One tool call (or JSON action) with parsed arguments."""

    name: str
    args: dict[str, Any]


def invalid_reply_step() -> Step:
    return Step(device=None, action=INVALID_REPLY_ACTION, args={})


def reply_calls(reply: ChatReply) -> list[Call]:
    """The tool calls of a reply with their arguments parsed; [] when it has none."""
    if reply.refusal:
        raise ReplyError(f"the model refused: {reply.refusal}")
    calls = []
    for tc in reply.tool_calls:
        raw = tc.get("arguments") or "{}"
        try:
            args = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ReplyError(
                f"the arguments of tool call {tc.get('name')!r} are not valid JSON: {exc}"
            ) from None
        if not isinstance(args, dict):
            raise ReplyError(f"the arguments of tool call {tc.get('name')!r} must be a JSON object")
        calls.append(Call(name=str(tc.get("name")), args=args))
    return calls


def first_json(reply: ChatReply, *, what: str) -> dict[str, Any]:
    """The first JSON object in the reply's text; :class:`ReplyError` naming ``what`` otherwise."""
    if reply.refusal:
        raise ReplyError(f"the model refused: {reply.refusal}")
    objects = json_objects(reply.content or "")
    if not objects:
        snippet = reply_snippet(reply)
        raise ReplyError(f"expected {what} as a JSON object, got: {snippet}")
    return objects[0]


def step_from_json(obj: dict[str, Any]) -> Step:
    """``{"device", "action", "args"}`` (the environment's own step format) as a Step."""
    action = obj.get("action")
    if not isinstance(action, str) or not action:
        raise ReplyError(
            'the JSON action needs an "action" name: {"device": ..., "action": ..., "args": {...}}'
        )
    device = obj.get("device")
    args = obj.get("args", {})
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise ReplyError('"args" must be a JSON object')
    if device is not None and not isinstance(device, str):
        raise ReplyError('"device" must be a device id string')
    return Step(device=device or None, action=action, args=args)


def decode_action(reply: ChatReply, book: ToolBook) -> tuple[Step, list[Call]]:
    """The environment step of a reply, plus its agent-internal calls (tools that are not actions).

    Tool calls win; without any, the first JSON object in the text is read as a step.
    When a reply holds several environment actions only the first is used (one step
    per turn, as in the paper); the others are ignored.
    """
    calls = reply_calls(reply)
    if calls:
        internal = [c for c in calls if not book.is_env_tool(c.name) and c.name in book.targets]
        unknown = [c for c in calls if c.name not in book.targets]
        actions = [c for c in calls if book.is_env_tool(c.name)]
        if actions:
            first = actions[0]
            return book.to_step(first.name, first.args), internal
        if unknown:
            book.to_step(unknown[0].name, unknown[0].args)  # raises with the list of tools
        if internal:
            raise NoAction(internal)
    in_text: list[Call] = []
    for obj in json_objects(reply.content or ""):
        name = obj.get("action")
        if not isinstance(name, str):
            continue
        if name in book.targets and not book.is_env_tool(name):
            args = obj.get("args")
            in_text.append(Call(name=name, args=args if isinstance(args, dict) else {}))
            continue
        step = step_from_json(obj)
        target = book.targets.get(step.action)
        if target is not None and target.kind is not None and not target.actions:  # a tool name as action
            step = step.model_copy(update={"action": target.action})
            if step.device is None and len(target.devices) == 1:
                step = step.model_copy(update={"device": target.devices[0]})
        return step, in_text
    if in_text:
        raise NoAction(in_text)
    snippet = reply_snippet(reply)
    raise ReplyError(
        "no action found in the reply; call exactly one tool, or reply with one JSON object "
        f'{{"device": ..., "action": ..., "args": {{...}}}}. The reply was: {snippet}'
    )


class NoAction(ReplyError):
    """The reply held only agent-internal calls (e.g. ``subtask_done``), no environment step."""

    def __init__(self, calls: list[Call]) -> None:
        super().__init__("the reply made no environment action")
        self.calls = calls


REPLY_CHARS = 200
"""Characters of an unusable reply quoted back to the model (the model wrote it: the rest is its own)."""


def reply_snippet(reply: ChatReply) -> str:
    """The start of an unusable reply, with a cut note when it is longer."""
    text = (reply.content or "").strip()
    return (
        clip(text, REPLY_CHARS, "it is your own reply; answer with the action alone")
        if text
        else "(empty reply)"
    )
