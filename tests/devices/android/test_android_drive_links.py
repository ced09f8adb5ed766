"""Links a desktop's agent plants in the shared Drive never break the phone nor reach the host."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from devicesworld.devices.android.device import AndroidDevice
from devicesworld.env.controller import CrossDeviceEnv
from tests.devices.android.android_helpers import Driver, phone_task


@pytest.fixture
def env(tmp_path: Path):  # type: ignore[no-untyped-def]
    setup = [("add_file", {"path": "shared/ok.txt", "text": "fine", "location": "drive"})]
    with CrossDeviceEnv(phone_task(setup)) as e:
        e.reset()
        phone = e._devices["android_0"]
        assert isinstance(phone, AndroidDevice)
        drive = phone.fs("drive").root
        outside = tmp_path / "host"
        outside.mkdir()
        (outside / "secret.txt").write_text("SECRET")
        os.symlink(tmp_path / "nowhere", drive / "dangling")
        os.symlink(outside / "secret.txt", drive / "secret-link.txt")
        os.symlink(outside, drive / "shared" / "host-folder")
        os.symlink(f"/proc/self/root{outside}", drive / "proc-link")
        e.test_outside = outside  # type: ignore[attr-defined]
        yield e


def _untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    assert (outside / "secret.txt").read_text() == "SECRET"


def test_phone_actions_keep_working_with_links_in_the_drive(env: CrossDeviceEnv) -> None:
    d = Driver(env)
    opened = d.do("open_app", app_name="Files")
    assert opened.ok, opened.message
    d.tap(rid="root_drive")
    screen = d.screen()
    assert "dangling" in screen and "shared" in screen and "SECRET" not in screen
    d.tap(text="secret-link.txt")  # a link opens nothing
    assert "SECRET" not in d.screen()
    back = d.do("navigate_back")
    assert back.ok and back.error_code is None, back.message
    d.tap(text="shared")
    assert "host-folder" in d.screen()
    d.tap(text="host-folder")
    assert "secret.txt" not in d.screen()
    assert str(env.test_outside) not in str(env.observe())  # type: ignore[attr-defined]
    _untouched(env.test_outside)  # type: ignore[attr-defined]


def test_getters_skip_links_in_the_drive(env: CrossDeviceEnv) -> None:
    d = Driver(env)
    assert d.get("files", location="drive") == ["shared/ok.txt"]
    assert d.get("file", path="secret-link.txt", location="drive") is None
    assert d.get("file", path="dangling", location="drive") is None
    assert d.get("file", path="shared/ok.txt", location="drive") == "fine"
    _untouched(env.test_outside)  # type: ignore[attr-defined]


def test_copying_a_link_from_the_drive_is_refused_with_a_toast(env: CrossDeviceEnv) -> None:
    d = Driver(env)
    d.do("open_app", app_name="Files")
    d.tap(rid="root_drive")
    assert d.do("long_press", index=d.find(text="secret-link.txt")).ok
    d.tap(rid="action_copy")
    d.do("navigate_back")
    d.tap(rid="root_sdcard")
    pasted = d.do("click", index=d.find(rid="clip_paste"))
    assert pasted.ok, pasted.message
    assert d.get("file", path="secret-link.txt") is None
    _untouched(env.test_outside)  # type: ignore[attr-defined]


def test_deleting_a_linked_folder_removes_only_the_link(env: CrossDeviceEnv) -> None:
    d = Driver(env)
    d.do("open_app", app_name="Files")
    d.tap(rid="root_drive")
    d.tap(text="shared")
    d.do("long_press", index=d.find(text="host-folder"))
    d.tap(rid="action_delete")
    d.tap(text="Delete")
    assert "host-folder" not in d.screen()
    _untouched(env.test_outside)  # type: ignore[attr-defined]
