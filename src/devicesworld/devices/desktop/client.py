"""The host side of one desktop: a long-lived sandbox and typed requests to its controller.

:class:`Desktop` starts ``bwrap … /usr/bin/python3 -u /opt/dw/ctl.py`` (the argv is built
by :func:`desktop_argv` from a :class:`DesktopConfig`), waits for the controller's
ready line, and then sends one JSON request at a time, reading the reply with a
timeout. A request that times out or a controller that died is a :class:`DesktopError`
with a code; callers (GUI devices) turn that into a failed ``ActionResult``.

The sandbox layout is the one measured in ``shared/notes/gui-desktop.md`` §2: host
``/usr`` read-only, a synthetic ``/etc`` (user 1000, hosts, machine-id) plus the few
host ``/etc`` entries GUI apps read, the host font cache (without it fontconfig
rebuilds its cache in every fresh home: seconds per start), a private ``/tmp`` (so
every desktop is display ``:0``), the device's home, no network, no capabilities.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from devicesworld.devices.cgroups import SandboxCgroup, sandbox_cgroup, setpriv_argv
from devicesworld.devices.desktop import messages as m
from devicesworld.devices.desktop.spawner import spawn
from devicesworld.devices.desktop.sysroot import ACCOUNTS, etc_args, owned_etc, run_as, usr_args
from devicesworld.devices.limits import Limits, default_limits

CONTROLLER = Path(__file__).with_name("inside_ctl.py")
JAIL = Path(__file__).with_name("inside_jail.py")
SYSTEM_PYTHON = "/usr/bin/python3"
HOME = "/home/user"
_ETC_HOST_ENTRIES = (
    "alternatives",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "mime.types",
    "fonts",
    "xdg",
    "gtk-3.0",
    "libreoffice",
    "ImageMagick-6",
    "dbus-1",
    "X11",
    "chromium",
    "chromium.d",
)
REQUIRED_TOOLS = ("Xvfb", "openbox", "dbus-daemon")

R = TypeVar("R", bound=BaseModel)

MAX_REPLY_BYTES = 64 << 20
"""The longest reply line read from a controller (a screenshot is a few MB); a longer one is
dropped up to its end and the request fails, so a flooding desktop cannot grow the harness."""


class DesktopError(Exception):
    """A desktop could not start or did not answer; ``code`` is an ActionResult error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


BWRAP_ENV = "DEVICESWORLD_BWRAP"
"""Which bubblewrap binary sandboxes use: a path or a name on ``PATH``; a path that does not
exist (``DEVICESWORLD_BWRAP=/nonexistent``) runs as if bubblewrap were not installed."""


def bwrap_binary() -> str | None:
    """The bubblewrap binary (``$DEVICESWORLD_BWRAP``, else ``bwrap`` on ``PATH``), or ``None``."""
    return shutil.which(os.environ.get(BWRAP_ENV, "").strip() or "bwrap")


def bwrap_missing() -> str | None:
    """Why there is no bubblewrap to start a sandbox with, or ``None``."""
    if bwrap_binary() is not None:
        return None
    chosen = os.environ.get(BWRAP_ENV, "").strip()
    if chosen:
        return f"bubblewrap ({BWRAP_ENV}={chosen}) is not found"
    return "bubblewrap (bwrap) is not installed"


def missing_stack() -> str | None:
    """Why no desktop can start on this machine (a missing tool or module), or ``None``."""
    if (problem := bwrap_missing()) is not None:
        return problem
    for tool in REQUIRED_TOOLS:
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install xvfb openbox dbus-x11 at-spi2-core)"
    if not Path("/usr/libexec/at-spi-bus-launcher").exists():
        return "at-spi2-core is not installed"
    if not Path(SYSTEM_PYTHON).exists():
        return f"{SYSTEM_PYTHON} is missing"
    probe = subprocess.run(
        [
            SYSTEM_PYTHON,
            "-c",
            "import Xlib.ext.xtest, PIL, gi; gi.require_version('Atspi', '2.0'); from gi.repository import Atspi",
        ],
        capture_output=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    if probe.returncode != 0:
        return "Debian's python3-xlib, python3-pil or python3-pyatspi is missing"
    return None


class DesktopConfig(BaseModel):
    """Where a desktop's writable places are on the host and how its sandbox is entered."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    home: Path = Field(description="Host folder bound at /home/user.")
    tmp: Path = Field(description="Host folder bound at /tmp (the X socket and buses live here).")
    binds: list[tuple[Path, str]] = Field(default_factory=list, description="More writable binds.")
    ro_binds: list[tuple[Path, str]] = Field(default_factory=list, description="More read-only binds.")
    width: int = Field(1280, ge=320, le=3840)
    height: int = Field(800, ge=240, le=2160)
    hostname: str = "desktop"
    env: dict[str, str] = Field(default_factory=dict, description="Extra environment of every app.")
    wrapper: list[str] = Field(
        default_factory=list, description="argv before bwrap (e.g. nsenter into a sized home's namespace)."
    )
    run_as: tuple[int, int] | None = Field(
        None, description="Host uid/gid bubblewrap runs as (root harness)."
    )
    bwrap: str = "bwrap"
    limits: Limits = Field(default_factory=default_limits, description="Bounds of every command run.")
    memory_kind: Literal["as", "data"] = Field(
        "as",
        description="How Limits.memory_mb bounds a command: address space (RLIMIT_AS), or private "
        "writable memory (RLIMIT_DATA, for Wine, which reserves most of its address space up front).",
    )
    fence: dict[str, list[str]] | None = Field(
        None,
        description="A Landlock filesystem policy ({exec, ro, rw}: paths) the controller enters once the "
        "desktop's core runs, so every app and command stays inside it (Windows: no Unix side).",
    )
    start_timeout_s: float = 120.0
    request_timeout_s: float = 60.0


_ETC: dict[str, Path] = {}
_ETC_LOCK = threading.Lock()


def desktop_etc(hostname: str) -> Path:
    """A synthetic read-only ``/etc`` per host name (passwd, group, hosts, machine-id), made once."""
    with _ETC_LOCK:
        found = _ETC.get(hostname)
        if found is not None and found.is_dir():
            return found
        etc = owned_etc(
            "dw-desk-etc-",
            {
                **ACCOUNTS,
                "hosts": f"127.0.0.1 localhost\n127.0.1.1 {hostname}\n::1 localhost\n",
                "hostname": hostname + "\n",
                "machine-id": "d3516e5c0b9b4f1e8e2a6f4b7c9d0e1f\n",
            },
            _ETC_HOST_ENTRIES,
        )
        _ETC[hostname] = etc
        return etc


def desktop_argv(cfg: DesktopConfig) -> list[str]:
    """The full argv that starts the sandbox with the controller as its first process."""
    args = [*cfg.wrapper, cfg.bwrap, *usr_args(), *etc_args(desktop_etc(cfg.hostname), _ETC_HOST_ENTRIES)]
    if Path("/var/cache/fontconfig").is_dir():
        args += ["--ro-bind", "/var/cache/fontconfig", "/var/cache/fontconfig"]
    args += ["--proc", "/proc", "--dev", "/dev"]
    args += ["--bind", str(cfg.home), HOME, "--bind", str(cfg.tmp), "/tmp"]
    for src, dest in cfg.binds:
        args += ["--bind", str(src), dest]
    for src, dest in cfg.ro_binds:
        args += ["--ro-bind", str(src), dest]
    args += ["--ro-bind", str(CONTROLLER), "/opt/dw/ctl.py", "--ro-bind", str(JAIL), "/opt/dw/jail.py"]
    args += [
        "--unshare-all",
        "--uid",
        "1000",
        "--gid",
        "1000",
        "--hostname",
        cfg.hostname,
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--clearenv",
    ]
    env = {
        "HOME": HOME,
        "USER": "user",
        "LOGNAME": "user",
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "SHELL": "/bin/bash",
        "PYTHONDONTWRITEBYTECODE": "1",
        "DW_SCREEN_W": str(cfg.width),
        "DW_SCREEN_H": str(cfg.height),
        **({"DW_FENCE": json.dumps(cfg.fence)} if cfg.fence else {}),
        **cfg.env,
    }
    for k, v in env.items():
        args += ["--setenv", k, v]
    args += ["--chdir", HOME, SYSTEM_PYTHON, "-u", "/opt/dw/ctl.py"]
    return args


class Desktop:
    """One running desktop. Not thread-safe for concurrent requests: one device, one caller."""

    def __init__(self, config: DesktopConfig) -> None:
        self.config = config
        self.proc: subprocess.Popen[bytes] | None = None
        self.ready: m.Ready | None = None
        self._next = 1
        self._buf = bytearray()
        self._scan = 0
        """Where the search for the next newline in ``_buf`` resumes (no rescanning: linear reads)."""
        self._skipping = False
        """Dropping an over-long line up to its newline."""
        self._stderr: deque[bytes] = deque(maxlen=64)
        self._lock = threading.Lock()
        self.started_s: float | None = None
        self.cgroup: SandboxCgroup | None = None
        """The sandbox's cgroup v2 group (a memory and process total), where the host delegates one."""
        self.last_encode_s = 0.0
        """PNG encoding and base64 of the last screenshot (the rest of its time is the grab and the pipe)."""

    # ---------------------------------------------------------------- life cycle
    def start(self) -> m.Ready:
        cfg = self.config
        t0 = time.perf_counter()
        ids = cfg.run_as
        argv = desktop_argv(cfg)
        self.cgroup = sandbox_cgroup(
            cfg.hostname, memory_bytes=cfg.limits.sandbox_memory_bytes, processes=cfg.limits.sandbox_processes
        )
        if self.cgroup is not None:
            # join the group before anything of the desktop starts (children inherit it); the switch
            # to the sandbox's user comes after the join, since that user may not write the group
            argv = [*self.cgroup.enter_argv(), *(setpriv_argv(ids) if ids else []), *argv]
            ids = None
        self.proc = spawn(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={},
            cwd="/",
            start_new_session=True,
            **run_as(ids),
        )
        threading.Thread(target=self._drain, name="desktop-stderr", daemon=True).start()
        try:
            reply = self._read_reply(0, cfg.start_timeout_s)
        except DesktopError:
            self.close()
            raise
        if not reply.get("ok"):
            self.close()
            raise DesktopError("DESKTOP_FAILED", str(reply.get("error")) + self._tail())
        self.ready = m.Ready.model_validate(reply["result"]["ready"])
        self.started_s = time.perf_counter() - t0
        return self.ready

    def _drain(self) -> None:
        proc = self.proc
        if proc is None or proc.stderr is None:
            return
        for line in proc.stderr:
            self._stderr.append(line[-400:])

    def _tail(self) -> str:
        text = b"".join(self._stderr).decode("utf-8", "replace").strip()
        return f" (stderr: {text[-800:]})" if text else ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        self.proc = None
        if proc.poll() is None and proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.write(b'{"id": -1, "cmd": "quit"}\n')
                proc.stdin.flush()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=2)
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        if self.cgroup is not None:
            self.cgroup.close()  # every process left in the sandbox's group ends with it
            self.cgroup = None

    # ---------------------------------------------------------------- protocol
    def _next_line(self) -> bytes | None:
        """The next complete line in the buffer, or ``None``; over-long lines are dropped."""
        while True:
            end = self._buf.find(b"\n", self._scan)
            if end < 0:
                self._scan = len(self._buf)
                if self._scan > MAX_REPLY_BYTES:
                    self._buf.clear()
                    self._scan = 0
                    self._skipping = True
                    raise DesktopError(
                        "DESKTOP_ERROR", f"the desktop sent a reply over {MAX_REPLY_BYTES:,} bytes; dropped"
                    )
                return None
            line = bytes(self._buf[:end])
            del self._buf[: end + 1]
            self._scan = 0
            if self._skipping:
                self._skipping = False
                continue
            return line

    def _read_reply(self, want: int, timeout: float) -> dict[str, Any]:
        proc = self.proc
        if proc is None or proc.stdout is None:
            raise DesktopError("DESKTOP_GONE", "the desktop is not running")
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                while (line := self._next_line()) is not None:
                    try:
                        msg = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(msg, dict) and msg.get("id") == want:
                        return msg
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DesktopError("TIMEOUT", f"the desktop did not answer within {timeout:g} s")
                if not sel.select(left):
                    continue
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    raise DesktopError("DESKTOP_GONE", "the desktop's controller exited" + self._tail())
                self._buf += chunk

    def request(self, cmd: str, args: dict[str, Any] | None = None, timeout: float | None = None) -> Any:
        """Send one command and return its ``result``; raises :class:`DesktopError`."""
        with self._lock:
            proc = self.proc
            if proc is None or proc.stdin is None or proc.poll() is not None:
                raise DesktopError("DESKTOP_GONE", "the desktop is not running" + self._tail())
            mid = self._next
            self._next += 1
            try:
                proc.stdin.write(json.dumps({"id": mid, "cmd": cmd, "args": args or {}}).encode() + b"\n")
                proc.stdin.flush()
            except (OSError, ValueError) as exc:
                raise DesktopError("DESKTOP_GONE", f"the desktop's controller is gone: {exc}") from None
            reply = self._read_reply(mid, timeout or self.config.request_timeout_s)
        if not reply.get("ok"):
            raise DesktopError("DESKTOP_ERROR", str(reply.get("error", "unknown error")))
        return reply.get("result")

    def _typed(self, model: type[R], cmd: str, args: dict[str, Any] | None = None, **kw: Any) -> R:
        raw = self.request(cmd, args, **kw)
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            raise DesktopError(
                "DESKTOP_ERROR", f"malformed {cmd} reply: {exc.error_count()} errors"
            ) from None

    # ---------------------------------------------------------------- typed commands
    def windows(self) -> list[m.Window]:
        return self._typed(m.Windows, "windows").windows

    def focused(self) -> m.Window | None:
        return next((w for w in self.windows() if w.focused), None)

    def focus_window(self, window_id: int) -> bool:
        return bool(self.request("focus_window", {"id": window_id}))

    def close_window(self, window_id: int) -> None:
        self.request("close_window", {"id": window_id})

    def screenshot(self, compress_level: int = 1) -> bytes:
        shot = self._typed(m.Screenshot, "screenshot", {"compress_level": compress_level})
        t0 = time.perf_counter()
        png = base64.b64decode(shot.png)
        self.last_encode_s = shot.encode_s + (time.perf_counter() - t0)
        return png

    def tree(
        self,
        *,
        budget_s: float = 3.0,
        max_nodes: int = 600,
        max_children: int = 200,
        max_cells: int = 120,
        fresh: bool = False,
    ) -> m.Tree:
        """The element tree; ``fresh`` reads every node from the apps instead of the controller's
        event-refreshed cache (a launch's settled-tree wait, a check's reading)."""
        args: dict[str, Any] = {
            "fresh": fresh,
            "budget_s": budget_s,
            "max_nodes": max_nodes,
            "max_children": max_children,
            "max_cells": max_cells,
        }
        return self._typed(m.Tree, "tree", args, timeout=budget_s + 30)

    def type_text(self, text: str, delay_s: float = 0.0) -> None:
        self.request("type", {"text": text, "delay_s": delay_s}, timeout=60 + len(text) * 0.05)

    def keys(self, keys: list[str], mode: str = "press") -> None:
        """Press (``press``), hold (``down``) or release (``up``) keys in order, e.g. ``["ctrl", "s"]``."""
        self.request("keys", {"keys": keys, "mode": mode})

    def pointer(self, op: str, **args: Any) -> None:
        """``op``: move, down, up, click (clicks, button), drag (from, to, steps), scroll (dx, dy)."""
        self.request("pointer", {"op": op, **args})

    def release_all(self) -> None:
        self.request("release_all")

    def launch(
        self,
        argv: list[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        wait_window_s: float = 0.0,
        title_contains: str | None = None,
    ) -> m.Launched:
        args = {"argv": argv, "env": env or {}, "cwd": cwd, "timeout_s": wait_window_s}
        if title_contains:
            args["title_contains"] = title_contains
        return self._typed(m.Launched, "launch", args, timeout=wait_window_s + 30)

    def kill_apps(self) -> None:
        self.request("kill_apps", timeout=60)

    def stop_app(self, pid: int, remove: list[str] | None = None) -> bool:
        """Kill the app :meth:`launch` started as ``pid`` (its whole session), then delete, inside the
        sandbox, what matches the glob patterns in ``remove``; True if it was running."""
        result = self.request("stop_app", {"pid": pid, "remove": remove or []}, timeout=30)
        return bool(result.get("stopped"))

    def start_shell(
        self,
        programs: list[m.ShellProgram],
        *,
        keep: list[str] | None = None,
        stop: list[str] | None = None,
        timeout_s: float = 30.0,
    ) -> m.ShellStarted:
        """Start the desktop's own programs (panel, icons): kept across :meth:`kill_apps`, their
        windows left out of :meth:`windows`, apps they open counted as launched. ``keep``: process
        names of services they need (kept by ``kill_apps``); ``stop``: services started on their
        behalf to stop once they are up."""
        args = {
            "programs": [p.model_dump() for p in programs],
            "keep": keep or [],
            "stop": stop or [],
            "timeout_s": timeout_s,
        }
        return self._typed(m.ShellStarted, "start_shell", args, timeout=timeout_s * 2 + 30)

    def run(
        self,
        command: str | None = None,
        *,
        timeout_s: float = 30.0,
        cwd: str | None = None,
        argv: list[str] | None = None,
        landlock: dict[str, list[str]] | None = None,
        jail: bool = True,
        output_bytes: int | None = None,
        env: dict[str, str] | None = None,
        memory_kind: str | None = None,
    ) -> m.RunResult:
        """Run ``command`` (bash) or ``argv`` under the desktop's limits (:mod:`.inside_jail`).

        ``landlock``: the only paths the command may execute (``exec``), read (``ro``) and
        write (``rw``). ``jail=False`` is for the harness's own commands whose processes
        must outlive them (Wine's services); never for an agent's command. Output is kept
        head and tail, ``output_bytes`` (default ``Limits.output_kib``) each.
        """
        lim = self.config.limits
        timeout_s = min(timeout_s, lim.command_s)
        args: dict[str, Any] = {
            "command": command,
            "argv": argv,
            "timeout_s": timeout_s,
            "cwd": cwd,
            "jail": jail,
            "landlock": landlock,
            "env": env or {},
            "memory_kind": memory_kind or self.config.memory_kind,
            "limits": {
                "memory_bytes": lim.memory_bytes,
                "processes": lim.processes,
                "file_bytes": lim.file_mb << 20,
                "cpu_s": lim.cpu_s,
                "output_bytes": output_bytes or lim.output_bytes,
            },
        }
        return self._typed(m.RunResult, "run", args, timeout=timeout_s + 45)

    def forward(self, port: int, unix_path: str) -> None:
        """Inside the sandbox, pass connections to 127.0.0.1:``port`` on to the Unix socket ``unix_path``."""
        self.request("forward", {"port": port, "path": unix_path})

    def wait_idle(self, *, timeout_s: float = 30.0, quiet_s: float = 0.4) -> m.Idle:
        return self._typed(
            m.Idle, "wait_idle", {"timeout_s": timeout_s, "quiet_s": quiet_s}, timeout=timeout_s + 30
        )

    def settle(
        self, *, quiet_s: float = 0.05, timeout_s: float = 4.0, per_app: list[tuple[str, float]] | None = None
    ) -> m.Idle:
        """Until nothing was redrawn and the apps were idle for ``quiet_s`` (X damage events and the
        apps' CPU, see ``inside_ctl.settle``), at most ``timeout_s``. ``per_app``: (text, quiet)
        pairs; the first whose text is in the focused window's class or title sets the quiet time."""
        args = {"timeout_s": timeout_s, "quiet_s": quiet_s, "per_app": [list(p) for p in per_app or []]}
        return self._typed(m.Idle, "settle", args, timeout=timeout_s + 30)

    def wait_window(self, pred: Any, timeout_s: float = 30.0, step_s: float = 0.05) -> m.Window | None:
        """The first window for which ``pred(window)`` holds, polling until ``timeout_s``."""
        end = time.monotonic() + timeout_s
        while True:
            for w in self.windows():
                if pred(w):
                    return w
            if time.monotonic() >= end:
                return None
            time.sleep(step_s)
