"""Cross-device composition with the built-in libraries: categories, transfers, hidden values, runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.spec.models import Task
from devicesworld.tasks.build import CATEGORIES, build_composed, default_composer
from devicesworld.tasks.composition.compose import Composer, CompositionError, step_budget
from devicesworld.tasks.composition.library import android, linux
from devicesworld.tasks.composition.library.transfers import TRANSFERS
from devicesworld.tasks.loading import dump_tasks_jsonl
from devicesworld.tasks.validate import validate_task


@pytest.fixture(scope="module")
def built() -> list[Task]:
    tasks, report = build_composed(21, 15)
    assert report.built == 15
    return tasks


def _kinds(task: Task) -> set[str]:
    return {d.kind for d in task.devices}


def _category(task: Task) -> str:
    return str(task.metadata.model_extra["composition"]["category"])  # type: ignore[index]


def test_every_category_yields_qc_passing_tasks(built: list[Task]) -> None:
    """build_composed keeps only validated tasks; multi-device categories mix device kinds."""
    by_category = {c: [t for t in built if _category(t) == c] for c in CATEGORIES}
    assert all(by_category.values()), {c: len(ts) for c, ts in by_category.items()}
    for task in by_category["single_device_dependent"]:
        assert len(task.devices) == 1
    for category in ("multi_device_dependent", "multi_device_independent"):
        assert any(len(_kinds(t)) >= 2 for t in by_category[category]), category
        assert all(len(t.devices) >= 2 for t in by_category[category])
    assert any({"linux", "android"} <= _kinds(t) for t in built)
    sample = next(t for t in built if len(_kinds(t)) >= 2)
    assert validate_task(sample).ok


def test_hidden_values_never_appear_in_instructions(built: list[Task]) -> None:
    hidden = [(t, s.value) for t in built for s in t.metadata.sources]
    assert hidden, "the sample reads no value from a device"
    for task, value in hidden:
        forms = {str(value)} | ({f"{value:g}"} if isinstance(value, float) else set())
        assert not any(f in task.instruction for f in forms), (task.id, value, task.instruction)


def test_conditions_record_their_subtask_and_budgets_fit(built: list[Task]) -> None:
    for task in built:
        assert len(task.solution) <= task.limits.max_steps == step_budget(len(task.solution))
        ids = {s["id"] for s in task.metadata.model_extra["composition"]["subtasks"]}  # type: ignore[index]
        assert all(c.subtask in ids and c.id.startswith(f"{c.subtask}.") for c in task.evaluation.conditions)


@pytest.mark.parametrize("pair", sorted(TRANSFERS))
def test_files_cross_devices_through_the_drive(pair: tuple[str, str]) -> None:
    """A file made on one kind and read on another gets a transfer; the task passes QC."""
    libs = {"linux": linux, "android": android}
    src, dst = pair
    producer = next(t for t in libs[src].LIBRARY if t.name.endswith("provide_file"))
    reader = next(t for t in libs[dst].LIBRARY if t.name.endswith("read_code_from_file"))
    writer = next(t for t in libs[dst].LIBRARY if t.name in ("lx_write_json_field", "an_write_note"))
    composer = Composer([producer, reader, writer], transfers=TRANSFERS)
    for seed in range(60):
        try:
            task = composer.compose(seed, "multi_device_dependent", max_tasks=3)
        except CompositionError:
            continue
        subtasks = task.metadata.model_extra["composition"]["subtasks"]  # type: ignore[index]
        if f"transfer_{src}_to_{dst}" not in {s["atomic"] for s in subtasks}:
            continue
        report = validate_task(task)
        assert report.ok, report.problems
        assert "shared drive" in task.instruction
        return
    pytest.fail(f"no seed produced a {src} -> {dst} transfer")


def test_default_composer_has_every_library_and_transfer() -> None:
    composer = default_composer()
    assert {t.platform for t in composer.library} == {"smarthome", "linux", "android"}
    assert set(composer.transfers) == {(a, b) for a in ("linux", "android") for b in ("linux", "android")}


def test_oracle_passes_and_noop_fails_through_run(built: list[Task], tmp_path: Path) -> None:
    sample = [t for t in built if len(t.devices) >= 2][:4]
    path = tmp_path / "sample.jsonl"
    dump_tasks_jsonl(sample, path)
    for agent, expected in (("oracle", True), ("noop", False)):
        out = tmp_path / agent
        result = CliRunner().invoke(main, ["run", "--tasks", str(path), "--agent", agent, "--out", str(out)])
        assert result.exit_code == 0, result.output
        lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
        assert len(lines) == len(sample)
        assert all(r["success"] is expected for r in lines), (agent, [r["conditions"] for r in lines])


def test_one_transfer_per_file_and_target_device() -> None:
    producer = next(t for t in linux.LIBRARY if t.name == "lx_provide_file")
    reader = next(t for t in android.LIBRARY if t.name == "an_read_code_from_file")
    composer = Composer([producer, reader], transfers=TRANSFERS)
    shared = 0
    for seed in range(40):
        try:
            graph_task = composer.compose(seed, "multi_device_dependent", max_tasks=3)
        except CompositionError:
            continue
        comp = graph_task.metadata.model_extra["composition"]  # type: ignore[index]
        device = {s["id"]: s["device"] for s in comp["subtasks"]}
        hops = [s["id"] for s in comp["subtasks"] if s["atomic"].startswith("transfer")]
        fed = [(e["src"], device[h]) for h in hops for e in comp["edges"] if e["dst"] == h]
        assert len(fed) == len(set(fed)), comp
        shared += any(sum(e["src"] == h for e in comp["edges"]) > 1 for h in hops)
    assert shared, "no sample had two readers of one moved file"
