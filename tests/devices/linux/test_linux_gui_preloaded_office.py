"""A pooled desktop pre-opens a replayed task's document: its reset is the reset a cold start gives.

Once a key's tasks opened the same document twice in a row, a spare writes that document into
its home and starts LibreOffice on it (:mod:`devicesworld.devices.linux.gui.warm_office`). Checked
here: an agent's edit and save work on the adopted window (no "changed by others" prompt); the
next reset shows the pristine document, compared with a cold start (windows, boxes, focus, every
element of the window with its states — the modified flag, Undo — the home's files, the next new
document's name); and a reset into another task's document shows that document as a cold start
does, with nothing of the pre-opened one left (no stray file, no lock, no "in use" dialog).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import get_kind
from devicesworld.devices.linux.gui import pool, warm_office
from devicesworld.devices.safefs import RootedPath, SafeRoot
from tests.devices.linux.test_linux_gui_warm_office import EDITS, _fresh_spare, _open, _setup, _state, key

__all__ = ["key"]  # the pooled-desktop fixture, shared with the warm-office tests

MEMO = {"path": "~/memo.docx", "paragraphs": ["Hello from the memo"]}
SHEET = {"path": "~/Documents/b.xlsx", "sheets": {"S": [["a", 1], ["b", 2]]}}
FILES: dict[str, tuple[str, dict[str, Any]]] = {"writer": ("write_docx", MEMO), "calc": ("write_xlsx", SHEET)}


def _reset(root: Path, app: str, op: str, args: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """A device whose setup writes a file and opens it in ``app``: its state, and whether the spare
    had pre-opened that file and the launch adopted it."""
    dev = _open(root)
    try:
        assert dev.gui is not None
        _setup(dev, op, args)
        pre = dev.gui.ready.preloaded if dev.gui.ready is not None else None
        _setup(dev, "open_app", {"app": app, "path": args["path"]})
        adopted = pre is not None and dev.gui.ready is not None and dev.gui.ready.preloaded is pre
        return _state(dev, app), adopted
    finally:
        dev.close()


def _learn(tmp_path: Path, key: pool.SpareKey, app: str) -> dict[str, Any]:
    """Two cold resets of the task (the pool learns its document), then a spare that pre-opened it."""
    op, args = FILES[app]
    cold, adopted = _reset(tmp_path / "cold", app, op, args)
    assert not adopted
    _reset(tmp_path / "cold2", app, op, args)
    assert warm_office.wanted_document(key) is not None
    _fresh_spare(key)
    return cold


@pytest.mark.parametrize("app", ["writer", "calc"])
def test_a_reset_after_an_edit_gives_the_pristine_document_as_a_cold_start(
    tmp_path: Path, key: pool.SpareKey, app: str
) -> None:
    cold = _learn(tmp_path, key, app)
    op, args = FILES[app]
    dev = _open(tmp_path / "edited")  # the agent's episode: the document edited and saved
    try:
        assert dev.gui is not None and dev.gui.ready is not None
        assert dev.gui.ready.preloaded is not None  # the spare pre-opened the task's document
        _setup(dev, op, args)
        _setup(dev, "open_app", {"app": app, "path": args["path"]})
        assert dev.gui.session.warm is None  # taken by the launch
        kind = get_kind("linux")
        assert kind is not None
        actions = kind.actions_for({"desktop": "gui"})
        steps, saved = EDITS[app]
        for step, step_args in (*steps, ("hotkey", {"keys": ["ctrl", "s"]})):
            assert dev.act(step, actions[step].parse_args(step_args)).ok
        desk = dev.gui.session.desktop
        titles = [w.title for w in desk.windows() if w.mapped]
        assert titles == [f"{os.path.basename(args['path'])} - LibreOffice {app.title()}"], (
            titles
        )  # no prompt
        getter = "xlsx" if app == "calc" else "docx"
        assert dev.get(getter, kind.getters[getter].parse_args({"path": args["path"]})) == saved
    finally:
        dev.close()
    _fresh_spare(key)
    warm, adopted = _reset(tmp_path / "again", app, op, args)
    assert adopted
    assert warm["windows"] == cold["windows"]
    diff = [(c, w) for c, w in zip(cold["elements"], warm["elements"], strict=False) if c != w]
    assert warm["elements"] == cold["elements"], (len(cold["elements"]), len(warm["elements"]), diff[:8])
    assert warm["order"] == cold["order"]
    assert warm["files"] == cold["files"]
    assert warm["new_document"] == cold["new_document"] == f"Untitled 1 - LibreOffice {app.title()}"


@pytest.mark.parametrize("path", ["~/memo.docx", "~/Documents/other.docx"], ids=["same", "other"])
def test_a_reset_into_another_document_shows_that_document(
    tmp_path: Path, key: pool.SpareKey, path: str
) -> None:
    _learn(tmp_path, key, "writer")  # the spare pre-opened ~/memo.docx "Hello from the memo"
    other = {"path": path, "paragraphs": ["Another task's letter"]}
    warm, adopted = _reset(tmp_path / "o", "writer", "write_docx", other)
    assert not adopted  # another document: the pre-opened office was stopped, the launch a cold one
    pool.POOL.close_all()
    cold, _ = _reset(tmp_path / "c", "writer", "write_docx", other)
    assert warm["windows"] == cold["windows"]
    assert [w[0] for w in warm["windows"]] == [f"{os.path.basename(path)} - LibreOffice Writer"]
    texts = [e[2] for e in warm["elements"] if e[0] == "paragraph"]
    assert "Another task's letter" in texts and "Hello from the memo" not in texts
    assert warm["elements"] == cold["elements"]
    assert warm["files"] == cold["files"]  # no stray memo.docx, no lock file of it
    assert warm["new_document"] == cold["new_document"]


def test_spares_pre_open_a_document_only_once_it_repeats() -> None:
    key = ("test-key", 2)
    memo = warm_office.Document("/home/user/memo.docx", b"PK one", 0o644, 1)
    try:
        warm_office.note(key, "writer", memo)
        assert warm_office.wanted(key) == "writer"
        assert warm_office.wanted_document(key) is None  # seen once: a run of varied tasks guesses nothing
        later = warm_office.Document(memo.path, memo.data, memo.mode, 2)  # rewritten: another date
        warm_office.note(key, "writer", later)
        assert warm_office.wanted_document(key) == later  # the same file again: pre-open it (its last date)
        warm_office.note(key, "writer", warm_office.Document(memo.path, b"PK two", 0o644, 3))
        assert warm_office.wanted_document(key) is None  # other bytes: back to the empty document
        warm_office.note(key, "calc", memo)
        warm_office.note(key, "writer", memo)
        assert warm_office.wanted_document(key) is None  # another app in between breaks the run
        warm_office.note(key, "writer", memo)
        assert warm_office.wanted_document(key) == memo
        warm_office.note(key, None)
        assert warm_office.wanted(key) is None and warm_office.wanted_document(key) is None
    finally:
        warm_office.note(key, None)


def test_a_preloaded_file_is_adopted_only_as_the_setup_wrote_it(tmp_path: Path) -> None:
    """The spare's copy carries the learnt date; the setup's new file of the same bytes is told apart
    from it, and takes its date only when that is the date the setup gave it, give or take a second."""
    home = SafeRoot(tmp_path, "/home/user")
    s = 1_000_000_000
    memo = warm_office.Document("/home/user/memo.docx", b"PK memo", 0o640, 1_700_000_000 * s)
    pre = warm_office.preload(home, memo)
    assert pre is not None
    st = (tmp_path / "memo.docx").stat()
    assert (st.st_mtime_ns, st.st_mode & 0o777) == (memo.mtime_ns, 0o640)
    place = RootedPath(home, "memo.docx")
    assert not warm_office.rewritten(place, pre)  # the setup did not write it: the spare's own file
    assert warm_office.preload(home, memo) is None  # something is there already
    home.write_bytes("memo.docx", memo.data)
    assert warm_office.rewritten(place, pre)
    warm_office.take_preloaded(place, pre, -3600 * s)  # the task's clock an hour behind the host's
    assert (tmp_path / "memo.docx").stat().st_mtime_ns == memo.mtime_ns + 3600 * s
    later = warm_office.Document(memo.path, memo.data, memo.mode, memo.mtime_ns + 2 * s)
    assert warm_office.dates_agree(later, memo)  # one setup a little slower than the other
    world = warm_office.Document(memo.path, memo.data, memo.mode, memo.mtime_ns + 600 * s)
    assert not warm_office.dates_agree(world, memo)  # a file dated by its task: would move
    deep = warm_office.Document("/home/user/Documents/q3/x.xlsx", b"PK sheet", 0o644, 0)
    made = warm_office.preload(home, deep)  # its folders made as a setup's write makes them
    assert made is not None and [f for f, _ in made.folders] == ["Documents", "Documents/q3"]
    assert (tmp_path / "Documents/q3/x.xlsx").read_bytes() == b"PK sheet"
    home.write_bytes("Documents/notes.txt", b"the setup's own file")
    warm_office.remove_preloaded(home, made)  # another task: the spare's file and empty folder go
    assert not (tmp_path / "Documents/q3").exists()
    assert (tmp_path / "Documents/notes.txt").exists()  # a folder the setup wrote in stays
    warm_office.remove_preloaded(home, pre)
    assert (tmp_path / "memo.docx").read_bytes() == memo.data  # the setup's own file is never removed
