"""A suite proven in shards: one report per family, and a second run takes what the first wrote."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from devicesworld.tasks import validate_shards as vs
from tests.tasks.verdict_tasks import VERDICT_TASKS

TASKS = VERDICT_TASKS
HOME_ONLY = [TASKS["dw-dry-without-dryer-0007"], TASKS["dw-vacuum-mode-by-battery-0007"]]


def test_each_family_gets_its_shard_and_a_second_run_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    families = [vs.family_of(t) for t in HOME_ONLY]
    assert families == ["dry_without_dryer", "vacuum_mode_by_battery"]
    first = vs.validate_shards(HOME_ONLY, tmp_path)
    assert [r.task_id for r in first] == [t.id for t in HOME_ONLY] and all(r.ok for r in first)
    shard = vs.Shard.model_validate_json(vs.shard_path(tmp_path, families[0]).read_text())
    assert shard.tasks == 1 and shard.failed == 0 and shard.reports[0].near_misses > 0

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a family with a shard is not validated again")

    monkeypatch.setattr(vs, "validate_many", refuse)
    again = vs.validate_shards(HOME_ONLY, tmp_path)
    assert [r.model_dump() for r in again] == [r.model_dump() for r in first]


def test_a_shard_that_lacks_a_task_is_redone(tmp_path: Path) -> None:
    one = HOME_ONLY[:1]
    vs.validate_shards(one, tmp_path)
    path = vs.shard_path(tmp_path, vs.family_of(one[0]))
    shard = vs.Shard.model_validate_json(path.read_text())
    path.write_text(shard.model_copy(update={"reports": []}).model_dump_json())
    (report,) = vs.validate_shards(one, tmp_path)
    assert report.task_id == one[0].id
    assert len(vs.Shard.model_validate_json(path.read_text()).reports) == 1
