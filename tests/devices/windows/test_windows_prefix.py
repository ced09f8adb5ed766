"""The slim prefix: identical builtins become symlinks, the stamp follows Wine, a missing Wine is a clear error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from devicesworld.devices.base import DeviceError
from devicesworld.devices.windows import prefix


def test_slim_links_identical_builtins_and_keeps_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "lib" / "x86_64-windows"
    lib.mkdir(parents=True)
    (lib / "kernel32.dll").write_bytes(b"MZ kernel" * 100)
    (lib / "notepad.exe").write_bytes(b"MZ notepad")
    monkeypatch.setattr(prefix, "WINE_LIB_DIRS", (lib,))
    pfx = tmp_path / ".wine"
    sys32 = pfx / "drive_c" / "windows" / "system32"
    sys32.mkdir(parents=True)
    (sys32 / "KERNEL32.dll").write_bytes(b"MZ kernel" * 100)  # same bytes, other case
    (sys32 / "notepad.exe").write_bytes(b"MZ patched")  # same name, other bytes
    (pfx / "system.reg").write_text("WINE REGISTRY\n")
    assert prefix.slim(pfx) == 1
    assert (sys32 / "KERNEL32.dll").is_symlink()
    assert (sys32 / "KERNEL32.dll").resolve() == (lib / "kernel32.dll").resolve()
    assert not (sys32 / "notepad.exe").is_symlink()
    assert prefix.tree_bytes(pfx) == len(b"MZ patched") + len("WINE REGISTRY\n")


def test_install_copies_links_and_makes_the_shell_folders(tmp_path: Path) -> None:
    home = tmp_path / "tpl" / "home"
    (home / ".wine" / "dosdevices").mkdir(parents=True)
    (home / ".wine" / "dosdevices" / "c:").symlink_to("../drive_c")
    (home / ".wine" / "user.reg").write_text("x")
    profile = home / ".wine" / "drive_c" / "users" / "user"
    profile.mkdir(parents=True)
    for name in ("Downloads", "Pictures", "Music"):  # Wine links them to the home itself
        (profile / name).symlink_to("/home/user")
    tpl = prefix.Template(home, "abc", 0.0)
    dest = tmp_path / "dev" / "home"
    prefix.install(tpl, dest, None)
    assert (dest / ".wine" / "dosdevices" / "c:").is_symlink()
    assert (dest / ".wine" / "user.reg").read_text() == "x"
    assert (dest / "Desktop").is_dir() and (dest / "Documents").is_dir()
    # Downloads and Pictures are folders of their own in the home, as Desktop and Documents are
    assert (dest / "Downloads").is_dir() and (dest / "Pictures").is_dir()
    linked = dest / ".wine" / "drive_c" / "users" / "user"
    assert os.readlink(linked / "Downloads") == "/home/user/Downloads"
    assert os.readlink(linked / "Pictures") == "/home/user/Pictures"
    assert os.readlink(linked / "Music") == "/home/user"
    assert os.readlink(profile / "Downloads") == "/home/user"  # the template is not touched


def test_the_stamp_changes_with_wine_version_and_user() -> None:
    a = prefix.template_stamp("wine-8.0", (65534, 65534))
    assert a == prefix.template_stamp("wine-8.0", (65534, 65534))
    assert a != prefix.template_stamp("wine-9.0", (65534, 65534))
    assert a != prefix.template_stamp("wine-8.0", None)


def test_missing_wine_is_a_clear_device_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    assert "wine is not installed" in (prefix.wine_missing() or "")
    with pytest.raises(DeviceError, match="apt-get install") as err:
        prefix.require_wine()
    assert err.value.code == "UNAVAILABLE"
