"""A suite proven in shards: one report per family, and a second run takes what the first wrote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devicesworld.tasks import validate_shards as vs
from devicesworld.tasks.validate_many import validate_many
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


def _two_of_one_family() -> list[Any]:
    first = HOME_ONLY[0]
    return [first, first.model_copy(update={"id": first.id.rsplit("-", 1)[0] + "-0099"})]


def _record_batches(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The ids of each batch the shards hand to ``validate_many`` from now on (it still runs them)."""
    given: list[list[str]] = []

    def record(todo: list[Any], **kw: Any) -> Any:
        given.append([t.id for t in todo])
        return validate_many(todo, **kw)

    monkeypatch.setattr(vs, "validate_many", record)
    return given


def test_a_stop_inside_a_family_keeps_the_tasks_it_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = _two_of_one_family()

    def stop_after_one(todo: list[Any], **kw: Any) -> Any:
        validate_many(todo[:1], **kw)  # the first task is proven (and journaled by the progress callback)
        raise KeyboardInterrupt  # then the run is stopped

    monkeypatch.setattr(vs, "validate_many", stop_after_one)
    with pytest.raises(KeyboardInterrupt):
        vs.validate_shards(tasks, tmp_path)
    family = vs.family_of(tasks[0])
    assert not vs.shard_path(tmp_path, family).exists()
    assert len(vs.journal_path(tmp_path, family).read_text().splitlines()) == 1

    given = _record_batches(monkeypatch)
    reports = vs.validate_shards(tasks, tmp_path)
    assert given == [[tasks[1].id]]  # only the task the stop cut off
    assert [r.task_id for r in reports] == [t.id for t in tasks] and all(r.ok for r in reports)
    shard = vs.Shard.model_validate_json(vs.shard_path(tmp_path, family).read_text())
    assert [r.task_id for r in shard.reports] == [t.id for t in tasks] and set(shard.hashes) == {
        t.id for t in tasks
    }
    assert not vs.journal_path(tmp_path, family).exists()


def test_a_task_rebuilt_since_its_report_is_proven_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = HOME_ONLY[:1]
    vs.validate_shards(one, tmp_path)
    rebuilt = [one[0].model_copy(update={"instruction": one[0].instruction + " Thanks!"})]
    given = _record_batches(monkeypatch)
    vs.validate_shards(one, tmp_path)
    assert given == []  # the same content: its report is read
    vs.validate_shards(rebuilt, tmp_path)
    assert given == [[one[0].id]]  # another content: proven again
    # and a journal line of another content, or one cut short by a stop, is not taken either
    family = vs.family_of(one[0])
    vs.journal_path(tmp_path, family).write_text(
        '{"hash": "sha256:old", "report": {"task_id": "x"}}\n{"hash"'
    )
    vs.shard_path(tmp_path, family).unlink()
    vs.validate_shards(rebuilt, tmp_path)
    assert given == [[one[0].id], [one[0].id]]


def test_retry_failed_proves_again_only_the_failures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tasks = _two_of_one_family()
    first = vs.validate_shards(tasks, tmp_path)
    family = vs.family_of(tasks[0])
    path = vs.shard_path(tmp_path, family)
    shard = vs.Shard.model_validate_json(path.read_text())
    stalled = shard.reports[1].model_copy(
        update={"ok": False, "problems": ["the desktop did not answer within 34 s"]}
    )
    path.write_text(
        shard.model_copy(update={"reports": [shard.reports[0], stalled], "failed": 1}).model_dump_json()
    )
    given = _record_batches(monkeypatch)
    assert [r.ok for r in vs.validate_shards(tasks, tmp_path)] == [True, False]  # taken as written
    assert given == []
    again = vs.validate_shards(tasks, tmp_path, retry_failed=True)
    assert given == [[tasks[1].id]] and [r.ok for r in again] == [True, True]
    assert [r.model_dump() for r in again] == [r.model_dump() for r in first]
    assert vs.Shard.model_validate_json(path.read_text()).failed == 0


def test_retry_failed_without_a_report_dir_is_a_usage_error() -> None:
    from click.testing import CliRunner

    from devicesworld.cli import main

    out = CliRunner().invoke(main, ["tasks", "validate", "--suite", "smoke", "--retry-failed"])
    assert out.exit_code == 2 and "--report-dir" in out.output, out.output


def test_a_journal_left_after_the_last_task_is_folded_into_the_shard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a retry proved the failed task again and was stopped before it rewrote the shard
    tasks = _two_of_one_family()
    first = vs.validate_shards(tasks, tmp_path)
    family = vs.family_of(tasks[0])
    path, journal = vs.shard_path(tmp_path, family), vs.journal_path(tmp_path, family)
    shard = vs.Shard.model_validate_json(path.read_text())
    stalled = shard.reports[1].model_copy(update={"ok": False, "problems": ["the desktop did not answer"]})
    path.write_text(
        shard.model_copy(update={"reports": [shard.reports[0], stalled], "failed": 1}).model_dump_json()
    )
    line = {"hash": shard.hashes[tasks[1].id], "report": shard.reports[1].model_dump(mode="json")}
    journal.write_text(json.dumps(line) + "\n")
    given = _record_batches(monkeypatch)
    again = vs.validate_shards(tasks, tmp_path)
    assert given == [[]]  # nothing proven again: the journal's report is the newer one
    assert [r.model_dump() for r in again] == [r.model_dump() for r in first]
    assert vs.Shard.model_validate_json(path.read_text()).failed == 0 and not journal.exists()
