"""The records a run writes: one ``StepRecord`` per step, one ``EpisodeResult`` per episode.

Both are JSON lines with a ``schema_version``; readers (report, viewer, resume) parse
them with these models, so the format has one definition.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from devicesworld.spec.actions import Termination

RECORD_SCHEMA_VERSION = 2
"""2: results carry the instruction, steps the observation the agent was shown; see docs/log-format.md."""
OBSERVATION_CHARS = 4000
"""Each device's observation text in ``steps.jsonl`` is cut to this many characters."""


class ConditionRecord(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str
    device: str
    passed: bool
    detail: str
    check: str = ""
    scored: bool = True
    required: bool = True
    subtask: str | None = None
    # Evaluator trace used by failure diagnosis (absent in records of older runs).
    initial_passed: bool | None = Field(default=None, description="Verdict right after setup.")
    initial_detail: str | None = Field(default=None, description="Detail right after setup.")
    also_passes_on: list[str] = Field(
        default_factory=list, description="Other devices of the same kind on which this failed check holds."
    )


class EpisodeResult(BaseModel):
    """One line of ``results.jsonl``."""

    model_config = ConfigDict(extra="allow")

    schema_version: int = RECORD_SCHEMA_VERSION
    task_id: str
    success: bool
    score: float = Field(ge=0.0, le=1.0)
    steps: int
    duration_s: float
    termination: Termination
    tokens_in: int = 0
    tokens_out: int = 0
    conditions: list[ConditionRecord] = Field(default_factory=list)
    agent: str = ""
    error: str | None = None
    instruction: str = Field(default="", description="The task's instruction, as the agent was given it.")
    # Task metadata copied in so that reports need only the run directory.
    device_combo: str = ""
    device_kinds: list[str] = Field(default_factory=list)
    desktop_profile: str = Field(
        default="",
        description="gui (GUI-only desktops), hybrid (a desktop with a shell too), api or none: results "
        "are reported apart per profile (empty: older runs).",
    )
    pattern: str = ""
    difficulty: str = ""
    tier: str = Field(
        default="", description="standard or long (tasks/scenarios/tiers.py); empty: older runs."
    )
    apps: list[str] = Field(default_factory=list)
    split: str = ""
    setup_s: float = 0.0
    limit_time_s: float | None = Field(
        default=None,
        description="Time counted against the task's max_seconds: environment and the agent's own "
        "time, model replies excluded (None: not measured, e.g. older runs).",
    )
    env_time_s: float | None = Field(
        default=None, description="Of the episode, time in the environment (steps, observations)."
    )
    model_latency_s: float | None = Field(
        default=None, description="Of the episode, time the agent waited for model replies."
    )
    valid: bool = Field(
        default=True,
        description="False when the environment failed (a device that could not start or answer, a "
        "missing system tool, a sandbox crash, a cleanup failure): excluded from success and score.",
    )
    invalid_cause: str | None = Field(
        default=None, description="For an invalid episode: the cause's class, e.g. 'device_failed'."
    )
    sources: list[dict[str, Any]] = Field(
        default_factory=list, description="The task's metadata.sources (device, value), for diagnosis."
    )
    task_hash: str = Field(
        default="", description="sha256 of what the task asks and checks (devicesworld.tasks.manifest)."
    )
    manifest: str = Field(
        default="", description="The hash of the frozen split the task was run from (empty: none)."
    )
    trial: int = Field(default=1, ge=1, description="Which of the run's --trials this episode is.")

    @property
    def episode_key(self) -> str:
        """The episode's name in a run: the task id, with ``~N`` for trial N > 1."""
        return episode_key(self.task_id, self.trial)


def episode_key(task_id: str, trial: int = 1) -> str:
    """``task_id`` for the first trial, ``task_id~N`` for trial N (its folder under ``episodes/``)."""
    return task_id if trial == 1 else f"{task_id}~{trial}"


class StepRecord(BaseModel):
    """One line of ``episodes/<task_id>/steps.jsonl``, written as the step happens."""

    model_config = ConfigDict(extra="allow")

    schema_version: int = RECORD_SCHEMA_VERSION
    step: int
    action: dict[str, Any]
    ok: bool
    message: str
    data: Any = None
    error_code: str | None = None
    latency_s: float = 0.0
    virtual_time: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    screenshots: list[str] = Field(default_factory=list)
    agent_latency_s: float = Field(
        default=0.0, description="Time the agent took to decide (model calls included)."
    )
    model_latency_s: float = Field(default=0.0, description="Time spent waiting for model replies.")
    agent_notes: dict[str, Any] = Field(
        default_factory=dict, description="The agent's Decision.notes: model calls, prompts/replies, plans."
    )
    observation: dict[str, str] = Field(
        default_factory=dict,
        description="What the agent was shown before it chose this step: each device's observation as "
        f"text (element lists as the screen text), at most {OBSERVATION_CHARS} characters per device.",
    )
    phases: dict[str, dict[str, float]] = Field(
        default_factory=dict,
        description="Per device that times them (GUI desktops), the seconds of each phase of this "
        "step's environment work: input, settle, tree (the next observation), screenshot, encode, "
        "launch, command, wait.",
    )
    sources_seen: list[int] = Field(
        default_factory=list,
        description="Indices into the task's metadata.sources whose value appeared in this step's "
        "observation of the source device or in the action's feedback.",
    )


def observation_text(
    observation: dict[str, dict[str, Any]], limit: int = OBSERVATION_CHARS
) -> dict[str, str]:
    """Each device's observation as bounded text for the log: screen text instead of the element list.

    Keys starting with ``_`` (inline screenshots) are left out; screenshots are files.
    """
    out: dict[str, str] = {}
    for device_id, view in observation.items():
        shown = {k: v for k, v in view.items() if not k.startswith("_")}
        screen = shown.pop("screen_text", None)
        if isinstance(screen, str):
            shown.pop("ui_elements", None)
        text = json.dumps(shown, ensure_ascii=False, default=str)
        if isinstance(screen, str):
            text += "\nscreen:\n" + screen
        if len(text) > limit:
            text = text[:limit] + f"\n[... {len(text) - limit} more characters not logged]"
        out[device_id] = text
    return out
