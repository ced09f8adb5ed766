"""One tiny request before a run, so that a wrong endpoint is named in seconds, not per task.

Why: a base URL without ``/v1`` used to retry HTTP 501 for 20 s per task with no hint, an
HTML page came back as ``AttributeError: 'str' object has no attribute 'choices'``, and a
wrong model name or key surfaced only inside the first episode's error. :func:`check`
sends one short chat request with no retries and turns each failure into one line that
says what is wrong and what to try. It waits as long as a model call of the run would
(``timeout_s``, 120 s by default: a local server may load its model on the first request),
printing the run's heartbeat line meanwhile, so that a hung endpoint is seen at once and
named when the wait ends. With ``vision=auto`` it also sends a 1x1 image: an
endpoint that refuses it runs text-only, and the run says so (``run.json``'s agent options
hold ``vision: false`` and the report labels the run).
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import openai

from devicesworld.llmclient import (
    ROLE_HEADER,
    Heartbeat,
    LLMConfig,
    LLMError,
    describe_base_url,
    looks_like_image_refusal,
)

TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=="
)
"""A 1x1 PNG: enough for an endpoint to say whether it takes images."""


@dataclass(frozen=True)
class PreflightResult:
    """What the check found: the endpoint answers; whether it takes images."""

    vision: bool
    note: str


def check(config: LLMConfig) -> PreflightResult:
    """Send one tiny chat request (and, with ``vision=auto``, one with an image); raise
    :class:`LLMError` with a one-line diagnosis when the endpoint cannot be used."""
    client = openai.OpenAI(
        api_key=config.api_key, base_url=config.base_url, timeout=config.timeout_s, max_retries=0
    )
    where = describe_base_url(config.base_url)
    _ask(client, config, [{"role": "user", "content": "Reply with the word OK."}], where)
    if config.vision is False:
        return PreflightResult(vision=False, note="text-only (vision=false)")
    url = "data:image/png;base64," + base64.b64encode(TINY_PNG).decode("ascii")
    image_msg = {
        "role": "user",
        "content": [
            {"type": "text", "text": "Reply with the word OK."},
            {"type": "image_url", "image_url": {"url": url}},
        ],
    }
    try:
        _ask(client, config, [image_msg], where)
    except LLMError as exc:
        if config.vision is True:
            raise LLMError(f"vision=true but {exc}") from None
        return PreflightResult(vision=False, note=f"text-only: the endpoint refused an image ({exc})")
    return PreflightResult(vision=True, note="vision: screenshots are sent")


def _ask(client: openai.OpenAI, config: LLMConfig, messages: list[dict[str, Any]], where: str) -> None:
    try:
        request: dict[str, Any] = {
            "model": config.model,
            "messages": messages,
            "max_tokens": 8,
            "temperature": 0,
            "extra_headers": {ROLE_HEADER: "preflight"},  # real endpoints ignore it; the test server logs it
        }
        with Heartbeat(config.heartbeat_s, f"model {config.model!r} at {where}", "preflight"):
            raw = client.chat.completions.with_raw_response.create(**request)
        body = raw.parse()
    except openai.APITimeoutError:
        raise LLMError(
            f"{where} accepted the connection but did not answer a one-line chat request within "
            f"{config.timeout_s:g} s: is it overloaded or still loading model {config.model!r}? "
            "(--agent-opt timeout_s=SECONDS waits longer)"
        ) from None
    except openai.APIConnectionError as exc:
        raise LLMError(f"cannot reach {where}: {_cause(exc)}; is the server running?") from None
    except openai.AuthenticationError:
        raise LLMError(
            f"{where} refused the API key (HTTP 401): set DEVICESWORLD_API_KEY or OPENAI_API_KEY"
        ) from None
    except openai.PermissionDeniedError as exc:
        raise LLMError(f"{where} denied access (HTTP 403): {_short(exc.message)}") from None
    except openai.APIStatusError as exc:
        raise LLMError(_status_problem(client, config, exc, where)) from None
    except openai.APIError as exc:  # e.g. a body that is not JSON
        raise LLMError(
            f"{where} answered, but not as an OpenAI-compatible endpoint: {_short(str(exc))}"
        ) from None
    if not hasattr(body, "choices"):
        raise LLMError(
            f"{where} answered with {_what(body)}, not a chat completion: is it an OpenAI-compatible endpoint?{_v1_hint(config.base_url)}"
        )
    if not body.choices:
        raise LLMError(f"{where} answered with no choices for model {config.model!r}")


def _status_problem(client: openai.OpenAI, config: LLMConfig, exc: openai.APIStatusError, where: str) -> str:
    status = exc.status_code
    message = _short(exc.message)
    if looks_like_image_refusal(message):
        return f"{where} refused an image for model {config.model!r} (HTTP {status}): {message}"
    if status in (404, 405, 501) and "model" not in message.lower():
        return f"{where} has no /chat/completions (HTTP {status}){_v1_hint(config.base_url)}"
    if status in (400, 404) and "model" in message.lower():
        known = _models(client)
        listed = f"; it lists: {', '.join(known[:10])}" if known else ""
        return f"{where} does not know model {config.model!r} (HTTP {status}: {message}){listed}"
    return f"{where} refused a one-line chat request (HTTP {status}): {message}{_v1_hint(config.base_url)}"


def _v1_hint(base_url: str | None) -> str:
    if not base_url:
        return ""
    path = urlsplit(base_url).path.rstrip("/")
    if path.endswith("/v1"):
        return ""
    return f"; OpenAI-compatible servers usually serve under /v1: try --base-url {base_url.rstrip('/')}/v1"


def _models(client: openai.OpenAI) -> list[str]:
    try:
        return sorted(m.id for m in client.models.list())
    except Exception:  # listing models is optional for an endpoint
        return []


def _cause(exc: BaseException) -> str:
    inner = exc.__cause__ or exc.__context__
    return _short(str(inner or exc))


def _what(body: Any) -> str:
    if isinstance(body, str):
        kind = "an HTML page" if body.lstrip().lower().startswith(("<!doctype", "<html")) else "text"
        return f"{kind} ({_short(body, 80)!r})"
    try:
        return f"JSON without choices ({_short(json.dumps(body, default=str), 80)})"
    except (TypeError, ValueError):
        return type(body).__name__


def _short(text: str, limit: int = 200) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
