"""The Windows source families (tasks/data/sources/gui-win-*.yaml): enough tasks, unique ids, GUI-only Windows solutions, phone steps as data."""

from __future__ import annotations

from collections import Counter

import pytest

from devicesworld.devices.base import get_kind
from devicesworld.devices.desktop.actions import GUI_ACTION_NAMES
from devicesworld.spec.models import Task
from devicesworld.tasks.kind_sources import TaskDraw, TaskSource, draw, sources

DEV, PHONE, PROFILE, PERSONAS = "windows_0", "android_0", r"C:\Users\user", 40


def windows_sources() -> list[TaskSource]:
    return [s for s in sources() if s.name.startswith("gui-win-")]


@pytest.fixture(scope="module")
def built() -> tuple[list[Task], list[Task]]:
    full, smoke = [], []
    for s in windows_sources():
        full += [draw(s, TaskDraw(0, i, f"win-{s.name}-{i}")) for i in range(s.full)]
        smoke += [draw(s, TaskDraw(0, i, f"smoke-{s.name}-{i}", smoke=True)) for i in range(s.smoke)]
    return full, smoke


def test_counts_and_unique_ids(built: tuple[list[Task], list[Task]]) -> None:
    gui, smoke = built
    assert len(gui) >= 60 and len(smoke) >= 10
    ids = [t.id for t in gui + smoke]
    assert len(ids) == len(set(ids))
    assert len({t.instruction for t in gui + smoke}) == len(gui + smoke), "a smoke row repeats a full row"
    assert len(windows_sources()) == 18
    cross = [t for t in gui if len(t.devices) > 1]
    assert {k for t in cross for k in t.metadata.device_kinds} >= {"windows", "linux", "android"}


def test_a_row_past_the_table_is_a_clear_error() -> None:
    source = windows_sources()[0]
    with pytest.raises(ValueError, match="rows, not a row"):
        source.build(TaskDraw(0, source.full, "x"))


def test_phone_steps_are_macros_in_the_document_and_recorded_steps_in_the_task(
    built: tuple[list[Task], list[Task]],
) -> None:
    source = next(s for s in windows_sources() if s.name == "gui-win-phone-notepad")
    doc = source.build(TaskDraw(0, 0, "x"))
    phone_items = [s for s in doc["solution"] if s["device"] == PHONE]
    assert phone_items and all("macro" in s for s in phone_items)
    task = next(t for t in built[0] if t.id.startswith("win-gui-win-phone-notepad-"))
    phone_steps = [s for s in task.solution if s.device == PHONE]
    assert [s.action for s in phone_steps] == ["open_app", "input_text", "click", "navigate_back"]
    assert isinstance(phone_steps[2].args["index"], int)


def test_the_phone_is_a_lived_persona_phone_and_the_familys_names_are_not_the_worlds(
    built: tuple[list[Task], list[Task]],
) -> None:
    """Issue #13: the phone of a Windows phone task takes a persona world (>= 40 contacts); the
    contacts the family adds on top of it must not be found by the search for another."""
    from devicesworld.worlds import build_world

    phone_tasks = [t for t in built[0] + built[1] if any(d.id == PHONE for d in t.devices)]
    assert len(phone_tasks) >= 4
    seeds = set()
    for task in phone_tasks:
        assert task.world is not None and task.world.devices == [DEV, PHONE], task.id
        assert 0 <= task.world.persona_seed < PERSONAS and task.world.size == "lived"
        seeds.add(task.world.persona_seed)
        world = build_world(task.world.persona_seed, task.world.size, task.start_time)
        assert len(world.phone.contacts) >= 40
        twin = next(op.args["phone"] for op in task.setup if op.args.get("name", "").endswith(" Abara"))
        assert [c.args.get("distractors") for c in task.evaluation.conditions] == [[twin]], task.id
        ours = [op.args["name"].casefold() for op in task.setup if op.op == "add_contact"]
        for person in world.phone.contacts:
            hay = " ".join([person.name, person.email, person.company]).casefold()
            assert not any(name in hay for name in ours), (task.id, person.name)
    assert len(seeds) > 1


def test_windows_solutions_use_gui_actions_only_and_parse(built: tuple[list[Task], list[Task]]) -> None:
    """#34: no reference solution needs cmd's ``run_command`` (the console is typed into as an app), and a
    Linux desktop of a cross-device task is a GUI desktop worked through its apps too."""
    gui, smoke = built
    kind = get_kind("windows")
    assert kind is not None
    used: Counter[str] = Counter()
    for t in gui + smoke:
        for s in t.solution:
            if s.device == DEV:
                assert s.action in GUI_ACTION_NAMES, (t.id, s.action)
                kind.actions_for({"desktop": "gui"})[s.action].parse_args(s.args)
                used[s.action] += 1
            elif s.device is not None:
                assert s.action != "run_command", (t.id, s.device)
        for c in t.evaluation.conditions:
            if c.device == DEV:
                kind.checks[c.check].parse_args(c.args)
    assert {"launch_app", "type_text", "hotkey", "click"} <= set(used) and "run_command" not in used
    for t in gui + smoke:
        for dev in t.devices:
            if dev.kind == "linux":
                assert dev.profile == {"desktop": "gui"}, t.id


def test_the_apps_a_task_opens_are_its_windows_surfaces(built: tuple[list[Task], list[Task]]) -> None:
    from devicesworld.tasks.surfaces import task_surfaces

    for task in built[0] + built[1]:
        found = {s for s in task_surfaces(task) if s.startswith("windows:")}
        declared = {a for a in task.metadata.apps if a.startswith("windows:")}
        assert found == declared, (task.id, sorted(found), sorted(declared))


def test_every_windows_pc_takes_a_persona_world_and_what_a_task_creates_is_not_the_worlds(
    built: tuple[list[Task], list[Task]],
) -> None:
    """Issue #13: each task's PC holds a lived profile; a file the solution must create (a check's
    path the setup does not write) is not a world file and not in a world folder, so a Save As
    never meets an overwrite prompt, a ``mkdir`` never an existing folder, a check never the world's file."""
    from devicesworld.devices.windows.world import template
    from devicesworld.worlds import build_world

    seeds = set()
    for task in built[0] + built[1]:
        assert task.world is not None and task.world.devices is not None, task.id
        assert task.world.devices[0] == DEV and task.world.size == "lived", task.id
        seeds.add(task.world.persona_seed)
        world = build_world(task.world.persona_seed, task.world.size, task.start_time)
        files = [p.casefold() for p in template(world).paths()]
        assert len(files) >= 50
        written = {
            str(op.args["path"]).casefold() for op in task.setup if op.device == DEV and "path" in op.args
        }
        shells = {rf"{PROFILE}\{f}".casefold() for f in ("Desktop", "Documents", "Downloads", "Pictures")}
        for c in task.evaluation.conditions:
            path = str(c.args.get("path", "")).casefold()
            if c.device != DEV or not path or path in written:
                continue
            assert path not in files, (task.id, path)
            parent = path.rsplit("\\", 1)[0]
            if parent not in shells and not any(w.startswith(parent + "\\") for w in written):
                assert not any(f.startswith(parent + "\\") for f in files), (task.id, parent)
    assert len(seeds) > 10
