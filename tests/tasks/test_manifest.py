"""The frozen ``test`` split: its manifest, the content hash of each task, and loading by version."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.spec.models import Task
from devicesworld.tasks.full import load_full, with_test_split
from devicesworld.tasks.manifest import (
    ManifestError,
    build_manifest,
    load_manifest,
    manifest_text,
    manifests_dir,
    mismatches,
    next_version,
    read_manifest,
    task_hash,
)
from devicesworld.tasks.suites import load_suite, suite_names


@cache
def full_tasks() -> tuple[Task, ...]:
    return tuple(load_full())


def test_every_shipped_test_task_matches_its_manifest_hash() -> None:
    manifest = load_manifest("test")
    assert manifest.label == "test-v2.9"
    assert len(manifest.tasks) == 198  # v2.9: v2.8's ids, two tasks rebuilt in place (household namesakes)
    assert mismatches(manifest, list(full_tasks())) == []


def test_a_superseded_version_loads_as_frozen_from_its_archive() -> None:
    """test-v2.1's tasks were rebuilt in place in `full` (issue #33); by name it still gives the
    tasks its hashes name, so runs against it stay comparable (issue #36)."""
    old = load_manifest("test-v2.1")
    tasks = load_suite("test-v2.1")
    assert [t.id for t in tasks] == old.ids and len(tasks) == 200
    assert mismatches(old, tasks) == []
    v24 = load_manifest("test-v2.4")
    assert set(v24.ids) <= set(old.ids)
    # v2.3 kept v2.2's ids with the rebuilt tasks' hashes: v2.2 loads from its archive as frozen
    v22 = load_manifest("test-v2.2")
    assert [t.id for t in load_suite("test-v2.2")] == v22.ids == v24.ids
    assert mismatches(v22, load_suite("test-v2.2")) == []
    # v2.4 kept v2.3's ids (tasks rebuilt for the gate's seeded_times/email_identity rules): v2.3 too
    v23 = load_manifest("test-v2.3")
    assert [t.id for t in load_suite("test-v2.3")] == v23.ids == v24.ids
    assert mismatches(v23, load_suite("test-v2.3")) == []
    # v2.5 reselected from v2.4's ids and held-out long tasks (13 of v2.4's were rebuilt in place
    # for the owner_name/household_name/file_dates rules): v2.4 loads from its archive as frozen
    assert [t.id for t in load_suite("test-v2.4")] == v24.ids
    assert mismatches(v24, load_suite("test-v2.4")) == []
    # v2.6 reselected from v2.5's ids and the held-out long tasks (tasks of 20 families were rebuilt
    # in place: one person one number, alarm days): v2.5 loads from its archive as frozen
    v25 = load_manifest("test-v2.5")
    assert [t.id for t in load_suite("test-v2.5")] == v25.ids
    assert mismatches(v25, load_suite("test-v2.5")) == []
    # v2.7 kept v2.6's ids (tasks rebuilt for alarm days, mail dates, mirrored household texts):
    # v2.6 loads from its archive as frozen
    v26 = load_manifest("test-v2.6")
    assert [t.id for t in load_suite("test-v2.6")] == v26.ids == load_manifest("test").ids
    assert mismatches(v26, load_suite("test-v2.6")) == []
    # v2.8 kept v2.7's ids (tasks rebuilt for mirrored household calls, the timed-heater wording,
    # an alarm date): v2.7 loads from its archive as frozen, 29 of its tasks differing from v2.8's
    v27, v28 = load_manifest("test-v2.7"), load_manifest("test-v2.8")
    assert [t.id for t in load_suite("test-v2.7")] == v27.ids == v28.ids
    assert mismatches(v27, load_suite("test-v2.7")) == []
    assert len(mismatches(v27, load_suite("test-v2.8"))) == 29
    # v2.9 kept v2.8's ids (the partner who shared the user's name renamed, two long tasks rebuilt):
    # v2.8 loads from its archive as frozen
    v29 = load_manifest("test")
    assert [t.id for t in load_suite("test-v2.8")] == v28.ids == v29.ids
    assert mismatches(v28, load_suite("test-v2.8")) == []
    assert sorted(m.split(":")[0] for m in mismatches(v28, list(full_tasks()))) == [
        "dw-long-bike-theft-claim-0002",
        "dw-long-coach-home-0001",
    ]
    new = set(v26.ids)
    assert new - set(v25.ids) and all(i.startswith("dw-long-") for i in new - set(v25.ids))


def test_the_test_suite_is_the_manifest_in_its_order_and_old_versions_load_by_name() -> None:
    manifest = load_manifest("test")
    assert [t.id for t in load_suite("test")] == manifest.ids
    assert {
        "test-v2.1",
        "test-v2.2",
        "test-v2.3",
        "test-v2.4",
        "test-v2.5",
        "test-v2.6",
        "test-v2.7",
        "test-v2.8",
        "test-v2.9",
    } <= set(suite_names())
    assert [t.id for t in load_suite(manifest.label)] == manifest.ids


def test_rebuilding_full_leaves_test_unchanged() -> None:
    """The split is the manifest's ids, whatever a fresh selection of the pool would pick."""
    pool = [
        t.model_copy(update={"metadata": t.metadata.model_copy(update={"split": "train"})})
        for t in full_tasks()
    ]
    marked = with_test_split(pool[::-1], size=50)  # another order and size would select differently
    assert {t.id for t in marked if t.metadata.split == "test"} == set(load_manifest("test").ids)
    assert {t.id for t in full_tasks() if t.metadata.split == "test"} == set(load_manifest("test").ids)


def test_a_changed_task_changes_its_hash_and_metadata_does_not() -> None:
    task = full_tasks()[0]
    assert task_hash(task) == task_hash(
        task.model_copy(update={"metadata": task.metadata.model_copy(update={"split": "x"})})
    )
    changed = task.model_copy(update={"instruction": task.instruction + " Now."})
    assert task_hash(changed) != task_hash(task)
    manifest = build_manifest("t", "1.0", [task])
    assert mismatches(manifest, [changed]) == [
        f"{task.id}: hash {task_hash(changed)} differs from the manifest's {task_hash(task)}"
    ]
    assert mismatches(manifest, []) == [f"{task.id}: missing"]


def test_manifest_files_are_stable_and_guard_their_hash(tmp_path: Path) -> None:
    tasks = list(full_tasks()[:3])
    manifest = build_manifest("mini", "1.0", tasks)
    path = tmp_path / "mini-v1.0.json"
    path.write_text(manifest_text(manifest), encoding="utf-8")
    assert read_manifest(path) == manifest
    assert next_version("mini", tmp_path) == "1.1"
    path.write_text(path.read_text().replace(tasks[0].id, "other-id"), encoding="utf-8")
    with pytest.raises(ManifestError, match="edited by hand"):
        read_manifest(path)


def test_tasks_list_shows_the_manifest_version() -> None:
    out = CliRunner().invoke(main, ["tasks", "list", "--suite", "test"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert f"manifest {load_manifest('test').label} (sha256:" in out.output


def test_freeze_writes_a_new_version_and_never_overwrites(tmp_path: Path) -> None:
    args = ["tasks", "freeze", "--size", "20", "--out", str(tmp_path), "--version", "9.0"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    written = read_manifest(tmp_path / "test-v9.0.json")
    assert len(written.tasks) == 20
    again = CliRunner().invoke(main, args)
    assert again.exit_code != 0 and "never rewritten" in again.output


def test_every_test_version_runs_under_the_papers_uniform_50_step_budget(tmp_path: Path) -> None:
    from devicesworld.tasks.manifest import PAPER_PROTOCOL, Protocol, apply_protocol

    assert load_manifest("test").run_protocol == PAPER_PROTOCOL
    later = build_manifest("test", "9.0", list(full_tasks()[:2]))  # a version frozen later: same budget
    assert later.run_protocol is not None and later.run_protocol.max_steps == 50
    path = tmp_path / "test_long-v1.0.json"  # a tier that asks for more is its own set
    tier = build_manifest(
        "test_long", "1.0", list(full_tasks()[:2]), protocol=Protocol(name="long", max_steps=100)
    )
    path.write_text(manifest_text(tier), encoding="utf-8")
    assert read_manifest(path).run_protocol == Protocol(name="long", max_steps=100)
    assert '"protocol"' not in manifest_text(later)  # a manifest without its own keeps its bytes
    tasks = load_suite("test")
    assert {t.limits.max_steps for t in tasks} != {50}  # the shipped files are not edited ...
    assert {t.limits.max_steps for t in apply_protocol(tasks, PAPER_PROTOCOL)} == {50}  # ... the run is


def test_freeze_dry_run_draws_from_the_split_and_held_out_tasks_and_writes_nothing(tmp_path: Path) -> None:
    """`--held-out` adds tasks never in train to the newest version's ids; the figures of the
    selection and its unmet targets are printed; a dry run writes no manifest."""
    held = full_tasks()[0].model_copy(
        update={
            "id": "dw-held-out-0000",
            "instruction": "A held-out request no other task makes.",
            "metadata": full_tasks()[0].metadata.model_copy(update={"tier": "long"}),
        }
    )
    source = tmp_path / "held.jsonl"
    source.write_text(held.model_dump_json() + "\n", encoding="utf-8")
    args = ["tasks", "freeze", "--size", "20", "--held-out", str(source), "--long-share", "0.5", "--dry-run"]
    out = CliRunner().invoke(main, [*args, "--version", "9.9"])
    assert out.exit_code == 0, out.output
    assert "selected 20 of 199" in out.output  # the newest version's 198 ids and the held-out task
    assert "unmet: long tier" in out.output  # one long task is all the pool has: the target is missed
    assert not list(manifests_dir().glob("test-v9.9*"))


def test_a_task_an_older_version_held_goes_back_to_train() -> None:
    """A task marked ``test`` that the newest manifest left out is ``train`` after a rebuild (it
    was never in the new split); the manifest's tasks are ``test`` whatever they were marked."""
    ids = set(load_manifest("test").ids)
    pool = [
        t.model_copy(
            update={
                "metadata": t.metadata.model_copy(update={"split": "test" if t.id not in ids else "train"})
            }
        )
        for t in full_tasks()[:400]
    ]
    marked = with_test_split(pool)
    assert all(t.metadata.split == ("test" if t.id in ids else "train") for t in marked)
    assert any(t.id not in ids for t in pool) and any(t.id in ids for t in pool)
