"""The ``llm`` agent's prompt size on the first step of chosen tasks (no model needed).

Each task is set up, the direct agent builds its first request, and the sizes are printed:
the text prompt (system + user message, in characters, the JSON-in-text catalog included as
a model without function calling gets it: the direct protocol's whole request), the user message
alone, the function-calling prompt (system + user message), the JSON of the tool schemas sent next
to it (``json.dumps`` with its default spaces: no less than a compact body) and their sum, the
whole function-calling request. Screenshots are not counted (they are images, billed apart).
Usage::

    python benchmarks/llm_prompt_size.py [TASK_ID ...] [--suite test] [--all-four]

Without ids: the 4-device tasks of ``test`` named in ``DEFAULT_TASKS``. Issue #34 bounds both
whole requests of a four-device task at 12,000 characters
(``tests/agents/llm/test_llm_prompt_bound.py``).
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from devicesworld.agents import AgentOptions
from devicesworld.agents.base import DeviceInfo, EpisodeInfo
from devicesworld.agents.llm.direct import DirectAgent
from devicesworld.env import CrossDeviceEnv
from devicesworld.llmclient import CallRecord, ChatReply
from devicesworld.tasks.suites import load_suite

DEFAULT_TASKS = [
    "dw-babysitter-evening-0041",
    "dw-meeting-note-everywhere-0014",
    "dw-roster-room-no-ac-0013",
    "dw-wifi-code-two-desktops-0007",
]


Request = tuple[list[dict[str, Any]], list[dict[str, Any]] | None]
"""One request as sent: its messages and, with function calling, its tools."""


def first_request(agent: DirectAgent, info: EpisodeInfo, observation: dict[str, Any], tools: bool) -> Request:
    """The messages (and tools) the agent sends for its first step, built without a model."""
    seen: dict[str, Any] = {}

    def fake_chat(build: Any, **kwargs: Any) -> ChatReply:
        seen["messages"] = build(tools)
        seen["tools"] = kwargs.get("tools") if tools else None
        record = CallRecord(role="actor", model="m", latency_s=0.0, tokens_in=0, tokens_out=0)
        return ChatReply(content='{"action": "finish"}', record=record)

    agent.chat = fake_chat  # type: ignore[method-assign]
    agent.start(info)
    agent.act(observation, None)
    return seen["messages"], seen["tools"]


def user_text(messages: list[dict[str, Any]]) -> str:
    """The user message's text (its image parts left out)."""
    user = messages[-1]["content"]
    return user if isinstance(user, str) else "".join(p.get("text", "") for p in user)


def sizes(request: Request) -> dict[str, int]:
    """Characters of a request: system, user (text), their total, the tools' JSON, and the whole."""
    messages, tools = request
    system, user = len(messages[0]["content"]), len(user_text(messages))
    tools_json = len(json.dumps(tools)) if tools else 0
    return {
        "system": system,
        "user": user,
        "total": system + user,
        "tools_json": tools_json,
        "request": system + user + tools_json,
    }


def first_requests(task: Any) -> dict[str, Request]:
    """The first request of a task (set up for real) without images: as text (no function calling,
    the direct protocol) and with tools."""
    with CrossDeviceEnv(task) as env:
        observation = env.reset()
        info = EpisodeInfo(
            task_id=task.id,
            instruction=task.instruction,
            devices=[DeviceInfo(id=d.id, kind=d.kind) for d in task.devices],
            action_spaces=env.action_spaces(),
            max_steps=task.limits.max_steps,
        )
    options = AgentOptions(model="m", base_url="http://127.0.0.1:9/v1", extra={"vision": False})
    return {
        "text": first_request(DirectAgent(options), info, observation, tools=False),
        "tools": first_request(DirectAgent(options), info, observation, tools=True),
    }


def measure(task: Any) -> dict[str, dict[str, int]]:
    """The first prompt's sizes for one task: as text (no function calling) and with tools."""
    return {form: sizes(request) for form, request in first_requests(task).items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--suite", default="test")
    parser.add_argument("--all-four", action="store_true", help="every 4-device task of the suite")
    args = parser.parse_args()
    os.environ.pop("DEVICESWORLD_API_KEY", None)
    suite = load_suite(args.suite)
    wanted = [t.id for t in suite if len(t.devices) == 4] if args.all_four else args.ids or DEFAULT_TASKS
    tasks = {t.id: t for t in suite if t.id in wanted}
    print(
        f"{'task':40} {'devices':>7} {'text prompt':>12} {'user msg':>9} {'tools prompt':>13} {'tool JSON':>10}"
        f" {'tools request':>14}"
    )
    for task_id in wanted:
        task = tasks[task_id]
        got = measure(task)
        text, with_tools = got["text"], got["tools"]
        print(
            f"{task_id:40} {len(task.devices):7} {text['total']:12,} {text['user']:9,} "
            f"{with_tools['total']:13,} {with_tools['tools_json']:10,}"
            f" {with_tools['request']:14,}"
        )


if __name__ == "__main__":
    main()
