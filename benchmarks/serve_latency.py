"""Latency of one step through each facade: MCP (SDK client in process and over HTTP) and
Home Assistant (REST with ``homeassistant-api``, WebSocket with ``hass-client``).

Each call is a counted, recorded step on a SmartHome smoke task (light toggles, so every
call changes state and emits events). Prints p50/p95 in milliseconds; no targets are
asserted (the numbers depend on the machine's load).
"""

from __future__ import annotations

import asyncio
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from hass_client import HomeAssistantClient
from homeassistant_api import Client as HaClient
from mcp import Client as McpClient

from devicesworld.serve.homeassistant.app import create_app, start_site
from devicesworld.serve.homeassistant.hub import HomeHub
from devicesworld.serve.host import SessionHost
from devicesworld.serve.mcp.server import build_server
from devicesworld.serve.mcp.transport import http_app
from devicesworld.tasks.suites import load_suite

N = int(sys.argv[1]) if len(sys.argv) > 1 else 200
TOGGLE = {"device_id": "hall_light", "command": "toggle"}


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _report(name: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    print(f"{name:<34} p50 {statistics.median(ms):7.2f} ms   p95 {p95:7.2f} ms   (n={len(ms)})")


def _host(run_dir: Path) -> SessionHost:
    task = next(t for t in load_suite("smoke") if t.id == "smoke-sh-001")
    task = task.model_copy(update={"limits": task.limits.model_copy(update={"max_steps": 10 * N})})
    host = SessionHost(task, run_dir, agent="bench")
    host.start()
    return host


async def _mcp_inprocess(host: SessionHost) -> list[float]:
    server, _ = build_server(host)
    times = []
    async with McpClient(server) as client:
        for _ in range(N):
            t0 = time.perf_counter()
            await client.call_tool("smarthome_0.control_device", TOGGLE)
            times.append(time.perf_counter() - t0)
    return times


async def _mcp_http(host: SessionHost) -> list[float]:
    import uvicorn

    server, _ = build_server(host)
    port = _port()
    uv = uvicorn.Server(uvicorn.Config(http_app(server), host="127.0.0.1", port=port, log_level="warning"))
    task = asyncio.create_task(uv.serve())
    while not uv.started:
        await asyncio.sleep(0.01)
    times = []
    async with McpClient(f"http://127.0.0.1:{port}/mcp") as client:
        for _ in range(N):
            t0 = time.perf_counter()
            await client.call_tool("smarthome_0.control_device", TOGGLE)
            times.append(time.perf_counter() - t0)
    uv.should_exit = True
    await task
    return times


async def _ha(host: SessionHost) -> tuple[list[float], list[float]]:
    hub = HomeHub(host, "smarthome_0")
    await hub.start()
    port = _port()
    runner = await start_site(create_app(hub, "t"), port)
    rest: list[float] = []

    def rest_calls() -> None:
        with HaClient(f"http://127.0.0.1:{port}/api", "t") as client:
            for _ in range(N):
                t0 = time.perf_counter()
                client.trigger_service("light", "toggle", entity_id="light.hall_light")
                rest.append(time.perf_counter() - t0)

    await asyncio.to_thread(rest_calls)
    ws: list[float] = []
    async with aiohttp.ClientSession() as http:
        client = HomeAssistantClient(f"ws://127.0.0.1:{port}/api/websocket", "t", http)
        await client.connect()
        listener = asyncio.create_task(client.start_listening())
        await client.subscribe_events(lambda e: None, "state_changed")
        for _ in range(N):
            t0 = time.perf_counter()
            await client.call_service("light", "toggle", target={"entity_id": "light.hall_light"})
            ws.append(time.perf_counter() - t0)
        await client.disconnect()
        await listener
    await runner.cleanup()
    return rest, ws


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        host = _host(Path(tmp) / "a")
        _report("MCP tool call (in process)", asyncio.run(_mcp_inprocess(host)))
        _report("MCP tool call (Streamable HTTP)", asyncio.run(_mcp_http(host)))
        host.close()
        host = _host(Path(tmp) / "b")
        rest, ws = asyncio.run(_ha(host))
        _report("HA service call (REST)", rest)
        _report("HA service call (WebSocket)", ws)
        result = host.close()
        print(f"steps recorded: {result.steps}")


if __name__ == "__main__":
    main()
