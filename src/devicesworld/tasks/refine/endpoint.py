"""The model behind the LLM stages: an OpenAI-compatible endpoint, or any callable.

The stages only need "send these messages, get text back", so they take a
:class:`Chat`; :func:`open_endpoint` builds one over the agents' own client
(:mod:`devicesworld.llmclient`, which brings retries with backoff and token
counts). The ``openai`` SDK is imported only here and only when a stage runs, so the
rest of the package works without the ``llm`` extra, and a missing SDK or an
unusable endpoint becomes one clear :class:`EndpointError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class EndpointError(Exception):
    """The model could not be asked (missing SDK, bad configuration, endpoint errors after retries)."""


@dataclass(frozen=True)
class Answer:
    """A reply's text (empty for a refusal) and what it cost."""

    text: str
    tokens_in: int = 0
    tokens_out: int = 0


class Chat(Protocol):
    model: str

    def __call__(self, messages: list[dict[str, Any]], *, role: str) -> Answer: ...


class _ClientChat:
    def __init__(self, client: Any, model: str) -> None:
        self._client = client
        self.model = model

    def __call__(self, messages: list[dict[str, Any]], *, role: str) -> Answer:
        from devicesworld.llmclient import LLMError

        try:
            reply = self._client.chat(messages, role=role)
        except LLMError as exc:
            raise EndpointError(str(exc)) from None
        return Answer(
            text="" if reply.refusal else (reply.content or ""),
            tokens_in=reply.record.tokens_in,
            tokens_out=reply.record.tokens_out,
        )


def open_endpoint(
    model: str | None,
    base_url: str | None,
    *,
    api_key_env: str | None = None,
    timeout_s: float = 60.0,
    max_retries: int = 2,
    max_tokens: int = 1024,
) -> Chat:
    """A :class:`Chat` over an OpenAI-compatible endpoint; :class:`EndpointError` when it cannot be."""
    import os

    try:
        import openai  # noqa: F401  (the llm extra)
    except ImportError:
        raise EndpointError(
            "the LLM stages need the openai package: pip install 'devicesworld[llm]'"
        ) from None
    from devicesworld.llmclient import BASE_URL_VAR, MODEL_VAR, LLMClient, LLMConfig, LLMError

    extra: dict[str, Any] = {
        "timeout_s": timeout_s,
        "max_retries": max_retries,
        "max_tokens": max_tokens,
        "tools": "off",
        "log_prompts": "none",
    }
    try:
        if api_key_env:  # the key from a variable of the user's choice, not the usual ones
            key = os.environ.get(api_key_env)
            if not key:
                raise EndpointError(f"--api-key-env {api_key_env}: that variable is not set")
            model = model or os.environ.get(MODEL_VAR)
            if not model:
                raise EndpointError(f"the LLM stages need a model: pass --model or set {MODEL_VAR}")
            base_url = base_url or os.environ.get(BASE_URL_VAR) or None
            config = LLMConfig(model=model, base_url=base_url, api_key=key, **extra)
        else:
            config = LLMConfig.from_options(model, base_url, extra)
    except LLMError as exc:
        raise EndpointError(str(exc)) from None
    return _ClientChat(LLMClient(config), config.model)
