"""Turning a live episode into a :class:`~devicesworld.demos.model.Demonstration`, step by step."""

from __future__ import annotations

from typing import Any, Literal

from devicesworld.demos.model import Demonstration, DemoStep, ElementSummary, ObservationSummary, StepResult
from devicesworld.devices.base import ActionResult, traits_of
from devicesworld.devices.listing import clip
from devicesworld.spec.models import Step, Task

SCREEN_CHARS = 4000
"""A screen text longer than this is cut (a busy phone screen is about 1,500 characters)."""


def summarize_view(view: dict[str, Any]) -> ObservationSummary:
    """A device observation without pixels: screen text, compact elements, other small keys."""
    elements = [
        ElementSummary(
            index=i,
            cls=str(e.get("class_name") or "").rsplit(".", 1)[-1],
            text=str(e.get("text") or ""),
            desc=str(e.get("content_description") or ""),
            rid=str(e.get("resource_name") or e.get("resource_id") or "").rsplit("/", 1)[-1],
            clickable=bool(e.get("is_clickable")),
            editable=bool(e.get("is_editable")),
            checked=e.get("is_checked") if e.get("is_checkable") else None,
        )
        for i, e in enumerate(view.get("ui_elements") or [])
        if isinstance(e, dict)
    ]
    skip = {"ui_elements", "screen_text", "foreground_app", "kind"}
    other = {k: v for k, v in view.items() if k not in skip and not k.startswith("_")}
    if len(str(other)) > SCREEN_CHARS:
        other = {"truncated": True}
    fg = view.get("foreground_app")
    return ObservationSummary(
        foreground_app=fg if isinstance(fg, str) else None,
        screen_text=clip(str(view.get("screen_text") or ""), SCREEN_CHARS, "a demonstration keeps no more"),
        elements=elements,
        other=other,
    )


class DemoRecorder:
    """Collects the steps of one episode; :meth:`finish` gives the demonstration."""

    def __init__(
        self,
        task: Task,
        *,
        source: Literal["play", "oracle", "agent"] = "play",
        profile: str | dict[str, Any] | None = None,
    ) -> None:
        self.demo = Demonstration(
            task_id=task.id,
            instruction=task.instruction,
            profile=profile if profile is not None else _profile_of(task),
            source=source,
        )

    def record(
        self,
        observation: dict[str, dict[str, Any]],
        step: Step | dict[str, Any],
        result: ActionResult,
        *,
        discrete_action: int | None = None,
    ) -> None:
        """One step: the observation *before* it, the step, and its result."""
        action = step.model_dump(exclude_defaults=True) if isinstance(step, Step) else dict(step)
        self.demo.steps.append(
            DemoStep(
                step=len(self.demo.steps) + 1,
                observation={d: summarize_view(v) for d, v in observation.items() if isinstance(v, dict)},
                action=action,
                result=StepResult(ok=result.ok, message=result.message, error_code=result.error_code),
                discrete_action=discrete_action,
            )
        )

    def finish(self, success: bool | None, score: float | None) -> Demonstration:
        self.demo.success, self.demo.score = success, score
        return self.demo


def _profile_of(task: Task) -> str | dict[str, Any] | None:
    """The profile of the task's one device with presets (a phone): its preset name when that is all it says."""
    phones = [d for d in task.devices if traits_of(d.kind).env_split is not None]
    if len(phones) != 1 or not phones[0].profile:
        return None
    prof = phones[0].profile
    split = traits_of(phones[0].kind).env_split
    keep = set(split.keep) if split is not None else set()
    preset = prof.get("preset")
    return str(preset) if isinstance(preset, str) and set(prof) <= {"preset", *keep} else dict(prof)
