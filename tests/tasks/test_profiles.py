"""Desktop profiles (issue #34): GUI-only ``gui``, ``hybrid`` with a shell, the version-1 reading."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.devices.base import get_kind
from devicesworld.devices.desktop.actions import GUI_ACTION_NAMES
from devicesworld.spec.models import Task
from devicesworld.tasks.full import suite_bytes
from devicesworld.tasks.manifest import task_hash
from devicesworld.tasks.profiles import declare_profiles, desktop_profile, every_desktop_gui, read_tasks
from devicesworld.tasks.semantic import semantic_problems


def _task(version: int, devices: list[dict[str, Any]], solution: list[dict[str, Any]]) -> Task:
    return Task.model_validate(
        {
            "schema_version": version,
            "id": "profile-probe",
            "instruction": "Tidy the desktop.",
            "devices": devices,
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
            "solution": solution,
        }
    )


LINUX_GUI = {"id": "linux_0", "kind": "linux", "profile": {"desktop": "gui"}}
WINDOWS = {"id": "windows_0", "kind": "windows"}
SHELL = {"device": "linux_0", "action": "run_command", "args": {"command": "ls"}}
KEYS = {"device": "linux_0", "action": "hotkey", "args": {"keys": ["ctrl", "s"]}}


def test_a_gui_only_linux_desktop_publishes_no_shell_action() -> None:
    kind = get_kind("linux")
    assert kind is not None
    space = kind.actions_for(kind.profile_of({"desktop": "gui"}, 2))
    assert tuple(space) == GUI_ACTION_NAMES
    assert "run_command" not in space and "launch_app" in space
    assert "run_command" in kind.actions_for({"desktop": "hybrid"})
    assert "read_document" in kind.actions_for({"desktop": "api"})


def test_a_windows_device_publishes_no_shell_action() -> None:
    kind = get_kind("windows")
    assert kind is not None
    assert "run_command" not in kind.actions_for(kind.profile_of({}, 2))
    assert "run_command" not in kind.actions_for({"desktop": "gui"})
    assert "run_command" in kind.actions_for({"desktop": "hybrid"})


def test_a_version_1_task_reads_gui_as_hybrid_so_shipped_tasks_keep_their_meaning() -> None:
    old = _task(1, [LINUX_GUI, WINDOWS], [SHELL])
    assert semantic_problems(old) == []
    assert desktop_profile(old) == "hybrid"


def test_a_version_2_gui_task_cannot_use_the_shell_in_its_solution() -> None:
    new = _task(2, [LINUX_GUI], [SHELL])
    problems = semantic_problems(new)
    assert problems and problems[0][0] == "solution.0.action" and "run_command" in problems[0][1]
    assert semantic_problems(_task(2, [LINUX_GUI], [KEYS])) == []
    assert desktop_profile(_task(2, [LINUX_GUI], [KEYS])) == "gui"


def test_declare_profiles_states_the_narrowest_profile_the_solution_fits() -> None:
    gui = declare_profiles(_task(1, [LINUX_GUI, WINDOWS], [KEYS]))
    assert gui.schema_version == 2
    assert [d.profile for d in gui.devices] == [{"desktop": "gui"}, {"desktop": "gui"}]
    assert semantic_problems(gui) == [] and desktop_profile(gui) == "gui"
    hybrid = declare_profiles(_task(1, [LINUX_GUI, WINDOWS], [SHELL]))
    assert [d.profile for d in hybrid.devices] == [{"desktop": "hybrid"}, {"desktop": "gui"}]
    assert semantic_problems(hybrid) == [] and desktop_profile(hybrid) == "hybrid"
    assert declare_profiles(hybrid) is hybrid


def test_tasks_without_a_desktop_are_reported_as_none_and_api_desktops_as_api() -> None:
    phone = {"id": "android_0", "kind": "android"}
    assert desktop_profile(_task(2, [phone], [])) == "none"
    api = {"id": "linux_0", "kind": "linux", "profile": {}}
    assert desktop_profile(_task(2, [api], [])) == "api"
    assert declare_profiles(_task(1, [api], [])).devices[0].profile == {}


def _raw_case(task: dict[str, Any]) -> str:
    """Which case of the declaration a raw task document is, read without validating it."""
    kinds = {d["kind"] for d in task["devices"]}
    if "windows" in kinds:
        return "windows"
    desktops = [d for d in task["devices"] if d["kind"] == "linux"]
    if not desktops:
        return "none"
    if any(d.get("profile", {}).get("desktop") != "gui" for d in desktops):
        return "api"
    return "hybrid" if any(s["action"] == "run_command" for s in task["solution"]) else "gui"


def _shipped_sample() -> list[Task]:
    """A slice of the shipped ``full`` with every case the declaration meets: GUI-only Linux and
    Windows desktops, a shell on a desktop (hybrid), tool-style desktops and tasks without one."""
    from devicesworld.tasks.full import shipped_path

    wanted = {"hybrid": 2, "gui": 2, "windows": 1, "api": 2, "none": 2}
    sample = []
    with gzip.open(shipped_path(), "rt", encoding="utf-8") as fh:
        for line in fh:
            raw = json.loads(line)
            case = _raw_case(raw)
            if wanted.get(case, 0) > 0:
                wanted[case] -= 1
                sample.append(Task.model_validate(raw))
                if not any(wanted.values()):
                    break
    return sample


def _without_profiles(task: dict[str, Any]) -> dict[str, Any]:
    return {
        **{k: v for k, v in task.items() if k != "schema_version"},
        "devices": [{k: v for k, v in d.items() if k != "profile"} for d in task["devices"]],
    }


def test_declare_profiles_command_rewrites_a_suite_to_schema_2_and_changes_nothing_else(
    tmp_path: Path,
) -> None:
    """#34: the one command the lead runs over the final ``full`` (``tasks declare-profiles``; here on a
    sample of it): version 2, each desktop its narrowest profile, every other byte of a task as it was."""
    sample = _shipped_sample()
    path = tmp_path / "full-v2.jsonl.gz"
    path.write_bytes(suite_bytes(sample))
    before = path.read_bytes()
    counted = CliRunner().invoke(main, ["tasks", "declare-profiles", "--count", str(path)])
    assert counted.exit_code == 0, counted.output
    assert (
        "every desktop GUI-only" in counted.output and path.read_bytes() == before
    )  # --count writes nothing
    result = CliRunner().invoke(main, ["tasks", "declare-profiles", str(path)])
    assert result.exit_code == 0, result.output
    assert "declared (schema 2)" in result.output
    after = read_tasks(path)
    assert [t.id for t in after] == [t.id for t in sample]
    seen = set()
    for old, new in zip(sample, after, strict=True):
        assert new.schema_version == 2
        assert _without_profiles(json.loads(new.model_dump_json())) == _without_profiles(
            json.loads(old.model_dump_json())
        ), old.id
        for d_old, d_new in zip(old.devices, new.devices, strict=True):
            extra = {k: v for k, v in d_new.profile.items() if k not in d_old.profile}
            assert {k: v for k, v in d_new.profile.items() if k in d_old.profile and k != "desktop"} == {
                k: v for k, v in d_old.profile.items() if k != "desktop"
            }
            assert set(extra) <= {"desktop"}, (old.id, extra)
        assert semantic_problems(new) == [], new.id
        assert desktop_profile(new) == desktop_profile(declare_profiles(old))  # the reading kept its meaning
        if new.devices == old.devices:  # a task no profile was written into keeps its frozen hash
            assert task_hash(new) == task_hash(old), old.id
        seen.add(desktop_profile(new))
    assert {"gui", "hybrid", "none"} <= seen
    declared = path.read_bytes()
    again = CliRunner().invoke(main, ["tasks", "declare-profiles", str(path)])
    assert again.exit_code == 0 and path.read_bytes() == declared  # idempotent, byte for byte


def test_declare_profiles_command_says_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"x": 1}\n', encoding="utf-8")
    for args in (
        [str(bad)],
        [str(tmp_path / "missing.jsonl")],
        ["--count", "--suite", "no-such-suite"],
        ["--suite", "test"],
    ):
        result = CliRunner().invoke(main, ["tasks", "declare-profiles", *args])
        assert result.exit_code != 0
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert "Traceback" not in result.output


def test_every_desktop_gui_is_the_share_issue_34_counts() -> None:
    phone = {"id": "android_0", "kind": "android"}
    assert every_desktop_gui(_task(2, [phone], [])) is None
    assert every_desktop_gui(_task(2, [LINUX_GUI, WINDOWS], [KEYS])) is True
    assert every_desktop_gui(_task(1, [LINUX_GUI], [KEYS])) is False  # version 1 reads as hybrid
    api = {"id": "linux_1", "kind": "linux", "profile": {}}
    assert every_desktop_gui(_task(2, [LINUX_GUI, api], [KEYS])) is False
