"""One chat-completion call to an OpenAI-compatible endpoint, with its cost and record.

The official ``openai`` SDK does the HTTP work, including retries with exponential
backoff (and the server's ``Retry-After``) on rate limits (429), timeouts, lock
conflicts and 5xx errors; we only configure it and read how many retries it took.
Every call yields a :class:`CallRecord` — tokens, latency, retries, and the prompt
and reply as configured by ``log_prompts`` — which agents put into
``Decision.notes`` so that ``steps.jsonl`` keeps the whole exchange.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from devicesworld.extras import MissingExtra, advice
from devicesworld.modelclock import waiting_for_model

try:
    import openai
except ModuleNotFoundError as _exc:
    if _exc.name != "openai":
        raise
    raise MissingExtra(advice("openai", "the LLM agents"), name="openai") from None

LogMode = Literal["full", "hash", "none"]
ToolsMode = Literal["auto", "on", "off"]

API_KEY_VARS = ("DEVICESWORLD_API_KEY", "OPENAI_API_KEY")
"""Where the key comes from, first match wins."""
MODEL_VAR = "DEVICESWORLD_MODEL"
BASE_URL_VAR = "DEVICESWORLD_BASE_URL"
ROLE_HEADER = "X-DevicesWorld-Role"
"""Which part of an agent is asking (actor, planner, ...); real endpoints ignore it,
the local test server uses it to script its replies."""


class LLMError(Exception):
    """The endpoint could not be used (bad configuration, or errors after all retries)."""


class LLMConfig(BaseModel):
    """Settings of the model calls; read from ``AgentOptions`` and its ``extra`` dict."""

    model_config = ConfigDict(extra="forbid")

    model: str
    base_url: str | None = None
    api_key: str = Field(default="", repr=False)
    temperature: float = 0.0
    max_tokens: int | None = 1024
    timeout_s: float = Field(default=120.0, gt=0)
    max_retries: int = Field(default=6, ge=0)
    tools: ToolsMode = Field(
        default="auto", description="on: function calling; off: JSON in text; auto: on, off if refused."
    )
    log_prompts: LogMode = "hash"
    history: int = Field(default=10, ge=0, description="Steps of text history in the prompt.")
    vision: bool | Literal["auto"] = Field(
        default="auto",
        description="Send device screenshots as images: auto (the default) does when the endpoint "
        "takes images (the run's preflight asks it; a refusal mid-run turns them off), true always, false never.",
    )
    heartbeat_s: float = Field(
        default=15.0,
        ge=0,
        description="Print a line every this many seconds while a model call is slow (0: never).",
    )
    demos: str | None = Field(
        default=None, description="A demonstration file shown as few-shot examples (llm)."
    )
    demo_chars: int = Field(default=6000, ge=0, description="Most characters of demonstrations in a prompt.")

    @classmethod
    def from_options(
        cls, model: str | None, base_url: str | None, extra: Mapping[str, Any] | None = None
    ) -> LLMConfig:
        """Build from the command line and the environment; a clear error when incomplete."""
        extra = dict(extra or {})
        model = model or os.environ.get(MODEL_VAR)
        base_url = base_url or os.environ.get(BASE_URL_VAR) or None
        if not model:
            raise LLMError(f"LLM agents need a model: pass --model or set {MODEL_VAR}")
        key = next((os.environ[v] for v in API_KEY_VARS if os.environ.get(v)), "")
        if not key:
            if base_url is None:
                raise LLMError(
                    f"no API key: set {' or '.join(API_KEY_VARS)} (or --base-url for a local server)"
                )
            key = "not-needed"  # local servers (vLLM, llama.cpp, ...) usually take any key
        known = set(cls.model_fields) - {"model", "base_url", "api_key"}
        unknown = sorted(set(extra) - known)
        if unknown:
            raise LLMError(f"unknown LLM option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        try:
            return cls(model=model, base_url=base_url, api_key=key, **extra)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            raise LLMError(f"invalid LLM option: {problems}") from None


class CallRecord(BaseModel):
    """What one model call cost and said; goes into ``steps.jsonl`` via ``Decision.notes``."""

    role: str
    model: str
    latency_s: float
    tokens_in: int
    tokens_out: int
    tokens_estimated: bool = False
    retries: int = 0
    finish_reason: str | None = None
    prompt_sha256: str | None = None
    prompt: list[dict[str, Any]] | None = None
    reply: dict[str, Any] | None = None


class ChatReply(BaseModel):
    """The parts of a completion the agents use."""

    content: str | None = None
    refusal: str | None = None
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)
    """Each ``{"id", "name", "arguments"}``; ``arguments`` is the raw JSON text."""
    record: CallRecord


class LLMClient:
    """A configured endpoint. Thread-compatible: one per agent instance."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._client = openai.OpenAI(
            api_key=config.api_key,
            base_url=config.base_url,
            timeout=config.timeout_s,
            max_retries=config.max_retries,
        )
        self.tools_refused = config.tools == "off"
        self.images_refused = config.vision is False

    @property
    def use_tools(self) -> bool:
        return not self.tools_refused

    @property
    def use_images(self) -> bool:
        return not self.images_refused

    def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        role: str,
        tools: list[dict[str, Any]] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> ChatReply:
        """One completion; raises :class:`LLMError` when the endpoint fails after all retries."""
        tools = tools if (tools and self.use_tools) else None
        try:
            return self._call(messages, role=role, tools=tools, headers=headers)
        except openai.BadRequestError as exc:
            if (
                self.config.vision == "auto"
                and has_images(messages)
                and looks_like_image_refusal(str(exc.message))
            ):
                self.images_refused = True  # the rest of the run is text-only, and says so
                raise ImagesRefused(_describe(exc, self.config.base_url)) from None
            about_tools = any(word in str(exc.message).lower() for word in ("tool", "function"))
            if tools is None or self.config.tools != "auto" or not about_tools:
                raise LLMError(_describe(exc, self.config.base_url)) from None
            # The endpoint may not support function calling: fall back to JSON in text.
            self.tools_refused = True
            raise ToolsRefused(_describe(exc, self.config.base_url)) from None
        except openai.APIError as exc:
            raise LLMError(_describe(exc, self.config.base_url)) from None

    def _call(
        self,
        messages: list[dict[str, Any]],
        *,
        role: str,
        tools: list[dict[str, Any]] | None,
        headers: Mapping[str, str] | None,
    ) -> ChatReply:
        cfg = self.config
        kwargs: dict[str, Any] = {
            "model": cfg.model,
            "messages": messages,
            "temperature": cfg.temperature,
            "extra_headers": {ROLE_HEADER: role, **(headers or {})},
        }
        if cfg.max_tokens is not None:
            kwargs["max_tokens"] = cfg.max_tokens
        if tools:
            kwargs["tools"] = tools
            kwargs["tool_choice"] = "auto"
        t0 = time.perf_counter()
        with (
            waiting_for_model(),  # the runner does not count it against the task's max_seconds
            Heartbeat(cfg.heartbeat_s, f"model {cfg.model!r} at {describe_base_url(cfg.base_url)}", role),
        ):
            raw = self._client.chat.completions.with_raw_response.create(**kwargs)
            completion = raw.parse()
        latency = time.perf_counter() - t0
        if not hasattr(completion, "choices"):  # an HTML page or plain text, not a completion
            snippet = " ".join(str(completion).split())[:120]
            raise LLMError(
                f"{describe_base_url(cfg.base_url)} did not answer with a chat completion "
                f"(got {snippet!r}); is it an OpenAI-compatible endpoint (usually under /v1)?"
            )
        if not completion.choices:
            raise LLMError("the endpoint returned no choices")
        choice = completion.choices[0]
        message = choice.message
        calls = [
            {"id": c.id, "name": c.function.name, "arguments": c.function.arguments}
            for c in (message.tool_calls or [])
            if getattr(c, "function", None) is not None
        ]
        usage = completion.usage
        estimated = usage is None
        if usage is not None:
            tokens_in, tokens_out = usage.prompt_tokens, usage.completion_tokens
        else:  # some servers omit usage: estimate (4 characters a token) and say so
            tokens_in = estimate_tokens(json.dumps(messages)) + (
                estimate_tokens(json.dumps(tools)) if tools else 0
            )
            tokens_out = estimate_tokens((message.content or "") + json.dumps(calls))
        reply = {"content": message.content, "refusal": message.refusal, "tool_calls": calls}
        record = CallRecord(
            role=role,
            model=cfg.model,
            latency_s=round(latency, 6),
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            tokens_estimated=estimated,
            retries=raw.retries_taken,
            finish_reason=choice.finish_reason,
            prompt_sha256=None if cfg.log_prompts == "none" else prompt_digest(messages, tools),
            prompt=redact_images(messages) if cfg.log_prompts == "full" else None,
            reply=None if cfg.log_prompts == "none" else reply,
        )
        return ChatReply(content=message.content, refusal=message.refusal, tool_calls=calls, record=record)


class ToolsRefused(LLMError):
    """The endpoint rejected a request with tools; the client now sends JSON-in-text prompts."""


class ImagesRefused(LLMError):
    """The endpoint rejected a request with images (``vision=auto``); the client now sends text only."""


class Heartbeat:
    """While a model call runs, print one line to stderr every ``every_s`` seconds, so that a
    slow or hung endpoint is visible (with the defaults a hung call could wait ~14 minutes)."""

    def __init__(self, every_s: float, what: str, role: str) -> None:
        self.every_s = every_s
        self.what = what
        self.role = role
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Heartbeat:
        if self.every_s > 0:
            self._thread = threading.Thread(target=self._beat, name="llm-heartbeat", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=1)

    def _beat(self) -> None:
        t0 = time.monotonic()
        while not self._stop.wait(self.every_s):
            waited = time.monotonic() - t0
            print(
                f"[llm] still waiting for {self.what} ({self.role}): {waited:.0f} s",
                file=sys.stderr,
                flush=True,
            )


def describe_base_url(base_url: str | None) -> str:
    """How error lines name the endpoint."""
    return f"the endpoint {base_url}" if base_url else "OpenAI's API (no --base-url)"


def looks_like_image_refusal(message: str) -> bool:
    """Whether an error message says the model or server does not take images."""
    text = message.lower()
    return any(w in text for w in ("image", "vision", "multimodal", "image_url")) and "rate" not in text


def has_images(messages: list[dict[str, Any]]) -> bool:
    return any(
        isinstance(m.get("content"), list) and any(p.get("type") == "image_url" for p in m["content"])
        for m in messages
    )


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4)


def prompt_digest(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> str:
    """sha256 of the canonical JSON of the request's messages and tools."""
    doc = json.dumps({"messages": messages, "tools": tools}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(doc.encode("utf-8")).hexdigest()


def redact_images(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages with inline images replaced by their hash (screenshots are saved apart)."""
    out: list[dict[str, Any]] = []
    for m in messages:
        content = m.get("content")
        if isinstance(content, list):
            parts = []
            for part in content:
                if part.get("type") == "image_url":
                    url = str(part.get("image_url", {}).get("url", ""))
                    parts.append(_image_ref(url))
                else:
                    parts.append(part)
            out.append({**m, "content": parts})
        else:
            out.append(m)
    return out


def _image_ref(url: str) -> dict[str, Any]:
    """An inline image as the file the run keeps of it (``images/<sha256 of the PNG>.png``)."""
    head, sep, data = url.partition(";base64,")
    if sep and head.startswith("data:"):
        try:
            digest = hashlib.sha256(base64.b64decode(data)).hexdigest()
        except ValueError:
            digest = hashlib.sha256(url.encode()).hexdigest()
        else:
            return {"type": "image", "sha256": digest, "path": f"images/{digest}.png"}
    else:
        digest = hashlib.sha256(url.encode()).hexdigest()
    return {"type": "image", "sha256": digest}


def _describe(exc: openai.APIError, base_url: str | None = None) -> str:
    status = getattr(exc, "status_code", None)
    where = f"HTTP {status}: " if status else ""
    return f"model endpoint error ({type(exc).__name__}) from {describe_base_url(base_url)}: {where}{exc.message}"
