"""``llm``: the DevicesWorld paper's direct-interaction protocol (§4.1).

Each step is one request: few-shot demonstrations if given (``demos=FILE``, see
:mod:`.demos`), the instruction, the visible observation of every device (screenshots
for vision models), the previous action and its feedback, and the text history of the
last ten steps; temperature 0. The model answers with one tool call
(or one JSON object when the endpoint has no function calling).
"""

from __future__ import annotations

from typing import Any

from devicesworld.agents.base import AgentOptions, Decision
from devicesworld.agents.llm import demos as demo_prompt
from devicesworld.agents.llm.core import LLMAgentCore
from devicesworld.agents.llm.parsing import decode_action
from devicesworld.agents.llm.prompts import (
    action_format,
    action_rules,
    devices_line,
    format_history,
    format_observations,
)
from devicesworld.agents.llm.tools import ReplyError
from devicesworld.llmclient import LLMError

SYSTEM = """\
You operate devices (phones, desktops, a smart home) to carry out a user's task.
Devices: {devices}.
{rules}
{format}"""


class DirectAgent(LLMAgentCore):
    def __init__(self, options: AgentOptions) -> None:
        super().__init__(options)
        try:
            self.demos = demo_prompt.load(self.config.demos) if self.config.demos else []
        except ValueError as exc:
            raise LLMError(str(exc)) from None

    def decide(self, observation: dict[str, dict[str, Any]]) -> Decision:
        assert self.info is not None
        info = self.info

        def build(use_tools: bool) -> list[dict[str, Any]]:
            system = SYSTEM.format(
                devices=devices_line(info),
                rules=action_rules(self.config.history),
                format=action_format(self.book, use_tools=use_tools),
            )
            examples = demo_prompt.few_shot(self.demos, info.task_id, self.config.demo_chars)
            shots = f"# Demonstrations (solved examples)\n{examples}\n\n" if examples else ""
            text = (
                shots + f"# Task\n{info.instruction}\n\n"
                f"# Step {self.step_number} of at most {info.max_steps}\n\n"
                f"# Current observations\n{format_observations(observation, previous=self.previous_observation)}\n\n"
                + self.previous_section()
                + f"# History (last {self.config.history} steps)\n"
                f"{format_history(self.history, self.config.history)}\n\n"
                "Your next action:"
            )
            return self.messages(system, text, observation)

        reply = self.chat(build, role="actor", tools=self.book.tools)
        try:
            step, _ = decode_action(reply, self.book)
        except ReplyError as exc:
            return self.decision(None, reply_error=str(exc))
        return self.decision(step)
