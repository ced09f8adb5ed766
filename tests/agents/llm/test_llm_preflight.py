"""The endpoint preflight names each problem in one line; the heartbeat shows a slow model call.

The endpoints here are tiny local HTTP servers that each misbehave one way (a server that
serves only under ``/v1``, an HTML page, an unknown model, a refused key, a refused image).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from devicesworld.agents.llm.preflight import check
from devicesworld.agents.llm.testserver import ScriptedServer, completion
from devicesworld.llmclient import Heartbeat, LLMClient, LLMConfig, LLMError

Answer = Callable[[str, dict[str, Any]], tuple[int, str, bytes]]
"""(path, request body) -> (status, content type, body)."""


def _json(status: int, body: object) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps(body).encode()


def _ok(path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
    return _json(200, completion({"role": "assistant", "content": "OK"}, str(body.get("model"))))


@pytest.fixture
def endpoint() -> Iterator[Callable[[Answer], str]]:
    """Start a server answering with the given function; yields a function returning its base URL."""
    servers: list[ThreadingHTTPServer] = []

    def start(answer: Answer) -> str:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _reply(self, body: dict[str, Any]) -> None:
                status, kind, data = answer(self.path, body)
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                self._reply(json.loads(raw or b"{}"))

            def do_GET(self) -> None:
                self._reply({})

        srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        srv.daemon_threads = True
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        servers.append(srv)
        return f"http://127.0.0.1:{srv.server_address[1]}"

    yield start
    for srv in servers:
        srv.shutdown()
        srv.server_close()


def config(base_url: str, model: str = "m", **extra: Any) -> LLMConfig:
    return LLMConfig(model=model, base_url=base_url, api_key="k", **extra)


def one_line(exc: pytest.ExceptionInfo[LLMError]) -> str:
    text = str(exc.value)
    assert "\n" not in text and "Traceback" not in text
    return text


def test_a_base_url_without_v1_is_named_with_the_fix(endpoint: Callable[[Answer], str]) -> None:
    def only_v1(path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        if path.startswith("/v1/"):
            return _ok(path, body)
        return _json(501, {"error": {"message": "Unsupported method ('POST')"}})

    url = endpoint(only_v1)
    with pytest.raises(LLMError) as exc:
        check(config(url))
    text = one_line(exc)
    assert "has no /chat/completions (HTTP 501)" in text and f"try --base-url {url}/v1" in text
    assert check(config(url + "/v1")).vision is True


def test_an_html_reply_is_not_an_openai_endpoint(endpoint: Callable[[Answer], str]) -> None:
    url = endpoint(lambda p, b: (200, "text/html", b"<!doctype html><html><body>Welcome</body></html>"))
    with pytest.raises(LLMError) as exc:
        check(config(url + "/v1"))
    text = one_line(exc)
    assert "HTML page" in text and "OpenAI-compatible" in text and url in text


def test_an_unknown_model_lists_the_known_ones(endpoint: Callable[[Answer], str]) -> None:
    def models(path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        if path.endswith("/models"):
            return _json(200, {"object": "list", "data": [{"id": "qwen2.5-vl", "object": "model"}]})
        return _json(404, {"error": {"message": f"The model `{body.get('model')}` does not exist."}})

    url = endpoint(models)
    with pytest.raises(LLMError) as exc:
        check(config(url + "/v1", model="gpt-5"))
    text = one_line(exc)
    assert "does not know model 'gpt-5'" in text and "it lists: qwen2.5-vl" in text


def test_a_refused_key_says_which_variable_to_set(endpoint: Callable[[Answer], str]) -> None:
    url = endpoint(lambda p, b: _json(401, {"error": {"message": "Incorrect API key provided"}}))
    with pytest.raises(LLMError) as exc:
        check(config(url + "/v1"))
    assert "refused the API key (HTTP 401)" in one_line(exc) and "DEVICESWORLD_API_KEY" in str(exc.value)


def test_nothing_listening_is_named() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(LLMError) as exc:
        check(config(f"http://127.0.0.1:{port}/v1"))
    assert "cannot reach" in one_line(exc) and "is the server running?" in str(exc.value)


def test_vision_auto_becomes_text_only_when_the_endpoint_refuses_an_image(
    endpoint: Callable[[Answer], str],
) -> None:
    def no_images(path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        parts = [p for m in body.get("messages", []) if isinstance(m["content"], list) for p in m["content"]]
        if any(p.get("type") == "image_url" for p in parts):
            return _json(400, {"error": {"message": "this model does not support image input"}})
        return _ok(path, body)

    url = endpoint(no_images) + "/v1"
    found = check(config(url))
    assert found.vision is False and "text-only" in found.note
    with pytest.raises(LLMError) as exc:
        check(config(url, vision=True))
    assert one_line(exc).startswith("vision=true but")
    assert check(config(url, vision=False)).vision is False


def test_a_hung_endpoint_shows_heartbeat_lines_then_one_line_naming_the_wait(
    endpoint: Callable[[Answer], str], capfd: pytest.CaptureFixture[str]
) -> None:
    def hang(path: str, body: dict[str, Any]) -> tuple[int, str, bytes]:
        time.sleep(3)  # longer than the client waits
        return _ok(path, body)

    url = endpoint(hang) + "/v1"
    with pytest.raises(LLMError) as exc:
        check(config(url, timeout_s=0.5, heartbeat_s=0.05))
    text = one_line(exc)
    assert url in text and "did not answer a one-line chat request within 0.5 s" in text
    assert "timeout_s" in text and "is the server running" not in text
    assert f"[llm] still waiting for model 'm' at the endpoint {url} (preflight):" in capfd.readouterr().err


def test_the_heartbeat_prints_while_a_call_is_slow(capsys: pytest.CaptureFixture[str]) -> None:
    seen = ""
    with Heartbeat(0.01, "model 'm' at the endpoint http://x/v1", "actor"):
        deadline = time.monotonic() + 30
        while "still waiting" not in seen and time.monotonic() < deadline:
            time.sleep(0.01)  # wait for the first beat (the test asserts that it comes, not when)
            seen += capsys.readouterr().err
    assert "[llm] still waiting for model 'm' at the endpoint http://x/v1 (actor):" in seen
    with Heartbeat(0.01, "model 'm'", "actor") as beat:
        pass
    assert beat._stop.is_set()
    with Heartbeat(0, "model 'm'", "actor") as silent:
        assert silent._thread is None  # 0: never


def test_a_slow_model_call_prints_heartbeat_lines_naming_model_and_endpoint(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for var in ("OPENAI_API_KEY", "DEVICESWORLD_API_KEY", "DEVICESWORLD_MODEL", "DEVICESWORLD_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with ScriptedServer(delay_s=1.0) as server:
        client = LLMClient(config(server.base_url, model="scripted+timeout", heartbeat_s=0.05))
        reply = client.chat([{"role": "user", "content": "hi"}], role="actor")
    assert reply.record.latency_s > 0
    err = capfd.readouterr().err
    assert "[llm] still waiting for model 'scripted+timeout'" in err and server.base_url in err
    assert "(actor)" in err


def test_a_non_json_reply_during_the_run_is_one_line_naming_the_endpoint(
    endpoint: Callable[[Answer], str],
) -> None:
    url = endpoint(lambda p, b: (200, "text/html", b"<html><body>Bad gateway page</body></html>")) + "/v1"
    client = LLMClient(config(url, heartbeat_s=0))
    with pytest.raises(LLMError) as exc:
        client.chat([{"role": "user", "content": "hi"}], role="actor")
    text = one_line(exc)
    assert url in text and "did not answer with a chat completion" in text
