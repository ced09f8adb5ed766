"""The records a run writes: one ``StepRecord`` per step, one ``EpisodeResult`` per episode.

Both are JSON lines with a ``schema_version``; readers (report, viewer, resume) parse
them with these models, so the format has one definition.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from devicesworld.spec.actions import Termination

RECORD_SCHEMA_VERSION = 1


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
    # Task metadata copied in so that reports need only the run directory.
    device_combo: str = ""
    device_kinds: list[str] = Field(default_factory=list)
    pattern: str = ""
    difficulty: str = ""
    apps: list[str] = Field(default_factory=list)
    split: str = ""
    setup_s: float = 0.0


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
