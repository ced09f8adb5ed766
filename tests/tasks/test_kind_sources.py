"""The kinds' own GUI task families inside ``full`` and ``smoke``: recipe counts, stable draws,
phone steps recorded from macros, the shipped ``smoke-gui`` file, and skipping what cannot run here."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest

from devicesworld.devices.desktop.actions import HYBRID_ACTION_NAMES
from devicesworld.devices.traits import KindTraits
from devicesworld.spec.models import Task
from devicesworld.tasks import availability, full, kind_sources
from devicesworld.tasks.kind_sources import TaskDraw, TaskSource
from devicesworld.tasks.shipped import read_suite, suite_bytes
from devicesworld.tasks.suites import build_suite, load_suite

DESKTOP_KINDS = ("linux", "windows")


@cache
def smoke_gui() -> tuple[Task, ...]:
    return tuple(kind_sources.smoke_tasks())


def _desktop_kind(task: Task) -> str | None:
    """The GUI desktop's kind of a task (a GUI-profile Linux desktop or a Windows PC), if any."""
    for d in task.devices:
        if d.kind == "windows" or d.profile.get("desktop") == "gui":
            return d.kind
    return None


def test_the_full_recipe_takes_at_least_150_linux_gui_and_60_windows_tasks() -> None:
    shards = full.source_shards()
    assert shards and all(s in full.recipe() for s in shards)
    by_kind: Counter[str] = Counter()
    for shard in shards:
        source = kind_sources.source_by_name(shard.builder.split(":", 1)[1])
        task = kind_sources.draw(source, TaskDraw(full.sub_seed(full.FULL_SEED, shard.builder, 0, 0), 0, "t"))
        kind = _desktop_kind(task)
        assert kind in DESKTOP_KINDS, shard.builder
        by_kind[kind] += shard.count
    assert by_kind["linux"] >= 150 and by_kind["windows"] >= 60, by_kind
    prefixes = [s.prefix for s in full.recipe()]
    assert len(prefixes) == len(set(prefixes)), "task ids would collide"


def test_a_source_draw_is_reproducible_and_the_seed_matters() -> None:
    source = kind_sources.source_by_name("gui-lx-writer-format")
    a, b = (source.build(TaskDraw(1234, 3, "x")) for _ in range(2))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert source.build(TaskDraw(99, 3, "x"))["instruction"] != a["instruction"]


def test_at_least_30_linux_gui_tasks_work_with_the_phone_and_its_steps_are_recorded() -> None:
    phone_tasks = 0
    for source in kind_sources.sources():
        doc = source.build(TaskDraw(7, 0, "x"))
        kinds = {d["kind"] for d in doc["devices"]}
        if not source.name.startswith("gui-lx-") or "android" not in kinds:
            continue
        phone_tasks += source.full
        assert any("macro" in s for s in doc["solution"]), source.name
        task = kind_sources.finish_document(doc)
        assert all(s.device is None or s.action for s in task.solution)
        desktop = [s for s in task.solution if s.device == "linux_0"]
        phone = [s for s in task.solution if s.device == "android_0"]
        assert desktop and {s.action for s in desktop} <= set(HYBRID_ACTION_NAMES), source.name
        assert phone and any(isinstance(s.args.get("index"), int) for s in phone), source.name
    assert phone_tasks >= 30


def test_an_unknown_macro_is_a_clear_error_naming_it() -> None:
    doc = kind_sources.source_by_name("gui-lx-desktop-file-sms").build(TaskDraw(1, 0, "x"))
    doc["solution"][1] = {"device": "android_0", "macro": "teleport", "args": None}
    with pytest.raises(kind_sources.SourceError, match="no solution macro 'teleport'"):
        kind_sources.finish_document(doc)
    doc["solution"][1] = {"device": "android_9", "macro": "back", "args": None}
    with pytest.raises(kind_sources.SourceError, match="names no device"):
        kind_sources.finish_document(doc)


def test_smoke_holds_ten_of_each_desktop_and_the_shipped_file_equals_its_builder() -> None:
    assert suite_bytes(read_suite("smoke-gui")) == suite_bytes(build_suite("smoke-gui")), (
        "rebuild: devicesworld tasks build --suite smoke-gui --out DIR, copy it to src/devicesworld/tasks/data/"
    )
    smoke = load_suite("smoke")
    kinds = Counter(_desktop_kind(t) for t in smoke)
    assert kinds["linux"] >= 10 and kinds["windows"] >= 10, kinds
    assert [t.id for t in smoke[-len(smoke_gui()) :]] == [t.id for t in smoke_gui()]
    assert len({t.id for t in smoke}) == len(smoke)


def _fake_traits(kind: str) -> KindTraits:
    return KindTraits(
        unavailable=lambda profile: "the frobnicator" if profile.get("desktop") == "gui" else None
    )


def test_tasks_whose_devices_cannot_start_here_are_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(availability, "traits_of", _fake_traits)
    smoke = load_suite("smoke")
    runnable, skipped = availability.split_runnable(smoke)
    gui = [t.id for t in smoke if any(d.profile.get("desktop") == "gui" for d in t.devices)]
    assert gui and skipped == {"the frobnicator": gui}
    assert len(runnable) == len(smoke) - len(gui)


def test_the_cli_skips_them_or_with_require_system_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from devicesworld.cli import main

    monkeypatch.setattr(availability, "traits_of", _fake_traits)
    ids = "smoke-gui-lx-editor-append-1"
    monkeypatch.delenv(availability.REQUIRE_ENV, raising=False)
    result = CliRunner().invoke(main, ["tasks", "validate", "--suite", "smoke", "--task-ids", ids])
    assert result.exit_code == 2 and "need what this machine lacks: the frobnicator" in result.output
    assert "no task of the selection can run" in result.output
    monkeypatch.setenv(availability.REQUIRE_ENV, "1")
    result = CliRunner().invoke(main, ["tasks", "validate", "--suite", "smoke", "--task-ids", ids])
    assert result.exit_code == 2 and "DEVICESWORLD_REQUIRE_SYSTEM=1 makes this an error" in result.output


def test_a_source_that_cannot_be_proven_here_stops_the_full_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(availability, "traits_of", _fake_traits)
    shard = next(s for s in full.source_shards() if s.prefix == "gui-lx-editor-append")
    with pytest.raises(full.SourceUnavailable, match="the frobnicator"):
        full.build_one(shard, full.FULL_SEED, 0, full.BuildStats(seed=full.FULL_SEED))


def test_source_names_must_be_unique(monkeypatch: pytest.MonkeyPatch) -> None:
    twin = TaskSource(name="gui-lx-editor-append", build=lambda d: {}, full=1)
    real = kind_sources.load_sources()
    monkeypatch.setattr(kind_sources, "load_sources", lambda: (*real, twin))
    with pytest.raises(kind_sources.SourceError, match="repeat"):
        kind_sources.sources()
