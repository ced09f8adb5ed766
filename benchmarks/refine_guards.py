"""LLM-stage guards: false refusals, caught corruptions, and the cost of the stages without a model.

Builds pattern tasks (every workflow pattern, several seeds) and feeds the rewrite
stage canned proposals through an in-process model stub, so the figures are about
the guards alone:

- a faithful rewrite (same literals, same devices, friendlier wording) must be
  accepted: the share refused is the guards' false-refusal rate (target 0%);
- a rewrite revealing a hidden value, dropping one literal, or dropping a device must
  be refused: the share accepted is the miss rate (target 0%);
- the time per task of rewrite + judge with an instant model (target < 5 ms).

Run: ``.venv/bin/python benchmarks/refine_guards.py [seeds]``.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from typing import Any

from devicesworld.spec.metadata import PATTERNS
from devicesworld.spec.models import Task
from devicesworld.tasks.refine import Answer, RefineOptions, refine_tasks
from devicesworld.tasks.refine.guards import literals
from devicesworld.tasks.refine.rewrite import rewrite_task
from devicesworld.tasks.suites import load_suite

VERDICT = json.dumps({"realism": 4, "coherence": 4, "evaluability": 5, "rationale": "ok"})


class Stub:
    """An instant model: the rewrite comes from ``propose``, the verdict is fixed."""

    model = "stub"

    def __init__(self, propose: Callable[[str], str]) -> None:
        self.propose = propose

    def __call__(self, messages: list[dict[str, Any]], *, role: str) -> Answer:
        if role == "judge":
            return Answer(VERDICT)
        instruction = messages[1]["content"].split("\n\n")[0].removeprefix("Instruction:\n")
        return Answer(json.dumps({"instruction": self.propose(instruction)}))


def faithful(text: str) -> str:
    return "Hi! When you get a moment, could you help me out: " + text[0].lower() + text[1:]


def build(seeds: int) -> list[Task]:
    """The first ``seeds`` tasks of every pattern in the frozen ``full-v1`` (the v1 pattern builders' tasks)."""
    v1 = load_suite("full-v1")
    return [t for pattern in PATTERNS for t in [t for t in v1 if t.metadata.pattern == pattern][:seeds]]


def rate(tasks: list[Task], propose: Callable[[Task], str | None], *, want: str) -> tuple[int, int]:
    """How many of the tasks end with ``want`` ("rewritten" or "kept"), of those a proposal exists for."""
    hits = total = 0
    for task in tasks:
        proposal = propose(task)
        if proposal is None:
            continue
        total += 1
        _, outcome, _ = rewrite_task(task, Stub(lambda _, p=proposal: p))
        hits += outcome.status == want
    return hits, total


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    t0 = time.perf_counter()
    tasks = build(seeds)
    print(f"{len(tasks)} pattern tasks built in {time.perf_counter() - t0:.1f} s")

    def leak(task: Task) -> str | None:
        if not task.metadata.sources:
            return None
        value = task.metadata.sources[0].value
        return (
            faithful(task.instruction) + f" It is {value:g} by the way."
            if isinstance(value, float)
            else (faithful(task.instruction) + f" It is {value} by the way.")
        )

    def drop_literal(task: Task) -> str | None:
        found = literals(task.instruction)
        return faithful(task.instruction).replace(found[-1], "it") if found else None

    def drop_device(task: Task) -> str | None:
        text = faithful(task.instruction)
        out = re.sub(
            r"\s*\(?\b(?:on|in) the (?:phone|desktop|smart home)(?: \w+_\d+)?\)?,?", "", text, count=1
        )
        return out if out != text else None

    ok, n = rate(tasks, lambda t: faithful(t.instruction), want="rewritten")
    print(f"faithful rewrites accepted: {ok}/{n} (false refusals {100 * (n - ok) / max(n, 1):.1f}%)")
    for name, mutate in (
        ("hidden value", leak),
        ("dropped literal", drop_literal),
        ("dropped device", drop_device),
    ):
        caught, n = rate(tasks, mutate, want="kept")
        print(f"{name:16s} refused: {caught}/{n} (missed {100 * (n - caught) / max(n, 1):.1f}%)")
    t0 = time.perf_counter()
    _, report = refine_tasks(tasks, Stub(faithful), RefineOptions(rewrite=True, judge=True))
    per_task = (time.perf_counter() - t0) / len(tasks) * 1000
    print(f"rewrite + judge with an instant model: {per_task:.2f} ms per task ({report.rewritten} rewritten)")


if __name__ == "__main__":
    main()
