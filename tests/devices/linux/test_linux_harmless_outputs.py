"""Outputs a person expects beside the asked one are no damage (issue 32): an editor's backup,
lock and swap files, an archive extracted where it lies, and what a task declares harmless."""

from __future__ import annotations

from devicesworld.devices.linux.state import STATE
from devicesworld.verify.collateral import Change, harmless
from tests.devices.linux.linux_harness import require_bwrap
from tests.verify.test_collateral import L0, _env, _guard, _step, _task

NOTE = {
    "id": "note",
    "device": L0,
    "check": "file_contains",
    "args": {"path": "~/Documents/notes.txt", "contains": ["18:15"]},
}
SETUP = [
    {"device": L0, "op": "write_text", "args": {"path": "~/Documents/notes.txt", "content": "Pickup:\n"}},
    {
        "device": L0,
        "op": "write_archive",
        "args": {
            "path": "~/Downloads/site.zip",
            "files": {"site/index.html": "<h1>Hi</h1>", "readme.txt": "x"},
        },
    },
]


def test_editor_leftovers_are_harmless_and_other_files_are_not() -> None:
    for path in (
        "files/Documents/notes.txt~",
        "files/Documents/.#notes.txt",
        "files/Documents/#notes.txt#",
        "files/Documents/.notes.txt.swp",
        "files/Documents/.~lock.budget.xlsx#",
        "files/Documents/lu2a8kq1.tmp",  # LibreOffice, in the middle of saving beside it
        "files/lu93jd0x.tmp",
        "files/.local/share/recently-used.xbel",
        "extracted/Downloads/site/index.html",
    ):
        assert harmless(STATE, Change(path, "added")), path
    for path in (
        "files/Documents/notes.txt.bak",
        "files/Documents/notes2.txt",
        "files/Documents/swap.txt",
        "files/Documents/lunch.txt",
    ):
        assert not harmless(STATE, Change(path, "added")), path


def test_an_archive_extracted_where_it_lies_is_no_damage_but_an_edited_copy_is() -> None:
    require_bwrap()
    with _env(_task([L0], SETUP, [NOTE])) as env:
        _step(env, L0, "write_file", path="~/Documents/notes.txt", content="Pickup: 18:15\n")
        _step(env, L0, "run_command", command="cd ~/Downloads && unzip -q site.zip")
        verdict = env.evaluate()
        assert verdict.success, _guard(verdict, L0)[1]
        _step(env, L0, "write_file", path="~/Downloads/readme.txt", content="changed")
        ok, detail = _guard(env.evaluate(), L0)
    assert not ok and "Downloads/readme.txt" in detail


def test_a_backup_file_beside_the_note_passes_and_the_task_may_declare_its_own() -> None:
    require_bwrap()
    with _env(_task([L0], SETUP, [NOTE], harmless={L0: ["files/Documents/*.orig"]})) as env:
        _step(env, L0, "write_file", path="~/Documents/notes.txt~", content="Pickup:\n")
        _step(env, L0, "write_file", path="~/Documents/notes.txt.orig", content="Pickup:\n")
        _step(env, L0, "write_file", path="~/Documents/notes.txt", content="Pickup: 18:15\n")
        verdict = env.evaluate()
        assert verdict.success, _guard(verdict, L0)[1]
        _step(env, L0, "write_file", path="~/Documents/notes.bak", content="Pickup:\n")
        ok, detail = _guard(env.evaluate(), L0)
    assert not ok and "notes.bak" in detail
