"""The shipped data files: explicit ids, and phone steps by meaning (no internal element ids, no indexes)."""

from __future__ import annotations

from typing import Any

from devicesworld.devices.android.macros import ELEMENTS
from devicesworld.tasks.handwritten.suites import SUITE_FILES, data_dir, suite_drafts
from devicesworld.tasks.handwritten.yamlfile import load_file, plain
from devicesworld.tasks.shipped import read_suite
from devicesworld.tasks.suites import load_suite


def _walk(value: Any) -> list[Any]:
    out = [value]
    if isinstance(value, dict):
        for v in value.values():
            out += _walk(v)
    elif isinstance(value, list):
        for v in value:
            out += _walk(v)
    return out


def test_task_files_name_no_element_id_and_no_element_index() -> None:
    for path in sorted(data_dir().glob("*.yaml")):
        nodes = _walk(plain(load_file(path)))
        maps = [n for n in nodes if isinstance(n, dict)]
        assert not [m for m in maps if "rid" in m or "target" in m], path.name
        assert not [m for m in maps if "index" in m], path.name  # element numbers are the compiler's job
        # every element a phone step names is one of the kind's plain-English names
        pressed = [m["press"] for m in maps if "press" in m] + [m["into"] for m in maps if "into" in m]
        assert all((p["name"] if isinstance(p, dict) else p) in ELEMENTS for p in pressed), path.name


def test_every_shipped_handwritten_task_has_its_id_written_in_a_data_file() -> None:
    for name, files in SUITE_FILES.items():
        written = [
            n["id"]
            for f in files
            for n in _walk(plain(load_file(data_dir() / f)))
            if isinstance(n, dict) and "instruction" in n
        ]
        # the suite is its handwritten file (read_suite) and, for smoke, the kinds' GUI part after it
        assert written == [t.id for t in read_suite(name)]
        assert [t.id for t in load_suite(name)][: len(written)] == written
        assert [d.task.id for d in suite_drafts(name)] == written
