"""What every LLM agent shares: configuration, the tool book, the step history,
model calls with their records, and turning a reply (or a bad one) into a Decision.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from devicesworld.agents.base import AgentOptions, Decision, EpisodeInfo, Feedback
from devicesworld.agents.llm.parsing import INVALID_REPLY_ACTION, invalid_reply_step
from devicesworld.agents.llm.prompts import StepLog, format_previous, screenshots_of, user_message
from devicesworld.agents.llm.tools import ToolBook
from devicesworld.llmclient import CallRecord, ChatReply, ImagesRefused, LLMClient, LLMConfig, ToolsRefused
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
        self._sent_images: dict[str, str] = {}
        self._seen_images: dict[str, str] = {}
        self.previous_observation: dict[str, dict[str, Any]] | None = None
        """The observation the last step was decided on (prompts list what changed since first)."""

    @property
    def wants_screenshots(self) -> bool:
        """Read by the episode loop: attach device screenshots to observations (``vision`` is
        ``auto`` or ``true``, and the endpoint has not refused an image)."""
        return self.client.use_images

    # ----------------------------------------------------------------- protocol
    def start(self, info: EpisodeInfo) -> None:
        self.info = info
        self.book = ToolBook.build(info)
        self.history = []
        self._calls = []
        self._seen_images = {}
        self._pending_reply_error = None
        self.previous_observation = None
        self.on_start(info)

    def act(self, observation: dict[str, dict[str, Any]], feedback: Feedback | None) -> Decision:
        if feedback is not None:
            self.history.append(self._log(feedback))
        try:
            return self.decide(observation)
        finally:
            self.previous_observation = observation

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
        """The screenshots to send (every device that rendered one), remembered by sha256 so the
        step's notes can name the files the run keeps (``images/<sha256>.png``)."""
        shots = screenshots_of(observation, only) if self.client.use_images else {}
        for device_id, png in shots.items():
            self._sent_images[device_id] = image_path(png)
        return shots

    def previous_section(self) -> str:
        """The prompt section every acting model reads: its previous action and that action's feedback."""
        return f"# Previous action and its feedback\n{format_previous(self.last)}\n\n"

    def messages(
        self, system: str, text: str, observation: dict[str, dict[str, Any]], only: list[str] | None = None
    ) -> list[dict[str, Any]]:
        """A request: the system prompt, then ``text`` with the screenshots of the devices (``only``: those)."""
        return [{"role": "system", "content": system}, user_message(text, self.images(observation, only))]

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
        for _attempt in range(2):
            self._sent_images = {}
            try:
                reply = self.client.chat(
                    build(self.client.use_tools), role=role, tools=tools, headers=headers
                )
                break
            except (ToolsRefused, ImagesRefused):
                continue  # the client has turned tools or images off: the same request without them
        else:
            self._sent_images = {}
            reply = self.client.chat(build(self.client.use_tools), role=role, tools=tools, headers=headers)
        self._calls.append(reply.record)
        if self._sent_images:
            self._seen_images.update(self._sent_images)
        return reply

    def decision(self, step: Step | None, *, reply_error: str | None = None, **notes: Any) -> Decision:
        """The Decision for this step, carrying the cost and records of the calls made for it.

        ``step=None`` (or a ``reply_error``) stands for an unusable reply: the step sent
        is invalid on purpose, and the error is shown to the model next step.
        """
        calls, self._calls = self._calls, []
        images, self._seen_images = self._seen_images, {}
        if step is None or reply_error is not None:
            step = invalid_reply_step()
            self._pending_reply_error = reply_error or "no usable action"
            notes["reply_error"] = self._pending_reply_error
        payload: dict[str, Any] = {
            "model": self.config.model,
            "model_latency_s": round(sum(c.latency_s for c in calls), 6),
            "calls": [c.model_dump(exclude_none=True) for c in calls],
        }
        if images:
            payload["images"] = images
        elif not self.client.use_images:
            payload["text_only"] = True
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


def image_path(png: bytes) -> str:
    """Where a run keeps an image the model saw: content-addressed, so a screen that did not
    change between steps is one file (``images/<sha256>.png`` in the episode's folder)."""
    return f"images/{hashlib.sha256(png).hexdigest()}.png"
