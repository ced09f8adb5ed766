"""Shipped suites equal their data files (``tasks compile --check``), and the index finds every shipped task."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.tasks import shipped
from devicesworld.tasks.handwritten.suites import data_dir
from devicesworld.tasks.manifest import load_manifest
from devicesworld.tasks.suites import load_suite


def test_tasks_compile_check_finds_every_handwritten_suite_identical_to_its_shipped_file() -> None:
    result = CliRunner().invoke(main, ["tasks", "compile", "--check"])
    assert result.exit_code == 0, result.output
    assert "identical to the shipped bmoca-v1.jsonl.gz" in result.output
    assert "identical to the shipped smoke-v1.jsonl.gz" in result.output
    assert (
        "compiled suite smoke: 140 tasks" in result.output
        and "compiled suite bmoca: 131 tasks" in result.output
    )


def test_tasks_compile_check_names_each_task_that_differs(tmp_path: Path) -> None:
    for name in ("smoke-sh.yaml", "homes.yaml"):
        shutil.copy(data_dir() / name, tmp_path / name)
    path = tmp_path / "smoke-sh.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("Turn on the hallway light.", "Turn on the hall light.", 1)
    text = text.replace("id: smoke-sh-038", "id: smoke-sh-999", 1)
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(
        main, ["tasks", "compile", "--check", str(path), "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 1, result.output
    differing = [line for line in result.output.splitlines() if "DIFFERS" in line]
    assert differing == [
        '  DIFFERS smoke-sh-001: instruction: shipped "Turn on the hallway light.", compiled "Turn on the hall light."',
        "  DIFFERS smoke-sh-999: not in any shipped handwritten suite",
    ]
    assert len((tmp_path / "out" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()) == 38


def test_the_index_matches_the_shipped_files() -> None:
    assert shipped.index_bytes(shipped.build_index()) == shipped.index_path().read_bytes(), (
        "stale task index: run `python -m devicesworld.tasks.shipped`"
    )


def test_the_index_finds_each_task_by_reading_one_line() -> None:
    rows = shipped.index_rows()
    assert {r["suite"] for r in rows} == {"smoke", "smoke-gui", "bmoca", "full", "full-v1"}
    for name in ("smoke", "smoke-gui", "bmoca"):  # smoke: its handwritten file, then smoke-gui
        tasks = load_suite(name)
        assert [r["id"] for r in shipped.index_rows(name)] == [t.id for t in tasks]
        middle = tasks[len(tasks) // 2]
        assert shipped.find_indexed(middle.id) == middle
    test_rows = shipped.index_rows("test")
    assert len(test_rows) == len(load_manifest("test").ids) and all(r["split"] == "test" for r in test_rows)
    assert shipped.find_indexed("no-such-task") is None


def test_loading_a_suite_runs_no_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    import devicesworld.tasks.suites as suites
    from devicesworld.env.controller import CrossDeviceEnv

    def refuse(self: object) -> None:
        raise AssertionError("a device setup ran while loading a suite")

    monkeypatch.setattr(CrossDeviceEnv, "reset", refuse)
    monkeypatch.setattr(suites, "_BUILT", {})
    assert len(load_suite("smoke-gui")) == 44  # the kinds' GUI smoke tasks: 26 Linux, 18 Windows
    assert len(load_suite("smoke")) == 140 + 44 and len(load_suite("bmoca")) == 131
