"""The GUI task families: deterministic, valid, enough of them, and what is shipped is what they build."""

from __future__ import annotations

from collections import Counter

from devicesworld import jsonl
from devicesworld.devices.linux.gui.suite import build_gui_smoke, build_gui_tasks
from devicesworld.tasks.semantic import semantic_problems
from devicesworld.tasks.shipped import data_dir
from devicesworld.tasks.suites import load_suite

GUI_ONLY = {
    "move_to",
    "click",
    "double_click",
    "right_click",
    "mouse_down",
    "mouse_up",
    "drag_to",
    "scroll",
    "type_text",
    "key_down",
    "key_up",
    "hotkey",
    "wait",
    "launch_app",
    "run_command",
}


def test_the_builders_make_enough_distinct_valid_gui_tasks() -> None:
    tasks, smoke = build_gui_tasks(), build_gui_smoke()
    assert len(tasks) >= 150 and len(smoke) >= 10
    ids = [t.id for t in [*tasks, *smoke]]
    assert len(set(ids)) == len(ids)
    assert len({t.instruction for t in tasks}) == len(tasks)
    for t in [*tasks, *smoke]:
        assert semantic_problems(t) == [], t.id
        desktop = [d for d in t.devices if d.profile.get("desktop") == "gui"]
        assert desktop, t.id
        linux_steps = [s for s in t.solution if s.device == desktop[0].id]
        assert linux_steps and {s.action for s in linux_steps} <= GUI_ONLY, t.id
    assert len(Counter(t.metadata.apps[0] for t in tasks)) >= 6


def test_the_same_seed_builds_the_same_tasks() -> None:
    assert [jsonl.model_line(t) for t in build_gui_tasks()] == [
        jsonl.model_line(t) for t in build_gui_tasks()
    ]
    assert build_gui_tasks(seed=1)[0].instruction != build_gui_tasks(seed=2)[0].instruction


def test_shipped_files_equal_the_builders() -> None:
    """The files are the builders' tasks graded by their measured features (``relabel``)."""
    from devicesworld.tasks.source_difficulty import relabel

    for name, tasks in (("gui-v1.jsonl", build_gui_tasks()), ("gui-smoke-v1.jsonl", build_gui_smoke())):
        shipped = (data_dir() / name).read_text("utf-8")
        assert shipped == "".join(jsonl.model_line(relabel(t)) for t in tasks), (
            f"rebuild {name}: python -m devicesworld.devices.linux.gui.suite --out src/devicesworld/tasks/data"
            " && python -m devicesworld.tasks.source_difficulty src/devicesworld/tasks/data/gui-*.jsonl"
        )
    assert [t.id for t in load_suite("gui-smoke")] == [t.id for t in build_gui_smoke()]


def test_the_apps_a_gui_task_opens_are_its_surfaces() -> None:
    """Breakdowns by app see the GUI apps (``linux:writer``), not every click as ``linux:files``."""
    from devicesworld.tasks.surfaces import task_surfaces

    for name in ("gui", "gui-smoke"):
        for task in load_suite(name):
            found = set(task_surfaces(task))
            opened = {f"linux:{app}" for app in task.metadata.apps if app != "smarthome"}
            assert opened <= found, (task.id, sorted(found))
            if not any(s.action == "run_command" for s in task.solution):
                assert "linux:files" not in found or "linux:files" in opened, (task.id, sorted(found))


def test_full_draws_start_on_a_lived_home_and_smoke_draws_on_a_bare_one() -> None:
    """Issue #13: every ``full`` Linux GUI task names a persona world on its desktop (sharing the
    phone's when it has one), so its home holds the persona's files around the family's; the
    smoke draws keep the bare home."""
    from devicesworld.devices.linux.gui.suite import DEV, PERSONAS, task_sources
    from devicesworld.devices.linux.world import template
    from devicesworld.devices.traits import TaskDraw
    from devicesworld.tasks.kind_sources import draw
    from devicesworld.worlds import build_world

    seeds: set[int] = set()
    shared = 0
    for source in task_sources():
        full = draw(source, TaskDraw(seed=7, index=0, task_id=f"dw-{source.name}-0000"))
        smoke = draw(source, TaskDraw(seed=0, index=0, task_id="s", smoke=True))
        assert full.world is not None and full.world.size == "lived", source.name
        assert full.world.devices is not None
        assert full.world.devices[0] == DEV and len(set(full.world.devices)) == len(full.world.devices)
        assert 0 <= full.world.persona_seed < PERSONAS
        shared += len(full.world.devices) > 1
        seeds.add(full.world.persona_seed)
        assert smoke.world is None or DEV not in (smoke.world.devices or []), source.name
    assert shared >= 5 and len(seeds) > 5
    home = template(build_world(min(seeds), "lived", full.start_time))
    assert len(home.files) >= 30


def test_the_terminal_move_names_its_files_so_the_worlds_downloads_stay() -> None:
    """With the persona's Downloads around them, a ``*.csv`` glob would move the persona's own
    exports too: the instruction and the solution name the family's files."""
    import random

    from devicesworld.devices.linux.gui.suite import terminal_typed

    task = terminal_typed(random.Random(3), "t")
    typed = next(s.args["text"] for s in task.solution if s.action == "type_text")
    assert "*" not in typed
    files = [op.args["path"].rsplit("/", 1)[1] for op in task.setup if op.op == "write_text"]
    assert files and all(f in typed and f in task.instruction for f in files)
    assert "stays where it is" in task.instruction
