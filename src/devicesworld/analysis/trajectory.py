"""Read an episode's trajectory (``episodes/<task_id>/steps.jsonl``) tolerantly.

The runner writes one line per step as it happens, so a killed run can leave a
half-written last line, and an agent crash appends an ``{"error": ...}`` line that is
not a step. Diagnosis and the viewer need the steps and must not fail on either.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from devicesworld.runner.records import StepRecord

STEPS_FILE = "steps.jsonl"
EPISODES_DIR = "episodes"


class Trajectory(BaseModel):
    """The steps of one episode plus anything else the step log held."""

    model_config = ConfigDict(frozen=True)

    steps: list[StepRecord] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list, description="Agent errors logged in the step file.")
    found: bool = Field(default=True, description="False when the episode has no steps.jsonl.")
    skipped_lines: int = 0


def episode_dir(run_dir: Path, task_id: str) -> Path:
    return Path(run_dir) / EPISODES_DIR / task_id


def parse_step_lines(lines: list[str]) -> Trajectory:
    """Parse step-log lines; bad lines are counted, agent-error lines collected."""
    steps: list[StepRecord] = []
    errors: list[str] = []
    skipped = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            obj: Any = json.loads(line)
        except json.JSONDecodeError:
            skipped += 1
            continue
        if not isinstance(obj, dict):
            skipped += 1
            continue
        if "step" not in obj and "error" in obj:
            errors.append(str(obj["error"]))
            continue
        try:
            steps.append(StepRecord.model_validate(obj))
        except ValidationError:
            skipped += 1
    return Trajectory(steps=steps, errors=errors, skipped_lines=skipped)


def read_trajectory(run_dir: Path, task_id: str) -> Trajectory:
    """The trajectory of ``task_id`` in ``run_dir``; ``found=False`` when there is no step log."""
    path = episode_dir(run_dir, task_id) / STEPS_FILE
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return Trajectory(found=False)
    return parse_step_lines(text.splitlines())
