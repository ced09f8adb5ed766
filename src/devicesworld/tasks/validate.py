"""Quality control of one task: complete, executable, verifiable (paper §3.3).

Each gate runs the real environment, so a task that passes here is proven:

- its setup runs, the documents it writes open with their readers, and setup alone
  does not satisfy the goal (no scored condition already holds);
- the reference solution passes every condition, and cleanup leaves nothing behind;
- near misses fail: a wrong value, one output missing, the output on the wrong
  device, a distractor or hedged answer, the solution plus one stray change on a
  device, the output repeated on a twin device (:mod:`devicesworld.tasks.nearmiss`);
- correct variants pass: the reference solution in other words and other encodings
  (:mod:`devicesworld.tasks.paraphrase` — the paraphrase gate, issue 32);
- every device takes part (a condition, a source, a setup op or a solution step);
- for built tasks, every value a verifier expects can be found by the agent
  (:mod:`devicesworld.tasks.provenance`).

Schema and registry problems are caught earlier, when the task is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from devicesworld.devices.base import DeviceKind
from devicesworld.devices.state import OutputChange
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Step, Task
from devicesworld.tasks.nearmiss import MUTATIONS, near_misses
from devicesworld.tasks.paraphrase import GATES, paraphrases
from devicesworld.tasks.provenance import provenance_problems
from devicesworld.tasks.recorded import Recording
from devicesworld.tasks.worldqc import world_problems
from devicesworld.verify import EvaluationResult


class TaskReport(BaseModel):
    task_id: str
    ok: bool
    problems: list[str] = Field(default_factory=list)
    solution_steps: int = 0
    near_misses: int = Field(default=0, description="Near-miss solutions run (each failed, as it must).")
    mutations: dict[str, int] = Field(
        default_factory=dict, description="Near misses run per mutation (see tasks.nearmiss.MUTATIONS)."
    )
    paraphrases: dict[str, int] = Field(
        default_factory=dict,
        description="Correct variants run per gate (tasks.paraphrase.GATES); each must pass.",
    )
    paraphrases_skipped: int = Field(default=0, description="Correct variants whose steps did not run.")
    played_back: int = Field(
        default=0,
        description="Variants run with the devices they do not change played back from a recorded "
        "run (tasks.recorded) rather than replayed; the verdict is the same.",
    )


def validate_task(
    task: Task, *, near_miss: bool = True, paraphrase: bool = True, play_back: bool = True
) -> TaskReport:
    """Every gate on one task. ``play_back``: run only the devices a variant changes, the others
    played back from the run of setup alone or of the reference solution where nothing can tell
    (:mod:`devicesworld.tasks.recorded`) — the same verdict, without restarting a desktop."""
    problems: list[str] = []
    problems += _devices_take_part(task)
    problems += world_problems(task)
    if task.metadata.origin in ("composition", "scenario"):
        problems += provenance_problems(task)
    records = [Recording(task, []), Recording(task, task.solution)] if play_back else []
    problems += _setup_alone_fails(task, records[0] if records else None)
    solved, solution_problems = _solution_passes(task, records[1] if records else None)
    problems += solution_problems
    player = _Player(task, [r for r in records if r.logs] if not problems else [])
    ran: dict[str, int] = {}
    for miss in near_misses(task) if near_miss and not problems else []:
        verdict, _, errors = player.play(miss.steps, stray_on=miss.stray_on, output_on=miss.output_on)
        problems += [f"cleanup after near miss: {e}" for e in errors]
        if verdict is None or not verdict.applicable:
            continue  # the kind found nothing stray to change
        if miss.effect_on is not None and solved is not None:
            twin = miss.effect_on
            if set(verdict.changes.get(twin, [])) == set(solved.changes.get(twin, [])):
                continue  # the copied steps left the twin as the solution leaves it: no miss
        ran[miss.mutation] = ran.get(miss.mutation, 0) + 1
        if verdict.result.success:
            problems.append(f"near miss passes verification ({miss.name}); the verifier is too weak")
    said: dict[str, int] = {}
    skipped = 0
    for variant in paraphrases(task) if paraphrase and not problems else []:
        verdict, failures, errors = player.play(variant.steps)
        problems += [f"cleanup after correct variant: {e}" for e in errors]
        if verdict is None or failures:
            skipped += 1
            continue
        said[variant.gate] = said.get(variant.gate, 0) + 1
        if not verdict.result.success:
            failed = "; ".join(
                f"{c.id}: {c.detail}" for c in verdict.result.conditions if c.required and not c.passed
            )
            problems.append(
                f"correct variant fails verification ({variant.name}): {failed}; the verifier is too strict"
            )
    return TaskReport(
        task_id=task.id,
        ok=not problems,
        problems=problems,
        solution_steps=len(task.solution),
        near_misses=sum(ran.values()),
        mutations=ran,
        paraphrases=said,
        paraphrases_skipped=skipped,
        played_back=player.played_back,
    )


def paraphrase_counts(reports: Sequence[TaskReport]) -> dict[str, tuple[int, int]]:
    """Per paraphrase gate (in :data:`GATES` order): correct variants run and tasks that had one."""
    out: dict[str, tuple[int, int]] = {}
    for name in GATES:
        runs = [r.paraphrases.get(name, 0) for r in reports]
        out[name] = (sum(runs), sum(1 for n in runs if n))
    return out


def mutation_counts(reports: Sequence[TaskReport]) -> dict[str, tuple[int, int]]:
    """Per mutation (in :data:`MUTATIONS` order): near misses run and tasks that had one."""
    out: dict[str, tuple[int, int]] = {}
    for name in MUTATIONS:
        runs = [r.mutations.get(name, 0) for r in reports]
        out[name] = (sum(runs), sum(1 for n in runs if n))
    return out


class _Played(BaseModel):
    result: EvaluationResult
    applicable: bool = True
    changes: dict[str, list[str]] = Field(default_factory=dict)
    """Per device, every non-harmless change since setup (``path kind``)."""


_Run = tuple[_Played | None, list[str], list[str]]


class _Player:
    """Plays variants: from a record where one covers the variant and the run stays on it, else
    on fresh devices (a diverged run's verdict is dropped and the variant replayed in full)."""

    def __init__(self, task: Task, records: Sequence[Recording]) -> None:
        self.task = task
        self.records = records
        self.played_back = 0

    def play(
        self,
        steps: Sequence[Step],
        *,
        stray_on: str | None = None,
        output_on: tuple[str, OutputChange] | None = None,
    ) -> _Run:
        covered = [(r.covers(steps, stray_on=stray_on, output_on=output_on), r) for r in self.records]
        devices, record = max(covered, key=lambda c: len(c[0]), default=(set(), None))
        if record is not None and devices:
            replay = record.replay(devices)
            run = _play(self.task, steps, stray_on=stray_on, output_on=output_on, kinds=replay.kinds)
            if not replay.diverged():
                self.played_back += 1
                return run
        return _play(self.task, steps, stray_on=stray_on, output_on=output_on)


def _play(
    task: Task,
    steps: Sequence[Step],
    *,
    stray_on: str | None = None,
    output_on: tuple[str, OutputChange] | None = None,
    kinds: dict[str, DeviceKind] | None = None,
) -> _Run:
    """Run ``steps`` on a fresh environment: the verdict, each failed step, cleanup errors.

    ``stray_on``: then make one change there the task never mentions (not applicable when
    the kind finds none). ``kinds``: devices recorded or played back (:mod:`tasks.recorded`).
    """
    env = CrossDeviceEnv(task, kinds=kinds)
    failures: list[str] = []
    applicable = True
    try:
        env.reset()
        for i, step in enumerate(steps):
            if env.done:
                failures.append(f"step {i} comes after the episode ended ({env.termination})")
                break
            outcome = env.step(step)
            if not outcome.result.ok:
                failures.append(f"step {i} ({step.action}) failed: {outcome.result.message}")
        if stray_on is not None:
            applicable = env.stray_change(stray_on, "add") is not None
        if output_on is not None:
            applicable = env.output_change(*output_on) is not None
        # the guard's snapshots come before the checks run (their by-products are not changes), so
        # the changes are read from them; without the guard, before the evaluation as always
        early = None if task.evaluation.collateral.guard else env.changes()
        verdict = env.evaluate()
        listed = early if early is not None else env.changes(env.final_snapshots)
        changes = {d: [str(c) for c in cs] for d, cs in listed.items()}
    except Exception as exc:
        env.close()
        return None, [f"setup failed: {exc}"], list(env.cleanup_errors)
    env.close()
    played = _Played(result=verdict, applicable=applicable, changes=changes)
    return played, failures, list(env.cleanup_errors)


def _setup_alone_fails(task: Task, record: Recording | None = None) -> list[str]:
    env = CrossDeviceEnv(task, kinds=record.recording_kinds() if record is not None else None)
    try:
        env.reset()
        problems = [f"resource does not open: {p}" for p in env.resource_problems()]
        verdict = env.evaluate()
    except Exception as exc:
        return [f"setup failed: {exc}"]
    finally:
        env.close()
    problems += [f"cleanup: {e}" for e in env.cleanup_errors]
    if verdict.success:
        problems.append("setup alone already satisfies every required condition")
    problems += [
        f"scored condition {c.id} already holds after setup ({c.detail}); make it a guard (scored: false)"
        for c in verdict.conditions
        if c.passed and c.scored
    ]
    return problems


def _solution_passes(task: Task, record: Recording | None = None) -> tuple[_Played | None, list[str]]:
    """The reference solution's run (None when it could not run) and its problems."""
    if not task.solution:
        return None, ["the task has no reference solution"]
    kinds = record.recording_kinds() if record is not None else None
    played, failures, errors = _play(task, task.solution, kinds=kinds)
    problems = [f"solution {f}" for f in failures] + [f"cleanup: {e}" for e in errors]
    if played is None:
        return None, problems
    problems += [
        f"reference solution fails condition {c.id}: {c.detail}"
        for c in played.result.conditions
        if not c.passed
    ]
    return played, problems


def _devices_take_part(task: Task) -> list[str]:
    used = {c.device for c in task.evaluation.conditions}
    used |= {op.device for op in task.setup}
    used |= {s.device for s in task.solution if s.device}
    used |= {s.device for s in task.metadata.sources}
    composition = task.metadata.composition
    if composition is not None and composition.absent_sources:
        # an infeasible request: every device it names is where the agent must look
        used |= {sub.device for sub in composition.subtasks if sub.device}
    return [f"device {d} takes no part in the task" for d in task.device_ids() if d not in used]
