"""``tasks draw``: a fresh private split in the strata of ``test``, proven, unseen, reproducible."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.runner.selection import manifest_of
from devicesworld.spec.models import Task
from devicesworld.tasks.draw import content_key, spread, strata
from devicesworld.tasks.full import load_full
from devicesworld.tasks.manifest import read_manifest, task_hash
from devicesworld.tasks.suites import load_suite

FAMILY = "family:dehumidify_if_damp"
"""A phone and smart-home family of the test split with three strata (no system tool needed)."""


def _draw(out: Path, seed: int) -> tuple[bytes, bytes]:
    args = ["tasks", "draw", "--like", "test", "--seed", str(seed), "--count", "2", "--only", FAMILY]
    result = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_bytes(), out.with_suffix(".manifest.json").read_bytes()


def test_the_same_seed_draws_the_same_bytes_of_unseen_proven_tasks_in_the_strata(tmp_path: Path) -> None:
    first = _draw(tmp_path / "a" / "private.jsonl", 7)
    assert _draw(tmp_path / "b" / "private.jsonl", 7) == first
    lines = [json.loads(line) for line in first[0].decode().splitlines()]
    assert len(lines) == 2 and all(line["id"].startswith("p7-dehumidify-if-damp-") for line in lines)
    plan = spread(strata(load_suite("test"), FAMILY), 2)
    assert [line["metadata"]["difficulty"] for line in lines] == [s.difficulty for s in plan]
    drawn = [Task.model_validate(line) for line in lines]
    shipped = {content_key(t) for t in load_full()}
    assert not any(content_key(t) in shipped for t in drawn)
    manifest = read_manifest(tmp_path / "a" / "private.manifest.json")
    assert manifest.label == "private-v7" and [e.hash for e in manifest.tasks] == [
        task_hash(t) for t in drawn
    ]
    assert manifest_of(None, str(tmp_path / "a" / "private.jsonl")) == ("private-v7", manifest.hash)
    assert manifest.run_protocol is not None and manifest.run_protocol.max_steps == 50  # test's budget
    other = _draw(tmp_path / "c" / "private.jsonl", 8)[0]
    assert other != first[0]


def test_a_draw_refuses_an_unknown_split(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["tasks", "draw", "--like", "nope", "--seed", "1", "--out", str(tmp_path / "x")]
    )
    assert result.exit_code != 0 and "no manifest 'nope'" in result.output


def test_every_stratum_of_test_is_drawable_and_fixed_rows_draw_fresh_values() -> None:
    """The 28 strata from the Windows kind's fixed rows draw new instances in a private draw
    (``TaskDraw.fresh``), while the shipped rows stay as they are (``full`` is unchanged)."""
    from devicesworld.devices.traits import TaskDraw
    from devicesworld.tasks.draw import fixed_rows
    from devicesworld.tasks.kind_sources import source_by_name

    test = load_suite("test")
    plan = strata(test)
    assert len(plan) == len(test) and not any(fixed_rows(s.shard) for s in plan)
    sources = {s.shard.builder for s in plan if s.shard.builder.startswith("source:")}
    fixed = sorted(b for b in sources if not source_by_name(b.split(":", 1)[1]).redraw)
    assert len(fixed) == 9  # Windows GUI families whose shipped rows are a table
    for builder in fixed:
        source = source_by_name(builder.split(":", 1)[1])
        shipped = [repr(source.build(TaskDraw(0, i, "x"))) for i in range(source.full)]
        fresh = source.build(TaskDraw(11, 0, "x", fresh=True))
        assert repr(fresh) not in shipped, builder
        assert fresh == source.build(TaskDraw(11, 0, "x", fresh=True))  # the same seed, the same task
        assert fresh != source.build(TaskDraw(12, 0, "x", fresh=True)), builder
