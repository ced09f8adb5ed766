"""The Win32 tree helper builds reproducibly from our source and is cached by its hash."""

from __future__ import annotations

from pathlib import Path

from devicesworld.devices.windows.helper import build
from tests.devices.windows.windows_harness import require_mingw


def test_two_builds_are_byte_identical_and_cached(tmp_path: Path) -> None:
    require_mingw()
    a, b = tmp_path / "a.exe", tmp_path / "b.exe"
    build.compile_to(a)
    build.compile_to(b)
    assert a.read_bytes()[:2] == b"MZ"
    assert a.read_bytes() == b.read_bytes()
    exe = build.helper_exe(tmp_path / "cache")
    assert exe.parent.name == build.source_hash()
    assert exe.read_bytes() == a.read_bytes()
    assert build.helper_exe(tmp_path / "cache") == exe  # cached: no second build


def test_the_desktop_shell_builds_reproducibly_into_its_own_cache_folder(tmp_path: Path) -> None:
    require_mingw()
    a, b = tmp_path / "a.exe", tmp_path / "b.exe"
    build.compile_to(a, build.SHELL_SOURCE)
    build.compile_to(b, build.SHELL_SOURCE)
    assert a.read_bytes()[:2] == b"MZ" and a.read_bytes() == b.read_bytes()
    exe = build.shell_exe(tmp_path / "cache")
    assert exe.name == "dwshell.exe" and exe.parent.name == build.source_hash(build.SHELL_SOURCE)
    assert (
        exe.parent.parent.name == "dwshell" and build.source_hash(build.SHELL_SOURCE) != build.source_hash()
    )
