"""Harness-side file access inside a device that never follows a link out of it.

Agents control the contents of a desktop's home, ``/tmp`` and the shared drive: they
can plant a symbolic link anywhere (``~/Pictures/Screenshots/screenshot-002.png ->
/etc/passwd``, ``~/Documents -> /``, ``x -> /proc/self/root``). The harness runs with
the host's privileges, so every read or write it does on a device's behalf (tool
actions, screenshots, setup ops, getters, checks, the phone's Files app on the drive)
goes through :class:`SafeRoot`, which:

* opens the folders on the way with ``openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
  RESOLVE_NO_MAGICLINKS)`` where the kernel has it, else one ``openat(O_NOFOLLOW |
  O_DIRECTORY)`` per component from the root's descriptor — a link anywhere on the
  way is refused, never followed;
* touches the last component only through its parent's descriptor and without
  following it (``O_NOFOLLOW``, ``lstat``, ``unlinkat``; writes go to a fresh file
  that is renamed over the name, so neither a link nor a hard link to a host file is
  ever written through);
* opens files ``O_NONBLOCK`` and only reads regular files (a FIFO cannot hang the
  harness), with a size cap on every read;
* reports problems as :class:`FsError` with a device-side path (``/home/user/x``)
  and a typed code, never a host path.

A device maps the agent's path onto one of its roots (``/home/user``, ``/tmp``,
``~/Drive``) and a relative part; this module only sees the relative part, already
free of ``.`` and ``..`` (:func:`split_relative` makes it so).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import shutil
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Kind = Literal["file", "dir", "link", "other"]

MAX_WALK_ENTRIES = 20_000
"""A recursive listing stops (with :class:`FsError` ``RESOURCE_LIMIT``) after this many entries."""

MAX_SHOWN = 300
"""Paths in messages are cut after this many characters (an agent's path can be huge)."""

_SYS_OPENAT2 = 437  # the same number on every architecture's generic syscall table
_RESOLVE_NO_MAGICLINKS = 0x02
_RESOLVE_NO_SYMLINKS = 0x04
_RESOLVE_BENEATH = 0x08
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


SANDBOX_UID_ENV = "DEVICESWORLD_SANDBOX_UID"
NOBODY = 65534


def sandbox_host_ids() -> tuple[int, int] | None:
    """The host ``(uid, gid)`` bubblewrap runs as, or ``None`` to run as the harness's user.

    Only a root harness switches (to ``nobody`` unless ``DEVICESWORLD_SANDBOX_UID`` names
    another uid): the sandbox's user is then not host root, and ``RLIMIT_NPROC``, which
    the kernel never enforces for root, bounds the command's processes.
    """
    if os.geteuid() != 0:
        return None
    raw = os.environ.get(SANDBOX_UID_ENV, "").strip()
    if raw:
        if not raw.isdigit() or int(raw) == 0:
            raise ValueError(f"{SANDBOX_UID_ENV} must be a non-zero numeric uid, not {raw[:40]!r}")
        return int(raw), int(raw)
    return NOBODY, NOBODY


class FsError(Exception):
    """A file operation refused or failed; ``code`` is an ActionResult error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


_ERRNO_TEXTS: dict[str, dict[int, str]] = {
    "NOT_FOUND": {errno.ENOENT: "no such file or folder"},
    "IS_A_DIRECTORY": {errno.EISDIR: "is a folder"},
    "NOT_A_DIRECTORY": {errno.ENOTDIR: "is not a folder (or a part of its path is a file)"},
    "PERMISSION_DENIED": {
        errno.ELOOP: "is a symbolic link or passes through one; links are not followed",
        errno.EXDEV: "leaves the device's files",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
    },
    "RESOURCE_LIMIT": {
        errno.ENOSPC: "the device's storage is full",
        errno.EDQUOT: "the device's storage quota is used up",
        errno.EFBIG: "the file would exceed the size limit",
    },
    "NOT_EMPTY": {errno.ENOTEMPTY: "is a non-empty folder"},
    "ALREADY_EXISTS": {errno.EEXIST: "already exists"},
    "INVALID_ARGS": {errno.ENAMETOOLONG: "the name is too long"},
}
"""What an agent is told for each errno, under the error code it is reported with."""

_ERRNO_CODES: dict[int, tuple[str, str]] = {
    number: (code, text) for code, texts in _ERRNO_TEXTS.items() for number, text in texts.items()
}


def os_error(exc: OSError, shown: str) -> FsError:
    """An :class:`FsError` for ``exc`` that names ``shown`` (never the host path)."""
    code, text = _ERRNO_CODES.get(exc.errno or 0, ("INVALID_ARGS", exc.strerror or "cannot be accessed"))
    return FsError(code, f"{shown}: {text}")


def split_relative(path: str) -> list[str]:
    """The components of a relative path with ``.``/empty parts dropped and ``..`` refused."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise FsError("INVALID_ARGS", f"{path}: '..' is not allowed here")
    if any("\x00" in p for p in parts):
        raise FsError("INVALID_ARGS", "a path may not contain NUL characters")
    return parts


def resolve_dots(parts: Iterable[str]) -> list[str]:
    """An absolute path's components with ``.`` and empty parts dropped and each ``..`` taking
    back the one before it, never above the root (a Linux sandbox path and a Windows path alike)."""
    out: list[str] = []
    for part in parts:
        if part == "..":
            if out:
                out.pop()
        elif part not in ("", "."):
            out.append(part)
    return out


# ------------------------------------------------------------------------------ openat2
class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


_LIBC: ctypes.CDLL | None = None
_OPENAT2: bool | None = None


def _openat2(dirfd: int, path: str, flags: int) -> int:
    assert _LIBC is not None
    how = _OpenHow(flags, 0, _RESOLVE_BENEATH | _RESOLVE_NO_SYMLINKS | _RESOLVE_NO_MAGICLINKS)
    fd = _LIBC.syscall(_SYS_OPENAT2, dirfd, os.fsencode(path), ctypes.byref(how), ctypes.sizeof(how))
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return int(fd)


def openat2_available() -> bool:
    """True when the kernel (and any seccomp policy around us) allows ``openat2``; probed once."""
    global _LIBC, _OPENAT2
    if _OPENAT2 is None:
        _OPENAT2 = False
        try:
            _LIBC = ctypes.CDLL(None, use_errno=True)
            _LIBC.syscall.restype = ctypes.c_long
            root = os.open("/", _DIR_FLAGS)
            try:
                os.close(_openat2(root, ".", _DIR_FLAGS))
                _OPENAT2 = True
            finally:
                os.close(root)
        except (OSError, AttributeError):
            _OPENAT2 = False
    return _OPENAT2


def _walk_dirs(rootfd: int, parts: list[str], *, use_openat2: bool) -> int:
    """A descriptor of the folder ``parts`` below ``rootfd``, never through a link."""
    if not parts:
        return os.dup(rootfd)
    if use_openat2:
        return _openat2(rootfd, "/".join(parts), _DIR_FLAGS)
    fd = os.dup(rootfd)
    try:
        for part in parts:
            nxt = os.open(part, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = nxt
    except BaseException:
        os.close(fd)
        raise
    return fd


# ------------------------------------------------------------------------------ the root
@dataclass(frozen=True)
class Entry:
    """One folder entry as seen without following links."""

    name: str
    kind: Kind
    size: int
    mtime_ns: int = 0


_KINDS: dict[int, Kind] = {stat.S_IFREG: "file", stat.S_IFDIR: "dir", stat.S_IFLNK: "link"}


def _kind(mode: int) -> Kind:
    return _KINDS.get(stat.S_IFMT(mode), "other")


class SafeRoot:
    """One folder the harness may touch on a device's behalf, addressed by relative paths.

    ``shown`` is how the device names the folder (``/home/user``); messages use it.
    ``use_openat2`` forces the resolution strategy (tests exercise both).
    """

    def __init__(
        self,
        root: Path,
        shown: str,
        *,
        owner: tuple[int, int] | None = None,
        quota: Callable[[int], str | None] | None = None,
        use_openat2: bool | None = None,
    ) -> None:
        self.root = root
        self.shown = shown.rstrip("/") or "/"
        self.owner = owner
        """Host ``(uid, gid)`` given to what the harness creates (the sandbox's user), or ``None``."""
        self.quota = quota
        """Called with a write's size; a reason string refuses it with ``RESOURCE_LIMIT``."""
        self.use_openat2 = openat2_available() if use_openat2 is None else use_openat2

    def __repr__(self) -> str:
        return f"SafeRoot({self.shown!r})"

    def _split(self, rel: str) -> list[str]:
        try:
            return split_relative(rel)
        except FsError as exc:
            if "'..'" in exc.message:
                shown = rel if len(rel) <= 200 else rel[:200] + "..."
                raise FsError("INVALID_ARGS", f"{shown}: is outside {self.shown}") from None
            raise

    def show(self, rel: str | list[str]) -> str:
        parts = rel if isinstance(rel, list) else self._split(rel)
        if not parts:
            return self.shown
        full = f"{self.shown.rstrip('/')}/{'/'.join(parts)}"
        return full if len(full) <= MAX_SHOWN else full[:MAX_SHOWN] + "..."

    # ------------------------------------------------------------ descriptors
    @contextlib.contextmanager
    def _dir(self, parts: list[str], shown: str | None = None) -> Iterator[int]:
        try:
            rootfd = os.open(self.root, _DIR_FLAGS)
        except OSError as exc:
            raise os_error(exc, self.shown) from None
        try:
            fd = _walk_dirs(rootfd, parts, use_openat2=self.use_openat2)
        except OSError as exc:
            raise os_error(exc, shown or self.show(parts)) from None
        finally:
            os.close(rootfd)
        try:
            yield fd
        finally:
            os.close(fd)

    @contextlib.contextmanager
    def _parent(self, rel: str) -> Iterator[tuple[int, str, str]]:
        """``(parent fd, last name, shown path)``; the root itself has no parent."""
        parts = self._split(rel)
        shown = self.show(parts)
        if not parts:
            raise FsError("IS_A_DIRECTORY", f"{shown}: is a folder")
        with self._dir(parts[:-1], shown) as fd:
            yield fd, parts[-1], shown

    # ------------------------------------------------------------ queries
    def lstat(self, rel: str) -> os.stat_result | None:
        """The entry's own status (a link is a link), or ``None`` when nothing is there."""
        parts = self._split(rel)
        try:
            if not parts:
                with self._dir([]) as fd:
                    return os.fstat(fd)
            with self._parent(rel) as (fd, name, _):
                return os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FsError as exc:
            if exc.code in ("NOT_FOUND", "NOT_A_DIRECTORY"):
                return None
            raise
        except FileNotFoundError:
            return None
        except NotADirectoryError:
            return None

    def kind(self, rel: str) -> Kind | None:
        st = self.lstat(rel)
        return None if st is None else _kind(st.st_mode)

    def is_file(self, rel: str) -> bool:
        return self.kind(rel) == "file"

    def is_dir(self, rel: str) -> bool:
        return self.kind(rel) == "dir"

    def listdir(self, rel: str = "") -> list[Entry]:
        """The entries of a folder, sorted by name; links are reported as links, not followed."""
        parts = self._split(rel)
        with self._dir(parts) as fd:
            out: list[Entry] = []
            try:
                with os.scandir(fd) as it:
                    for e in it:
                        try:
                            st = e.stat(follow_symlinks=False)
                        except OSError:
                            continue
                        out.append(Entry(e.name, _kind(st.st_mode), st.st_size, st.st_mtime_ns))
            except OSError as exc:
                raise os_error(exc, self.show(parts)) from None
        return sorted(out, key=lambda x: x.name)

    def walk_files(self, rel: str = "", limit: int = MAX_WALK_ENTRIES) -> list[str]:
        """Every regular file below ``rel`` (relative to it, sorted); links are skipped."""
        base = self._split(rel)
        found: list[str] = []
        seen = 0
        stack: list[list[str]] = [[]]
        while stack:
            sub = stack.pop()
            try:
                entries = self.listdir("/".join(base + sub))
            except FsError:
                continue
            for e in entries:
                seen += 1
                if seen > limit:
                    raise FsError(
                        "RESOURCE_LIMIT", f"{self.show(base)}: more than {limit:,} entries; not listed"
                    )
                if e.kind == "dir":
                    stack.append([*sub, e.name])
                elif e.kind == "file":
                    found.append("/".join([*sub, e.name]))
        return sorted(found)

    # ------------------------------------------------------------ reading
    @contextlib.contextmanager
    def open_read(self, rel: str) -> Iterator[tuple[int, os.stat_result, str]]:
        """An fd open for reading on a regular file (never a link, FIFO or device)."""
        with self._parent(rel) as (dfd, name, shown):
            try:
                fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dfd)
            except OSError as exc:
                raise os_error(exc, shown) from None
            try:
                st = os.fstat(fd)
                if stat.S_ISDIR(st.st_mode):
                    raise FsError("IS_A_DIRECTORY", f"{shown}: is a folder")
                if not stat.S_ISREG(st.st_mode):
                    raise FsError("INVALID_ARGS", f"{shown}: is not a regular file")
                yield fd, st, shown
            finally:
                os.close(fd)

    def read_bytes(self, rel: str, limit: int) -> bytes:
        """The whole file, refused with ``RESOURCE_LIMIT`` when it is over ``limit`` bytes."""
        with self.open_read(rel) as (fd, st, shown):
            if st.st_size > limit:
                raise FsError(
                    "RESOURCE_LIMIT",
                    f"{shown}: {st.st_size:,} bytes is over the {limit:,}-byte limit for this action",
                )
            chunks: list[bytes] = []
            total = 0
            while True:
                chunk = os.read(fd, min(1 << 20, limit + 1 - total))
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
                if total > limit:  # grew while we read it
                    raise FsError("RESOURCE_LIMIT", f"{shown}: over the {limit:,}-byte limit for this action")
            return b"".join(chunks)

    def read_ends(self, rel: str, head: int, tail: int) -> tuple[bytes, bytes, int]:
        """The first ``head`` and last ``tail`` bytes and the size: bounded memory for any file size."""
        with self.open_read(rel) as (fd, st, _):
            size = st.st_size
            if size <= head + tail:
                data = os.pread(fd, size + 1, 0)[: head + tail]
                return data, b"", len(data)
            return os.pread(fd, head, 0), os.pread(fd, tail, size - tail), size

    # ------------------------------------------------------------ writing
    def mkdir(self, rel: str) -> None:
        """Create the folder and its parents (each one checked not to be a link)."""
        parts = self._split(rel)
        for i in range(1, len(parts) + 1):
            with self._dir(parts[: i - 1], self.show(parts[:i])) as fd:
                try:
                    os.mkdir(parts[i - 1], 0o755, dir_fd=fd)
                    if self.owner is not None:
                        os.chown(parts[i - 1], *self.owner, dir_fd=fd, follow_symlinks=False)
                except FileExistsError:
                    st = os.stat(parts[i - 1], dir_fd=fd, follow_symlinks=False)
                    if not stat.S_ISDIR(st.st_mode):
                        if stat.S_ISLNK(st.st_mode):
                            code, text = "PERMISSION_DENIED", "is a symbolic link; links are not followed"
                        else:
                            code, text = "NOT_A_DIRECTORY", "is a file, not a folder"
                        raise FsError(code, f"{self.show(parts[:i])}: {text}") from None
                except OSError as exc:
                    raise os_error(exc, self.show(parts[:i])) from None

    def write_bytes(self, rel: str, data: bytes, *, append: bool = False, parents: bool = True) -> None:
        """Write a file. A new file is created under a temporary name and renamed over the
        target, so whatever stood there (a link, a hard link to a host file) is replaced,
        never written through; appending refuses links and multiply-linked files."""
        parts = self._split(rel)
        refused = self.quota(len(data)) if self.quota is not None else None
        if refused:
            raise FsError("RESOURCE_LIMIT", f"{self.show(parts)}: {refused}")
        if parents and len(parts) > 1:
            self.mkdir("/".join(parts[:-1]))
        with self._parent(rel) as (dfd, name, shown):
            if append:
                self._append(dfd, name, shown, data)
                return
            tmp = f".{name[:40]}.dw-{secrets.token_hex(4)}"
            try:
                fd = os.open(
                    tmp,
                    os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                    0o644,
                    dir_fd=dfd,
                )
                try:
                    if self.owner is not None:
                        os.fchown(fd, *self.owner)
                    _write_all(fd, data)
                finally:
                    os.close(fd)
                try:
                    st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                except FileNotFoundError:
                    st = None
                if st is not None and stat.S_ISDIR(st.st_mode):
                    raise FsError("IS_A_DIRECTORY", f"{shown}: is a folder")
                os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
            except OSError as exc:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=dfd)
                raise os_error(exc, shown) from None
            except FsError:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=dfd)
                raise

    def _append(self, dfd: int, name: str, shown: str, data: bytes) -> None:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            fd = os.open(name, flags, 0o644, dir_fd=dfd)
        except OSError as exc:
            raise os_error(exc, shown) from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise FsError("INVALID_ARGS", f"{shown}: is not a regular file")
            if self.owner is not None and st.st_size == 0:
                os.fchown(fd, *self.owner)
            if st.st_nlink > 1:
                raise FsError("PERMISSION_DENIED", f"{shown}: has other hard links; not appended to")
            _write_all(fd, data)
        except OSError as exc:
            raise os_error(exc, shown) from None
        finally:
            os.close(fd)

    # ------------------------------------------------------------ removing and moving
    def remove(self, rel: str, *, recursive: bool = False) -> None:
        """Delete a file, a link (the link itself) or a folder (``recursive`` for a non-empty one)."""
        with self._parent(rel) as (dfd, name, shown):
            try:
                st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
                if not stat.S_ISDIR(st.st_mode):
                    os.unlink(name, dir_fd=dfd)
                elif recursive:
                    shutil.rmtree(name, dir_fd=dfd)  # the fd-based variant: never follows links
                else:
                    os.rmdir(name, dir_fd=dfd)
            except OSError as exc:
                raise os_error(exc, shown) from None

    def rename(self, rel: str, new_rel: str) -> None:
        """Rename within this root (the entry itself moves; a link stays a link)."""
        with self._parent(rel) as (sfd, sname, shown), self._parent(new_rel) as (dfd, dname, dshown):
            try:
                os.stat(dname, dir_fd=dfd, follow_symlinks=False)
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise os_error(exc, dshown) from None
            else:
                raise FsError("ALREADY_EXISTS", f"{dshown}: already exists")
            try:
                os.rename(sname, dname, src_dir_fd=sfd, dst_dir_fd=dfd)
            except OSError as exc:
                raise os_error(exc, shown) from None

    def copy_to(self, rel: str, dst: SafeRoot, dst_rel: str, *, limit: int) -> None:
        """Copy a file or a folder tree to ``dst`` (links inside are skipped, not followed)."""
        kind = self.kind(rel)
        if kind == "file":
            dst.write_bytes(dst_rel, self.read_bytes(rel, limit))
        elif kind == "dir":
            dst.mkdir(dst_rel)
            for e in self.listdir(rel):
                if e.kind in ("file", "dir"):
                    self.copy_to(f"{rel}/{e.name}", dst, f"{dst_rel}/{e.name}", limit=limit)
        elif kind == "link":
            raise FsError(
                "PERMISSION_DENIED", f"{self.show(rel)}: is a symbolic link; links are not followed"
            )
        elif kind is None:
            raise FsError("NOT_FOUND", f"{self.show(rel)}: no such file or folder")
        else:
            raise FsError("INVALID_ARGS", f"{self.show(rel)}: is not a regular file")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


@dataclass(frozen=True)
class RootedPath:
    """A path inside a :class:`SafeRoot`: what a device hands to writers and readers.

    It offers the few :class:`~pathlib.Path` members the document writers use
    (``name``, ``suffix``, ``joinpath``, ``write_bytes``), each going through the root.
    """

    root: SafeRoot
    rel: str

    @property
    def name(self) -> str:
        parts = split_relative(self.rel)
        return parts[-1] if parts else self.root.shown.rsplit("/", 1)[-1]

    @property
    def suffix(self) -> str:
        return Path(self.name).suffix

    @property
    def shown(self) -> str:
        return self.root.show(self.rel)

    def joinpath(self, rel: str) -> RootedPath:
        return RootedPath(self.root, "/".join([*split_relative(self.rel), *split_relative(rel)]))

    def write_bytes(self, data: bytes) -> int:
        self.root.write_bytes(self.rel, data)
        return len(data)

    def read_bytes(self, limit: int) -> bytes:
        return self.root.read_bytes(self.rel, limit)

    def kind(self) -> Kind | None:
        return self.root.kind(self.rel)
