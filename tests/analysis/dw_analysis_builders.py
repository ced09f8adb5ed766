"""Builders for hand-made episode results shared by the analysis tests."""

from __future__ import annotations

from typing import Any

from devicesworld.spec.records import ConditionRecord, EpisodeResult


def cond(cid: str, passed: bool, *, scored: bool = True, device: str = "linux_0") -> ConditionRecord:
    return ConditionRecord(id=cid, device=device, passed=passed, detail="", scored=scored)


def ep(task_id: str, success: bool, **kw: Any) -> EpisodeResult:
    fields: dict[str, Any] = {
        "task_id": task_id,
        "success": success,
        "score": 1.0 if success else 0.0,
        "steps": 10,
        "duration_s": 1.0,
        "termination": "finished",
    }
    fields.update(kw)
    return EpisodeResult(**fields)
