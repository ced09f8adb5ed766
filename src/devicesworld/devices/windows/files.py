"""Harness-side access to a Windows device's files by Windows path, never following a link.

The agent controls the device's home (Desktop, Documents and the whole prefix), so every
read and write the harness makes goes through :class:`~devicesworld.devices.safefs.SafeRoot`
(links on the way are refused). A Windows path is mapped with :mod:`.paths`, and each
existing component is matched case-insensitively, as Windows would; errors name the
Windows path, never a host path.
"""

from __future__ import annotations

import os
from pathlib import Path

from devicesworld.devices.base import DeviceError
from devicesworld.devices.safefs import FsError, SafeRoot
from devicesworld.devices.windows.paths import SHELL_FOLDERS, PathError, WinPath, parse_path

MAX_READ = 16 * 1024 * 1024
PREFIX_C = (".wine", "drive_c")
SYSTEM_DIRS = frozenset({"windows", "program files", "program files (x86)", "programdata", "users"})
"""Top-level folders of ``C:`` that belong to Wine, not to the task (not part of the state)."""


class WinFiles:
    """The C: drive (home + prefix) and the N: drive of one device."""

    def __init__(self, home: Path, drive: Path | None, owner: tuple[int, int] | None) -> None:
        self.home = SafeRoot(home, "C:", owner=owner)
        self.drive = SafeRoot(drive, "N:", owner=owner) if drive is not None else None

    # ------------------------------------------------------------ mapping
    def locate(self, raw: str | WinPath) -> tuple[SafeRoot, list[str], WinPath]:
        """``(root, relative parts, parsed path)``; existing components take their on-disk case."""
        try:
            path = raw if isinstance(raw, WinPath) else parse_path(raw)
        except PathError as exc:
            raise DeviceError("INVALID_ARGS", str(exc)) from None
        where, parts = path.location()
        if where == "drive":
            if self.drive is None:
                raise DeviceError("NOT_FOUND", "this device has no network drive")
            root, base = self.drive, list[str]()
        elif where == "home":
            root, base = self.home, list[str]()
        else:
            root, base = self.home, list(PREFIX_C)
        rel = list(base)
        for part in parts:
            rel.append(self._match(root, rel, part))
        return root, rel, path

    @staticmethod
    def _match(root: SafeRoot, rel: list[str], part: str) -> str:
        try:
            names = [e.name for e in root.listdir("/".join(rel))]
        except FsError:
            return part
        if part in names:
            return part
        low = part.lower()
        return next((n for n in names if n.lower() == low), part)

    def _fail(self, exc: FsError, path: WinPath) -> DeviceError:
        reason = exc.message.split(": ", 1)[-1] if ": " in exc.message else exc.message
        return DeviceError(exc.code, f"{path}: {reason}")

    # ------------------------------------------------------------ queries
    def kind(self, raw: str | WinPath) -> str | None:
        root, rel, _ = self.locate(raw)
        try:
            return root.kind("/".join(rel))
        except FsError:
            return None

    def info(self, raw: str | WinPath) -> dict[str, object]:
        root, rel, path = self.locate(raw)
        try:
            st = root.lstat("/".join(rel))
        except FsError:
            st = None
        kind = root.kind("/".join(rel)) if st is not None else None
        return {
            "path": str(path),
            "exists": st is not None,
            "is_dir": kind == "dir",
            "size": st.st_size if st is not None and kind == "file" else None,
        }

    def read_bytes(self, raw: str | WinPath) -> bytes | None:
        """A file's bytes, ``None`` when it does not exist."""
        root, rel, path = self.locate(raw)
        if root.kind("/".join(rel)) is None:
            return None
        try:
            return root.read_bytes("/".join(rel), MAX_READ)
        except FsError as exc:
            raise self._fail(exc, path) from None

    def listing(self, raw: str | WinPath) -> list[str]:
        """Every file below a folder, relative, with backslashes, sorted."""
        root, rel, path = self.locate(raw)
        if root.kind("/".join(rel)) != "dir":
            return []
        try:
            return [f.replace("/", "\\") for f in root.walk_files("/".join(rel))]
        except FsError as exc:
            raise self._fail(exc, path) from None

    # ------------------------------------------------------------ changes
    def write_dated(self, raw: str | WinPath, data: bytes, mtime_ns: int) -> None:
        """Write a file and give it a modification time (a persona world's file, dated as it was made)."""
        self.write_bytes(raw, data)
        root, rel, path = self.locate(raw)
        try:
            with root.open_read("/".join(rel)) as (fd, _, _):
                os.utime(fd, ns=(mtime_ns, mtime_ns))
        except FsError as exc:
            raise self._fail(exc, path) from None
        except OSError as exc:
            raise DeviceError("INTERNAL", f"{path}: could not date the file: {exc.strerror}") from None

    def write_bytes(self, raw: str | WinPath, data: bytes) -> None:
        root, rel, path = self.locate(raw)
        if not path.parts:
            raise DeviceError("INVALID_ARGS", f"{path} is a drive, not a file")
        try:
            root.write_bytes("/".join(rel), data, parents=True)
        except FsError as exc:
            raise self._fail(exc, path) from None

    def mkdir(self, raw: str | WinPath) -> None:
        root, rel, path = self.locate(raw)
        acc: list[str] = []
        try:
            for part in rel:
                acc.append(part)
                if root.kind("/".join(acc)) is None:
                    root.mkdir("/".join(acc))
        except FsError as exc:
            raise self._fail(exc, path) from None

    def remove(self, raw: str | WinPath) -> None:
        root, rel, path = self.locate(raw)
        try:
            root.remove("/".join(rel), recursive=True)
        except FsError as exc:
            raise self._fail(exc, path) from None

    # ------------------------------------------------------------ the whole state
    def user_files(self) -> dict[str, bytes]:
        """``{Windows path: bytes}`` of every task-visible file: the profile's Desktop, Documents,
        Downloads and Pictures, C:'s own folders, N:."""
        out: dict[str, bytes] = {}
        for shell in SHELL_FOLDERS.values():
            for f in self._walk(self.home, shell):
                out[f"C:\\Users\\user\\{shell}\\" + f.replace("/", "\\")] = self._read(
                    self.home, f"{shell}/{f}"
                )
        base = "/".join(PREFIX_C)
        try:
            tops = self.home.listdir(base)
        except FsError:
            tops = []
        for entry in tops:
            if entry.name.lower() in SYSTEM_DIRS:
                continue
            if entry.kind == "file":
                out["C:\\" + entry.name] = self._read(self.home, f"{base}/{entry.name}")
            elif entry.kind == "dir":
                for f in self._walk(self.home, f"{base}/{entry.name}"):
                    out[f"C:\\{entry.name}\\" + f.replace("/", "\\")] = self._read(
                        self.home, f"{base}/{entry.name}/{f}"
                    )
        if self.drive is not None:
            for f in self._walk(self.drive, ""):
                out["N:\\" + f.replace("/", "\\")] = self._read(self.drive, f)
        return out

    @staticmethod
    def _walk(root: SafeRoot, rel: str) -> list[str]:
        try:
            return root.walk_files(rel)
        except FsError:
            return []

    @staticmethod
    def _read(root: SafeRoot, rel: str) -> bytes:
        try:
            return root.read_bytes(rel, MAX_READ)
        except FsError:
            return b""
