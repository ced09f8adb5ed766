"""The task's clock inside a desktop: the offset file libfaketime reads, and how it follows the task."""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from devicesworld.devices.desktop.clock import (
    DISABLE_ENV,
    DesktopClock,
    as_utc_seconds,
    clock_env,
    faketime_library,
    offset_spec,
)

HOST_NOW = datetime(2026, 12, 6, 16, 0, tzinfo=UTC).timestamp()
REQUIRE_SYSTEM = os.environ.get("DEVICESWORLD_REQUIRE_SYSTEM") == "1"


def require_faketime() -> str:
    found = faketime_library()
    if found is None:
        if REQUIRE_SYSTEM:
            pytest.fail("libfaketime is required (DEVICESWORLD_REQUIRE_SYSTEM=1) but missing")
        pytest.skip("libfaketime (Debian's libfaketime) is not installed")
    return found


def test_offset_spec_is_signed_whole_seconds() -> None:
    assert offset_spec(0) == "+0"
    assert offset_spec(12.6) == "+13"
    assert offset_spec(-24105600.2) == "-24105600"


def test_naive_times_are_utc() -> None:
    assert as_utc_seconds(datetime(2026, 3, 2, 9)) == datetime(2026, 3, 2, 9, tzinfo=UTC).timestamp()


def test_the_file_holds_the_distance_to_the_task_and_never_moves_back(tmp_path: Path) -> None:
    clock = DesktopClock(
        tmp_path / "clock", datetime(2026, 3, 2, 9), library="/lib.so", host_now=lambda: HOST_NOW
    )
    expected = datetime(2026, 3, 2, 9, tzinfo=UTC).timestamp() - HOST_NOW
    assert clock.path.read_text().strip() == offset_spec(expected)
    assert clock.desktop_now() == datetime(2026, 3, 2, 9, tzinfo=UTC)
    clock.on_advance(datetime(2026, 3, 2, 9), datetime(2026, 3, 2, 10, 30))
    assert clock.desktop_now() == datetime(2026, 3, 2, 10, 30, tzinfo=UTC)
    clock.set(datetime(2026, 3, 2, 9, 5))  # earlier than the desktop already is
    assert clock.desktop_now() == datetime(2026, 3, 2, 10, 30, tzinfo=UTC)
    assert oct(clock.path.stat().st_mode & 0o777) == "0o644"


def test_env_names_the_mounted_file_and_is_empty_without_the_library(tmp_path: Path) -> None:
    env = clock_env("/x/libfaketimeMT.so.1")
    assert env["LD_PRELOAD"].split(":")[-1] == "/x/libfaketimeMT.so.1"
    assert env["FAKETIME_TIMESTAMP_FILE"] == "/run/dw-clock/faketime"
    assert env["TZ"] == "UTC" and env["FAKETIME_DONT_FAKE_MONOTONIC"] == "1"
    assert DesktopClock(tmp_path / "c", datetime(2026, 3, 2, 9), library="").env == {}


def test_host_setting_turns_the_clock_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DISABLE_ENV, "host")
    assert faketime_library() is None


def test_date_reads_the_task_clock_through_the_library(tmp_path: Path) -> None:
    library = require_faketime()
    if shutil.which("date") is None:
        pytest.skip("no date(1)")
    clock = DesktopClock(tmp_path / "clock", datetime(2026, 3, 2, 9), library=library)
    env = {**clock.env, "FAKETIME_TIMESTAMP_FILE": str(clock.path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(["date", "+%Y-%m-%d %H"], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "2026-03-02 09"
