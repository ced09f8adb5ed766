"""The recipe ``full-v1`` was built from, kept as data beside the frozen file.

The recipe is data (``full_v1_recipe.json``). Why: the v1 engine is gone, so its recipe can no longer be run; it stays to say what the
6,200 tasks of ``full-v1.jsonl.gz`` are (task ``dw-<prefix>-<NNNN>`` is task ``NNNN`` of the
shard of that prefix), and a test holds the frozen file to it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from importlib import resources

from devicesworld.spec.models import Task
from devicesworld.tasks.full import Shard

RECIPE_V1: tuple[Shard, ...] = tuple(
    Shard(**row)
    for row in json.loads(resources.files(__package__).joinpath("full_v1_recipe.json").read_text())
)
"""6,200 tasks from every workflow pattern of the paper (one shard each, the pattern builders)
plus JarvisGUI's three composition categories (``compose:<category>``, the typed composer)."""


def shard_counts(tasks: Iterable[Task]) -> dict[str, int]:
    """Tasks per v1 builder, read off the ids; an id of no v1 shard counts under ``?``."""
    by_prefix = {s.prefix: s.builder for s in RECIPE_V1}
    out: Counter[str] = Counter()
    for t in tasks:
        prefix = t.id.removeprefix("dw-").rpartition("-")[0]
        out[by_prefix.get(prefix, "?")] += 1
    return dict(out)
