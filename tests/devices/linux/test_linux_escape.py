"""Every harness-side file action, getter and setup op of a desktop, against links planted to the host.

The agent controls its home: it can make any name a link to a host file (existing or
not, directly or through ``/proc/self/root``) or make a folder on the way a link to a
host folder. Whatever the harness then does for it must leave the host untouched and
name no host path.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import DeviceError
from devicesworld.devices.linux.sites import presets
from tests.devices.linux.linux_harness import Desktop, require_bwrap, require_chromium

ATTACKS = ["file", "dangling", "proc", "parent"]


class Trap:
    """A host folder outside the device with a secret, and a way to plant links to it."""

    def __init__(self, desk: Desktop, tmp_path: Path) -> None:
        self.desk = desk
        self.outside = tmp_path / "host-secrets"
        self.outside.mkdir()
        (self.outside / "secret.txt").write_text("SECRET")
        self.home = desk.device.sandbox.paths.home

    def plant(self, attack: str, rel: str) -> str:
        """Make ``~/rel`` (or the folder above it) a link out; return the agent's path to use."""
        target = self.home / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if attack == "parent":
            folder = target.parent if target.parent != self.home else self.home / "sub"
            if folder.exists():
                folder.rmdir()
            os.symlink(self.outside, folder)
            return f"~/{folder.relative_to(self.home)}/{target.name}"
        dest = {
            "file": self.outside / "secret.txt",
            "dangling": self.outside / "created-by-harness",
            "proc": Path(f"/proc/self/root{self.outside}/secret.txt"),
        }[attack]
        os.symlink(dest, target)
        return f"~/{rel}"

    def assert_untouched(self, *messages: str) -> None:
        assert sorted(p.name for p in self.outside.iterdir()) == ["secret.txt"]
        assert (self.outside / "secret.txt").read_text() == "SECRET"
        for m in messages:
            assert str(self.outside) not in m and "SECRET" not in m


@pytest.fixture
def trap(desk: Desktop, tmp_path: Path) -> Trap:
    return Trap(desk, tmp_path)


# ---------------------------------------------------------------------------- actions
WRITES: list[tuple[str, str, dict[str, Any]]] = [
    ("write_file", "notes/a.txt", {"content": "PWNED"}),
    ("write_file", "notes/b.txt", {"content": "PWNED", "append": True}),
    ("write_document", "docs/t.xlsx", {"rows": [["PWNED"]]}),
    ("write_document", "docs/t.docx", {"paragraphs": ["PWNED"]}),
    ("write_document", "docs/t.pdf", {"paragraphs": ["PWNED"]}),
    ("write_document", "docs/t.csv", {"rows": [["PWNED"]]}),
    ("write_document", "docs/t.json", {"data": {"x": "PWNED"}}),
]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize(("action", "rel", "args"), WRITES, ids=[f"{w[0]}-{w[1]}" for w in WRITES])
def test_write_actions(trap: Trap, attack: str, action: str, rel: str, args: dict[str, Any]) -> None:
    path = trap.plant(attack, rel)
    result = trap.desk.act(action, path=path, **args)
    trap.assert_untouched(result.message)
    if not result.ok:
        assert result.error_code == "PERMISSION_DENIED", result.message


@pytest.mark.parametrize("attack", ATTACKS)
def test_email_draft(trap: Trap, attack: str) -> None:
    trap.plant(attack, "Mail/Drafts/hello.eml")
    result = trap.desk.act("write_email_draft", to=["a@b.c"], subject="s", body="PWNED", filename="hello.eml")
    trap.assert_untouched(result.message)


READS: list[tuple[str, str]] = [
    ("read_file", "r/secret.txt"),
    ("read_document", "r/secret.txt"),
    ("read_document", "r/secret.json"),
    ("read_document", "r/secret.xlsx"),
    ("list_dir", "r/folder"),
]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize(("action", "rel"), READS, ids=[f"{r[0]}-{r[1]}" for r in READS])
def test_read_actions(trap: Trap, attack: str, action: str, rel: str) -> None:
    path = trap.plant(attack, rel)
    result = trap.desk.act(action, path=path)
    assert not result.ok and result.error_code in ("PERMISSION_DENIED", "NOT_FOUND"), result
    trap.assert_untouched(result.message, str(result.data))


@pytest.mark.parametrize("attack", ATTACKS)
def test_delete_removes_the_link_never_its_target(trap: Trap, attack: str) -> None:
    path = trap.plant(attack, "d/victim.txt")
    result = trap.desk.act("delete_file", path=path, recursive=True)
    trap.assert_untouched(result.message)
    if attack == "parent":  # the link is on the way: refused
        assert not result.ok and result.error_code == "PERMISSION_DENIED"
    else:
        assert result.ok and not os.path.lexists(trap.home / "d" / "victim.txt")


def test_deleting_a_linked_folder_keeps_the_host_folder(trap: Trap) -> None:
    os.symlink(trap.outside, trap.home / "linked")
    assert trap.desk.act("delete_file", path="~/linked", recursive=True).ok
    trap.assert_untouched()


def test_a_hard_link_to_a_host_file_is_never_written_through(trap: Trap) -> None:
    try:
        os.link(trap.outside / "secret.txt", trap.home / "hard.txt")
    except OSError as exc:  # a sized home is its own filesystem: no such link can exist
        assert exc.errno == errno.EXDEV and trap.desk.device.sandbox.home_mount is not None
        return
    appended = trap.desk.act("write_file", path="~/hard.txt", content="PWNED", append=True)
    assert not appended.ok and appended.error_code == "PERMISSION_DENIED"
    assert trap.desk.act("write_file", path="~/hard.txt", content="mine").ok
    trap.assert_untouched()
    assert (trap.home / "hard.txt").read_text() == "mine"


# ---------------------------------------------------------------------------- screenshots
@pytest.fixture(params=["builtin", "chromium"])
def web(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Desktop]:
    require_bwrap()
    if request.param == "chromium":
        require_chromium()
    d = Desktop(tmp_path, profile={"browser": request.param})
    d.setup("add_site", site=presets.site("shop.test", "Shop", [presets.feedback_page()]).model_dump())
    yield d
    d.close()


@pytest.mark.parametrize("attack", ATTACKS)
def test_screenshots_never_land_on_a_link(web: Desktop, tmp_path: Path, attack: str) -> None:
    trap = Trap(web, tmp_path)
    trap.plant(attack, "Pictures/Screenshots/screenshot-001.png")
    web.ok("browser_open", url="shop.test")
    result = web.act("browser_screenshot")
    trap.assert_untouched(result.message)
    if result.ok:
        shot = trap.home / str(result.data["path"]).removeprefix("~/")
        assert not shot.is_symlink() and shot.read_bytes()[:4] == b"\x89PNG"
    else:
        assert result.error_code == "PERMISSION_DENIED"


# ---------------------------------------------------------------------------- getters
GETTERS = [
    "file_info",
    "text",
    "json",
    "csv",
    "xlsx",
    "docx",
    "pdf_text",
    "image",
    "wav",
    "archive",
    "listing",
]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("getter", GETTERS)
def test_getters_see_a_link_as_no_file(trap: Trap, attack: str, getter: str) -> None:
    path = trap.plant(attack, "g/secret.dat")
    try:
        value = trap.desk.get(getter, {"path": path})
    except DeviceError as exc:
        assert exc.code == "PERMISSION_DENIED"
        trap.assert_untouched(exc.message)
    else:
        assert value in (None, {"exists": False}) or value.get("is_link") is True, value
    trap.assert_untouched()


@pytest.mark.parametrize("attack", ATTACKS)
def test_email_drafts_getter_skips_links(trap: Trap, attack: str) -> None:
    trap.plant(attack, "Mail/Drafts/stolen.eml")
    try:
        drafts = trap.desk.get("email_drafts", {"folder": "~/Mail/Drafts"})
    except DeviceError as exc:
        assert exc.code == "PERMISSION_DENIED"
    else:
        assert drafts == []
    trap.assert_untouched()


# ---------------------------------------------------------------------------- setup ops
SETUPS: list[tuple[str, str, dict[str, Any]]] = [
    ("write_text", "s/a.txt", {"content": "PWNED"}),
    ("write_csv", "s/a.csv", {"rows": [["PWNED"]]}),
    ("write_json", "s/a.json", {"data": "PWNED"}),
    ("write_xlsx", "s/a.xlsx", {"sheets": {"S": [["PWNED"]]}}),
    ("write_docx", "s/a.docx", {"paragraphs": ["PWNED"]}),
    ("write_pdf", "s/a.pdf", {"paragraphs": ["PWNED"]}),
    ("write_image", "s/a.png", {"width": 4, "height": 4}),
    ("write_wav", "s/a.wav", {"seconds": 0.01}),
    ("write_archive", "s/a.zip", {"files": {"x.txt": "PWNED"}}),
    ("write_project", "s/proj", {"files": {"x.txt": "PWNED"}}),
    ("write_eml", "s/a.eml", {"to": ["a@b.c"], "subject": "s", "body": "PWNED"}),
    ("make_dir", "s/newdir", {}),
]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize(("op", "rel", "args"), SETUPS, ids=[s[0] for s in SETUPS])
def test_setup_ops(trap: Trap, attack: str, op: str, rel: str, args: dict[str, Any]) -> None:
    path = trap.plant(attack, rel)
    run: Callable[[], None] = lambda: trap.desk.setup(op, path=path, **args)  # noqa: E731
    try:
        run()
    except DeviceError as exc:
        assert exc.code in ("PERMISSION_DENIED", "ALREADY_EXISTS", "NOT_A_DIRECTORY"), exc
        trap.assert_untouched(exc.message)
    trap.assert_untouched()


def test_links_made_inside_the_sandbox_are_refused_too(desk: Desktop, tmp_path: Path) -> None:
    outside = tmp_path / "victim.txt"
    desk.sh(
        "mkdir -p ~/Pictures/Screenshots && ln -s /etc/hostname ~/etc-link && ln -s /proc/self/root ~/root-link"
    )
    for path in ("~/etc-link", "~/root-link/etc/hostname"):
        result = desk.act("read_file", path=path)
        assert not result.ok and result.error_code == "PERMISSION_DENIED", result
    assert (
        desk.act("write_file", path="~/root-link" + str(outside), content="x").error_code
        == "PERMISSION_DENIED"
    )
    assert not outside.exists()
