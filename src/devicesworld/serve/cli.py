"""``devicesworld serve``: a task's devices behind MCP or Home Assistant's API.

Kept out of ``cli.py`` (one registration line there). Every server records a run
directory like ``devicesworld run`` does (``--out``, default ``runs/<time>-serve-<kind>``)
and prints its status to stderr, so stdout stays free for the stdio transport. Bad
options and a missing optional package are clear errors, never tracebacks.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from devicesworld.cli.common import choice_option, lookup_options
from devicesworld.spec.models import Task


def _user_error(message: str) -> click.ClickException:
    from devicesworld.cli.common import UserError

    return UserError(message)


def _load_task(task_id: str, suite: str | None, tasks_path: str | None) -> Task:
    from devicesworld.cli.common import find_task

    if suite and tasks_path:
        raise _user_error("give either --suite or --tasks, not both")
    return find_task(task_id, suite, tasks_path)


def _run_dir(out: str | None, kind: str) -> Path:
    return Path(out) if out else Path("runs") / f"{datetime.now():%Y%m%d-%H%M%S}-serve-{kind}"


def _say(message: str) -> None:
    from devicesworld.cli.common import err_console

    err_console.print(message, highlight=False, markup=False, soft_wrap=True)


def _start_host(task: Task, run_dir: Path, agent: str, seed: int) -> Any:
    from devicesworld.compat.session import SessionError
    from devicesworld.serve.host import SessionHost

    host = SessionHost(task, run_dir, agent=agent, seed=seed)
    try:
        host.start()
    except SessionError as exc:
        host.discard()
        raise _user_error(str(exc)) from None
    return host


def _stop_on_sigterm() -> None:
    """Let SIGTERM (what a client or supervisor sends to stop us) end the server like Ctrl-C,
    so the episode is still closed and recorded."""

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def _finish(host: Any, run_dir: Path) -> None:
    result = host.close()
    _say(
        f"episode {result.task_id}: {result.termination}, success={result.success}, "
        f"score={result.score:.2f}, steps={result.steps} -> {run_dir}"
    )


@contextmanager
def _serving(host: Any, run_dir: Path, cannot: str) -> Iterator[None]:
    """Serve until Ctrl-C (or SIGTERM): a socket that cannot open is a clear error (``cannot``: the
    message's start), and the episode is closed and recorded however serving ends."""
    try:
        yield
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        raise _user_error(f"{cannot}: {exc}") from None
    finally:
        _finish(host, run_dir)


def _with_task_options(fn: Any) -> Any:
    """The task to serve (``--task``, found like ``tasks show`` finds it), the run directory and the seed."""
    fn = click.option("--seed", type=int, default=0, show_default=True)(fn)
    fn = click.option(
        "--out", type=click.Path(file_okay=False), help="Run directory (default runs/<time>-serve-...)."
    )(fn)
    fn = lookup_options(fn)
    return click.option("--task", "--task-id", "task_id", required=True, help="The task id.")(fn)


@click.group()
def serve() -> None:
    """Serve a task's devices to clients written for other ecosystems (MCP, Home Assistant)."""


@serve.command("mcp")
@_with_task_options
@choice_option("--transport", choices=["stdio", "http"])
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8780, show_default=True, help="HTTP port (first)."
)
@click.option("--per-device", is_flag=True, help="One server per device on consecutive ports (needs http).")
@choice_option(
    "--separator",
    choices=[".", "__"],
    help="Between device and action in tool names ('__' for clients that forbid dots).",
)
@click.option(
    "--debug-evaluate",
    is_flag=True,
    help="Offer an evaluate tool saying which conditions pass (names only); the run is recorded "
    "as not comparable.",
)
def serve_mcp(
    task_id: str,
    suite: str | None,
    tasks_path: str | None,
    out: str | None,
    seed: int,
    transport: str,
    port: int,
    per_device: bool,
    separator: str,
    debug_evaluate: bool,
) -> None:
    """The task's devices as MCP tools: <device>.<action>, <device>.observe, finish, report_infeasible."""
    try:
        from devicesworld.serve.mcp.server import build_server
        from devicesworld.serve.mcp.transport import MCP_PATH, serve_http, serve_stdio
    except ImportError as exc:
        raise _user_error(
            f"the MCP server needs the mcp extra: pip install 'devicesworld[mcp]' ({exc})"
        ) from None
    if per_device and transport != "http":
        raise _user_error("--per-device serves one HTTP server per device: add --transport http")
    task = _load_task(task_id, suite, tasks_path)
    run_dir = _run_dir(out, "mcp")
    host = _start_host(task, run_dir, "mcp", seed)
    _stop_on_sigterm()
    if debug_evaluate:
        _say("--debug-evaluate: the evaluate tool is on; this run is recorded as not comparable")
    with _serving(host, run_dir, "cannot serve"):
        if transport == "stdio":
            server, _ = build_server(host, sep=separator, debug_evaluate=debug_evaluate)
            _say(f"serving task {task.id} over MCP stdio; recording to {run_dir}")
            asyncio.run(serve_stdio(server))
        else:
            devices = [d.id for d in task.devices] if per_device else [None]
            servers = [
                (build_server(host, sep=separator, device=d, debug_evaluate=debug_evaluate)[0], port + i)
                for i, d in enumerate(devices)
            ]
            for (_, p), d in zip(servers, devices, strict=True):
                who = f"device {d}" if d else f"task {task.id}"
                _say(f"serving {who} over MCP at http://127.0.0.1:{p}{MCP_PATH}")
            _say(f"recording to {run_dir}; Ctrl-C stops")
            asyncio.run(serve_http(servers))


@serve.command("homeassistant")
@_with_task_options
@click.option("--port", type=click.IntRange(1, 65535), default=8123, show_default=True)
@click.option(
    "--token",
    envvar="DEVICESWORLD_HA_TOKEN",
    required=True,
    help="The access token clients must send (or DEVICESWORLD_HA_TOKEN).",
)
@click.option("--device", "device_id", help="The smarthome device to serve (default: the task's first).")
@click.option(
    "--debug-evaluate",
    is_flag=True,
    help="Offer the devicesworld.evaluate service saying which conditions pass (ids only); the run is "
    "recorded as not comparable.",
)
def serve_homeassistant(
    task_id: str,
    suite: str | None,
    tasks_path: str | None,
    out: str | None,
    seed: int,
    port: int,
    token: str,
    device_id: str | None,
    debug_evaluate: bool,
) -> None:
    """The task's home behind Home Assistant's REST (/api/...) and WebSocket (/api/websocket) API."""
    try:
        from devicesworld.serve.homeassistant.app import create_app, serve_forever
        from devicesworld.serve.homeassistant.hub import HOME_KIND, HomeHub
    except ImportError as exc:
        raise _user_error(
            f"the Home Assistant facade needs the homeassistant extra: pip install 'devicesworld[homeassistant]' ({exc})"
        ) from None
    if not token.strip():
        raise _user_error("--token must not be empty")
    task = _load_task(task_id, suite, tasks_path)
    homes = [d.id for d in task.devices if d.kind == HOME_KIND]
    if not homes:
        raise _user_error(f"task {task.id} has no {HOME_KIND} device to serve")
    if device_id is not None and device_id not in homes:
        raise _user_error(
            f"{device_id!r} is not a {HOME_KIND} device of task {task.id}; it has {', '.join(homes)}"
        )
    run_dir = _run_dir(out, "homeassistant")
    host = _start_host(task, run_dir, "homeassistant", seed)
    with _serving(host, run_dir, f"cannot serve on port {port}"):
        if debug_evaluate:
            _say("--debug-evaluate: devicesworld.evaluate is on; this run is recorded as not comparable")
        hub = HomeHub(host, device_id or homes[0], debug_evaluate=debug_evaluate)
        host.call(lambda _s: hub.start_now())
        app = create_app(hub, token.strip())
        _say(f"serving {hub.device_id} of task {task.id} as Home Assistant at http://127.0.0.1:{port}/api/")
        _say(f"recording to {run_dir}; Ctrl-C stops")
        serve_forever(app, port)
