"""The persona world's slice on a Windows device: rendering (pure) and apply + census on a live Wine desktop."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from email import message_from_bytes
from pathlib import Path
from typing import Any

from PIL import Image

from devicesworld.devices.base import DeviceContext, VirtualClock, get_kind
from devicesworld.devices.windows import world as ww
from devicesworld.devices.windows.device import WindowsDevice
from devicesworld.devices.windows.docs import decode_text, read_rtf
from devicesworld.worlds.generate import build_world
from devicesworld.worlds.model import DesktopFile
from tests.devices.windows.windows_harness import require_windows_stack

START = datetime(2026, 3, 2, 9)
PROFILE = r"C:\Users\user"


def _world() -> Any:
    return build_world(7, "lived", START)


def test_world_paths_map_to_the_windows_profile() -> None:
    assert ww.windows_path("Documents/Atlas/report_v1.docx", "docx") == r"Documents\Atlas\report_v1.rtf"
    assert ww.windows_path("Documents/Atlas/budget_2026.xlsx", "xlsx") == r"Documents\Atlas\budget_2026.csv"
    assert ww.windows_path("Downloads/invoice_2040.pdf", "pdf") == r"Downloads\invoice_2040.rtf"
    assert ww.windows_path("Pictures/IMG_20260001.jpg", "image") == r"Pictures\IMG_20260001.png"
    assert (
        ww.windows_path("Projects/atlas/atlas/core.py", "text") == r"Documents\Projects\atlas\atlas\core.py"
    )
    assert ww.windows_path("Mail/Inbox/x.eml", "eml") == r"Documents\Mail\Inbox\x.eml"
    assert ww.windows_path("Desktop/todo.txt", "text") == r"Desktop\todo.txt"
    assert ww.windows_path("Music/favourites.m3u", "text") is None
    assert ww.windows_path(".bash_history", "text") is None


def test_the_lived_world_renders_in_windows_formats() -> None:
    world = _world()
    made = ww.render_template(world)
    paths = made.paths()
    assert len(paths) == len(set(p.casefold() for p in paths))
    expected = sum(not f.path.startswith("Music/") for f in world.desktop.files)
    assert len(paths) == expected >= 50
    tops = {p.split("\\")[3] for p in paths}
    assert tops == {"Desktop", "Documents", "Downloads", "Pictures"}
    suffixes = {p.rsplit(".", 1)[-1] for p in paths}
    assert not suffixes & {"docx", "xlsx", "pdf", "jpg"}, suffixes
    files = {p: (data, mtime) for p, data, mtime in made.files}
    report = next(f for f in world.desktop.files if f.format == "docx")
    data, mtime = files[PROFILE + "\\" + report.path.replace("/", "\\").replace(".docx", ".rtf")]
    assert mtime == int(report.mtime.replace(tzinfo=UTC).timestamp() * 1e9)
    doc = read_rtf(data)
    texts = doc.texts()
    assert texts[0] == report.title and doc.paragraphs[0][0].bold
    assert any(t.startswith("Approved budget: $") for t in texts), texts
    assert texts[-1] == "\t".join(str(c) for c in report.rows[-1])
    sheet = next(f for f in world.desktop.files if f.format == "xlsx")
    got = list(
        csv.reader(
            io.StringIO(decode_text(files[PROFILE + "\\" + sheet.path.replace("/", "\\")[:-5] + ".csv"][0]))
        )
    )
    assert got == [[str(c) for c in r] for r in sheet.rows]
    picture = next(p for p in paths if p.endswith(".png"))
    with Image.open(io.BytesIO(files[picture][0])) as image:
        assert image.size == (160, 120)
    todo = files[PROFILE + r"\Desktop\todo.txt"][0]
    assert b"\r\n" in todo and b"\n" not in todo.replace(b"\r\n", b"")
    draft = next(p for p in paths if "\\Mail\\Drafts\\" in p)
    mail = message_from_bytes(files[draft][0])
    assert mail["X-Unsent"] == "1" and mail["To"] and mail["Date"]
    people = json.loads(decode_text(files[PROFILE + r"\Documents\contacts.json"][0]))
    assert people[0]["name"] == world.people[0].name
    assert ww.render_template(world) == made  # the same world, the same bytes
    ww.clear_cache()
    assert ww.template(world) is ww.template(world)


def test_two_world_files_rendered_to_one_name_both_stay() -> None:
    when = datetime(2026, 1, 5)
    docx = DesktopFile(path="Documents/plan.docx", format="docx", title="Plan", mtime=when)
    pdf = DesktopFile(path="Documents/plan.pdf", format="pdf", title="Plan", mtime=when)
    world = _world().model_copy(
        update={"desktop": _world().desktop.model_copy(update={"files": [docx, pdf]})}
    )
    assert ww.render_template(world).paths() == [
        PROFILE + r"\Documents\plan (pdf).rtf",
        PROFILE + r"\Documents\plan.rtf",
    ]


def test_non_ansi_text_is_saved_as_utf8_with_a_bom() -> None:
    assert ww.text_bytes("Zürich\n") == "Zürich\r\n".encode("cp1252")
    assert ww.text_bytes("Kraków 東京\n") == b"\xef\xbb\xbf" + "Kraków 東京\r\n".encode()


def _listing_getter(files: list[str]) -> Any:
    def get(name: str, args: dict[str, Any]) -> Any:
        assert name == "listing"
        base = args["path"].casefold() + "\\"
        return [f[len(base) :] for f in files if f.casefold().startswith(base)]

    return get


def test_census_and_items_count_the_profile() -> None:
    paths = ww.render_template(_world()).paths()
    get = _listing_getter([*paths, r"C:\Data\elsewhere.txt"])
    counts = ww.census(get)
    assert counts == {
        "files": 59,
        "documents": 13,
        "spreadsheets": 9,
        "pictures": 7,
        "text": 17,
        "mail": 8,
        "drafts": 2,
        "projects": 3,
        "downloads": 4,
    }
    found = ww.items(get)
    assert sorted(found) == sorted(paths)
    key = PROFILE + r"\Desktop\todo.txt"
    assert found[key] == [key, "todo.txt"]
    assert ww.census(_listing_getter([])) == dict.fromkeys(counts, 0)


def test_the_windows_kind_takes_worlds() -> None:
    kind = get_kind("windows")
    assert kind is not None and kind.world is ww.WORLD and ww.WORLD.items is not None


def test_a_live_windows_device_holds_the_world_and_the_task_file_wins(tmp_path: Path) -> None:
    require_windows_stack()
    kind = get_kind("windows")
    assert kind is not None and kind.world is not None and kind.world.items is not None
    for folder in (tmp_path, *tmp_path.parents):
        if folder.stat().st_uid == 0:
            folder.chmod(folder.stat().st_mode | 0o001)
    ctx = DeviceContext(task_id="t", clock=VirtualClock(START), workdir=tmp_path / "windows_0")
    dev = kind.factory("windows_0", {"desktop": "hybrid"}, ctx)
    assert isinstance(dev, WindowsDevice)

    def get(name: str, args: Mapping[str, Any]) -> Any:
        return dev.get(name, kind.getters[name].parse_args(args))

    world = _world()
    made = ww.template(world)
    try:
        kind.world.apply(dev, world)
        counts = kind.world.census(get)
        assert counts["files"] == len(made.files) == 59
        assert counts["documents"] == 13 and counts["pictures"] == 7 and counts["mail"] == 8
        assert sorted(kind.world.items(get)) == sorted(made.paths())
        # every profile folder is the home's: cmd sees the world's downloads and pictures
        run = dev.act(
            "run_command",
            kind.actions_for({"desktop": "hybrid"})["run_command"].parse_args(
                {"command": "dir /b Downloads Pictures"}
            ),
        )
        assert (
            run.ok and "invoice_2040.rtf" in run.data["stdout"] and "IMG_20260001.png" in run.data["stdout"]
        )
        # the state covers them (the collateral guard protects the world's files)
        assert kind.state is not None
        snap = kind.state.snapshot(dev)
        assert "files/c:/users/user/pictures/img_20260001.png" in snap
        # dated and owned as the device's own files
        ids = dev.ids
        host = dev.home / "Desktop" / "todo.txt"
        todo = next(f for f in world.desktop.files if f.path == "Desktop/todo.txt")
        assert host.stat().st_mtime_ns == int(todo.mtime.replace(tzinfo=UTC).timestamp() * 1e9)
        if ids is not None:
            assert (host.stat().st_uid, host.stat().st_gid) == ids
            assert os.stat(dev.home / "Pictures").st_uid == ids[0]
        # the task's own setup runs after the world: its file at a world path wins
        dev.setup(
            "write_text",
            kind.setup_ops["write_text"].parse_args(
                {"path": PROFILE + r"\desktop\TODO.txt", "content": "mine\n"}
            ),
        )
        assert get("text", {"path": PROFILE + r"\Desktop\todo.txt"}) == "mine\n"
        assert kind.world.census(get)["files"] == 59
    finally:
        dev.close()
