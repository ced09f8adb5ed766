"""A pooled desktop keeps LibreOffice warm: a reset that opens Writer or Calc on it is the reset a cold start gives.

Compared between a cold start and a warm spare: the windows (titles, boxes, focus), every
element of the document's window (roles, names, states, boxes: toolbars' Undo/Save state,
the status bar's modified field, the document's text), the home's files, and what the next
new document is called. A spare warmed for the other module, or for a task that opens no
LibreOffice, stops it: the task sees what a cold start shows.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import DeviceContext, VirtualClock, get_kind
from devicesworld.devices.desktop.elements import element_list
from devicesworld.devices.desktop.pool import ENV_SIZE
from devicesworld.devices.linux.device import LinuxDevice
from devicesworld.devices.linux.gui import pool, warm_office
from tests.devices.desktop.desktop_harness import require_gui_stack

GUI = {"desktop": "gui"}
FILES: dict[str, tuple[str, dict[str, Any]]] = {
    "writer": ("write_docx", {"path": "~/memo.docx", "paragraphs": ["Hello from the memo"]}),
    "calc": ("write_xlsx", {"path": "~/b.xlsx", "sheets": {"S": [["a", 1], ["b", 2]]}}),
}


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> Iterator[pool.SpareKey]:
    require_gui_stack()
    found = pool.spare_key("linux-0", 1280, 800)
    if found is None:
        pytest.skip("GUI desktops are pooled only under a root harness with a sized home")
    monkeypatch.setenv(ENV_SIZE, "1")
    pool.POOL.close_all()
    yield found
    pool.POOL.close_all()
    warm_office.note(found, None)


def _open(root: Path) -> LinuxDevice:
    kind = get_kind("linux")
    assert kind is not None
    root.mkdir(parents=True, exist_ok=True)
    for folder in (root, *root.parents):
        if folder.stat().st_uid == os.geteuid():
            folder.chmod(folder.stat().st_mode | 0o001)
    ctx = DeviceContext(task_id="t", clock=VirtualClock(datetime(2026, 3, 2, 9)), workdir=root / "linux_0")
    dev = kind.factory("linux_0", GUI, ctx)
    assert isinstance(dev, LinuxDevice)
    return dev


def _setup(dev: LinuxDevice, op: str, args: dict[str, Any]) -> None:
    kind = get_kind("linux")
    assert kind is not None
    dev.setup(op, kind.setup_ops[op].parse_args(args))


def _states(e: dict[str, Any]) -> tuple[str, ...]:
    """An element's states, but a root pane's ``focused``: Calc's cold start leaves it set on the window's
    root pane, a document swapped into the warm window does not (the keyboard focus itself — the sheet
    and its cell A1, Writer's document text — is the same, and is compared)."""
    states = tuple(e.get("states") or ())
    return tuple(x for x in states if x != "focused") if e.get("role") == "root pane" else states


def _state(dev: LinuxDevice, app: str | None) -> dict[str, Any]:
    """What the agent sees after the reset, and what the next new document is called."""
    obs = dev.observe()
    windows = [(w["title"], w["app"], tuple(w["box"]), w["focused"]) for w in obs["windows"]]
    focused = obs["focused_window"]["title"] if obs["focused_window"] else None
    assert dev.gui is not None
    # the element list as observe() makes it, from a walk with time enough on a loaded machine (the
    # observation's own 4 s budget may cut either side: a speed matter, not a state)
    b = dev.gui.session.budget
    tree = dev.gui.session.desktop.tree(
        budget_s=120, max_nodes=b.max_nodes, max_children=b.max_children, max_cells=b.max_cells, fresh=True
    )
    assert "time budget" not in (tree.incomplete or "")
    listed = element_list(tree.nodes)
    elements = [
        (e.get("role"), e.get("name"), e.get("text"), _states(e), tuple(e.get("box") or ()))
        for e in listed
        if e.get("window") == focused
    ]
    home = dev.sandbox.paths.home
    files = sorted(
        str(p.relative_to(home))
        for p in home.rglob("*")
        if "Drive" not in p.parts and p.name != ".lock" and ".cache" not in p.parts
    )
    new_doc = None
    if app is not None:
        kind = get_kind("linux")
        assert kind is not None
        r = dev.act("hotkey", kind.actions_for(GUI)["hotkey"].parse_args({"keys": ["ctrl", "n"]}))
        assert r.ok, r
        assert dev.gui is not None
        win = dev.gui.session.desktop.wait_window(lambda w: w.mapped and "Untitled" in w.title, 120)
        new_doc = win.title if win is not None else None
    order = [(e.get("role"), e.get("window") or e.get("app")) for e in listed]
    return {"windows": windows, "elements": elements, "order": order, "files": files, "new_document": new_doc}


def _reset(root: Path, app: str | None, opens: str | None) -> tuple[dict[str, Any], bool]:
    """A device (pooled when a spare is ready) whose setup writes ``app``'s file and opens it with ``opens``."""
    dev = _open(root)
    try:
        assert dev.gui is not None
        warm = dev.gui.ready is not None and dev.gui.ready.warm is not None
        if app is not None:
            op, args = FILES[app]
            _setup(dev, op, args)
        if opens is not None:
            path = FILES[opens][1]["path"] if opens in FILES else None
            _setup(dev, "open_app", {"app": opens, **({"path": path} if path else {})})
        return _state(dev, opens if opens in FILES else None), warm
    finally:
        dev.close()


def _fresh_spare(key: pool.SpareKey) -> None:
    """Drop the ready spares (started before the pool learnt the office) and wait for a new one."""
    pool.POOL.close_all()
    assert pool.POOL.take(key, pool.make_ready) is None  # nothing ready: this starts one
    assert pool.POOL.wait_ready(key, 300), pool.POOL.failure(key)


@pytest.mark.parametrize("app", ["writer", "calc"])
def test_a_warm_reset_is_the_reset_a_cold_start_gives(tmp_path: Path, key: pool.SpareKey, app: str) -> None:
    cold, was_warm = _reset(tmp_path / "cold", app, app)  # no spare yet: a cold start
    assert not was_warm
    assert warm_office.wanted(key) == app  # the pool learnt which office to keep warm
    _fresh_spare(key)
    warm, was_warm = _reset(tmp_path / "warm", app, app)
    assert was_warm  # the spare had LibreOffice running, and the task's file was swapped into it
    assert warm["windows"] == cold["windows"]
    assert len(cold["windows"]) == 1 and FILES[app][1]["path"][2:] in cold["windows"][0][0]
    diff = [(c, w) for c, w in zip(cold["elements"], warm["elements"], strict=False) if c != w]
    assert warm["elements"] == cold["elements"], (len(cold["elements"]), len(warm["elements"]), diff[:8])
    assert warm["order"] == cold["order"]  # the panel's and the icons' elements too, in the same order
    assert warm["files"] == cold["files"]
    assert warm["new_document"] == cold["new_document"] == f"Untitled 1 - LibreOffice {app.title()}"


def test_a_warm_office_the_task_does_not_take_is_stopped(tmp_path: Path, key: pool.SpareKey) -> None:
    warm_office.note(key, "writer")
    plain, _ = _reset(tmp_path / "plain", None, None)  # cold; the pool starts a Writer-warm spare
    assert warm_office.wanted(key) is None  # this task opened no office: the next spares keep none
    warm_office.note(key, "writer")
    _fresh_spare(key)
    unused, was_warm = _reset(tmp_path / "unused", None, None)
    assert was_warm
    assert unused == plain  # no LibreOffice window, and nothing it left in the home
    warm_office.note(key, "writer")
    _fresh_spare(key)
    calc, was_warm = _reset(tmp_path / "calc", "calc", "calc")  # Writer is warm, the task opens Calc
    assert was_warm
    assert [w[0] for w in calc["windows"]] == ["b.xlsx - LibreOffice Calc"]
    assert calc["new_document"] == "Untitled 1 - LibreOffice Calc"


def test_the_pool_learns_which_office_a_key_keeps_warm() -> None:
    key = ("test-key", 1)
    warm_office.note(key, "calc")
    assert warm_office.wanted(key) == "calc"
    warm_office.note(key, "text_editor")  # not an office: nothing kept warm
    assert warm_office.wanted(key) is None
    warm_office.note(key, None)
    assert warm_office.wanted(key) is None


EDITS: dict[str, tuple[list[tuple[str, dict[str, Any]]], Any]] = {
    "calc": (
        [
            ("hotkey", {"keys": ["ctrl", "End"]}),
            ("hotkey", {"keys": ["Down"]}),
            ("hotkey", {"keys": ["Home"]}),
            ("type_text", {"text": "c\t3\n"}),
        ],
        [["a", 1], ["b", 2], ["c", 3]],
    ),
    "writer": (
        [("hotkey", {"keys": ["ctrl", "End"]}), ("type_text", {"text": "!"})],
        ["Hello from the memo!"],
    ),
}
"""Per app: the edit a test replays on the swapped-in file, and what the saved file then reads."""


@pytest.mark.parametrize("app", ["calc", "writer"])
def test_a_file_swapped_in_right_after_the_spare_is_taken_saves_without_a_prompt(
    tmp_path: Path, key: pool.SpareKey, app: str
) -> None:
    """The task's clock is written when a device takes the spare, and its file is handed to the warm
    office a moment later: LibreOffice must already be on the task's clock, or it saves the file
    only after asking whether to overwrite a file "changed by others" (the save then never lands).
    The window shows the task's file, and an edit saves to the file's own path (Writer and Calc)."""
    warm_office.note(key, app)
    _fresh_spare(key)
    dev = _open(tmp_path / "warm")  # takes the spare: its clock is written now
    try:
        assert dev.gui is not None and dev.gui.ready is not None and dev.gui.ready.warm is not None
        desk = dev.gui.session.desktop
        op, args = FILES[app]
        _setup(dev, op, args)
        _setup(dev, "open_app", {"app": app, "path": args["path"]})
        assert dev.gui.session.warm is None  # taken by the launch
        name = args["path"][2:]
        assert [w.title for w in desk.windows() if w.mapped] == [f"{name} - LibreOffice {app.title()}"]
        kind = get_kind("linux")
        assert kind is not None
        actions = kind.actions_for(GUI)
        steps, saved = EDITS[app]
        for step, step_args in (*steps, ("hotkey", {"keys": ["ctrl", "s"]})):
            assert dev.act(step, actions[step].parse_args(step_args)).ok
        titles = [w.title for w in desk.windows() if w.mapped]
        assert not [t for t in titles if "Changed by Others" in t], titles
        getter = "xlsx" if app == "calc" else "docx"
        got = dev.get(getter, kind.getters[getter].parse_args({"path": args["path"]}))
        assert got == saved, got
    finally:
        dev.close()
