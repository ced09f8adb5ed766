"""What every LLM agent shares: configuration, the tool book, the step history,
model calls with their records, and turning a reply (or a bad one) into a Decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from devicesworld.agents.base import AgentOptions, Decision, EpisodeInfo, Feedback
from devicesworld.agents.llm.parsing import INVALID_REPLY_ACTION, invalid_reply_step
from devicesworld.agents.llm.prompts import StepLog, screenshots_of
from devicesworld.agents.llm.tools import ToolBook
from devicesworld.llmclient import CallRecord, ChatReply, LLMClient, LLMConfig, ToolsRefused
from devicesworld.spec.models import Step

STEP_HEADER = "X-DevicesWorld-Step"
TURN_HEADER = "X-DevicesWorld-Turn"
DEVICES_HEADER = "X-DevicesWorld-Devices"

MessagesFn = Callable[[bool], list[dict[str, Any]]]
"""Builds the messages of a request; the flag says whether tools are in use."""


class LLMAgentCore:
    """Base class of the LLM agents; subclasses implement :meth:`decide`."""

    def __init__(self, options: AgentOptions) -> None:
        self.config = LLMConfig.from_options(options.model, options.base_url, options.extra)
        self.client = LLMClient(self.config)
        self.info: EpisodeInfo | None = None
        self.book = ToolBook()
        self.history: list[StepLog] = []
        self._calls: list[CallRecord] = []
        self._pending_reply_error: str | None = None

    @property
    def wants_screenshots(self) -> bool:
        """Read by the episode loop: attach device screenshots to observations."""
        return self.config.vision

    # ----------------------------------------------------------------- protocol
    def start(self, info: EpisodeInfo) -> None:
        self.info = info
        self.book = ToolBook.build(info)
        self.history = []
        self._calls = []
        self._pending_reply_error = None
        self.on_start(info)

    def act(self, observation: dict[str, dict[str, Any]], feedback: Feedback | None) -> Decision:
        if feedback is not None:
            self.history.append(self._log(feedback))
        return self.decide(observation)

    # ---------------------------------------------------------------- for subclasses
    def on_start(self, info: EpisodeInfo) -> None:
        """Per-episode set-up of a subclass (no model calls needed)."""

    def decide(self, observation: dict[str, dict[str, Any]]) -> Decision:
        raise NotImplementedError

    @property
    def step_number(self) -> int:
        """The number of the step being decided (1-based)."""
        return len(self.history) + 1

    @property
    def last(self) -> StepLog | None:
        return self.history[-1] if self.history else None

    def images(
        self, observation: dict[str, dict[str, Any]], only: list[str] | None = None
    ) -> dict[str, bytes]:
        return screenshots_of(observation, only) if self.config.vision else {}

    def chat(
        self,
        build: MessagesFn,
        *,
        role: str,
        tools: list[dict[str, Any]] | None = None,
        turn: int | None = None,
    ) -> ChatReply:
        """One model call; falls back to JSON-in-text prompts if the endpoint refuses tools."""
        assert self.info is not None
        headers = {
            STEP_HEADER: str(self.step_number),
            TURN_HEADER: str(self.step_number - 1 if turn is None else turn),
            DEVICES_HEADER: ",".join(d.id for d in self.info.devices),
        }
        try:
            reply = self.client.chat(build(self.client.use_tools), role=role, tools=tools, headers=headers)
        except ToolsRefused:
            reply = self.client.chat(build(False), role=role, tools=None, headers=headers)
        self._calls.append(reply.record)
        return reply

    def decision(self, step: Step | None, *, reply_error: str | None = None, **notes: Any) -> Decision:
        """The Decision for this step, carrying the cost and records of the calls made for it.

        ``step=None`` (or a ``reply_error``) stands for an unusable reply: the step sent
        is invalid on purpose, and the error is shown to the model next step.
        """
        calls, self._calls = self._calls, []
        if step is None or reply_error is not None:
            step = invalid_reply_step()
            self._pending_reply_error = reply_error or "no usable action"
            notes["reply_error"] = self._pending_reply_error
        payload: dict[str, Any] = {
            "model": self.config.model,
            "model_latency_s": round(sum(c.latency_s for c in calls), 6),
            "calls": [c.model_dump(exclude_none=True) for c in calls],
        }
        payload.update({k: v for k, v in notes.items() if v is not None})
        return Decision(
            action=step,
            tokens_in=sum(c.tokens_in for c in calls),
            tokens_out=sum(c.tokens_out for c in calls),
            notes=payload,
        )

    def _log(self, feedback: Feedback) -> StepLog:
        reply_error = None
        if feedback.action.action == INVALID_REPLY_ACTION and self._pending_reply_error is not None:
            reply_error = self._pending_reply_error
        self._pending_reply_error = None
        result = feedback.result
        return StepLog(
            step=feedback.step,
            device=feedback.action.device,
            action=feedback.action.action,
            args=feedback.action.args,
            ok=result.ok,
            error_code=result.error_code,
            message=result.message,
            data=result.data,
            reply_error=reply_error,
        )
