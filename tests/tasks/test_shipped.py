"""Shipped suites equal their builders, and the index finds every shipped task."""

from __future__ import annotations

import pytest

from devicesworld.tasks import shipped
from devicesworld.tasks.suites import build_suite, load_suite

REBUILD = (
    "rebuild with `devicesworld tasks build --suite {name} --out /tmp/x`, copy the file into "
    "src/devicesworld/tasks/data/ and run `python -m devicesworld.tasks.shipped`"
)


@pytest.mark.parametrize("name", ["bmoca"])  # smoke: tests/tasks/test_smoke_suite.py
def test_a_shipped_suite_is_byte_for_byte_what_its_builders_make(name: str) -> None:
    built = shipped.suite_bytes(build_suite(name))
    assert built == shipped.shipped_path(name).read_bytes(), REBUILD.format(name=name)


def test_the_index_matches_the_shipped_files() -> None:
    assert shipped.index_bytes(shipped.build_index()) == shipped.index_path().read_bytes(), (
        "stale task index: run `python -m devicesworld.tasks.shipped`"
    )


def test_the_index_finds_each_task_by_reading_one_line() -> None:
    rows = shipped.index_rows()
    assert {r["suite"] for r in rows} == {"smoke", "bmoca", "full", "full-v1"}
    for name in ("smoke", "bmoca"):
        tasks = load_suite(name)
        assert [r["id"] for r in shipped.index_rows(name)] == [t.id for t in tasks]
        middle = tasks[len(tasks) // 2]
        assert shipped.find_indexed(middle.id) == middle
    test_rows = shipped.index_rows("test")
    assert len(test_rows) == 200 and all(r["split"] == "test" for r in test_rows)
    assert shipped.find_indexed("no-such-task") is None


def test_loading_a_suite_runs_no_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    import devicesworld.tasks.suites as suites
    from devicesworld.env.controller import CrossDeviceEnv

    def refuse(self: object) -> None:
        raise AssertionError("a device setup ran while loading a suite")

    monkeypatch.setattr(CrossDeviceEnv, "reset", refuse)
    monkeypatch.setattr(suites, "_BUILT", {})
    assert len(load_suite("smoke")) == 140 and len(load_suite("bmoca")) == 131
