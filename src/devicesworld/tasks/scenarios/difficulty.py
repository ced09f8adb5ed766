"""Difficulty from measured features of a compiled task, not from its graph size.

Issue #15: the old labels did not track difficulty (a calculator sum was "expert").
A scenario task's difficulty is computed from what it takes to solve it:

- **where each source sits**, *measured* on the task's devices
  (``placement.py``: on the first screen the reference solution shows, else the
  family's ``scroll`` / ``search`` / ``document``): a value behind a search or inside
  a document costs more than one on the first screen;
- **look-alikes ahead**: how many values of the same shape a reader meets before the
  one needed (an older code above it, another event's time) — measured too;
- **distractor density**: near-miss values the checks forbid, and how crowded the
  devices are (setup operations per device);
- **outputs and devices**: scored checks (each an output) and devices, device classes;
- **GUI depth**: the length of the recorded reference solution (GUI steps once a GUI
  role's steps are expanded), in bands up to a long task's 20 steps and more;
- **carry**: for a long-tier task (``tiers.py``), how many steps a value read on one
  device must be kept before a step needs it — more than 10 adds a point;
- **reasoning steps**: derivations the agent must compute; a decision between two
  options the instruction names (a mode, a word) is a *choice* and weighs less than
  a value the agent has to work out.

``grade`` turns the features into easy / medium / hard / expert by points; the
weights and cut points are calibrated against the baseline agents
(``runner/calibrate.py``; the table is in docs/scenarios.md).
"""

from __future__ import annotations

from typing import Literal

from devicesworld.spec.metadata import Composition, DerivationRecord, DifficultyFeatures
from devicesworld.spec.models import GLOBAL_DEVICE, Task
from devicesworld.tasks.scenarios.model import Family

WHERE_COST = {"first_screen": 0, "scroll": 1, "search": 2, "document": 2}

Grade = Literal["easy", "medium", "hard", "expert"]


Features = DifficultyFeatures
"""The features a grade is computed from (typed in ``spec/metadata.py``, recorded in ``metadata.composition``)."""

LOOKALIKE_CAP = 2


def _is_choice(derivation: DerivationRecord) -> bool:
    result = derivation.result
    return isinstance(result, str) and not any(ch.isdigit() for ch in result)


def features(task: Task, family: Family) -> Features:
    composition = task.metadata.composition or Composition(category=family.category)
    where = dict(composition.where)
    placement = composition.placement
    for param, placed in placement.items():
        where[param] = placed.where
    infeasible = composition.variant is not None
    scored = [c for c in task.evaluation.conditions if c.scored and c.device != GLOBAL_DEVICE]
    distractors = sum(len(c.distractors) for c in family.evaluation.conditions)
    steps = [s for s in task.solution if s.action not in ("finish", "report_infeasible")]
    derivations = composition.derivations
    choices = sum(1 for d in derivations if _is_choice(d))
    carry = composition.long.carry if composition.long is not None else 0
    return Features(
        devices=len(task.devices),
        classes=len({d.kind for d in task.devices}),
        sources=len(where),
        source_cost=sum(WHERE_COST[w] for w in where.values()),
        hidden=sum(1 for w in where.values() if w != "first_screen") if placement else 0,
        lookalikes=sum(min(LOOKALIKE_CAP, p.ahead) for p in placement.values()),
        distractors=distractors,
        clutter=round(len(task.setup) / max(1, len(task.devices)), 2),
        outputs=len({c.subtask or c.id for c in scored}) if not infeasible else 0,
        gui_steps=len(steps) if not infeasible else len(family.solution),
        reasoning=len(derivations) - choices if not infeasible else len(family.derive),
        choices=choices if not infeasible else 0,
        infeasible=infeasible,
        carry=carry if not infeasible else 0,
    )


WEIGHTS = {
    "source": 2,
    "source_cost": 2,
    "lookalike": 2,
    "distractor": 1,
    "reasoning": 3,
    "choice": 1,
    "infeasible": 8,
}
"""Points per value to find, per unit of where it sits, per look-alike ahead of a needed value,
per twin, per worked-out value, per choice, for an infeasible request. Breadth (devices, classes,
outputs) and GUI depth are capped: on their own they make a task long, not hard to get right
(calibration, docs/scenarios.md)."""
BREADTH_CAP = 3
GUI_BANDS = (6, 14, 19)
"""GUI depth: up to 6 steps no point, up to 14 one, up to 19 two, a long task's 20 or more three."""
CARRY_FAR = 10
"""A value carried more than this many steps before it is needed adds a point."""


def points(f: Features) -> int:
    p = WEIGHTS["source"] * f.sources + WEIGHTS["source_cost"] * f.source_cost
    p += WEIGHTS["lookalike"] * f.lookalikes
    p += WEIGHTS["distractor"] * min(f.distractors, 3)
    p += WEIGHTS["reasoning"] * f.reasoning + WEIGHTS["choice"] * f.choices
    p += WEIGHTS["infeasible"] if f.infeasible else 0
    p += min(BREADTH_CAP, (f.devices - 1) + (f.classes - 1) + max(0, f.outputs - 1))
    p += gui_points(f.gui_steps)
    p += 1 if f.carry > CARRY_FAR else 0
    p += 1 if f.clutter >= 8 else 0
    return p


def gui_points(steps: int) -> int:
    """Points for GUI depth: the number of :data:`GUI_BANDS` the step count exceeds."""
    return sum(1 for band in GUI_BANDS if steps > band)


CUTS = (5, 10, 15)
"""Points up to CUTS[0] are easy, up to CUTS[1] medium, up to CUTS[2] hard, above expert."""


def grade(f: Features) -> Grade:
    p = points(f)
    if p <= CUTS[0]:
        return "easy"
    if p <= CUTS[1]:
        return "medium"
    if p <= CUTS[2]:
        return "hard"
    return "expert"
