"""The ``llm`` agent's prompt size on the first step of chosen tasks (no model needed).

Each task is set up, the direct agent builds its first request, and the sizes are printed:
the text prompt (system + user message, in characters, the JSON-in-text catalog included as
a model without function calling gets it), the user message alone, and the JSON of the tool
schemas sent next to the messages when function calling is on. Screenshots are not counted
(they are images, billed apart). Usage::

    python benchmarks/llm_prompt_size.py [TASK_ID ...] [--suite test]

Without ids: the 4-device tasks of ``test`` named in ``DEFAULT_TASKS``.
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


def first_prompt(
    agent: DirectAgent, info: EpisodeInfo, observation: dict[str, Any], tools: bool
) -> dict[str, int]:
    seen: dict[str, Any] = {}

    def fake_chat(build: Any, **kwargs: Any) -> ChatReply:
        seen["messages"] = build(tools)
        seen["tools"] = kwargs.get("tools") if tools else None
        record = CallRecord(role="actor", model="m", latency_s=0.0, tokens_in=0, tokens_out=0)
        return ChatReply(content='{"action": "finish"}', record=record)

    agent.chat = fake_chat  # type: ignore[method-assign]
    agent.start(info)
    agent.act(observation, None)
    messages = seen["messages"]
    user = messages[-1]["content"]
    user_text = user if isinstance(user, str) else "".join(p.get("text", "") for p in user)
    system = messages[0]["content"]
    return {
        "system": len(system),
        "user": len(user_text),
        "total": len(system) + len(user_text),
        "tools_json": len(json.dumps(seen["tools"])) if seen["tools"] else 0,
    }


def measure(task: Any) -> dict[str, dict[str, int]]:
    """The first prompt's sizes for one task: as text (no function calling) and with tools."""
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
            "text": first_prompt(DirectAgent(options), info, observation, tools=False),
            "tools": first_prompt(DirectAgent(options), info, observation, tools=True),
        }


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
    )
    for task_id in wanted:
        task = tasks[task_id]
        sizes = measure(task)
        text, with_tools = sizes["text"], sizes["tools"]
        print(
            f"{task_id:40} {len(task.devices):7} {text['total']:12,} {text['user']:9,} "
            f"{with_tools['total']:13,} {with_tools['tools_json']:10,}"
        )


if __name__ == "__main__":
    main()
