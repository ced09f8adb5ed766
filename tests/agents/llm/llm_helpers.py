"""Helpers for the LLM-agent tests: episodes of the smoke suite against the scripted server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from devicesworld.agents import AgentOptions, get_agent
from devicesworld.agents.base import DeviceInfo, EpisodeInfo
from devicesworld.env import CrossDeviceEnv
from devicesworld.runner.episode import run_episode
from devicesworld.spec import Task
from devicesworld.spec.records import EpisodeResult
from devicesworld.tasks.suites import load_suite

LATE_S = 6.0
"""The scripted server's ``timeout`` fault answers a first request after this long ..."""
CLIENT_TIMEOUT_S = 2.0
"""... and a client in the retry tests gives up after this long: both generous, so that a
prompt answer is never "late" on a loaded machine."""


def smoke_task(index: int = 0) -> Task:
    return load_suite("smoke")[index]


def episode_info(task: Task) -> EpisodeInfo:
    with CrossDeviceEnv(task) as env:
        env.reset()
        spaces = env.action_spaces()
    return EpisodeInfo(
        task_id=task.id,
        instruction=task.instruction,
        devices=[DeviceInfo(id=d.id, kind=d.kind) for d in task.devices],
        action_spaces=spaces,
        max_steps=task.limits.max_steps,
    )


def run(
    agent: str, base_url: str, model: str, tmp: Path, task: Task | None = None, **extra: Any
) -> tuple[EpisodeResult, list[dict[str, Any]]]:
    """One episode through the runner's own loop; returns the result and the steps.jsonl lines."""
    task = task or smoke_task()
    options = AgentOptions(model=model, base_url=base_url, extra=extra)
    result = run_episode(task, get_agent(agent), options, tmp / task.id)
    lines = (tmp / task.id / "steps.jsonl").read_text().splitlines()
    return result, [json.loads(x) for x in lines]
