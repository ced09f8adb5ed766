"""A Linux machine per device: a bubblewrap sandbox over the host's read-only ``/usr``.

Each command runs in a fresh ``bwrap`` invocation that shares the device's writable
home (``/home/user``) and ``/tmp`` — folders of the device's work folder — plus a
small synthetic read-only ``/etc``, and nothing else of the host: no network (``--unshare-all``
leaves only a private loopback), no host ``/home``, ``/root``, ``/etc`` secrets or
other devices' folders. Because every command gets its own PID namespace, whatever it
starts (also ``cmd &``) is killed by the kernel when the command ends, so there is
never a process left to clean up; :meth:`Sandbox.close` only has to remove the folder.

Why one ``bwrap`` per command instead of a long-lived shell: it costs a few
milliseconds, needs no start-up (a device whose shell is never used costs nothing, so
resets stay cheap), and makes timeouts and cleanup trivially exact. The working
directory and exported variables do not survive between commands, except the working
directory, which is carried over explicitly (like a terminal's prompt would show).

Where bubblewrap is missing, :class:`Sandbox` falls back to a plain process sandbox
(its own session, HOME pointing at the device's home, killed on timeout) and says so
loudly: that fallback does **not** isolate the host's files or network.

Limits (:mod:`devicesworld.devices.limits`, shared with the GUI desktops and Windows): every command starts with
``ulimit`` for address space, processes, file size and CPU time (hard limits: the
command cannot raise them), a wall-clock timeout, and — where this bubblewrap has
``--disable-userns`` — no further user namespaces. When the harness runs as root,
bubblewrap itself runs as an unprivileged host user (:func:`sandbox_host_ids`), so
the sandbox's user is not host root and the process limit applies (the kernel
exempts root from it). The home and ``/tmp`` are a tmpfs of ``Limits.home_mb`` held by
one process per device (:mod:`devicesworld.devices.homefs`; commands enter its namespace with ``nsenter``),
or, where that is impossible, are measured while a command runs. Hitting a limit is
reported as :attr:`CommandResult.limit`.
The harness reaches the device's files only through
:mod:`devicesworld.devices.safefs` (:meth:`Sandbox.locate`), never by following a
link the agent planted.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import re
import resource
import selectors
import shlex
import shutil
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from devicesworld.devices.cgroups import SandboxCgroup, sandbox_cgroup, setpriv_argv
from devicesworld.devices.desktop.client import BWRAP_ENV as BWRAP_ENV
from devicesworld.devices.desktop.client import bwrap_binary
from devicesworld.devices.desktop.clock import MOUNT as CLOCK_MOUNT
from devicesworld.devices.desktop.clock import DesktopClock
from devicesworld.devices.desktop.sysroot import (
    ACCOUNTS,
    USR_SYMLINKS,
    etc_args,
    let_others_pass,
    owned_etc,
    run_as,
    usr_args,
)
from devicesworld.devices.homefs import HomeMount, take_home
from devicesworld.devices.limits import Limits, default_limits, limit_hit
from devicesworld.devices.listing import cut_note
from devicesworld.devices.safefs import FsError, RootedPath, SafeRoot, resolve_dots, sandbox_host_ids

log = logging.getLogger(__name__)

HOME = "/home/user"
MAX_OUTPUT_CHARS = 8000
DEFAULT_TIMEOUT_S = 30.0
_CWD_MOUNT = "/run/dw-cwd"
FULL_BYTES = 256 * 1024
"""A sized home with less free space than this after a failed command counts as full."""
WATCH_S = 0.25
"""How often a running command's home and /tmp are measured against ``Limits.home_mb``."""
MAX_USAGE_ENTRIES = 100_000
"""Measuring the home stops here; more entries than this count as over the size limit."""
MAX_CWD_CHARS = 1024
"""The working directory the shell reports is ignored past this length (the channel is agent-writable)."""
_CWD_OK = re.compile(r"^/[^\x00-\x1f\x7f]*$")

_HOST_RO_PATHS = ("/usr",)
_ETC_FROM_HOST = ("alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "mime.types")

FALLBACK_WARNING = (
    "bubblewrap (bwrap) is not installed: Linux devices run in a weak process sandbox that does "
    "NOT isolate host files or the network. Install it with `apt-get install bubblewrap`."
)


class CommandResult(BaseModel):
    """What one shell command produced (output already truncated for the agent)."""

    command: str
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool = False
    truncated: bool = False
    cwd: str = HOME
    seconds: float = 0.0
    limit: str | None = None
    """Which sandbox limit the command ran into (``memory``, ``processes``, ``file size``,
    ``home size``, ``CPU time``), when its exit status or error output says so."""


def bwrap_path() -> str | None:
    """The bubblewrap binary (``$DEVICESWORLD_BWRAP``, else ``bwrap`` on ``PATH``), or ``None``."""
    return bwrap_binary()


_PROBES: dict[tuple[str, tuple[str, ...]], str | None] = {}


def _probe(path: str, extra: tuple[str, ...]) -> str | None:
    key = (path, extra)
    if key not in _PROBES:
        argv = [
            path,
            *usr_args(),
            "--unshare-all",
            *extra,
            "--uid",
            "1000",
            "--gid",
            "1000",
            "--die-with-parent",
            "/usr/bin/true",
        ]
        ids = sandbox_host_ids()
        try:
            done = subprocess.run(
                argv,
                capture_output=True,
                timeout=20,
                env={},
                cwd="/",
                **run_as(ids),
            )
            _PROBES[key] = (
                None
                if done.returncode == 0
                else (done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}")
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            _PROBES[key] = str(exc)
    return _PROBES[key]


def bwrap_problem(path: str) -> str | None:
    """Why ``bwrap`` cannot create a sandbox here (e.g. user namespaces disabled), or ``None``.

    Probed once per process with the same namespaces (and host user) the devices use; a
    device then fails over to the process sandbox with that reason instead of failing
    every command.
    """
    return _probe(path, ())


def bwrap_disables_userns(path: str) -> bool:
    """True when this bubblewrap can forbid user namespaces inside the sandbox (``--disable-userns``, 0.8+)."""
    return _probe(path, ("--unshare-user", "--disable-userns", "--assert-userns-disabled")) is None


def bwrap_usable() -> bool:
    """True when bubblewrap is installed and can create sandboxes on this host."""
    path = bwrap_path()
    return path is not None and bwrap_problem(path) is None


NARROWER = "print less at a time (head, tail, grep, sed -n)"
"""How to get the rest of a command's cut output."""


def truncate(text: str, limit: int = MAX_OUTPUT_CHARS, how: str = NARROWER) -> tuple[str, bool]:
    """Keep the head and the tail of long output, with a note saying how much was cut and how to
    get the rest (:func:`devicesworld.devices.listing.cut_note`)."""
    if len(text) <= limit:
        return text, False
    head, tail = text[: limit * 3 // 4], text[-limit // 4 :]
    cut = len(text) - len(head) - len(tail)
    return f"{head}\n{cut_note(f'{cut:,} of {len(text):,} characters not shown', how)}\n{tail}", True


@dataclass
class SandboxPaths:
    """Host folders behind the sandbox's writable places.

    With a sized home (:mod:`devicesworld.devices.homefs`) ``home``/``tmp`` are reached through the holder's
    namespace (``/proc/<pid>/root/…``) and ``bind_home``/``bind_tmp`` are the same
    folders as bubblewrap sees them inside it.
    """

    root: Path
    view: Path | None = None
    store: Path | None = None
    home: Path = field(init=False)
    tmp: Path = field(init=False)
    bind_home: Path = field(init=False)
    bind_tmp: Path = field(init=False)

    def __post_init__(self) -> None:
        seen, bound = self.view or self.root, self.store or self.root
        self.home, self.tmp = seen / "home", seen / "tmp"
        self.bind_home, self.bind_tmp = bound / "home", bound / "tmp"

    @property
    def cwd_file(self) -> Path:
        """Where the shell leaves its working directory after each command (bound as one file)."""
        return self.root / "cwd"


_WARNED: set[str] = set()
"""Sandbox warnings already logged by this process: a suite of Linux tasks warns once, not per task."""


def _warn_once(message: str) -> None:
    if message not in _WARNED:
        _WARNED.add(message)
        log.warning(message)


class Sandbox:
    """One device's machine: runs shell commands isolated from the host and other devices."""

    def __init__(
        self,
        root: Path,
        *,
        hostname: str = "desktop",
        drive: Path | None = None,
        use_bwrap: bool | None = None,
        limits: Limits | None = None,
        home_mount: HomeMount | None = None,
        clock: DesktopClock | None = None,
    ) -> None:
        """``home_mount``: a sized home to use instead of taking one (a pre-started desktop's);
        ``clock``: the task's clock, which commands then read (see :mod:`devicesworld.devices.desktop.clock`)."""
        self.paths = SandboxPaths(root)
        self.clock = clock
        self.hostname = hostname
        self.drive = drive
        self.limits = limits or default_limits()
        found = bwrap_path() if use_bwrap is not False else None
        if use_bwrap and found is None:
            raise RuntimeError("bubblewrap (bwrap) was requested but is not installed")
        problem = bwrap_problem(found) if found else None
        if problem is not None:
            if use_bwrap:
                raise RuntimeError(f"bubblewrap cannot create a sandbox here: {problem}")
            _warn_once(f"bubblewrap cannot create a sandbox here ({problem}). {FALLBACK_WARNING}")
            found = None
        elif found is None and use_bwrap is None:
            _warn_once(FALLBACK_WARNING)
        self.bwrap = found
        self.host_ids = sandbox_host_ids() if found else None
        self.cwd = HOME
        self._closed = False
        self.home_mount: HomeMount | None = None
        """The sized tmpfs of the home and /tmp, when this host allows one (else the home is watched)."""
        self.home_mount_problem: str | None = None
        root.mkdir(parents=True, exist_ok=True)
        if found is not None and not self.limits.sized_home:
            self.home_mount_problem = "turned off (DEVICESWORLD_LIMIT_SIZED_HOME=0)"
        elif found is not None and home_mount is not None:
            self.home_mount = home_mount
        elif found is not None:
            self.home_mount, self.home_mount_problem = take_home(
                root / "store", self.limits.home_bytes, self.host_ids
            )
        if self.home_mount is not None:
            self.paths = SandboxPaths(root, view=self.home_mount.view, store=self.home_mount.store)
        for p in (self.paths.home, self.paths.tmp):
            p.mkdir(parents=True, exist_ok=True)
        self.paths.cwd_file.touch()
        if drive is not None:
            mount = self.paths.home / "Drive"
            if self.bwrap:
                mount.mkdir(exist_ok=True)
            elif not mount.exists():
                mount.symlink_to(drive, target_is_directory=True)
        if self.host_ids is not None:
            self._hand_over(root)
        self.roots: list[tuple[str, SafeRoot]] = []
        if drive is not None:
            self.roots.append((f"{HOME}/Drive", SafeRoot(drive, f"{HOME}/Drive", owner=self.host_ids)))
        quota = None if self.home_mount is not None else self._quota  # a tmpfs enforces its own size
        self.roots += [
            (HOME, SafeRoot(self.paths.home, HOME, owner=self.host_ids, quota=quota)),
            ("/tmp", SafeRoot(self.paths.tmp, "/tmp", owner=self.host_ids, quota=quota)),
        ]
        self.cgroup: SandboxCgroup | None = None
        """A cgroup v2 group holding every command of this device (a memory and process total), where
        the host delegates one (devices/cgroups.py); else the per-command rlimits alone."""
        if found is not None:
            self.cgroup = sandbox_cgroup(
                hostname,
                memory_bytes=self.limits.sandbox_memory_bytes,
                processes=self.limits.sandbox_processes,
            )
        self.disable_userns = bool(found) and bwrap_disables_userns(found)  # type: ignore[arg-type]
        self._prefix = self._bwrap_prefix() if self.bwrap else []

    def _hand_over(self, root: Path) -> None:
        """Give the sandbox's host user its folders, and a way through the folders above them."""
        assert self.host_ids is not None
        places = [self.paths.home, self.paths.tmp, self.paths.cwd_file, self.paths.home / "Drive"]
        if self.drive is not None:
            places.append(self.drive)
        for place in places:
            with contextlib.suppress(FileNotFoundError):
                os.chown(place, *self.host_ids, follow_symlinks=False)
        self._open_the_way()

    def _open_the_way(self) -> None:
        """Let the sandbox's host user traverse (not list) the folders above its own.

        Re-applied before each command: a tool that tightens a parent folder (pytest resets
        its temp root to 0700 on every session) would otherwise lock the device out.
        """
        if self.host_ids is None:
            return
        tops = [self.paths.root, *(p for p in (self.drive, _ETC_DIR) if p is not None)]
        let_others_pass(tops)

    @property
    def isolated(self) -> bool:
        """True when commands run under bubblewrap (the fallback is not isolated)."""
        return self.bwrap is not None

    # ------------------------------------------------------------------ set-up
    def _bwrap_prefix(self) -> list[str]:
        assert self.bwrap is not None
        args = [self.bwrap]
        for path in _HOST_RO_PATHS:
            args += ["--ro-bind", path, path]
        for name in USR_SYMLINKS:
            if Path("/usr", name).exists() or Path("/", name).is_symlink():
                args += ["--symlink", f"usr/{name}", f"/{name}"]
        args += etc_args(shared_etc(), _ETC_FROM_HOST)
        args += ["--proc", "/proc", "--dev", "/dev"]
        for source, dest in self._binds():
            args += ["--bind", str(source), dest]
        clock_env = self.clock.env if self.clock is not None else {}
        if clock_env:
            assert self.clock is not None
            args += ["--ro-bind", str(self.clock.folder), CLOCK_MOUNT]
        args += ["--unshare-all"]
        if self.disable_userns:
            args += ["--unshare-user", "--disable-userns"]
        args += [
            "--uid",
            "1000",
            "--gid",
            "1000",
            "--hostname",
            self.hostname,
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--clearenv",
            "--setenv",
            "HOME",
            HOME,
            "--setenv",
            "USER",
            "user",
            "--setenv",
            "PATH",
            "/usr/local/bin:/usr/bin:/bin",
            "--setenv",
            "LANG",
            "C.UTF-8",
            "--setenv",
            "TERM",
            "dumb",
            "--setenv",
            "PYTHONDONTWRITEBYTECODE",
            "1",
            "--chdir",
            HOME,
        ]
        for key, value in clock_env.items():
            args += ["--setenv", key, value]
        return args

    def _binds(self) -> list[tuple[Path, str]]:
        """The device's writable places: host folder (or file) -> path in the sandbox."""
        p = self.paths
        out = [(p.bind_home, HOME), (p.bind_tmp, "/tmp"), (p.cwd_file, _CWD_MOUNT)]
        if self.drive is not None:
            out.append((self.drive, f"{HOME}/Drive"))
        return out

    # --------------------------------------------------------------- commands
    def _script(self, command: str, cwd: str, cwd_file: str) -> str:
        lim = self.limits
        limits = " && ".join(
            (
                "ulimit -c 0",
                f"ulimit -f {lim.file_mb * 1024}",
                f"ulimit -v {lim.memory_mb * 1024}",
                f"ulimit -u {lim.processes}",
                f"ulimit -S -t {lim.cpu_s}",  # SIGXCPU at the soft limit, SIGKILL 5 s of CPU later
                f"ulimit -H -t {lim.cpu_s + 5}",
            )
        )
        return (
            f"{limits} || {{ echo 'cannot apply the sandbox limits' >&2; exit 97; }}\n"
            f"cd {shlex.quote(cwd)} 2>/dev/null || cd ~\n"
            f"{command}\n"
            f"__dw_status=$?\npwd > {shlex.quote(cwd_file)} 2>/dev/null\nexit $__dw_status\n"
        )

    def run(
        self,
        command: str,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        keep_cwd: bool = True,
        max_chars: int = MAX_OUTPUT_CHARS,
    ) -> CommandResult:
        """Run ``command`` with ``bash`` in the sandbox; never raises for the command's own failures."""
        if self._closed:
            raise RuntimeError("the sandbox has been closed")
        timeout = min(timeout, self.limits.command_s)
        cwd_file = self.paths.cwd_file
        cwd_file.write_bytes(b"")
        ids = self.host_ids
        mount = self.home_mount
        if self.bwrap:
            script = self._script(command, self.cwd, _CWD_MOUNT)
            self._open_the_way()
            argv = [*self._prefix, "/bin/bash", "-c", script]
            if mount is not None:
                if not mount.alive():
                    raise RuntimeError("the device's home is gone (its holder process exited)")
                assert ids is not None
                argv = [*mount.nsenter(ids), *argv]
                ids = None  # nsenter runs as the harness's user and switches to ``ids`` inside
            if self.cgroup is not None:  # join the device's group first, then become its user
                argv = [*self.cgroup.enter_argv(), *(setpriv_argv(ids) if ids else []), *argv]
                ids = None
            env: dict[str, str] | None = {}
            host_cwd: str | None = "/"
        else:
            script = self._script(command, str(self.to_host(self.cwd)), str(cwd_file))
            argv = [*_die_with_parent(), "/bin/bash", "-c", script]
            env = {
                "HOME": str(self.paths.home),
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "LANG": "C.UTF-8",
                "TMPDIR": str(self.paths.tmp),
                "PYTHONDONTWRITEBYTECODE": "1",
            }
            host_cwd = str(self.paths.home)
        start_usage = self.usage_bytes() if mount is None else 0
        t0 = time.perf_counter()
        cpu0 = _children_cpu()
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=host_cwd,
            start_new_session=True,
            **run_as(ids),
        )
        out_cap, err_cap = _Capture(max_chars), _Capture(max_chars // 2)
        over: list[bool] = []
        allowed = max(self.limits.home_bytes, start_usage)  # a home already over may still shrink

        def watch() -> bool:
            if self.usage_bytes() > allowed:
                over.append(True)
                return True
            return False

        timed_out = _pump(
            proc, {proc.stdout: out_cap, proc.stderr: err_cap}, t0 + timeout, watch if mount is None else None
        )
        if mount is None and not over and self.usage_bytes() > allowed:
            over.append(True)
        if not self.bwrap:
            _kill_group(proc.pid)  # the fallback has no PID namespace: reap stragglers ourselves
        seconds = time.perf_counter() - t0
        seen = self._reported_cwd() if keep_cwd else None
        if seen:
            self.cwd = seen if self.bwrap else self.from_host(Path(seen)) or HOME
        out, t1 = out_cap.text()
        err, t2 = err_cap.text()
        if timed_out:
            err += f"\n[timed out after {timeout:g} s; the command and its children were killed]"
        exit_code = None if timed_out else proc.returncode
        limit = None if exit_code is None else limit_hit(exit_code, err_cap.raw_text())
        killed = exit_code in (128 + signal.SIGKILL, -signal.SIGKILL)
        if limit is None and killed and _children_cpu() - cpu0 >= self.limits.cpu_s:
            # SIGKILL at the hard CPU limit (a process that survived SIGXCPU); children's CPU
            # time is process-wide, so this only names the limit when enough CPU was used
            limit = "CPU time"
        if mount is not None and (exit_code not in (None, 0) or "No space left on device" in err):
            free = mount.free_bytes()
            if free is not None and free < FULL_BYTES:
                limit = "home size"
        if over:
            limit = "home size"
            err += f"\n[the home and /tmp hold more than {self.limits.home_mb} MiB; the command was stopped]"
        return CommandResult(
            command=command,
            exit_code=exit_code,
            stdout=out,
            stderr=err,
            timed_out=timed_out,
            truncated=t1 or t2,
            cwd=self.cwd,
            seconds=seconds,
            limit=limit,
        )

    def usage_bytes(self) -> int:
        """Bytes the home and /tmp take (allocated blocks, links not followed, ``~/Drive`` not counted)."""
        if self.home_mount is not None:
            free = self.home_mount.free_bytes()
            return self.home_mount.size - free if free is not None else 0
        total, seen = 0, 0
        stack = [str(self.paths.home), str(self.paths.tmp)]
        drive_mount = str(self.paths.home / "Drive")
        while stack:
            folder = stack.pop()
            try:
                with os.scandir(folder) as it:
                    for e in it:
                        seen += 1
                        if seen > MAX_USAGE_ENTRIES:
                            return 1 << 62
                        try:
                            st = e.stat(follow_symlinks=False)
                        except OSError:
                            continue
                        total += st.st_blocks * 512
                        if e.is_dir(follow_symlinks=False) and e.path != drive_mount:
                            stack.append(e.path)
            except OSError:
                continue
        return total

    def over_home_size(self, adding: int = 0) -> bool:
        """True when the home and /tmp (plus ``adding`` bytes) exceed ``Limits.home_mb``."""
        return self.usage_bytes() + adding > self.limits.home_bytes

    def _quota(self, adding: int) -> str | None:
        if adding and self.over_home_size(adding):
            return f"the home and /tmp may hold {self.limits.home_mb} MiB; this write would go over"
        return None

    def _reported_cwd(self) -> str | None:
        """The directory the shell ended in, if the (agent-writable) channel holds a plausible one.

        Read with a size cap and without following links; anything too long, not
        absolute or with control characters is ignored, so the channel can neither
        blow up the next command line (E2BIG) nor inject text into the observation.
        """
        try:
            fd = os.open(self.paths.cwd_file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            raw = os.read(fd, MAX_CWD_CHARS * 4 + 2)
        finally:
            os.close(fd)
        try:
            text = raw.decode("utf-8").removesuffix("\n")
        except UnicodeDecodeError:
            return None
        if not text or len(text) > MAX_CWD_CHARS or not _CWD_OK.match(text):
            return None
        return text

    # ------------------------------------------------------------------ paths
    def normalize(self, path: str) -> str:
        """The absolute, ``.``/``..``-free sandbox path of ``path`` (``~``, relative or absolute)."""
        p = path.strip()
        if not p:
            raise ValueError("empty path")
        if "\x00" in p:
            raise ValueError("a path may not contain NUL characters")
        if p == "~" or p.startswith("~/"):
            p = HOME + p[1:]
        if not p.startswith("/"):
            p = f"{self.cwd.rstrip('/')}/{p}"
        return "/" + "/".join(resolve_dots(p.split("/")))

    def locate(self, path: str) -> RootedPath:
        """Which of the device's places ``path`` is in, and where inside it (no host path involved)."""
        norm = self.normalize(path)
        for prefix, root in self.roots:
            if norm == prefix or norm.startswith(prefix + "/"):
                return RootedPath(root, norm[len(prefix) :].lstrip("/"))
        shown = path if len(path) <= 200 else path[:200] + "..."
        raise FsError("PERMISSION_DENIED", f"{shown}: only files under {HOME} and /tmp are accessible")

    def to_host(self, path: str) -> Path:
        """The host path behind a sandbox path (``~``, relative, ``/home/user``, ``/tmp``, ``~/Drive``).

        For tests and the fallback's working directory only: harness-side file access
        goes through :meth:`locate`. Raises ``PermissionError`` for paths outside the
        device's places and for paths through a link.
        """
        try:
            rooted = self.locate(path)
        except FsError as exc:
            raise PermissionError(exc.message) from None
        parts = [p for p in rooted.rel.split("/") if p]
        for i in range(1, len(parts) + 1):
            if rooted.root.kind("/".join(parts[:i])) == "link":
                raise PermissionError(f"{path}: resolves outside the device's files")
        return rooted.root.root.joinpath(*parts)

    def from_host(self, host: Path) -> str | None:
        """The sandbox path of a host path, when it lies in a mounted place."""
        for prefix, host_root in self._mounts():
            try:
                rel = host.resolve().relative_to(host_root.resolve())
            except ValueError:
                continue
            return prefix if str(rel) == "." else f"{prefix}/{rel}"
        return None

    def _mounts(self) -> list[tuple[str, Path]]:
        return [(prefix, root.root) for prefix, root in self.roots]

    # ---------------------------------------------------------------- cleanup
    def close(self) -> None:
        """Remove the device's folders (no process can outlive its command)."""
        if self._closed:
            return
        self._closed = True
        if self.cgroup is not None:
            self.cgroup.close()
        if self.home_mount is not None:
            self.home_mount.close()  # the tmpfs goes with the holder's namespace
        shutil.rmtree(self.paths.root, ignore_errors=True)


_ETC_DIR: Path | None = None


def shared_etc() -> Path:
    """A minimal read-only ``/etc`` (user, group, hosts), written once per process and shared.

    Sharing it keeps a device's start to three folders; the host's ``/etc`` is never
    exposed except the few entries that binaries need to run (``ld.so.cache``,
    Debian's ``alternatives`` symlinks, the time zone), bound read-only on top.
    """
    global _ETC_DIR
    if _ETC_DIR is not None and _ETC_DIR.is_dir():
        return _ETC_DIR
    # Owned (a lock file naming this process, next to it, not inside the bound /etc), so
    # a later run removes it if this process is killed before its atexit handler runs.
    _ETC_DIR = owned_etc(
        "dw-etc-",
        {
            **ACCOUNTS,
            "hosts": "127.0.0.1 localhost\n::1 localhost\n",
        },
        _ETC_FROM_HOST,
    )
    return _ETC_DIR


class _Capture:
    """Bounded capture of a stream: the first and last ``limit`` characters' worth of bytes.

    A command like ``yes`` can print gigabytes before its timeout; only the head and
    the tail are kept, so memory stays bounded whatever the command does.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.keep = limit * 4  # bytes: enough for ``limit`` characters of UTF-8
        self.head = bytearray()
        self.tail: collections.deque[bytes] = collections.deque()
        self.tail_size = 0
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.keep - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail.append(chunk)
            self.tail_size += len(chunk)
            while self.tail_size - len(self.tail[0]) >= self.keep:
                self.tail_size -= len(self.tail.popleft())

    def raw_text(self) -> str:
        """Everything kept (head and tail), for recognising error messages."""
        return (bytes(self.head) + b"".join(self.tail)).decode(errors="replace")

    def text(self) -> tuple[str, bool]:
        tail = b"".join(self.tail)
        dropped = self.total - len(self.head) - len(tail)
        if dropped <= 0:
            return truncate((bytes(self.head) + tail).decode(errors="replace"), self.limit)
        head_text = bytes(self.head).decode(errors="replace")[: self.limit * 3 // 4]
        tail_text = tail.decode(errors="replace")[-(self.limit // 4) :]
        return f"{head_text}\n[... output truncated: {self.total:,} bytes in all ...]\n{tail_text}", True


def _pump(
    proc: subprocess.Popen[bytes],
    streams: dict[Any, _Capture],
    deadline: float,
    watch: Callable[[], bool] | None = None,
) -> bool:
    """Read both pipes until EOF or the deadline; on the deadline kill the group. True if it timed out.

    ``watch`` is polled every :data:`WATCH_S`; when it returns True the group is killed
    (the command went over a limit the kernel does not enforce, e.g. the home size).
    """
    timed_out = False
    next_watch = time.perf_counter() + WATCH_S
    with selectors.DefaultSelector() as sel:
        for stream, cap in streams.items():
            sel.register(stream, selectors.EVENT_READ, cap)
        while sel.get_map():
            now = time.perf_counter()
            if watch is not None and now >= next_watch:
                next_watch = now + WATCH_S
                if watch():
                    _kill_group(proc.pid)
                    watch = None
            remaining = min(deadline - now, WATCH_S) if watch is not None else deadline - now
            if deadline - now <= 0:
                remaining = 0
            if remaining <= 0:
                if timed_out:
                    break  # pipes held open by something that survived the kill: give up reading
                timed_out = True
                _kill_group(proc.pid)
                deadline = time.perf_counter() + 2.0
                continue
            for key, _ in sel.select(max(remaining, 0)):
                chunk = os.read(key.fd, 65536)
                if chunk:
                    key.data.feed(chunk)
                else:
                    sel.unregister(key.fileobj)
    for stream in streams:
        stream.close()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        proc.wait()
    return timed_out


def _die_with_parent() -> list[str]:
    """A prefix that kills the fallback's shell when the harness dies (bwrap has ``--die-with-parent``)."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL", "--"] if setpriv else []


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
