"""A local OpenAI-compatible server with scripted replies, for tests and demos.

It serves ``POST /v1/chat/completions`` (and ``GET /v1/models``) on 127.0.0.1 with
the standard library only. It is not a model: it follows a tiny policy that drives
every agent of this package through a short, normal episode — query something on a
device, then declare completion — and it misbehaves on request, so that tests can
prove the agents cope through the real ``openai`` SDK.

The model name picks the behaviour: ``scripted`` plus ``+``-separated modifiers:

``json``       reply with JSON in the text even when tools are offered
``malformed``  the first action reply of each exchange is broken text
``refusal``    the first action reply of each exchange is a refusal
``ratelimit``  every request is first answered 429 (with ``retry-after-ms``)
``error``      every request is first answered 500
``timeout``    every request is first answered too late (``delay`` seconds)
``nousage``    no ``usage`` block (the client estimates tokens)

e.g. ``--model scripted+malformed+ratelimit``. Replies queued with
:meth:`ScriptedServer.push` are served first, whatever the model. Every request is
kept in :attr:`ScriptedServer.requests` for assertions.

Run it by hand: ``python -m devicesworld.agents.llm.testserver --port 8000``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from devicesworld import jsonl

ROLE_HEADER = "X-DevicesWorld-Role"
TURN_HEADER = "X-DevicesWorld-Turn"
DEVICES_HEADER = "X-DevicesWorld-Devices"

ACTION_ROLES = {"actor", "device", "grounder"}
_CATALOG_LINE = re.compile(r"^- (\S+) (\S+): .*\| args: (\{.*\})$", re.MULTILINE)


@dataclass
class Reply:
    """One scripted answer: a status with a JSON body, after an optional delay."""

    status: int = 200
    body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class Seen:
    role: str
    turn: int
    model: str
    body: dict[str, Any]


class ScriptedServer:
    """Start with :meth:`start`, use :attr:`base_url`, stop with :meth:`stop` (or as a context manager)."""

    def __init__(self, port: int = 0, *, delay_s: float = 2.0) -> None:
        self.delay_s = delay_s
        self.requests: list[Seen] = []
        self._queue: list[Reply] = []
        self._first_seen: set[str] = set()
        self._lock = threading.Lock()
        self._http = ThreadingHTTPServer(("127.0.0.1", port), _handler_for(self))
        self._http.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> ScriptedServer:
        self._thread = threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.05}, name="scripted-llm", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._http.shutdown()
        self._http.server_close()

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def push(self, *replies: Reply | dict[str, Any]) -> None:
        """Queue replies served before the policy; a dict is a chat ``message`` to return."""
        with self._lock:
            for r in replies:
                self._queue.append(r if isinstance(r, Reply) else Reply(body=completion(r, "queued")))

    # ------------------------------------------------------------------ policy
    def answer(self, body: dict[str, Any], headers: dict[str, str]) -> Reply:
        model = str(body.get("model", "scripted"))
        role = headers.get(ROLE_HEADER.lower(), "actor")
        turn = int(headers.get(TURN_HEADER.lower(), "0") or 0)
        with self._lock:
            self.requests.append(Seen(role=role, turn=turn, model=model, body=body))
            if self._queue:
                return self._queue.pop(0)
            digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
            first_time = digest not in self._first_seen
            self._first_seen.add(digest)
        mods = set(model.split("+")[1:])
        if first_time and "ratelimit" in mods:
            err = {
                "error": {"message": "rate limit reached", "type": "rate_limit_error", "code": "rate_limit"}
            }
            return Reply(status=429, body=err, headers={"retry-after-ms": "20"})
        if first_time and "error" in mods:
            err = {"error": {"message": "internal error", "type": "server_error"}}
            return Reply(status=500, body=err, headers={"retry-after-ms": "20"})
        message = self._message(role, turn, body, mods, headers)
        reply = Reply(body=completion(message, model, usage="nousage" not in mods, request=body))
        if first_time and "timeout" in mods:
            reply.delay_s = self.delay_s
        return reply

    def _message(
        self, role: str, turn: int, body: dict[str, Any], mods: set[str], headers: dict[str, str]
    ) -> dict[str, Any]:
        devices = [d for d in headers.get(DEVICES_HEADER.lower(), "").split(",") if d]
        if role in ACTION_ROLES:
            bad = mods & {"malformed", "refusal"}
            if bad and turn == 0:
                if "refusal" in bad:
                    return {"role": "assistant", "content": None, "refusal": "I can't help with that."}
                return {"role": "assistant", "content": "Let me think {device: smarthome_0, action: oops"}
            effective = turn - (1 if bad else 0)
            return self._act(role, effective, body, text="json" in mods)
        first = devices[0] if devices else None
        if role == "planner":  # planner-grounder: pick a device, then finish
            if turn == 0 and first:
                return _text(
                    {
                        "observation": "start",
                        "plan": "inspect first",
                        "device": first,
                        "action": "query the device",
                    }
                )
            return _text({"observation": "done", "plan": "finish", "device": None, "action": "finish"})
        if role == "plan":  # hierarchical: one subtask on the first device
            return _text(
                {"subtasks": [{"id": "s1", "device": first, "goal": "inspect the device", "depends_on": []}]}
            )
        if role == "review":
            return _text({"done": True, "ready": True, "items": [], "missing": []})
        if role in ("init", "replan"):
            return _text(
                {
                    "device_roles": {d: "involved" for d in devices},
                    "subgoals": [{"id": "g1", "description": "do the task", "device": first}],
                    "checklist": [{"item": "result in place", "device": first}],
                }
            )
        return _text({"note": f"unknown role {role}"})

    def _act(self, role: str, turn: int, body: dict[str, Any], *, text: bool) -> dict[str, Any]:
        tools = body.get("tools") or []
        names = [t["function"]["name"] for t in tools]
        if turn <= 0 or role == "grounder":
            query = _query_from_tools(tools, body) if tools else _query_from_catalog(body)
            if query is not None:
                name, device, action = query
                if text or not tools:
                    return _text({"device": device, "action": action, "args": {}})
                if "__" in name:
                    return _tool_call(name, {"device": device, "args": {}})
                return _tool_call(name, {"device": device, "action": action, "args": {}})
        for done in ("subtask_done", "finish"):
            if done in names and not text:
                return _tool_call(done, {"report": "done"} if done == "subtask_done" else {})
        if role == "device":
            return _text({"action": "subtask_done", "args": {"report": "done"}})
        return _text({"action": "finish"})


def _query_from_tools(tools: list[dict[str, Any]], body: dict[str, Any]) -> tuple[str, str, str] | None:
    """A tool call that queries a device: a kind's tool with an action the catalog lists without
    arguments (or a one-action tool, of the full form, that requires none)."""
    free = _argless_actions(body)
    for t in tools:
        fn = t["function"]
        props = fn.get("parameters", {}).get("properties", {})
        device = props.get("device", {})
        if not device.get("enum"):
            continue
        if "action" in props:  # a kind's tool: its devices' actions are the catalog's
            actions = props["action"].get("enum")
            for dev in device["enum"]:
                action = next((a for a in free.get(dev, ()) if not actions or a in actions), None)
                if action:
                    return fn["name"], dev, action
        elif "__" in fn["name"] and not props.get("args", {}).get("required"):
            return fn["name"], device["enum"][0], fn["name"].split("__", 1)[1]
    return None


def _argless_actions(body: dict[str, Any]) -> dict[str, list[str]]:
    """Per device, the actions the system prompt's catalog lists as ``- name(): ...``."""
    text = "\n".join(str(m.get("content")) for m in body.get("messages", []) if m.get("role") == "system")
    out: dict[str, list[str]] = {}
    group: list[str] = []
    for line in text.splitlines():
        if line.startswith("# "):
            group = [d.strip() for d in line[2:].split(",")]
        elif m := re.match(r"^- (\w+)\(\):", line):
            for dev in group:
                out.setdefault(dev, []).append(m.group(1))
    return out


def _query_from_catalog(body: dict[str, Any]) -> tuple[str, str, str] | None:
    text = "\n".join(str(m.get("content")) for m in body.get("messages", []) if m.get("role") == "system")
    for devices, action, schema in _CATALOG_LINE.findall(text):
        device = devices.split(",")[0]  # a line names every device of a group
        if device != "(global)" and '"required"' not in schema:
            return f"{device}__{action}", device, action
    return None


def _text(obj: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": "Thinking briefly.\n```json\n" + json.dumps(obj) + "\n```"}


def _tool_call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    call_id = "call_" + hashlib.sha256(f"{name}{args}".encode()).hexdigest()[:12]
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        ],
    }


def completion(
    message: dict[str, Any], model: str, *, usage: bool = True, request: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A chat.completion body; token counts are a deterministic 4-characters-a-token estimate."""
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    body: dict[str, Any] = {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
    }
    if usage:
        prompt = max(1, len(json.dumps(request or {})) // 4)
        out = max(1, len(json.dumps(message)) // 4)
        body["usage"] = {"prompt_tokens": prompt, "completion_tokens": out, "total_tokens": prompt + out}
    return body


def _handler_for(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body go out at once, no 40 ms delayed-ACK stall

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
            else:
                self._send(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            try:
                body = jsonl.parse_body(raw, empty={})
            except jsonl.BodyError as exc:
                self._send(400, {"error": {"message": f"body is not usable JSON: {exc}"}})
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = server.answer(body, headers)
            if reply.delay_s:
                time.sleep(reply.delay_s)
            self._send(reply.status, reply.body, reply.headers)

        def _send(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
            data = json.dumps(body).encode()
            try:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                pass

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=8000)
    ns = parser.parse_args()
    server = ScriptedServer(ns.port)
    print(f"scripted OpenAI-compatible server on {server.base_url} (Ctrl-C to stop)", flush=True)
    server.start()
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
