"""``devicesworld serve mcp`` as a client launches it: stdio, and one HTTP server per device."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

from devicesworld.spec.models import Task
from devicesworld.tasks.loading import dump_tasks_jsonl
from devicesworld.tasks.suites import load_suite
from tests.serve.serve_harness import free_ports, wait_listening


def _task_file(task: Task, folder: Path) -> str:
    """The task alone in a file: the server then loads one task, not every suite."""
    path = folder / "task.jsonl"
    dump_tasks_jsonl([task], path)
    return str(path)


def _results(run_dir: Path, timeout: float = 60.0) -> list[dict[str, object]]:
    path = run_dir / "results.jsonl"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not (path.exists() and path.read_text().strip()):
        time.sleep(0.1)
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_stdio_server_completes_a_task_and_records_it(tmp_path: Path) -> None:
    task = next(t for t in load_suite("smoke") if t.id == "smoke-sh-003")
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "devicesworld",
            "serve",
            "mcp",
            "--tasks",
            _task_file(task, tmp_path),
            "--task-id",
            task.id,
            "--out",
            str(tmp_path / "run"),
            "--debug-evaluate",
        ],
        env=dict(os.environ),  # the SDK passes only a few variables by default; keep PYTHONPATH
    )

    async def main() -> None:
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert "smarthome_0.control_device" in names and "finish" in names
            for step in task.solution:
                name = step.action if step.device is None else f"{step.device}.{step.action}"
                assert not (await client.call_tool(name, step.args)).is_error
            verdict = (await client.call_tool("evaluate", {})).structured_content
            assert verdict is not None and verdict["success"] is True

    asyncio.run(main())
    [result] = _results(tmp_path / "run")
    assert result["success"] is True and result["termination"] == "finished"
    assert result["steps"] == len(task.solution)
    steps = (tmp_path / "run" / "episodes" / task.id / "steps.jsonl").read_text().splitlines()
    assert len(steps) == len(task.solution)
    assert json.loads((tmp_path / "run" / "run.json").read_text())["comparable"] is False


def test_http_per_device_servers_on_consecutive_ports(tmp_path: Path) -> None:
    task = next(t for t in load_suite("smoke") if t.id == "smoke-lx-043")  # linux_0, smarthome_0
    port = free_ports(2)
    cmd = [sys.executable, "-m", "devicesworld", "serve", "mcp", "--tasks", _task_file(task, tmp_path),
           "--task", task.id, "--out", str(tmp_path / "run"),
           "--transport", "http", "--per-device", "--port", str(port), "--separator", "__"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_listening(port)
        wait_listening(port + 1)
        urls = {d.id: f"http://127.0.0.1:{port + i}/mcp" for i, d in enumerate(task.devices)}

        async def main() -> None:
            async with Client(urls["linux_0"]) as desktop, Client(urls["smarthome_0"]) as home:
                assert "run_command" in {t.name for t in (await desktop.list_tools()).tools}
                for step in task.solution:
                    client = home if step.device == "smarthome_0" else desktop
                    assert not (await client.call_tool(step.action, step.args)).is_error

        asyncio.run(main())
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    [result] = _results(tmp_path / "run")
    assert result["success"] is True and result["steps"] == len(task.solution)
