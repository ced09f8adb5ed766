"""The agent protocol: what an agent is told at the start and asked at each step.

An agent sees the instruction, the devices and their action spaces (as data), and at
each step the visible observations and the feedback to its previous action. Only
agents registered as *privileged* (the oracle) are handed the reference solution.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, Field

from devicesworld.devices.base import ActionResult
from devicesworld.spec.models import Step


class DeviceInfo(BaseModel):
    id: str
    kind: str


class EpisodeInfo(BaseModel):
    """What an agent is told about the episode before the first step."""

    task_id: str
    instruction: str
    devices: list[DeviceInfo]
    action_spaces: dict[str, list[dict[str, Any]]] = Field(
        description="Device id -> its actions as data; '*' holds the global actions."
    )
    max_steps: int
    solution: list[Step] | None = Field(default=None, description="Only for privileged agents.")


class Feedback(BaseModel):
    """The previous step and what came of it."""

    step: int
    action: Step
    result: ActionResult


class Decision(BaseModel):
    """An agent's answer for one step, with its cost."""

    action: Step
    tokens_in: int = 0
    tokens_out: int = 0
    notes: dict[str, Any] = Field(default_factory=dict)


class Agent(Protocol):
    def start(self, info: EpisodeInfo) -> None: ...

    def act(self, observation: dict[str, dict[str, Any]], feedback: Feedback | None) -> Decision: ...


@dataclass(frozen=True)
class AgentOptions:
    """Settings from the command line; each agent reads the ones it understands."""

    seed: int = 0
    model: str | None = None
    base_url: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


AgentFactory = Callable[[AgentOptions], Agent]


@dataclass(frozen=True)
class AgentEntry:
    name: str
    doc: str
    factory: AgentFactory
    privileged: bool = False
