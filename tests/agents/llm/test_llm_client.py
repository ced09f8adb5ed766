from __future__ import annotations

import pytest

from devicesworld.agents.llm.testserver import Reply, ScriptedServer
from devicesworld.llmclient import (
    LLMClient,
    LLMConfig,
    LLMError,
    ToolsRefused,
    prompt_digest,
    redact_images,
)
from tests.agents.llm.llm_helpers import CLIENT_TIMEOUT_S

MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]
FINISH_TOOL = {
    "type": "function",
    "function": {"name": "finish", "parameters": {"type": "object", "properties": {}}},
}


def _client(server: ScriptedServer, model: str = "scripted", **extra: object) -> LLMClient:
    return LLMClient(LLMConfig.from_options(model, server.base_url, extra))


def test_tokens_come_from_usage(server: ScriptedServer) -> None:
    reply = _client(server).chat(MESSAGES, role="review")
    assert reply.content and '"done": true' in reply.content
    assert reply.record.tokens_in > 0 and reply.record.tokens_out > 0
    assert not reply.record.tokens_estimated
    assert reply.record.latency_s > 0 and reply.record.retries == 0
    assert server.requests[0].body["temperature"] == 0.0


def test_missing_usage_is_estimated_and_flagged(server: ScriptedServer) -> None:
    reply = _client(server, "scripted+nousage").chat(MESSAGES, role="review")
    assert reply.record.tokens_estimated and reply.record.tokens_in > 0


@pytest.mark.parametrize("fault", ["ratelimit", "error", "timeout"])
def test_rate_limits_server_errors_and_timeouts_are_retried(server: ScriptedServer, fault: str) -> None:
    client = _client(server, f"scripted+{fault}", timeout_s=CLIENT_TIMEOUT_S)
    reply = client.chat(MESSAGES, role="review")
    assert reply.record.retries == 1
    assert len(server.requests) == 2


def test_errors_after_all_retries_are_clear(server: ScriptedServer) -> None:
    client = _client(server, max_retries=1)
    err = Reply(status=503, body={"error": {"message": "overloaded"}}, headers={"retry-after-ms": "5"})
    server.push(err, err)
    with pytest.raises(LLMError, match=r"HTTP 503.*overloaded"):
        client.chat(MESSAGES, role="actor")


def test_an_endpoint_without_tools_switches_to_text(server: ScriptedServer) -> None:
    client = _client(server)
    server.push(Reply(status=400, body={"error": {"message": "tools are not supported"}}))
    with pytest.raises(ToolsRefused):
        client.chat(MESSAGES, role="actor", tools=[FINISH_TOOL])
    assert not client.use_tools
    client.chat(MESSAGES, role="review", tools=[FINISH_TOOL])
    assert "tools" not in server.requests[-1].body


def test_tools_on_does_not_fall_back(server: ScriptedServer) -> None:
    client = _client(server, tools="on")
    server.push(Reply(status=400, body={"error": {"message": "tools are not supported"}}))
    with pytest.raises(LLMError, match="tools are not supported") as err:
        client.chat(MESSAGES, role="actor", tools=[FINISH_TOOL])
    assert not isinstance(err.value, ToolsRefused)


@pytest.mark.parametrize("mode", ["full", "hash", "none"])
def test_prompt_logging_modes(server: ScriptedServer, mode: str) -> None:
    record = _client(server, log_prompts=mode).chat(MESSAGES, role="review").record
    if mode == "full":
        assert record.prompt == MESSAGES and record.reply is not None
    if mode == "hash":
        assert record.prompt is None and record.prompt_sha256 == prompt_digest(MESSAGES, None)
        assert record.reply is not None
    if mode == "none":
        assert record.prompt is None and record.prompt_sha256 is None and record.reply is None


def test_configuration_errors_are_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "DEVICESWORLD_API_KEY", "DEVICESWORLD_MODEL", "DEVICESWORLD_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(LLMError, match="--model or set DEVICESWORLD_MODEL"):
        LLMConfig.from_options(None, None)
    with pytest.raises(LLMError, match="no API key"):
        LLMConfig.from_options("gpt", None)
    with pytest.raises(LLMError, match="unknown LLM option"):
        LLMConfig.from_options("gpt", "http://127.0.0.1:1/v1", {"temprature": 1})
    monkeypatch.setenv("DEVICESWORLD_MODEL", "m")
    monkeypatch.setenv("DEVICESWORLD_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    cfg = LLMConfig.from_options(None, None)
    assert (cfg.model, cfg.base_url, cfg.api_key) == ("m", "http://127.0.0.1:9/v1", "sk-test")
    assert "sk-test" not in repr(cfg)


def test_images_are_not_logged_inline() -> None:
    msg = {
        "role": "user",
        "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}],
    }
    out = redact_images([msg])
    assert out[0]["content"][0]["type"] == "image" and len(out[0]["content"][0]["sha256"]) == 64


def test_other_bad_requests_do_not_switch_to_text(server: ScriptedServer) -> None:
    client = _client(server)
    server.push(Reply(status=400, body={"error": {"message": "maximum context length exceeded"}}))
    with pytest.raises(LLMError, match="context length") as err:
        client.chat(MESSAGES, role="actor", tools=[FINISH_TOOL])
    assert not isinstance(err.value, ToolsRefused) and client.use_tools


def test_invalid_option_values_are_one_line_errors() -> None:
    with pytest.raises(LLMError, match=r"invalid LLM option: tools: .*'auto', 'on' or 'off'"):
        LLMConfig.from_options("m", "http://127.0.0.1:9/v1", {"tools": "maybe"})


def test_the_scripted_server_answers_a_deep_body_400(server: ScriptedServer) -> None:
    import urllib.error
    import urllib.request

    body = ("[" * 100_000 + "]" * 100_000).encode()
    request = urllib.request.Request(f"{server.base_url}/chat/completions", data=body, method="POST")
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=30)
    assert caught.value.code == 400
