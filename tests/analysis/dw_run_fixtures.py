"""Real run directories for analysis and viewer tests: toy tasks, scripted agents, real PNGs."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Any

from devicesworld.agents.base import AgentEntry, AgentOptions, Decision
from devicesworld.runner.episode import run_episode
from devicesworld.runner.resultsfile import append_result
from devicesworld.runner.run import RunConfig, execute_run
from devicesworld.spec import Task
from devicesworld.spec.models import Step
from tests.toykind import toy_task


def tiny_png(rgb: tuple[int, int, int] = (200, 40, 40), size: int = 8) -> bytes:
    """A valid RGB PNG of one colour, so a browser can really display it."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    row = b"\x00" + bytes(rgb) * size
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * size))
        + chunk(b"IEND", b"")
    )


class ScriptedAgent:
    """Plays a fixed list of steps, then finishes."""

    def __init__(self, script: list[dict[str, Any]]) -> None:
        self.script = list(script)

    def start(self, info: Any) -> None:
        pass

    def act(self, observation: Any, feedback: Any) -> Decision:
        step = self.script.pop(0) if self.script else {"action": "finish"}
        return Decision(action=Step.model_validate(step), tokens_in=100, tokens_out=10)


def scripted(script: list[dict[str, Any]]) -> AgentEntry:
    return AgentEntry("scripted", "plays a script", lambda options: ScriptedAgent(script))


def two_toy_task(task_id: str = "toy2", **metadata: Any) -> Task:
    """Two toy devices; the goal is toy_1 == 2 (toy_0 is the look-alike)."""
    doc = toy_task(
        id=task_id,
        instruction="Make the second toy show 2.",
        devices=[{"id": "toy_0", "kind": "toy"}, {"id": "toy_1", "kind": "toy"}],
        setup=[],
        evaluation={
            "conditions": [{"id": "is2", "device": "toy_1", "check": "value_is", "args": {"equals": 2}}]
        },
        solution=[{"device": "toy_1", "action": "set_value", "args": {"value": 2}}, {"action": "finish"}],
        metadata={"pattern": "direct_transfer", "difficulty": "medium", "apps": ["toyapp"], **metadata},
    )
    return Task.model_validate(doc)


def run_scripted(task: Task, script: list[dict[str, Any]], out: Path, *, screenshots: bool = False) -> Any:
    """Run one episode of ``task`` into the run directory ``out`` and append its result."""
    out.mkdir(parents=True, exist_ok=True)
    result = run_episode(
        task, scripted(script), AgentOptions(), out / "episodes" / task.id, screenshots=screenshots
    )
    append_result(out / "results.jsonl", result)
    return result


def make_viewer_run(out: Path, n: int = 6) -> Path:
    """A run of ``n`` toy tasks with the oracle and screenshots replaced by real PNGs."""
    tasks = [Task.model_validate(toy_task(id=f"toy-{i}")) for i in range(n)]
    execute_run(tasks, RunConfig(agent="oracle", source="test", screenshots=True), out)
    run_scripted(
        two_toy_task("toy-wrong"),
        [{"device": "toy_0", "action": "set_value", "args": {"value": 2}}],
        out,
        screenshots=True,
    )
    for png in out.glob("episodes/*/*.png"):
        png.write_bytes(tiny_png())
    return out
