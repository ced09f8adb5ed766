"""The recipe ``full-v1`` was built from, kept as data beside the frozen file.

Why: the v1 engine is gone, so its recipe can no longer be run; it stays to say what the
6,200 tasks of ``full-v1.jsonl.gz`` are (task ``dw-<prefix>-<NNNN>`` is task ``NNNN`` of the
shard of that prefix), and a test holds the frozen file to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from devicesworld.spec.models import Task
from devicesworld.tasks.full import Shard

RECIPE_V1: tuple[Shard, ...] = (
    Shard("direct_information_transfer", 700, "dit"),
    Shard("extraction_transformation", 650, "ext"),
    Shard("multi_source_integration", 650, "msi"),
    Shard("cross_device_state_synchronization", 550, "syn"),
    Shard("conflict_resolution", 600, "con"),
    Shard("conditional_decision", 600, "dec"),
    Shard("infeasible_request", 450, "inf"),
    Shard("output_consistency", 650, "out"),
    Shard("device_state_control", 450, "ctl"),
    Shard("compose:single_device_dependent", 300, "csd"),
    Shard("compose:multi_device_dependent", 300, "cmd"),
    Shard("compose:multi_device_independent", 300, "cmi"),
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
