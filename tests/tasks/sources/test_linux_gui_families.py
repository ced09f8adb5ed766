"""The Linux GUI source families (tasks/data/sources/gui-lx-*.yaml): valid, enough of them, lived homes."""

from __future__ import annotations

from collections import Counter

from devicesworld.devices.desktop.actions import GUI_ACTION_NAMES
from devicesworld.tasks.kind_sources import (
    TaskDraw,
    TaskSource,
    draw,
    finish_document,
    source_by_name,
    sources,
)
from devicesworld.tasks.semantic import semantic_problems
from devicesworld.tasks.suites import load_suite

DEV, PERSONAS = "linux_0", 40

# the GUI action space (reads aside: a solution acts) plus the terminal app's command line
GUI_ONLY = (set(GUI_ACTION_NAMES) - {"read_element", "list_elements"}) | {"run_command"}


def _linux_sources() -> list[TaskSource]:
    return [s for s in sources() if s.name.startswith("gui-lx-")]


def test_the_families_make_enough_distinct_valid_gui_tasks() -> None:
    from devicesworld.tasks import full

    tasks = []
    for s in _linux_sources():
        seed = full.sub_seed(full.FULL_SEED, f"source:{s.name}", 0, 0)
        tasks += [draw(s, TaskDraw(seed + i, i, f"dw-{s.name}-{i:04d}")) for i in range(min(s.full, 4))]
    smoke = [draw(s, TaskDraw(0, 0, f"smoke-{s.name}", smoke=True)) for s in _linux_sources()]
    assert sum(s.full for s in _linux_sources()) >= 150 and len(smoke) >= 10
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


def test_the_apps_a_gui_task_opens_are_its_surfaces() -> None:
    """Breakdowns by app see the GUI apps (``linux:writer``), not every click as ``linux:files``."""
    from devicesworld.tasks.surfaces import task_surfaces

    linux_gui = [t for t in load_suite("smoke-gui") if t.id.startswith("smoke-gui-lx-")]
    linux_gui += [t for t in load_suite("full") if t.id.startswith("dw-gui-lx-")]
    assert len(linux_gui) > 100
    for task in linux_gui:
        found = set(task_surfaces(task))
        # an app of another device is named with its kind ("android:messages")
        opened = {app if ":" in app else f"linux:{app}" for app in task.metadata.apps if app != "smarthome"}
        assert opened <= found, (task.id, sorted(found))
        if not any(s.action == "run_command" for s in task.solution):
            assert "linux:files" not in found or "linux:files" in opened, (task.id, sorted(found))


def test_full_draws_start_on_a_lived_home_and_smoke_draws_on_a_bare_one() -> None:
    """Issue #13: every ``full`` Linux GUI task names a persona world on its desktop (sharing the
    phone's when it has one), so its home holds the persona's files around the family's; the
    smoke draws keep the bare home."""
    from devicesworld.devices.linux.world import template
    from devicesworld.worlds import build_world

    seeds: set[int] = set()
    shared = 0
    for source in _linux_sources():
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
    task = finish_document(source_by_name("gui-lx-terminal-move").build(TaskDraw(3, 0, "t", smoke=True)))
    typed = next(s.args["text"] for s in task.solution if s.action == "type_text")
    assert "*" not in typed
    files = [op.args["path"].rsplit("/", 1)[1] for op in task.setup if op.op == "write_text"]
    assert files and all(f in typed and f in task.instruction for f in files)
    assert "stays where it is" in task.instruction
