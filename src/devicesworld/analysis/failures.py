"""Automatic failure diagnosis: a termination mode and one primary failure type per failed episode.

The taxonomy is the DevicesWorld paper's (§4.3). A failed episode ends in one of two
modes: it *exhausted its budget* (steps or time), or the agent *declared completion*
(``finish``, or ``report_infeasible``) and verification failed. A third mode,
``error``, holds episodes ended by an agent crash or a harness failure, which the
paper's runs did not have. Each failed episode then gets exactly one primary type:

Budget exhausted (Figure 5a)
  B1 required source information never acquired;
  B2 target-side operation never completed;
  B3 no recovery after an explicit error.
Completion declared but verification failed (Figure 5b)
  D1 a required subgoal omitted; D2 output on the wrong device or location;
  D3 wrong content or state; D4 completion declared without confirming that the
  result persisted; D5 conditions on several devices unsatisfied; and one type the
  paper's verifiers could not see, D6 collateral damage: every task condition held,
  but the run changed state outside the task's write set (the collateral guard,
  :mod:`devicesworld.verify.collateral`).

The paper assigns types by reading trajectories "according to the earliest major
deviation that dominates the subsequent failure". Here every type has a mechanical
rule over the trajectory (``steps.jsonl``) and the evaluator trace (the conditions in
``results.jsonl``, including each condition's verdict right after setup and the
sibling-device probe), tried in a fixed precedence order; the first rule that fires
wins and its evidence is kept as ``reason``. The rules and their order are written
out in ``docs/analysis.md``; :data:`FAILURE_TYPES` holds the one-line definitions.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from devicesworld.analysis.metrics import has_partial_progress
from devicesworld.analysis.sources import as_text, value_in
from devicesworld.analysis.trajectory import Trajectory, read_trajectory
from devicesworld.spec.actions import GLOBAL_ACTION_NAMES
from devicesworld.spec.models import GLOBAL_DEVICE
from devicesworld.spec.records import ConditionRecord, EpisodeResult, StepRecord
from devicesworld.verify.collateral import COLLATERAL_CHECK

TerminationMode = Literal["budget_exhausted", "declared_complete", "error"]
FailureType = Literal["B1", "B2", "B3", "D1", "D2", "D3", "D4", "D5", "D6"]

MODES: tuple[TerminationMode, ...] = ("budget_exhausted", "declared_complete", "error")
BUDGET_TYPES: tuple[FailureType, ...] = ("B1", "B2", "B3")
DECLARED_TYPES: tuple[FailureType, ...] = ("D1", "D2", "D3", "D4", "D5", "D6")
ALL_TYPES: tuple[FailureType, ...] = BUDGET_TYPES + DECLARED_TYPES

MODE_OF_TERMINATION: dict[str, TerminationMode] = {
    "budget_exhausted": "budget_exhausted",
    "time_limit": "budget_exhausted",
    "finished": "declared_complete",
    "infeasible_reported": "declared_complete",
    "error": "error",
}

FAILURE_TYPES: dict[FailureType, str] = {
    "B1": "required source information never acquired",
    "B2": "target-side operation never completed",
    "B3": "no recovery after an explicit error",
    "D1": "a required subgoal omitted",
    "D2": "output on the wrong device or location",
    "D3": "wrong content or state",
    "D4": "completion declared without confirming the result persisted",
    "D5": "conditions on several devices unsatisfied",
    "D6": "collateral damage: the task's conditions held but other state was changed",
}

# B3 thresholds: an error "was not recovered from" when errors dominate the end of the
# trajectory or the same error keeps coming back.
B3_TAIL_MIN_STEPS = 5
B3_TAIL_FRACTION = 0.25
B3_TAIL_ERROR_SHARE = 0.5
B3_REPEATS = 3


class Diagnosis(BaseModel):
    """Why one failed episode failed."""

    model_config = ConfigDict(frozen=True)

    task_id: str
    termination: str
    mode: TerminationMode
    failure_type: FailureType
    reason: str = Field(description="The evidence of the rule that fired, for a person to check.")
    partial_progress: bool = Field(description="At least one scored condition held.")
    trajectory_found: bool = Field(description="False when diagnosed from results.jsonl alone.")


# ----------------------------------------------------------------------- helpers
def termination_mode(termination: str) -> TerminationMode:
    return MODE_OF_TERMINATION.get(termination, "error")


def _device_steps(steps: Sequence[StepRecord]) -> list[StepRecord]:
    """Steps that targeted a device (not the global finish / report_infeasible)."""
    return [s for s in steps if str(s.action.get("action", "")) not in GLOBAL_ACTION_NAMES]


def _device_of(step: StepRecord) -> str:
    return str(step.action.get("device") or "")


def _signature(step: StepRecord) -> str:
    return f"{_device_of(step) or '-'} {step.action.get('action', '?')} {step.error_code or 'error'}"


def _unchanged(c: ConditionRecord) -> bool | None:
    """Did the checked state stay as it was after setup? ``None`` when the run did not record it."""
    if c.initial_passed is None or c.initial_detail is None:
        return None
    return (not c.initial_passed) and c.initial_detail == c.detail


# -------------------------------------------------------------------- B rules
def _b3_evidence(steps: Sequence[StepRecord]) -> str | None:
    errors = [s for s in steps if not s.ok]
    if not errors:
        return None
    window = max(B3_TAIL_MIN_STEPS, math.ceil(len(steps) * B3_TAIL_FRACTION))
    tail = steps[-window:]
    tail_errors = sum(1 for s in tail if not s.ok)
    signature, repeats = Counter(_signature(s) for s in errors).most_common(1)[0]
    if len(tail) >= B3_TAIL_MIN_STEPS and tail_errors / len(tail) >= B3_TAIL_ERROR_SHARE:
        return (
            f"{tail_errors} of the last {len(tail)} steps failed ({len(errors)} errors in {len(steps)} steps; "
            f"most frequent: {signature} x{repeats})"
        )
    if repeats >= B3_REPEATS:
        return f"the same error recurred {repeats} times: {signature}"
    return None


def _unseen_sources(result: EpisodeResult, steps: Sequence[StepRecord]) -> list[int]:
    seen: set[int] = set()
    feedback = [as_text(s.message) + " " + as_text(s.data) for s in steps]
    for s in steps:
        seen.update(s.sources_seen)
    missing: list[int] = []
    for i, src in enumerate(result.sources):
        if i in seen:
            continue
        value = src.get("value")
        if value is not None and any(value_in(value, text) for text in feedback):
            continue
        missing.append(i)
    return missing


def _diagnose_budget(result: EpisodeResult, traj: Trajectory) -> tuple[FailureType, str]:
    steps = traj.steps
    b3 = _b3_evidence(steps)
    if b3 is not None:
        return "B3", b3
    missing = _unseen_sources(result, steps)
    if missing:
        shown = ", ".join(
            f"{result.sources[i].get('value')!r} on {result.sources[i].get('device')}" for i in missing
        )
        return "B1", f"source value(s) never appeared in an observation or feedback: {shown}"
    if result.sources:
        return "B2", "every declared source value was seen, but the target-side conditions never held"
    failing = [c.id for c in result.conditions if c.required and not c.passed]
    return (
        "B2",
        f"no declared source left unread; target-side condition(s) never held: {', '.join(failing) or '-'}",
    )


# -------------------------------------------------------------------- D rules
def _diagnose_declared(result: EpisodeResult, traj: Trajectory) -> tuple[FailureType, str]:
    failed = [c for c in result.conditions if c.required and not c.passed]
    if not failed:
        return "D3", "verification failed without a failing required condition in the trace"
    steps = _device_steps(traj.steps)

    # D6: only the collateral guard failed: the outputs are right, something else was changed.
    if all(c.check == COLLATERAL_CHECK for c in failed):
        return "D6", "; ".join(f"{c.device}: {c.detail}" for c in failed)

    # D2: the expected output exists on another device of the same kind.
    for c in failed:
        if c.also_passes_on:
            return "D2", f"{c.id} fails on {c.device} but holds on {', '.join(c.also_passes_on)}"

    # A wrong infeasibility report is a wrong final output (the decision), not an omission.
    if result.termination == "infeasible_reported":
        wrong = [c for c in failed if c.device == GLOBAL_DEVICE and c.check == "not_infeasible_reported"]
        if wrong:
            return "D3", f"reported infeasible although the request was feasible ({wrong[0].detail})"

    acted_ok = {_device_of(s) for s in steps if s.ok}
    last_on: dict[str, StepRecord] = {}
    for s in steps:
        last_on[_device_of(s)] = s

    # D4: the agent's last action on a failing target errored and it declared completion anyway.
    for c in failed:
        if c.device == GLOBAL_DEVICE or _unchanged(c) is False:
            continue
        last = last_on.get(c.device)
        if last is not None and not last.ok:
            return "D4", (
                f"{c.id} not satisfied on {c.device}; the last action there (step {last.step}, "
                f"{last.action.get('action')}) failed with {last.error_code or 'an error'} "
                "and completion was declared without a later successful step there"
            )

    # D5: required conditions unsatisfied on two or more devices the agent did operate.
    failing_devices = sorted({c.device for c in failed if c.device != GLOBAL_DEVICE})
    if len(failing_devices) >= 2 and all(d in acted_ok for d in failing_devices):
        return (
            "D5",
            f"required conditions unsatisfied on {len(failing_devices)} devices: {', '.join(failing_devices)}",
        )

    # D1: a required condition's state never changed from setup, or its device was never operated.
    for c in failed:
        unchanged = _unchanged(c)
        if unchanged:
            return "D1", f"{c.id} on {c.device} is unchanged since setup ({c.detail})"
        if unchanged is None and c.device != GLOBAL_DEVICE and c.device not in acted_ok:
            return "D1", f"{c.id}: the agent never operated {c.device} successfully"

    # D3: the target was changed but its content or state is wrong.
    c = failed[0]
    return "D3", f"{c.id} on {c.device} was changed but is wrong: {c.detail}"


# ---------------------------------------------------------------------- public
def diagnose(result: EpisodeResult, trajectory: Trajectory | None = None) -> Diagnosis | None:
    """Diagnose one episode; ``None`` for a successful one.

    ``trajectory`` is the episode's step log; without one (a run written without
    step logs) the rules that need steps see an empty trajectory.
    """
    if result.success:
        return None
    traj = trajectory if trajectory is not None else Trajectory(found=False)
    mode = termination_mode(result.termination)
    if mode == "budget_exhausted":
        ftype, reason = _diagnose_budget(result, traj)
    elif mode == "declared_complete":
        ftype, reason = _diagnose_declared(result, traj)
    else:
        detail = result.error or (traj.errors[-1] if traj.errors else "no message")
        ftype, reason = "B3", f"the episode ended on an agent or harness error: {detail}"
    return Diagnosis(
        task_id=result.task_id,
        termination=result.termination,
        mode=mode,
        failure_type=ftype,
        reason=reason,
        partial_progress=has_partial_progress(result),
        trajectory_found=traj.found,
    )


def diagnose_run(run_dir: Path, results: Iterable[EpisodeResult]) -> list[Diagnosis]:
    """Diagnose every failed episode of a run, reading only the failed episodes' step logs."""
    out: list[Diagnosis] = []
    for r in results:
        if r.success:
            continue
        d = diagnose(r, read_trajectory(run_dir, r.episode_key))
        if d is not None:
            out.append(d)
    return out


class FailureSummary(BaseModel):
    """The distributions of the paper's Figures 4 and 5 for one run."""

    model_config = ConfigDict(frozen=True)

    n_failed: int
    mode_counts: dict[str, int] = Field(description="Failed runs per termination mode (Figure 4).")
    mode_shares: dict[str, float | None] = Field(description="mode_counts over n_failed.")
    type_counts: dict[str, dict[str, int]] = Field(description="Per mode, failed runs per type (Figure 5).")
    type_shares: dict[str, dict[str, float | None]] = Field(description="Per mode, shares summing to 1.")
    partial_progress_share: float | None = Field(
        description="Share of failed runs with at least one satisfied scored condition."
    )
    tasks_by_type: dict[str, list[str]]


def summarize_failures(diagnoses: Sequence[Diagnosis]) -> FailureSummary:
    n = len(diagnoses)
    mode_counts = {m: sum(1 for d in diagnoses if d.mode == m) for m in MODES}
    types_of_mode: dict[str, tuple[FailureType, ...]] = {
        "budget_exhausted": BUDGET_TYPES,
        "declared_complete": DECLARED_TYPES,
        "error": ("B3",),
    }
    type_counts: dict[str, dict[str, int]] = {}
    type_shares: dict[str, dict[str, float | None]] = {}
    for mode, types in types_of_mode.items():
        members = [d for d in diagnoses if d.mode == mode]
        counts: dict[str, int] = {t: sum(1 for d in members if d.failure_type == t) for t in types}
        type_counts[mode] = counts
        type_shares[mode] = {t: (c / len(members) if members else None) for t, c in counts.items()}
    return FailureSummary(
        n_failed=n,
        mode_counts=mode_counts,
        mode_shares={m: (c / n if n else None) for m, c in mode_counts.items()},
        type_counts=type_counts,
        type_shares=type_shares,
        partial_progress_share=(sum(d.partial_progress for d in diagnoses) / n) if n else None,
        tasks_by_type={t: [d.task_id for d in diagnoses if d.failure_type == t] for t in ALL_TYPES},
    )
