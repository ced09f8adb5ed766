"""Proving a task gives the verdicts it gave before the speed work (issue #13).

``validate_verdicts.json`` holds the reports of 20 tasks of the ``test`` split (every
tenth), recorded with the code before the caches of :mod:`devicesworld.diskcache`, the
remembered row digests and the skipped empty app databases. A few of them are proven
here, phone, desktop and home among them; ``benchmarks/validate_cost.py --check
tests/tasks/validate_verdicts.json`` proves all 20 with the cache cold, warm and off.
The 20 tasks themselves are kept beside the reports (``validate_verdicts_tasks.jsonl``,
taken from the ``full`` v2 file they were recorded on), so rebuilding ``full`` does not
move them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devicesworld.tasks.validate import validate_task
from tests.devices.linux.linux_harness import require_bwrap
from tests.tasks.verdict_tasks import VERDICT_TASKS

HERE = Path(__file__).parent
RECORDED: dict[str, Any] = json.loads((HERE / "validate_verdicts.json").read_text())
TASKS = VERDICT_TASKS
SAMPLE = (  # (task, runs a sandboxed desktop)
    ("dw-heater-too-hot-0008", False),
    ("dw-tidy-before-cleaner-0003", True),
    ("dw-dry-without-dryer-0007", False),
)


@pytest.mark.parametrize(("task_id", "desktop"), SAMPLE)
def test_the_report_is_the_recorded_one(task_id: str, desktop: bool) -> None:
    if desktop:
        require_bwrap()
    report = validate_task(TASKS[task_id], paraphrase=False).model_dump(mode="json")
    recorded = RECORDED[task_id]
    # issue 32 added gates (paraphrases, more near-miss mutations): the recorded ones must not move
    assert {k: report[k] for k in ("task_id", "ok", "problems", "solution_steps")} == {
        k: recorded[k] for k in ("task_id", "ok", "problems", "solution_steps")
    }
    assert {m: report["mutations"].get(m) for m in recorded["mutations"]} == recorded["mutations"]


def test_the_recorded_reports_cover_mutations_and_kinds() -> None:
    kinds = {m for r in RECORDED.values() for m in r["mutations"]}
    assert {"collateral", "wrong_value", "distractor", "hedged", "missing_output", "wrong_device"} <= kinds
    assert len(RECORDED) == 20 and all(r["ok"] for r in RECORDED.values())
    assert set(TASKS) == set(RECORDED)
