"""Read an episode's trajectory (``episodes/<task_id>/steps.jsonl``) tolerantly.

The runner writes one line per step as it happens, so a killed run can leave a
half-written last line, and an agent crash appends an ``{"error": ...}`` line that is
not a step. Diagnosis and the viewer need the steps and must not fail on either.
Tolerant is not silent: lines are split on ``\n`` only (:mod:`devicesworld.jsonl`),
so a U+2028 inside a value never cuts a step in two, and every line that is not a
step is counted and described (line number and reason) in ``Trajectory.skipped``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from devicesworld import jsonl
from devicesworld.spec.records import StepRecord

STEPS_FILE = "steps.jsonl"
EPISODES_DIR = "episodes"


class Trajectory(BaseModel):
    """The steps of one episode plus anything else the step log held."""

    model_config = ConfigDict(frozen=True)

    steps: list[StepRecord] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list, description="Agent errors logged in the step file.")
    found: bool = Field(default=True, description="False when the episode has no steps.jsonl.")
    skipped_lines: int = 0
    skipped: list[str] = Field(
        default_factory=list, description="Why each skipped line was skipped: `line N: reason`."
    )


def episode_dir(run_dir: Path, task_id: str) -> Path:
    return Path(run_dir) / EPISODES_DIR / task_id


def parse_step_lines(lines: Iterable[tuple[int, bytes]]) -> Trajectory:
    """Parse ``(line number, raw line)`` pairs; bad lines are counted and described, agent errors collected."""
    steps: list[StepRecord] = []
    errors: list[str] = []
    skipped: list[str] = []
    for number, raw in lines:
        try:
            obj: Any = jsonl.parse_line(raw)
        except jsonl.LineError as exc:
            skipped.append(f"line {number}: {exc}")
            continue
        if not isinstance(obj, dict):
            skipped.append(f"line {number}: expected a JSON object, got {type(obj).__name__}")
            continue
        if "step" not in obj and "error" in obj:
            errors.append(str(obj["error"]))
            continue
        try:
            steps.append(StepRecord.model_validate(obj))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            skipped.append(f"line {number}: not a step ({where}: {first['msg']})")
    return Trajectory(steps=steps, errors=errors, skipped_lines=len(skipped), skipped=skipped)


def read_trajectory(run_dir: Path, task_id: str) -> Trajectory:
    """The trajectory of ``task_id`` in ``run_dir``; ``found=False`` when there is no step log."""
    path = episode_dir(run_dir, task_id) / STEPS_FILE
    try:
        data = path.read_bytes()
    except OSError:
        return Trajectory(found=False)
    return parse_step_lines(jsonl.split_lines(data))
