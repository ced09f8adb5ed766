"""Running MCP servers: stdio (one server, the client launches us) or Streamable HTTP on loopback.

HTTP servers bind 127.0.0.1 only (the SDK then also enables DNS-rebinding protection);
with one server per device they listen on consecutive ports in one event loop, all
over the same session.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from mcp.server import Server

LOOPBACK = "127.0.0.1"
MCP_PATH = "/mcp"


async def serve_stdio(server: Server[Any]) -> None:
    """Serve one MCP connection over this process's stdin/stdout until the client closes it."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def http_app(server: Server[Any]) -> Any:
    """The server's Streamable HTTP ASGI app at ``/mcp``, restricted to loopback hosts."""
    return server.streamable_http_app(streamable_http_path=MCP_PATH, host=LOOPBACK)


async def serve_http(
    servers: Sequence[tuple[Server[Any], int]], *, started: asyncio.Event | None = None
) -> None:
    """Serve each ``(server, port)`` on ``http://127.0.0.1:<port>/mcp`` until cancelled."""
    import uvicorn

    running = [
        uvicorn.Server(
            uvicorn.Config(http_app(s), host=LOOPBACK, port=port, log_level="warning", lifespan="on")
        )
        for s, port in servers
    ]
    tasks = [asyncio.create_task(u.serve()) for u in running]
    if started is not None:
        while not all(u.started for u in running):
            if any(t.done() for t in tasks):
                break
            await asyncio.sleep(0.02)
        started.set()
    try:
        await asyncio.gather(*tasks)
    finally:
        for u in running:
            u.should_exit = True
