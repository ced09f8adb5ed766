"""Several natural phrasings per clause and mention, picked with the task's seeded randomness.

A composite instruction is a sequence of clauses; if every clause of one atomic task
always read the same, agents (and readers of the suite) would see the template.
Each atomic task therefore lists at least three phrasings and :func:`say` picks one
with ``ctx.rng``, so the same seed still rebuilds the same text.
"""

from __future__ import annotations

from typing import Any

from devicesworld.tasks.composition.atomic import InstanceContext


def say(ctx: InstanceContext, templates: tuple[str, ...], /, **values: Any) -> str:
    """One of ``templates`` (at least three), filled with ``values``."""
    if len(templates) < 3:
        raise ValueError(f"give at least three phrasings, got {len(templates)}")
    return ctx.rng.choice(templates).format(**values)
