"""The demonstration file: JSONL, one :class:`Demonstration` (a whole episode) per line.

One line per episode keeps a dataset a plain concatenation of files (``cat a.jsonl
b.jsonl``) and lets a reader skip episodes without parsing their steps. Each step keeps
what an agent saw before acting — the screen text and a compact element list, not
screenshots — the action in the ordinary step format, and its result, so a
demonstration can be shown to a language model or turned into (observation, action)
pairs. ``schema_version`` is checked on reading; a file of another version is refused
with a clear message rather than half understood.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from devicesworld import jsonl

SCHEMA_VERSION: Literal[1] = 1


class DemoError(ValueError):
    """A demonstration file that cannot be read (missing, not JSONL, wrong schema)."""


class ElementSummary(BaseModel):
    """One UI element as a demonstration keeps it: enough to see what was tapped, not its pixels."""

    model_config = ConfigDict(extra="forbid")

    index: int
    cls: str = ""
    text: str = ""
    desc: str = ""
    rid: str = ""
    clickable: bool = False
    editable: bool = False
    checked: bool | None = None


class ObservationSummary(BaseModel):
    """What one device showed before a step."""

    model_config = ConfigDict(extra="forbid")

    foreground_app: str | None = None
    screen_text: str = ""
    elements: list[ElementSummary] = Field(default_factory=list)
    other: dict[str, Any] = Field(default_factory=dict, description="Non-screen keys of other device kinds.")


class StepResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ok: bool
    message: str = ""
    error_code: str | None = None


class DemoStep(BaseModel):
    """The observation before an action, the action (a DevicesWorld step) and its result."""

    model_config = ConfigDict(extra="forbid")

    step: int = Field(ge=1)
    observation: dict[str, ObservationSummary]
    action: dict[str, Any]
    result: StepResult
    discrete_action: int | None = Field(default=None, description="B-MoCA's discrete action, when known.")


class Demonstration(BaseModel):
    """One recorded episode of one task."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = SCHEMA_VERSION
    task_id: str
    instruction: str
    profile: str | dict[str, Any] | None = None
    source: Literal["play", "oracle", "agent"] = "play"
    success: bool | None = None
    score: float | None = None
    steps: list[DemoStep] = Field(default_factory=list)


def write_demos(path: Path, demos: Iterable[Demonstration], *, append: bool = False) -> int:
    """Write (or append) demonstrations as JSONL; returns how many were written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("a" if append else "w", encoding="utf-8") as fh:
        for demo in demos:
            fh.write(jsonl.model_line(demo, exclude_none=False))
            n += 1
    return n


def read_demos(path: Path) -> list[Demonstration]:
    """Every demonstration in a JSONL file; :class:`DemoError` names the bad line."""
    if not path.is_file():
        raise DemoError(f"no demonstration file {path}")
    demos: list[Demonstration] = []
    for n, line in jsonl.split_lines(path.read_bytes()):
        try:
            doc = jsonl.parse_line(line)
        except jsonl.LineError as exc:
            raise DemoError(f"{path}:{n}: {exc}") from None
        version = doc.get("schema_version") if isinstance(doc, dict) else None
        if version != SCHEMA_VERSION:
            raise DemoError(f"{path}:{n}: schema_version {version!r}, this reader knows {SCHEMA_VERSION}")
        try:
            demos.append(Demonstration.model_validate(doc))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
            raise DemoError(f"{path}:{n}: not a demonstration ({problems})") from None
    return demos
