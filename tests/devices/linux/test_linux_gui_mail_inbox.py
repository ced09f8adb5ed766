"""The mail client's Inbox lists the task's received mail (``devices/linux/gui/mail_inbox.py``).

Its message list is drawn by Claws Mail's own list widget, which gives AT-SPI no rows, so the
GUI tests read what a keyboard user reads: the message view (a ``text`` element) of each
message the arrow keys open, in the list's order.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

import pytest

from devicesworld.devices.base import get_kind
from devicesworld.devices.desktop.pool import ENV_SIZE
from devicesworld.devices.linux.device import LinuxDevice
from devicesworld.devices.linux.gui import pool
from devicesworld.devices.linux.gui.mail_inbox import FOLDER, SOURCE, fill_inbox, received_at
from devicesworld.devices.linux.state import STATE
from devicesworld.devices.safefs import RootedPath, SafeRoot
from tests.devices.desktop.desktop_harness import require_app
from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)
from tests.devices.linux.test_linux_gui_pool import _open, _require_pool

MAIN_WINDOW = "Claws Mail"


def _mail(sender: str, subject: str, date: str | None, body: str = "") -> str:
    dated = f"Date: {date}\n" if date else ""
    return f"From: {sender}\nTo: me@home.example\nSubject: {subject}\n{dated}\n{body or subject}\n"


def _home(tmp_path: Path) -> RootedPath:
    return RootedPath(SafeRoot(tmp_path, "/home/user"), "")


def test_the_inbox_gets_one_numbered_copy_per_eml_in_date_order_and_nothing_stale(tmp_path: Path) -> None:
    inbox = tmp_path / SOURCE
    inbox.mkdir(parents=True)
    (inbox / "a.eml").write_text(_mail("Ana <ana@x.org>", "March", "Mon, 02 Mar 2026 08:00:00 +0100"))
    (inbox / "b.eml").write_text(_mail("Bob <bob@x.org>", "February", "Fri, 27 Feb 2026 10:00:00 +0000"))
    (inbox / "c.EML").write_text(_mail("Cy <cy@x.org>", "Undated", None))
    os.utime(inbox / "c.EML", (1_700_000_000, 1_700_000_000))  # Nov 2023: the oldest
    (inbox / "notes.txt").write_text("not a message\n")
    (inbox / "sub").mkdir()
    client = tmp_path / FOLDER
    client.mkdir(parents=True)
    (client / "7").write_text("a message of another inbox\n")
    (client / ".claws_mark").write_text("the client's own index\n")
    assert fill_inbox(_home(tmp_path), 1 << 20) == 3
    assert sorted(p.name for p in client.iterdir()) == [".claws_mark", "1", "2", "3"]
    assert (client / "1").read_bytes() == (inbox / "c.EML").read_bytes()
    assert (client / "2").read_bytes() == (inbox / "b.eml").read_bytes()
    assert (client / "3").read_bytes() == (inbox / "a.eml").read_bytes()
    assert fill_inbox(_home(tmp_path), 1 << 20) == 3  # again: the same three, renumbered alike
    assert sorted(p.name for p in client.iterdir()) == [".claws_mark", "1", "2", "3"]
    assert fill_inbox(_home(tmp_path), 10) == 0  # each is larger than the read limit
    assert sorted(p.name for p in client.iterdir()) == [".claws_mark"]


def test_a_home_without_an_inbox_folder_gets_no_client_inbox(tmp_path: Path) -> None:
    assert fill_inbox(_home(tmp_path), 1 << 20) == 0
    assert not (tmp_path / FOLDER).exists()


def test_the_received_time_is_the_date_header_else_the_file_time() -> None:
    utc = received_at(_mail("a@x.org", "s", "Fri, 27 Feb 2026 10:00:00 +0000").encode(), 0)
    assert received_at(_mail("a@x.org", "s", "Fri, 27 Feb 2026 11:00:00 +0100").encode(), 0) == utc
    assert received_at(_mail("a@x.org", "s", "Fri, 27 Feb 2026 10:00:00 -0000").encode(), 0) == utc
    assert received_at(_mail("a@x.org", "s", None).encode(), 5_000_000_000) == 5.0
    assert received_at(_mail("a@x.org", "s", "yesterday").encode(), 5_000_000_000) == 5.0
    body_date = b"From: a@x.org\r\nSubject: s\r\n\r\nDate: Fri, 27 Feb 2026 10:00:00 +0000\r\n"
    assert received_at(body_date, 7_000_000_000) == 7.0  # a "Date:" line in the body is not a header


MULTIPART = (
    "From: Bob Stone <bob@x.org>\nTo: me@home.example\nSubject: Old gift\n"
    "Date: Fri, 27 Feb 2026 10:00:00 +0000\nMIME-Version: 1.0\n"
    "Content-Type: multipart/mixed; boundary=XX\n\n--XX\n"
    "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
    "The flowers were $30 at the caf=C3=A9 on the corner, a long line that goes on and o=\n"
    "n until here.\n--XX\n"
    "Content-Type: application/pdf; name=receipt.pdf\nContent-Disposition: attachment; filename=receipt.pdf\n"
    "Content-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n--XX--\n"
)
BASE64 = (
    "From: Cy Ray <cy@x.org>\nTo: me@home.example\nSubject: Oldest note\n"
    "Date: Mon, 23 Feb 2026 08:00:00 +0000\nMIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
    "VGhlIGtleSBpcyB1bmRlciB0aGUgbWF0Lgo=\n"
)


def _message(device: LinuxDevice) -> str:
    """The message the mail client's main window shows (its message view), or ``""``."""
    shown = [
        str(e.get("text", ""))
        for e in device.observe()["elements"]
        if e.get("app") == "claws-mail"
        and e["role"] == "text"
        and MAIN_WINDOW in str(e.get("window", ""))
        and str(e.get("text", "")).startswith("From:")
    ]
    return shown[0] if shown else ""


def _subject(message: str) -> str:
    return next(
        (line[len("Subject: ") :] for line in message.splitlines() if line.startswith("Subject: ")), ""
    )


def test_the_mail_client_lists_the_inbox_newest_first_and_shows_each_message_decoded(
    gui: GuiDesk,  # noqa: F811
) -> None:
    require_app("claws-mail")
    gui.setup("write_eml", path="~/Mail/Inbox/present.eml", sender="Ana Ruiz <ana@x.org>", to=["me@home.example"],
              subject="Present for Lily", body="The art set costs $48.\n")  # fmt: skip
    gui.setup("write_text", path="~/Mail/Inbox/gift.eml", content=MULTIPART)
    gui.setup("write_text", path="~/Mail/Inbox/note.eml", content=BASE64)
    before = STATE.snapshot(gui.device)  # where the episode's baseline is taken: before its first step
    gui.ok("launch_app", app="mail")
    first = _message(gui.device)
    assert _subject(first) == "Present for Lily" and "The art set costs $48." in first  # the newest, opened
    order = [_subject(first)]
    for keys in (["Down"], ["Down"], ["Home"]):
        gui.ok("hotkey", keys=keys)
        gui.ok("wait", seconds=0.3)
        message = _message(gui.device)
        order.append(_subject(message))
        if _subject(message) == "Oldest note":
            assert "The key is under the mat." in message  # base64, decoded
        if _subject(message) == "Old gift":
            assert "From: Bob Stone <bob@x.org>" in message
            assert "Date: Fri, 27 Feb 2026 10:00:00 +0000" in message
            assert "at the café on the corner, a long line that goes on and on until here." in message
            assert "[receipt.pdf  application/pdf" in message  # the attachment, listed
    assert order == [
        "Present for Lily",
        "Old gift",
        "Oldest note",
        "Present for Lily",
    ]  # an hour ago, 27 Feb, 23 Feb
    gui.ok("hotkey", keys=["ctrl", "q"])
    gui.ok("wait", seconds=1.0)
    after = STATE.snapshot(gui.device)
    changed = {k for k in set(before) ^ set(after)} | {
        k for k in before if k in after and after[k] != before[k]
    }
    assert any(k.startswith("files/Mail/.inbox/") for k in changed)  # the client's copies and marks
    assert [k for k in changed if not any(fnmatch(k, h) for h in STATE.harmless)] == []  # read, not changed
    assert {k for k in before if k.startswith("files/Mail/Inbox/")} == {
        "files/Mail/Inbox/present.eml",
        "files/Mail/Inbox/gift.eml",
        "files/Mail/Inbox/note.eml",
    }


@pytest.fixture
def pool_one(monkeypatch: pytest.MonkeyPatch) -> Iterator[pool.SpareKey]:
    key = _require_pool()
    monkeypatch.setenv(ENV_SIZE, "1")
    yield key
    pool.POOL.close_all()


def _task_with_mail(root: Path, subject: str) -> LinuxDevice:
    """A device of a task whose setup wrote one received mail, ``subject``."""
    dev = _open(root)
    kind = get_kind("linux")
    assert kind is not None
    args = {"path": f"~/Mail/Inbox/{subject.lower()}.eml", "subject": subject, "to": ["me@home.example"]}
    dev.setup("write_eml", kind.setup_ops["write_eml"].parse_args({**args, "body": f"About {subject}.\n"}))
    return dev


def _launch_mail(dev: LinuxDevice) -> str:
    kind = get_kind("linux")
    assert kind is not None
    result = dev.act(
        "launch_app", kind.actions_for({"desktop": "hybrid"})["launch_app"].parse_args({"app": "mail"})
    )
    assert result.ok, result.message
    return _message(dev)


def test_a_pooled_desktop_shows_its_own_tasks_mail_not_the_previous_ones(
    tmp_path: Path, pool_one: pool.SpareKey
) -> None:
    require_app("claws-mail")
    first = _task_with_mail(tmp_path / "a", "Alpha")
    try:
        assert _subject(_launch_mail(first)) == "Alpha"
    finally:
        first.close()
    assert pool.POOL.wait_ready(pool_one, 180), pool.POOL.failure(pool_one)
    second = _task_with_mail(tmp_path / "b", "Bravo")
    try:
        assert second.gui is not None and second.gui.ready is not None  # it adopted a spare
        shown = _launch_mail(second)
        assert _subject(shown) == "Bravo" and "About Bravo." in shown
        inbox = second.sandbox.paths.home / FOLDER
        assert sorted(p.name for p in inbox.iterdir() if p.name.isdigit()) == ["1"]
        assert b"Alpha" not in (inbox / "1").read_bytes()
    finally:
        second.close()
