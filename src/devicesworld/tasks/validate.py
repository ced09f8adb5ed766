"""Quality control of one task: is it executable, solvable, not passed by doing nothing, clean?

Each gate runs the real environment, so a task that passes here is proven: its setup
runs, setup alone does not satisfy the goal, the reference solution passes every
condition, and cleanup leaves no error behind. Schema and registry problems are
caught earlier, when the task is loaded.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task


class TaskReport(BaseModel):
    task_id: str
    ok: bool
    problems: list[str] = Field(default_factory=list)
    solution_steps: int = 0


def validate_task(task: Task) -> TaskReport:
    problems: list[str] = []
    problems += _setup_alone_fails(task)
    problems += _solution_passes(task)
    return TaskReport(task_id=task.id, ok=not problems, problems=problems, solution_steps=len(task.solution))


def _setup_alone_fails(task: Task) -> list[str]:
    env = CrossDeviceEnv(task)
    try:
        env.reset()
        verdict = env.evaluate()
    except Exception as exc:
        return [f"setup failed: {exc}"]
    finally:
        env.close()
    problems = [f"cleanup: {e}" for e in env.cleanup_errors]
    if verdict.success:
        problems.append("setup alone already satisfies every required condition")
    problems += [
        f"scored condition {c.id} already holds after setup ({c.detail}); make it a guard (scored: false)"
        for c in verdict.conditions
        if c.passed and c.scored
    ]
    return problems


def _solution_passes(task: Task) -> list[str]:
    if not task.solution:
        return ["the task has no reference solution"]
    env = CrossDeviceEnv(task)
    problems: list[str] = []
    try:
        env.reset()
        for i, step in enumerate(task.solution):
            if env.done:
                problems.append(f"solution step {i} comes after the episode ended ({env.termination})")
                break
            outcome = env.step(step)
            if not outcome.result.ok:
                problems.append(f"solution step {i} ({step.action}) failed: {outcome.result.message}")
        verdict = env.evaluate()
    except Exception as exc:
        return [f"setup failed: {exc}"]
    finally:
        env.close()
    problems += [f"cleanup: {e}" for e in env.cleanup_errors]
    problems += [
        f"reference solution fails condition {c.id}: {c.detail}" for c in verdict.conditions if not c.passed
    ]
    return problems
