"""Each failure type is assigned as defined, on hand-built trajectories and evaluator traces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devicesworld.analysis.failures import (
    FAILURE_TYPES,
    diagnose,
    diagnose_run,
    summarize_failures,
    termination_mode,
)
from devicesworld.analysis.trajectory import Trajectory, read_trajectory
from devicesworld.spec.records import ConditionRecord, EpisodeResult, StepRecord

A0, A1, L0 = "android_0", "android_1", "linux_0"


def step(n: int, device: str | None, action: str, ok: bool = True, **kw: Any) -> StepRecord:
    act: dict[str, Any] = {"action": action, "args": {}}
    if device is not None:
        act["device"] = device
    return StepRecord(step=n, action=act, ok=ok, message=kw.pop("message", "ok" if ok else "failed"), **kw)


def cond(cid: str, device: str, passed: bool = False, **kw: Any) -> ConditionRecord:
    fields: dict[str, Any] = {"id": cid, "device": device, "passed": passed, "detail": f"{cid} is wrong"}
    fields.update(kw)
    return ConditionRecord(**fields)


def result(termination: str, conditions: list[ConditionRecord], **kw: Any) -> EpisodeResult:
    fields: dict[str, Any] = {
        "task_id": "t",
        "success": False,
        "score": 0.0,
        "steps": 10,
        "duration_s": 1.0,
        "termination": termination,
        "conditions": conditions,
    }
    fields.update(kw)
    return EpisodeResult(**fields)


def traj(*steps: StepRecord) -> Trajectory:
    return Trajectory(steps=list(steps))


def finish(n: int) -> StepRecord:
    return step(n, None, "finish")


def test_every_type_has_a_definition() -> None:
    assert sorted(FAILURE_TYPES) == ["B1", "B2", "B3", "D1", "D2", "D3", "D4", "D5", "D6"]


@pytest.mark.parametrize(
    ("termination", "mode"),
    [
        ("budget_exhausted", "budget_exhausted"),
        ("time_limit", "budget_exhausted"),
        ("finished", "declared_complete"),
        ("infeasible_reported", "declared_complete"),
        ("error", "error"),
    ],
)
def test_termination_modes(termination: str, mode: str) -> None:
    assert termination_mode(termination) == mode


def test_success_has_no_diagnosis() -> None:
    ok = result("finished", [cond("c", L0, passed=True)], success=True, score=1.0)
    assert diagnose(ok, traj()) is None


# ---------------------------------------------------------------- budget exhausted
def _reads(n: int, device: str = A0, ok: bool = True) -> list[StepRecord]:
    return [step(i + 1, device, "click", ok) for i in range(n)]


def test_b1_source_value_never_seen() -> None:
    r = result("budget_exhausted", [cond("out", L0)], sources=[{"device": A0, "value": "14:30"}])
    steps = [step(i + 1, A0, "scroll", message="Calendar: no events today") for i in range(20)]
    d = diagnose(r, traj(*steps))
    assert d is not None and d.mode == "budget_exhausted" and d.failure_type == "B1"
    assert "14:30" in d.reason


def test_source_seen_by_the_runner_is_not_b1() -> None:
    r = result("budget_exhausted", [cond("out", L0)], sources=[{"device": A0, "value": "14:30"}])
    steps = [*_reads(5), step(6, A0, "click", sources_seen=[0]), *_reads(5)]
    d = diagnose(r, traj(*steps))
    assert d is not None and d.failure_type == "B2"


def test_source_seen_in_feedback_data_is_not_b1() -> None:
    r = result("budget_exhausted", [cond("out", L0)], sources=[{"device": A0, "value": 21.0}])
    steps = [*_reads(3), step(4, A0, "query", data={"temperature": 21}), *_reads(3)]
    d = diagnose(r, traj(*steps))
    assert d is not None and d.failure_type == "B2"


def test_b2_without_declared_sources() -> None:
    r = result("budget_exhausted", [cond("out", L0)])
    d = diagnose(r, traj(*_reads(50, L0)))
    assert d is not None and d.failure_type == "B2" and "out" in d.reason


def test_b3_errors_dominate_the_end() -> None:
    steps = _reads(40) + [step(41 + i, L0, f"cmd{i}", ok=False, error_code="INVALID_ARGS") for i in range(10)]
    d = diagnose(result("budget_exhausted", [cond("out", L0)]), traj(*steps))
    assert d is not None and d.failure_type == "B3" and "of the last" in d.reason


def test_b3_same_error_repeated_even_with_successes_between() -> None:
    steps: list[StepRecord] = []
    for _ in range(3):
        steps += [*_reads(8), step(0, A0, "click", ok=False, error_code="STALE_INDEX")]
    steps += _reads(10)
    d = diagnose(result("budget_exhausted", [cond("out", L0)]), traj(*steps))
    assert d is not None and d.failure_type == "B3" and "STALE_INDEX" in d.reason


def test_b3_takes_precedence_over_b1() -> None:
    r = result("time_limit", [cond("out", L0)], sources=[{"device": A0, "value": "x"}])
    steps = [step(i, A0, "open_app", ok=False, error_code="NOT_FOUND") for i in range(10)]
    d = diagnose(r, traj(*steps))
    assert d is not None and d.failure_type == "B3"


def test_a_recovered_error_is_not_b3() -> None:
    steps = [step(1, A0, "click", ok=False, error_code="STALE_INDEX"), *_reads(49)]
    d = diagnose(result("budget_exhausted", [cond("out", L0)]), traj(*steps))
    assert d is not None and d.failure_type == "B2"


# ---------------------------------------------------------------- declared complete
def test_d1_required_state_unchanged_since_setup() -> None:
    c = cond("note", A1, initial_passed=False, detail="no note", initial_detail="no note")
    r = result("finished", [cond("json", L0, passed=True), c])
    d = diagnose(r, traj(*_reads(3, L0), *_reads(2, A1), finish(6)))
    assert d is not None and d.mode == "declared_complete" and d.failure_type == "D1"
    assert "note" in d.reason


def test_d1_device_never_operated_when_no_setup_verdict() -> None:
    r = result("finished", [cond("json", L0, passed=True), cond("sms", A1)])
    d = diagnose(r, traj(*_reads(5, L0), finish(6)))
    assert d is not None and d.failure_type == "D1" and A1 in d.reason


def test_d2_output_exists_on_the_other_device_of_the_kind() -> None:
    c = cond("note", A1, also_passes_on=[A0], initial_passed=False, initial_detail="x", detail="x")
    r = result("finished", [c])
    d = diagnose(r, traj(*_reads(5, A0), finish(6)))
    assert d is not None and d.failure_type == "D2" and A0 in d.reason


def test_d3_target_changed_but_wrong() -> None:
    c = cond("json", L0, initial_passed=False, initial_detail="no file", detail="field 'time' = 14:00")
    r = result("finished", [c])
    d = diagnose(r, traj(*_reads(5, L0), finish(6)))
    assert d is not None and d.failure_type == "D3"


def test_d6_only_the_collateral_guard_failed() -> None:
    ok = cond("json", L0, passed=True)
    guard = cond(
        "no_collateral_damage.linux_0", L0, check="no_collateral_damage", detail="changed files/notes.txt"
    )
    d = diagnose(result("finished", [ok, guard]), traj(*_reads(5, L0), finish(6)))
    assert d is not None and d.failure_type == "D6" and "files/notes.txt" in d.reason


def test_a_wrong_output_with_collateral_damage_is_diagnosed_by_the_output() -> None:
    wrong = cond("json", L0, initial_passed=False, initial_detail="no file", detail="field 'time' = 14:00")
    guard = cond("no_collateral_damage.linux_0", L0, check="no_collateral_damage", detail="changed x")
    d = diagnose(result("finished", [wrong, guard]), traj(*_reads(5, L0), finish(6)))
    assert d is not None and d.failure_type == "D3"


def test_d3_wrongly_reported_infeasible() -> None:
    r = result(
        "infeasible_reported",
        [
            cond("lamp", "smarthome_0", initial_passed=False, initial_detail="off", detail="off"),
            cond("feasible", "env", check="not_infeasible_reported", detail="wrongly reported infeasible"),
        ],
    )
    d = diagnose(r, traj(step(1, None, "report_infeasible")))
    assert d is not None and d.failure_type == "D3" and "infeasible" in d.reason


def test_d4_last_write_failed_then_completion_declared() -> None:
    c = cond("saved", A0, initial_passed=False, initial_detail="no file", detail="no file")
    r = result("finished", [c])
    steps = [*_reads(4, A0), step(5, A0, "click", ok=False, error_code="STALE_INDEX"), finish(6)]
    d = diagnose(r, traj(*steps))
    assert d is not None and d.failure_type == "D4" and "STALE_INDEX" in d.reason


def test_d5_conditions_on_several_operated_devices() -> None:
    conds = [
        cond("home", "smarthome_0", passed=True),
        cond("reply", A0, initial_passed=False, initial_detail="none", detail="reply says 3pm"),
        cond("record", L0, initial_passed=False, initial_detail="none", detail="record lacks time"),
    ]
    steps = [*_reads(3, A0), *_reads(3, L0), *_reads(2, "smarthome_0"), finish(9)]
    d = diagnose(result("finished", conds), traj(*steps))
    assert d is not None and d.failure_type == "D5" and A0 in d.reason and L0 in d.reason


def test_several_devices_one_never_operated_is_d1_not_d5() -> None:
    conds = [cond("reply", A0), cond("record", L0)]
    d = diagnose(result("finished", conds), traj(*_reads(3, A0), finish(4)))
    assert d is not None and d.failure_type == "D1"


def test_error_termination_is_its_own_mode() -> None:
    d = diagnose(result("error", [cond("c", L0)], error="agent error: ValueError: bad"), traj())
    assert d is not None and d.mode == "error" and d.failure_type == "B3" and "bad" in d.reason


# ---------------------------------------------------------------- summary and run
def test_summary_shares_sum_to_one_per_mode() -> None:
    ds = [
        diagnose(result("budget_exhausted", [cond("c", L0)]), traj(*_reads(10, L0))),
        diagnose(result("finished", [cond("c", L0, passed=False, scored=True)]), traj(finish(1))),
        diagnose(result("finished", [cond("a", L0, passed=True), cond("b", A0)]), traj(finish(1))),
    ]
    s = summarize_failures([d for d in ds if d is not None])
    assert s.n_failed == 3
    assert s.mode_counts == {"budget_exhausted": 1, "declared_complete": 2, "error": 0}
    assert sum(v or 0.0 for v in s.mode_shares.values()) == pytest.approx(1.0)
    assert sum(v or 0.0 for v in s.type_shares["declared_complete"].values()) == pytest.approx(1.0)
    assert s.partial_progress_share == pytest.approx(1 / 3)
    assert s.type_shares["error"] == {"B3": None}


def test_diagnose_run_reads_step_logs_tolerantly(tmp_path: Path) -> None:
    ep = tmp_path / "episodes" / "t"
    ep.mkdir(parents=True)
    lines = [step(i + 1, L0, "cmd", ok=False, error_code="E").model_dump_json() for i in range(6)]
    lines.append(json.dumps({"schema_version": 1, "error": "agent error: X"}))
    lines.append('{"step": 7, "act')  # torn last line
    (ep / "steps.jsonl").write_text("\n".join(lines))
    t = read_trajectory(tmp_path, "t")
    assert len(t.steps) == 6 and t.errors == ["agent error: X"] and t.skipped_lines == 1
    r = result("budget_exhausted", [cond("c", L0)])
    other = result("finished", [cond("c", L0)], task_id="missing")
    ds = diagnose_run(tmp_path, [r, other, result("finished", [], success=True, score=1.0, task_id="s")])
    assert [(d.task_id, d.failure_type, d.trajectory_found) for d in ds] == [
        ("t", "B3", True),
        ("missing", "D1", False),
    ]
