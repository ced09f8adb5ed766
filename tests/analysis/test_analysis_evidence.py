"""The runner records the evidence diagnosis needs, and diagnosis reads it from a real run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from devicesworld.analysis import load_run
from devicesworld.analysis.failures import diagnose_run
from devicesworld.analysis.sources import sources_seen
from devicesworld.spec import Task
from tests.analysis.dw_run_fixtures import run_scripted, tiny_png, two_toy_task
from tests.toykind import toy_task


def test_wrong_device_output_is_probed_and_diagnosed_d2(tmp_path: Path) -> None:
    r = run_scripted(
        two_toy_task(), [{"device": "toy_0", "action": "set_value", "args": {"value": 2}}], tmp_path
    )
    (c,) = r.conditions
    assert not c.passed and c.also_passes_on == ["toy_0"]
    assert c.initial_passed is False and c.initial_detail == "toy.value = 0, expected 2"
    (d,) = diagnose_run(tmp_path, load_run(tmp_path).results)
    assert d.failure_type == "D2"


def test_unchanged_target_is_d1(tmp_path: Path) -> None:
    run_scripted(two_toy_task(), [{"device": "toy_0", "action": "read"}], tmp_path)
    (d,) = diagnose_run(tmp_path, load_run(tmp_path).results)
    assert d.failure_type == "D1"


def test_sources_are_tracked_per_step(tmp_path: Path) -> None:
    task = two_toy_task(sources=[{"device": "toy_0", "value": "toy-thing"}, {"device": "toy_0", "value": 99}])
    script = [{"device": "toy_1", "action": "press"}] * 2 + [{"device": "toy_0", "action": "read"}]
    run_scripted(task, script, tmp_path)
    steps = [json.loads(x) for x in (tmp_path / "episodes/toy2/steps.jsonl").read_text().splitlines()]
    assert [s["sources_seen"] for s in steps] == [[], [], [0], []]
    line = json.loads((tmp_path / "results.jsonl").read_text())
    assert line["sources"][1] == {"device": "toy_0", "value": 99, "description": ""}


def test_budget_run_with_an_unread_source_is_b1(tmp_path: Path) -> None:
    task = two_toy_task(sources=[{"device": "toy_0", "value": "toy-thing"}])
    task = task.model_copy(update={"limits": task.limits.model_copy(update={"max_steps": 6})})
    run_scripted(task, [{"device": "toy_1", "action": "press"}] * 10, tmp_path)
    (d,) = diagnose_run(tmp_path, load_run(tmp_path).results)
    assert (d.mode, d.failure_type) == ("budget_exhausted", "B1")


def test_sources_must_name_task_devices() -> None:
    with pytest.raises(ValidationError, match="toy_7"):
        Task.model_validate(toy_task(metadata={"sources": [{"device": "toy_7", "value": "x"}]}))


def test_source_matching_rules() -> None:
    srcs: list[dict[str, Any]] = [{"device": "a_0", "value": "Team  Sync"}, {"device": "b_0", "value": 21.0}]
    assert sources_seen(srcs, {"a_0": {"text": "team sync at 3"}}, ()) == [0]
    assert sources_seen(srcs, {"b_0": {"text": "team sync"}}, ()) == []  # only its own device
    assert sources_seen(srcs, None, ("ok", {"t": 21})) == [1]


def test_tiny_png_is_a_png() -> None:
    assert tiny_png().startswith(b"\x89PNG\r\n\x1a\n")
