"""Harness-side file access by Windows path: case-insensitive, link-safe, and the state's file set."""

from __future__ import annotations

from pathlib import Path

import pytest

from devicesworld.devices.base import DeviceError
from devicesworld.devices.windows.files import WinFiles


@pytest.fixture
def files(tmp_path: Path) -> WinFiles:
    home, drive = tmp_path / "home", tmp_path / "drive"
    (home / ".wine" / "drive_c" / "windows").mkdir(parents=True)
    (home / ".wine" / "drive_c" / "windows" / "win.ini").write_text("[x]")
    (home / "Desktop").mkdir()
    (home / "Documents").mkdir()
    drive.mkdir()
    return WinFiles(home, drive, None)


def test_paths_map_to_home_prefix_and_drive_case_insensitively(files: WinFiles, tmp_path: Path) -> None:
    files.write_bytes(r"C:\Users\user\Desktop\Todo.txt", b"a")
    files.write_bytes(r"C:\Data\report.txt", b"b")
    files.write_bytes(r"N:\shared\x.txt", b"c")
    assert (tmp_path / "home" / "Desktop" / "Todo.txt").read_bytes() == b"a"
    assert (tmp_path / "home" / ".wine" / "drive_c" / "Data" / "report.txt").read_bytes() == b"b"
    assert (tmp_path / "drive" / "shared" / "x.txt").read_bytes() == b"c"
    assert files.read_bytes(r"c:\USERS\user\desktop\TODO.TXT") == b"a"
    assert files.info(r"C:\Data")["is_dir"] is True
    assert sorted(files.user_files()) == [
        r"C:\Data\report.txt",
        r"C:\Users\user\Desktop\Todo.txt",
        r"N:\shared\x.txt",
    ]  # Wine's own C:\windows is not the task's state


def test_a_planted_link_is_refused_not_followed(files: WinFiles, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("host file")
    (tmp_path / "home" / "Documents" / "link.txt").symlink_to(secret)
    with pytest.raises(DeviceError) as err:
        files.write_bytes(r"C:\Users\user\Documents\link.txt\x", b"no")
    assert r"C:\Users\user\Documents\link.txt" in err.value.message
    files.write_bytes(r"C:\Users\user\Documents\link.txt", b"replaced")
    assert secret.read_text() == "host file"


def test_bad_paths_are_device_errors(files: WinFiles) -> None:
    with pytest.raises(DeviceError, match="not an absolute Windows path"):
        files.read_bytes("notes.txt")
