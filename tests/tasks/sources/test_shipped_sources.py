"""The shipped GUI tasks of ``full`` rebuild from the source family files alone, byte for byte.

The GUI tasks were proven on live desktops when they were built; the proof changes nothing in a
task, so a rebuild without a desktop — draw, finish (the phone's macro steps recorded on the
phone simulator), grade, surfaces, declared profiles — must give the shipped bytes. Every one
does (the 17 Windows rows once shipped with ``run_command`` solutions were rebuilt with console-app
GUI solutions in session 44); only tasks the coherence gate took out of ``full`` are absent: a
whole family in session 44. (In session 46 the draws of two families that failed ``file_dates`` — a
letter named for 2028, a 2025 memo that said "this year" — were left out; their source files were
fixed and the 18 draws rebuilt in session 47.)
"""

from __future__ import annotations

from functools import cache

from devicesworld.spec.models import Task
from devicesworld.tasks import full, kind_sources
from devicesworld.tasks.coherence import coherence_problems
from devicesworld.tasks.kind_sources import TaskDraw
from devicesworld.tasks.profiles import declare_profiles
from devicesworld.tasks.surfaces import task_surfaces


@cache
def shipped() -> dict[str, Task]:
    return {t.id: t for t in full.load_full()}


def _draw(shard: full.Shard, index: int, retry: int) -> Task:
    """Draw ``retry`` of task ``index`` of a source shard, as ``full``'s build draws it."""
    source = kind_sources.source_by_name(shard.builder.split(":", 1)[1])
    seed = full.sub_seed(full.FULL_SEED, shard.builder, index, retry)
    return kind_sources.draw(source, TaskDraw(seed, index, f"dw-{shard.prefix}-{index:04d}"))


def _rebuilt(shard: full.Shard, index: int, split: str) -> list[str]:
    """The task of each of the draws ``full`` may take for task ``index``, as the build writes it."""
    out = []
    for retry in range(full.SOURCE_RETRIES):
        task = _draw(shard, index, retry)
        metadata = task.metadata.model_copy(update={"apps": task_surfaces(task), "split": split})
        out.append(declare_profiles(task.model_copy(update={"metadata": metadata})).model_dump_json())
    return out


def test_every_shipped_gui_task_of_full_rebuilds_from_its_family_file() -> None:
    same, differ, absent = 0, [], []
    for shard in full.source_shards():
        for index in range(shard.count):
            original = shipped().get(f"dw-{shard.prefix}-{index:04d}")
            if original is None:
                absent.append((shard, index))
                continue
            if original.model_dump_json() in _rebuilt(shard, index, original.metadata.split):
                same += 1
            else:
                differ.append(original.id)
    assert differ == [] and same == 384, (same, differ)
    assert {s.prefix for s, _ in absent} == {"gui-lx-phone-code-editor"}


def test_the_draws_of_the_fixed_source_families_are_coherent() -> None:
    for shard in full.source_shards():
        if shard.prefix in ("gui-lx-calc-rent-letter", "gui-win-np-fix-code"):
            for index in range(shard.count):
                assert coherence_problems(_draw(shard, index, 0)) == [], (shard.prefix, index)
