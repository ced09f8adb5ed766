"""The controller that runs *inside* a desktop sandbox (Debian's ``/usr/bin/python3``).

Why a process inside: the X socket and the accessibility bus live in the sandbox's own
``/tmp`` and network namespace, libxcb cannot reach a socket by path, and MIT-SHM does
not cross IPC namespaces; so screenshots, the element tree and XTest input are done
here, in-process (sub-millisecond input, ~30 ms screenshots). It uses only what Debian
ships for the system Python (python3-xlib, python3-gi with Atspi, python3-pil): the
harness's own virtualenv cannot import ``gi``. This file is never imported by the
harness; it is bound read-only into the sandbox and run as a script.

Protocol: one JSON object per line on stdin ``{"id": n, "cmd": name, "args": {...}}``,
one reply per line on stdout ``{"id": n, "ok": true, "result": ...}`` or
``{"id": n, "ok": false, "error": "..."}``. The first line written is
``{"id": 0, "ok": true, "result": {"ready": ...}}`` once the display, the session bus,
the window manager and the accessibility bus are up (or ``ok: false`` with why).
Everything the controller starts shares the sandbox's PID namespace and dies with it.

Out of the agent's reach: the controller makes itself non-dumpable, so a process of the
same uid cannot ``ptrace`` it or open its ``/proc/<pid>/{mem,fd}``; every ``run``
command goes through ``inside_jail.py`` (limits, its own process tree, Landlock), and
its output is kept head-and-tail (``[cut: N bytes]``) so no command can flood the pipe
to the harness. Windows and accessible apps are tagged ``launched`` only when their
owning process (the X server's record of the client's socket peer, X-Resource; the
accessibility bus's record of the app's connection) is in the session of an app this
controller launched: a window made from the agent's shell never is.
"""

import base64
import contextlib
import glob
import io
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import IO, Any

Args = dict[str, Any]
"""A command's arguments, as the harness sends them (JSON)."""

W = int(os.environ.get("DW_SCREEN_W", "1280"))
H = int(os.environ.get("DW_SCREEN_H", "800"))
RUNTIME = "/tmp/xdg-runtime"
BUS = "unix:path=/tmp/dbus-session"
WM_FLAG = "/tmp/.wm-ready"
LOG = "/tmp/.desktop-log"
JAIL = "/opt/dw/jail.py"
PR_SET_DUMPABLE = 4

_procs: dict[int, subprocess.Popen[bytes]] = {}  # pid -> Popen of launched apps
_core: list[subprocess.Popen[bytes]] = []  # Xvfb, dbus, openbox, at-spi: killed last
_shell: dict[
    int, subprocess.Popen[bytes]
] = {}  # pid -> Popen of the desktop's own programs (panel, icons): kept by kill_apps
_shell_keep: set[str] = set()  # names (comm) of services the shell needs, kept by kill_apps (xfconfd)
_display: Any = None
_lock = threading.Lock()


def _x_errors() -> tuple[type[BaseException], ...]:
    """What an X request may raise: the window went away or the server refused (``XError``), the
    connection dropped, or an extension the server lacks (``AttributeError``, ``ImportError``)."""
    from Xlib import error

    return (
        error.XError,
        error.DisplayError,
        error.ConnectionClosedError,
        OSError,
        AttributeError,
        ImportError,
    )


def _atspi_errors() -> tuple[type[BaseException], ...]:
    """What an AT-SPI call may raise: the app answered with an error or is gone (``GLib.Error``), or
    the object is defunct and its binding returns nothing usable (``AttributeError``, ``TypeError``,
    ``ValueError``, ``RuntimeError``)."""
    from gi.repository import GLib

    return (GLib.Error, RuntimeError, AttributeError, TypeError, ValueError)


def _log_file() -> IO[bytes]:
    return open(LOG, "ab", buffering=0)


def _wait(pred: Callable[[], object], timeout: float, step: float = 0.02) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return bool(pred())


# ----------------------------------------------------------------------- start-up
def start_desktop() -> dict[str, Any]:
    t0 = time.monotonic()
    times = {}
    os.makedirs("/tmp/.X11-unix", exist_ok=True)
    os.chmod("/tmp/.X11-unix", 0o1777)
    os.makedirs(RUNTIME, exist_ok=True)
    os.chmod(RUNTIME, 0o700)
    r, w = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", ":0", "-screen", "0", f"{W}x{H}x24", "-nolisten", "tcp", "-dpi", "96", "-displayfd", str(w)],
        pass_fds=(w,),
        stdout=subprocess.DEVNULL,
        stderr=_log_file(),
    )
    os.close(w)
    _core.append(xvfb)
    buf = b""
    with os.fdopen(r, "rb", buffering=0) as pipe:
        while not buf.endswith(b"\n"):
            chunk = pipe.read(16)
            if not chunk:
                break
            buf += chunk
    if not buf.strip():
        raise RuntimeError("Xvfb did not report its display")
    os.environ["DISPLAY"] = ":" + buf.decode().strip()
    times["xvfb"] = time.monotonic() - t0
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = BUS
    os.environ["XDG_RUNTIME_DIR"] = RUNTIME
    os.environ.setdefault("NO_AT_BRIDGE", "0")
    os.environ["GTK_MODULES"] = "gail:atk-bridge"
    _gtk_settings()
    os.environ["GNOME_ACCESSIBILITY"] = "1"
    os.environ["QT_ACCESSIBILITY"] = "1"
    r, w = os.pipe()
    dbus = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=" + BUS, f"--print-address={w}"],
        pass_fds=(w,),
        stdout=subprocess.DEVNULL,
        stderr=_log_file(),
    )
    os.close(w)
    _core.append(dbus)
    with os.fdopen(r, "rb", buffering=0) as pipe:
        pipe.readline()
    times["dbus"] = time.monotonic() - t0
    if os.path.exists(WM_FLAG):
        os.unlink(WM_FLAG)
    wm = subprocess.Popen(
        ["openbox", "--sm-disable", "--startup", "touch " + WM_FLAG],
        stdout=subprocess.DEVNULL,
        stderr=_log_file(),
    )
    _core.append(wm)
    if not _wait(lambda: os.path.exists(WM_FLAG), 60):
        raise RuntimeError("openbox did not start")
    times["wm"] = time.monotonic() - t0
    spi = subprocess.Popen(
        ["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"],
        stdout=subprocess.DEVNULL,
        stderr=_log_file(),
    )
    _core.append(spi)
    d = display()
    atom = d.intern_atom("AT_SPI_BUS")
    root = d.screen().root
    if not _wait(lambda: root.get_full_property(atom, 0) is not None, 30, 0.01):
        raise RuntimeError("the accessibility bus did not start")
    times["atspi"] = time.monotonic() - t0
    # listen to the accessibility events before any app starts: an app learns which events
    # have listeners when its bridge starts, and only then sends them (see _TreeCache)
    # no AT-SPI (gi missing: ImportError, first, as naming GLib's errors needs gi; no Atspi typelib:
    # ValueError) or the bus refused: walks still work, they only read every node afresh
    try:
        _cache.listen(atspi())
    except ImportError:
        pass
    except _atspi_errors():
        pass
    times["listen"] = time.monotonic() - t0
    return {"display": os.environ["DISPLAY"], "width": W, "height": H, "seconds": times}


GTK_SETTINGS = """[Settings]
gtk-enable-animations=false
gtk-cursor-blink=false
"""
"""GTK without animations and with a steady caret: an overlay scrollbar's fade and a smooth scroll
redrew a text view every frame for ~0.25 s after a key (every settle waited for them), and a
blinking caret made two screenshots of an unchanged screen differ."""


def _gtk_settings() -> None:
    """Put :data:`GTK_SETTINGS` where GTK 3 reads system settings (a home's own file still wins)."""
    folder = "/tmp/.dw-xdg"
    os.makedirs(folder + "/gtk-3.0", exist_ok=True)
    with open(folder + "/gtk-3.0/settings.ini", "w") as f:
        f.write(GTK_SETTINGS)
    os.environ["XDG_CONFIG_DIRS"] = folder + ":" + os.environ.get("XDG_CONFIG_DIRS", "/etc/xdg")


def display() -> Any:
    global _display
    if _display is None:
        from Xlib import display as xdisplay

        _display = xdisplay.Display()
    return _display


# ----------------------------------------------------------------------- windows
def _prop(win: Any, name: str, kind: int = 0) -> Any:
    d = display()
    try:
        p = win.get_full_property(d.intern_atom(name), kind)
    except _x_errors():
        return None
    return None if p is None else p.value


def _title(win: Any) -> str:
    v = _prop(win, "_NET_WM_NAME")
    if v is None:
        v = _prop(win, "WM_NAME")
    if v is None:
        return ""
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


def _launched_pid(pid: int | None) -> bool:
    """True when ``pid`` is in the session of an app :func:`launch` started (its own session), of a
    shell program (an app opened from the panel's menu or a desktop icon), or is a service the
    session bus started (our own session, not a core process): not a process of an agent's command."""
    if not pid:
        return False
    try:
        sid = os.getsid(int(pid))
    except OSError:
        return False
    if sid in _procs or sid in _shell:
        return True
    return bool(_shell) and sid == os.getsid(0) and int(pid) not in {os.getpid(), *(p.pid for p in _core)}


def _shell_pid(pid: int | None) -> bool:
    """True when ``pid`` is a shell program (the panel, the desktop icons): its windows are not app windows."""
    return pid is not None and bool(pid) and int(pid) in _shell


_xres: list[Any] = []


def _owner_pid(wid: int) -> int | None:
    """The pid of the X client that created window ``wid``, as the X server knows it (not _NET_WM_PID,
    which any client may set); ``None`` when the server cannot tell."""
    d = display()
    if not _xres:
        try:
            from Xlib.ext import res

            d.res_query_version()
            _xres.append(res)
        except _x_errors():
            _xres.append(None)
    res = _xres[0]
    if res is None:
        return None
    try:
        reply = d.res_query_client_ids([{"client": int(wid), "mask": res.LocalClientPIDMask}])
        for item in reply.ids:
            if item.spec.mask & res.LocalClientPIDMask and item.value:
                return int(item.value[0])
    except _x_errors():
        return None
    return None


def windows() -> list[Any]:
    d = display()
    root = d.screen().root
    ids = _prop(root, "_NET_CLIENT_LIST") or []
    active = _prop(root, "_NET_ACTIVE_WINDOW")
    active_id = int(active[0]) if active is not None and len(active) else 0
    out: list[Any] = []
    for wid in ids:
        win = d.create_resource_object("window", int(wid))
        try:
            geo = win.get_geometry()
            pos = win.translate_coords(root, 0, 0)
            attrs = win.get_attributes()
            cls = win.get_wm_class() or ("", "")
            pid = _prop(win, "_NET_WM_PID")
        except _x_errors():
            continue
        owner = _owner_pid(wid)
        if _shell_pid(owner) or (owner is None and pid is not None and len(pid) and _shell_pid(pid[0])):
            continue  # the panel and the desktop window are the desktop itself, not app windows
        out.append(
            {
                "id": int(wid),
                "title": _title(win),
                "app": cls[1] if len(cls) > 1 else "",
                "instance": cls[0] if cls else "",
                "pid": int(pid[0]) if pid is not None and len(pid) else None,
                "box": [-pos.x, -pos.y, geo.width, geo.height],
                "mapped": attrs.map_state == 2,
                "focused": int(wid) == active_id,
                "owner_pid": owner,
                "launched": _launched_pid(owner),
            }
        )
    return out


def focus_window(args: Args) -> bool:
    from Xlib import X
    from Xlib.protocol import event

    d = display()
    root = d.screen().root
    win = d.create_resource_object("window", int(args["id"]))
    ev = event.ClientMessage(
        window=win, client_type=d.intern_atom("_NET_ACTIVE_WINDOW"), data=(32, [2, X.CurrentTime, 0, 0, 0])
    )
    root.send_event(ev, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
    d.sync()
    return _wait(lambda: any(w["focused"] and w["id"] == int(args["id"]) for w in windows()), 3)


def close_window(args: Args) -> bool:
    from Xlib import X
    from Xlib.protocol import event

    d = display()
    root = d.screen().root
    win = d.create_resource_object("window", int(args["id"]))
    ev = event.ClientMessage(
        window=win, client_type=d.intern_atom("_NET_CLOSE_WINDOW"), data=(32, [0, 0, 0, 0, 0])
    )
    root.send_event(ev, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
    d.sync()
    return True


# ----------------------------------------------------------------------- screenshot
def _grab() -> Any:
    from Xlib import X

    d = display()
    root = d.screen().root
    img = root.get_image(0, 0, W, H, X.ZPixmap, 0xFFFFFFFF)
    return img.data


def screenshot(args: Args) -> dict[str, Any]:
    from PIL import Image

    t0 = time.monotonic()
    data = _grab()
    t1 = time.monotonic()
    im = Image.frombytes("RGB", (W, H), data, "raw", "BGRX")
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=int(args.get("compress_level", 1)))
    png = base64.b64encode(buf.getvalue()).decode("ascii")
    t2 = time.monotonic()
    return {"png": png, "width": W, "height": H, "grab_s": t1 - t0, "encode_s": t2 - t1}


def _screen_image() -> Any:
    from PIL import Image

    return Image.frombytes("RGB", (W, H), _grab(), "raw", "BGRX")


def _changed_area(a: Any, b: Any) -> int:
    """Pixels in the bounding box of what differs between two screenshots (0: identical)."""
    from PIL import ImageChops

    box = ImageChops.difference(a, b).getbbox()
    return 0 if box is None else (box[2] - box[0]) * (box[3] - box[1])


# ----------------------------------------------------------------------- input
_KEY_ALIASES = {
    "ctrl": "Control_L",
    "control": "Control_L",
    "shift": "Shift_L",
    "alt": "Alt_L",
    "super": "Super_L",
    "win": "Super_L",
    "meta": "Super_L",
    "cmd": "Super_L",
    "enter": "Return",
    "return": "Return",
    "esc": "Escape",
    "escape": "Escape",
    "tab": "Tab",
    "backspace": "BackSpace",
    "delete": "Delete",
    "del": "Delete",
    "insert": "Insert",
    "home": "Home",
    "end": "End",
    "pageup": "Page_Up",
    "page_up": "Page_Up",
    "pagedown": "Page_Down",
    "page_down": "Page_Down",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "space": "space",
    "menu": "Menu",
    "printscreen": "Print",
}
_spare = None  # keycodes with no keysym on the server's map
_bound: dict[int, int] = {}  # keysym -> spare keycode we bound it to (remembered, reused)
_held: set[int] = set()


def _keysym_of_name(name: str) -> Any:
    from Xlib import XK

    n = _KEY_ALIASES.get(name.lower(), name)
    if len(n) == 1:
        return _keysym_of_char(n)
    if n.lower().startswith("f") and n[1:].isdigit():
        n = "F" + n[1:]
    ks = XK.string_to_keysym(n)
    if ks == 0:
        ks = XK.string_to_keysym(n.capitalize())
    if ks == 0:
        raise ValueError(f"unknown key {name!r}")
    return ks


def _keysym_of_char(c: str) -> Any:
    from Xlib import XK

    if c == "\n":
        return XK.string_to_keysym("Return")
    if c == "\t":
        return XK.string_to_keysym("Tab")
    o = ord(c)
    if 0x20 <= o <= 0x7E or 0xA0 <= o <= 0xFF:
        return o
    return 0x01000000 | o


def _spare_codes() -> Any:
    global _spare
    if _spare is None:
        d = display()
        lo, hi = d.display.info.min_keycode, d.display.info.max_keycode
        mapping = d.get_keyboard_mapping(lo, hi - lo + 1)
        _spare = [lo + i for i, syms in enumerate(mapping) if not any(syms)]
    return _spare


def _lookup(ks: int) -> tuple[int, int] | None:
    """(keycode, needs_shift) for a keysym on the current map, or None."""
    if ks in _bound:
        return _bound[ks], False
    d = display()
    for code, index in d.keysym_to_keycodes(ks):
        if index in (0, 1):
            return code, index == 1
    return None


def _bind(keysyms: Any) -> None:
    """Bind every keysym that has no key to a spare keycode, all at once, then let clients catch up."""
    d = display()
    missing = [k for k in dict.fromkeys(keysyms) if _lookup(k) is None]
    if not missing:
        return
    spare = _spare_codes()
    if len(missing) > len(spare):
        raise ValueError("too many distinct characters for one batch")
    in_use = set(keysyms)
    free = [c for c in spare if c not in _bound.values()]
    if len(free) < len(missing):  # recycle codes of keysyms this batch does not need
        for ks, code in list(_bound.items()):
            if ks not in in_use:
                del _bound[ks]
                free.append(code)
            if len(free) >= len(missing):
                break
    for ks in missing:
        code = free.pop(0)
        d.change_keyboard_mapping(code, [(ks, ks, ks, ks)])
        _bound[ks] = code
    d.sync()
    time.sleep(0.06)  # every client handles MappingNotify before the first event that needs it


def _fake(kind: str, detail: int, x: int = 0, y: int = 0, sync: bool = True) -> None:
    from Xlib import X
    from Xlib.ext import xtest

    d = display()
    if kind == "motion":
        xtest.fake_input(d, X.MotionNotify, x=int(x), y=int(y))
    else:
        code = {"kdown": X.KeyPress, "kup": X.KeyRelease, "bdown": X.ButtonPress, "bup": X.ButtonRelease}[
            kind
        ]
        xtest.fake_input(d, code, detail)
    if sync:
        d.sync()
    else:
        d.flush()


def _code(ks: int) -> tuple[int, int]:
    found = _lookup(ks)
    if found is None:
        _bind([ks])
        found = _lookup(ks)
    if found is None:
        raise RuntimeError(f"no keycode could be bound to keysym {ks:#x}")
    return found


def _tap_keysym(ks: int, delay: float) -> None:
    code, shift = _code(ks)
    shift_code = _code(_keysym_of_name("shift"))[0]
    # no round trip per event: the server runs a client's requests in order (type_text syncs once at the end)
    if shift:
        _fake("kdown", shift_code, sync=False)
    _fake("kdown", code, sync=False)
    _fake("kup", code, sync=False)
    if shift:
        _fake("kup", shift_code, sync=False)
    if delay:
        time.sleep(delay)


def type_text(args: Args) -> dict[str, int]:
    _forget_damage()
    text = str(args["text"])
    delay = float(args.get("delay_s", 0))
    syms = [_keysym_of_char(c) for c in text]
    batch = max(1, len(_spare_codes()) - 1)
    i = 0
    while i < len(syms):
        # the longest run whose unmapped keysyms fit in the spare codes
        need: set[int] = set()
        j = i
        while j < len(syms):
            ks = syms[j]
            if ks not in need and ks not in _bound and _lookup(ks) is None:
                if len(need) >= batch:
                    break
                need.add(ks)
            j += 1
        _bind(list(need))
        for ks in syms[i:j]:
            _tap_keysym(ks, delay)
        display().sync()  # before a later batch rebinds a spare code these keys still use
        i = j
    return {"typed": len(text)}


def keys(args: Args) -> dict[str, list[Any]]:
    _forget_damage()
    names = list(args["keys"])
    mode = args.get("mode", "press")
    syms = [_keysym_of_name(n) for n in names]
    _bind(syms)
    codes = [_code(k)[0] for k in syms]
    if mode in ("press", "down"):
        for c in codes:
            _fake("kdown", c)
            _held.add(c)
    if mode in ("press", "up"):
        for c in reversed(codes):
            _fake("kup", c)
            _held.discard(c)
    return {"keys": names, "mode": mode}


def pointer(args: Args) -> dict[str, Any]:
    _forget_damage()
    op = args["op"]
    button = {"left": 1, "middle": 2, "right": 3}.get(args.get("button", "left"), 1)
    if "x" in args and args["x"] is not None:
        _fake("motion", 0, args["x"], args["y"])
    if op == "move":
        return {}
    if op == "down":
        _fake("bdown", button)
    elif op == "up":
        _fake("bup", button)
    elif op == "click":
        for k in range(int(args.get("clicks", 1))):
            _fake("bdown", button)
            _fake("bup", button)
            if k + 1 < int(args.get("clicks", 1)):
                time.sleep(0.03)
    elif op == "drag":
        x0, y0 = args["from"]
        x1, y1 = args["to"]
        steps = max(2, int(args.get("steps", 20)))
        _fake("motion", 0, x0, y0)
        _fake("bdown", button)
        for s in range(1, steps + 1):
            _fake("motion", 0, x0 + (x1 - x0) * s / steps, y0 + (y1 - y0) * s / steps)
            time.sleep(0.01)
        time.sleep(0.05)
        _fake("bup", button)
    elif op == "scroll":
        dy, dx = int(args.get("dy", 0)), int(args.get("dx", 0))
        for _ in range(abs(dy)):
            b = 5 if dy > 0 else 4
            _fake("bdown", b)
            _fake("bup", b)
        for _ in range(abs(dx)):
            b = 7 if dx > 0 else 6
            _fake("bdown", b)
            _fake("bup", b)
    else:
        raise ValueError(f"unknown pointer op {op!r}")
    return {}


def release_all(args: Args) -> dict[str, Any]:
    for c in list(_held):
        _fake("kup", c)
    _held.clear()
    for b in (1, 2, 3):
        with contextlib.suppress(*_x_errors()):  # the X server refused or went away
            _fake("bup", b)
    return {}


# ----------------------------------------------------------------------- apps
def launch(args: Args) -> dict[str, Any]:
    argv = [str(a) for a in args["argv"]]
    if _ns_fds:
        # every app of a desktop whose server hides paths starts in that server's namespaces: the
        # server may ptrace (ReadProcessMemory) only processes of its own user namespace or below
        argv = [sys.executable, JAIL, "--in-ns", *argv]
    env = dict(os.environ)
    env.update({str(k): str(v) for k, v in (args.get("env") or {}).items()})
    before = {w["id"] for w in windows()}
    proc = subprocess.Popen(
        argv,
        env=env,
        cwd=args.get("cwd") or os.environ.get("HOME", "/"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=_log_file(),
        start_new_session=True,
        pass_fds=tuple(_ns_fds),
    )
    _procs[proc.pid] = proc
    timeout = float(args.get("timeout_s", 0))
    win = None
    if timeout > 0:
        title = args.get("title_contains")

        def new_window() -> bool:
            nonlocal win
            for w in windows():
                if w["id"] not in before and w["mapped"] and (not title or title in w["title"]):
                    win = w
                    return True
            return False

        _wait(new_window, timeout, 0.03)
    return {"pid": proc.pid, "window": win, "exited": proc.poll()}


def start_shell(args: Args) -> dict[str, Any]:
    """Start the desktop's own programs once (a panel with the application menu and a clock, the
    desktop icons): each in its own session, kept by :func:`kill_apps`, killed at exit. Waits
    (bounded) until each has mapped a window and the screen is still, so the first screenshot
    shows them; then stops the services named in ``stop`` that a shell program started through the
    session bus (the file manager's daemon, which would take over the ``files`` app's launch)."""
    timeout = float(args.get("timeout_s", 30))
    _shell_keep.update(str(c) for c in args.get("keep") or [])
    started = []
    for prog in args.get("programs") or []:
        env = dict(os.environ)
        env.update({str(k): str(v) for k, v in (prog.get("env") or {}).items()})
        argv = [str(a) for a in prog["argv"]]
        fds = tuple(_ns_fds) if prog.get("in_server_namespaces") else ()
        if fds:  # as launch: in the server's namespaces (a Wine shell's apps must be readable)
            argv = [sys.executable, JAIL, "--in-ns", *argv]
        proc = subprocess.Popen(
            argv,
            env=env,
            cwd=os.environ.get("HOME", "/"),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=_log_file(),
            start_new_session=True,
            pass_fds=fds,
        )
        _shell[proc.pid] = proc
        started.append(proc.pid)
    d = display()
    root = d.screen().root

    def mapped() -> Any:
        owners = set()
        for wid in _prop(root, "_NET_CLIENT_LIST") or []:
            owner = _owner_pid(wid)
            if owner is None:
                win = d.create_resource_object("window", int(wid))
                pid = _prop(win, "_NET_WM_PID")
                owner = int(pid[0]) if pid is not None and len(pid) else None
            owners.add(owner)
        return all(pid in owners or _shell[pid].poll() is not None for pid in started)

    ok = _wait(mapped, timeout, 0.05)
    idle = wait_idle({"timeout_s": max(1.0, timeout / 3), "quiet_s": float(args.get("quiet_s", 0.5))})
    stop = {str(c) for c in args.get("stop") or []}
    stopped = 0
    if stop:
        me = os.getsid(0)
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/comm") as f:
                    comm = f.read().strip()
                if comm in stop and os.getsid(int(name)) == me:
                    os.kill(int(name), signal.SIGKILL)
                    stopped += 1
            except OSError:
                pass
    return {
        "pids": started,
        "mapped": ok,
        "idle": idle["idle"],
        "exited": [pid for pid in started if _shell[pid].poll() is not None],
        "stopped": stopped,
    }


def kill_apps(args: Args) -> dict[str, int]:
    for proc in list(_procs.values()):
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    for proc in list(_procs.values()):
        # one stuck in the kernel past SIGKILL (a hung mount) is left to the sweep below
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
    _procs.clear()
    # anything else the apps left (daemonised helpers): every process but the core and us
    keep = {os.getpid(), *(p.pid for p in _core), *_shell}
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) not in keep and int(name) != 1:
            try:
                with open(f"/proc/{name}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                if int(name) in keep or ppid == 0:
                    continue
                with open(f"/proc/{name}/comm") as f:
                    comm = f.read().strip()
                if comm in ("Xvfb", "dbus-daemon", "openbox", "at-spi-bus-laun", "at-spi2-registr", "bwrap"):
                    continue
                if comm in _shell_keep:
                    continue
                os.kill(int(name), signal.SIGKILL)
            except (OSError, ValueError, IndexError):
                pass
    release_all({})
    _cache.clear()
    _wait(lambda: not [w for w in windows() if w["mapped"]], 5)
    return {"windows": len(windows())}


def stop_app(args: Args) -> dict[str, bool]:
    """Kill one app :func:`launch` started (its whole session) and wait until its windows are gone:
    a pooled desktop's pre-started app that the task did not ask for (see the pool's warm office)."""
    pid = int(args["pid"])
    proc = _procs.pop(pid, None)
    if proc is None:
        return {"stopped": False}
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
    for name in os.listdir("/proc"):  # a helper that left the process group but not the session
        if name.isdigit():
            with contextlib.suppress(OSError):
                if os.getsid(int(name)) == pid:
                    os.kill(int(name), signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):  # stuck in the kernel past SIGKILL
        proc.wait(timeout=5)
    _cache.clear()
    for pattern in args.get("remove") or []:  # what the killed app leaves behind (a lock, its temp folders)
        for found in glob.glob(str(pattern)):
            with contextlib.suppress(OSError):
                if os.path.isdir(found) and not os.path.islink(found):
                    shutil.rmtree(found, ignore_errors=True)
                else:
                    os.unlink(found)
    gone = _wait(
        lambda: not [w for w in windows() if w["mapped"] and w["owner_pid"] and _sid(w["owner_pid"]) == pid],
        5,
    )
    return {"stopped": True, "windows_gone": gone}


def _sid(pid: int) -> Any:
    try:
        return os.getsid(int(pid))
    except OSError:
        return None


class _Ends:
    """The first and last ``keep`` bytes of a stream and how many bytes it had in all (tool mode's
    twin is ``linux/sandbox.py: _Capture``; this file imports nothing of the project, see the module doc)."""

    def __init__(self, keep: Any) -> None:
        self.keep = keep
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, chunk: Any) -> None:
        self.total += len(chunk)
        room = self.keep - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail += chunk
            if len(self.tail) > 2 * self.keep:  # trimmed in batches: amortised linear
                del self.tail[: len(self.tail) - self.keep]

    def text(self) -> tuple[str, int]:
        tail = bytes(self.tail[-self.keep :]) if self.tail else b""
        cut = self.total - len(self.head) - len(tail)
        if cut <= 0:
            return (bytes(self.head) + tail).decode("utf-8", "replace"), 0
        note = f"\n[cut: {cut} bytes of {self.total} not shown; print less at a time (head, tail, grep, sed -n)]\n"
        return bytes(self.head).decode("utf-8", "replace") + note + tail.decode("utf-8", "replace"), cut


def run(args: Args) -> dict[str, Any]:
    """One command through the jail (limits, own process tree), its output kept head and tail.

    ``jail: false`` (harness-internal commands only: Wine's services must outlive the one
    that starts them) runs it directly, still with capped output and a killed group.
    """
    import selectors

    lim = args.get("limits") or {}
    keep = int(lim.get("output_bytes", 65536))
    timeout = float(args.get("timeout_s", 30))
    cwd = args.get("cwd") or os.environ.get("HOME", "/")
    argv = [str(a) for a in args["argv"]] if args.get("argv") else ["/bin/bash", "-c", str(args["command"])]
    jailed = bool(args.get("jail", True))
    status_r, status_w = os.pipe()
    if jailed:
        spec = {
            "memory_bytes": int(lim.get("memory_bytes", 1 << 30)),
            "processes": int(lim.get("processes", 256)),
            "file_bytes": int(lim.get("file_bytes", 512 << 20)),
            "cpu_s": int(lim.get("cpu_s", 120)),
            "timeout_s": timeout,
            "cwd": cwd,
            "status_fd": status_w,
            "landlock": args.get("landlock"),
            "memory_kind": args.get("memory_kind", "as"),
        }
        argv = [sys.executable, JAIL, json.dumps(spec), *argv]
    env = dict(os.environ)
    env.update({str(k): str(v) for k, v in (args.get("env") or {}).items()})
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # only the jail gets the status pipe: an unjailed command's lasting children (Wine's
        # services) would otherwise hold it open until the deadline
        pass_fds=(status_w,) if jailed else (),
        start_new_session=True,
    )
    os.close(status_w)
    out, err, status = _Ends(keep), _Ends(keep), _Ends(1 << 16)
    deadline = time.monotonic() + timeout + (15 if jailed else 0)
    timed_out = False
    assert proc.stdout is not None and proc.stderr is not None  # both are pipes
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ, out)
        sel.register(proc.stderr, selectors.EVENT_READ, err)
        if jailed:
            sel.register(status_r, selectors.EVENT_READ, status)
        while sel.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                with contextlib.suppress(OSError):
                    os.killpg(proc.pid, signal.SIGKILL)
                break
            for key, _ in sel.select(min(left, 1.0)):
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    key.data.feed(chunk)
                else:
                    sel.unregister(key.fileobj)
    for stream in (proc.stdout, proc.stderr):
        stream.close()
    os.close(status_r)
    try:
        code = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
    stdout, cut_out = out.text()
    stderr, cut_err = err.text()
    verdict = {}
    if args.get("jail", True):
        with contextlib.suppress(ValueError):
            verdict = json.loads(status.text()[0] or "{}")
        timed_out = timed_out or bool(verdict.get("timed_out"))
        exit_code = None if timed_out else verdict.get("exit_code")
        if verdict.get("start_error"):
            stderr += f"\n[the command could not start: {verdict['start_error']}]"
    else:
        exit_code = None if timed_out else (128 - code if code < 0 else code)
    return {
        "exit_code": exit_code,
        "stdout": stdout,
        "stderr": stderr,
        "timed_out": timed_out,
        "cut_bytes": cut_out + cut_err,
        "jail": {k: verdict.get(k) for k in ("userns", "landlock_abi", "peak_tasks", "processes_limit")}
        if verdict
        else None,
    }


def _apps_total(leaf: str, keep: set[int], parse: Callable[[str], int]) -> int:
    """``parse`` of ``/proc/PID/<leaf>`` summed over every process but those in ``keep`` (one that
    is gone or reads oddly counts nothing): the CPU the apps used, in the file's unit."""
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in keep:
            continue
        try:
            with open(f"/proc/{name}/{leaf}") as f:
                total += parse(f.read())
        except (OSError, ValueError, IndexError):
            pass
    return total


def _stat_ticks(text: str) -> int:
    """User plus system CPU ticks of a ``/proc/PID/stat`` line (fields after the command's name)."""
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _cpu_ticks() -> int:
    return _apps_total("stat", {os.getpid(), *(p.pid for p in _core), *_shell}, _stat_ticks)


CARET_AREA = 600
"""A change smaller than this (a blinking caret, ~2x20 px) does not count as the screen changing."""


def wait_idle(args: Args) -> dict[str, Any]:
    """Until the apps use (almost) no CPU and the screen stops changing for ``quiet_s``.

    The screen is watched through DAMAGE events (:func:`_drain_damage`) where the server
    has them: comparing two screenshots every 0.1 s cost the controller tens of ms of CPU
    per look, taken from the app being waited for on a loaded machine."""
    timeout = float(args.get("timeout_s", 30))
    quiet = float(args.get("quiet_s", 0.4))
    hz = os.sysconf("SC_CLK_TCK")
    start = time.monotonic()
    end = start + timeout
    last_change = time.monotonic()
    dd = _damage_display()
    ticks = _cpu_ticks()
    shot = _screen_image() if dd is None else None
    while time.monotonic() < end:
        if dd is None:
            time.sleep(0.1)
            s = _screen_image()
            drawn = _changed_area(s, shot) > CARET_AREA
            shot = s
        else:
            drawn = _drain_damage(dd, time.monotonic() + 0.1)[0] is not None
        t = _cpu_ticks()
        busy = (t - ticks) / hz > 0.02  # more than 20 ms of CPU in 100 ms
        if busy or drawn:
            last_change = time.monotonic()
        ticks = t
        if time.monotonic() - last_change >= quiet:
            return {"idle": True, "seconds": time.monotonic() - start}
    return {"idle": False, "seconds": time.monotonic() - start}


# ----------------------------------------------------------------------- settling on events
_dmg: list[
    Any
] = []  # [Display with a damage object on the root window] or [None] when the server has no DAMAGE
THIN = 3
"""A damaged rectangle this thin or thinner (a text caret blinking) does not count as a change."""
BUSY = 0.3
"""Apps using more than this share of one core's time between two looks count as still working."""
PING_S = 1.0
"""The longest a settle waits for the focused window's answer to its ``_NET_WM_PING``."""
_ping_seq = [0]


def _damage_display() -> Any:
    """A second X connection that receives a DamageNotify for every rectangle drawn on the screen,
    the top-level windows' structure events (map, unmap, destroy, move) and the answers to pings."""
    if not _dmg:
        try:
            from Xlib import X
            from Xlib import display as xdisplay
            from Xlib.ext import damage

            dd = xdisplay.Display()
            if not dd.has_extension("DAMAGE"):
                raise RuntimeError("no DAMAGE extension")
            dd.damage_query_version()
            root = dd.screen().root
            root.damage_create(damage.DamageReportRawRectangles)
            root.change_attributes(event_mask=X.SubstructureNotifyMask)
            dd.sync()
            _dmg.append(dd)
        except _x_errors():
            _dmg.append(None)
    return _dmg[0]


def _ping(dd: Any) -> tuple[int, int] | None:
    """Send ``_NET_WM_PING`` to the focused window when it takes pings; the stamp to wait for, or None.

    An app answers a ping from its event loop once it has read the events queued before it
    (X delivers a client's events in order), so the answer proves the input was picked up:
    the quiet window starts from there, not from an input the app has not seen yet (a loaded
    machine may take longer than the quiet window to schedule the app)."""
    from Xlib import X
    from Xlib.protocol import event

    try:
        active = _prop(display().screen().root, "_NET_ACTIVE_WINDOW")
        if active is None or not len(active) or not int(active[0]):
            return None
        wid = int(active[0])
        win = dd.create_resource_object("window", wid)
        ping = dd.intern_atom("_NET_WM_PING")
        if ping not in (win.get_wm_protocols() or []):
            return None
        _ping_seq[0] = (_ping_seq[0] + 1) & 0x7FFFFFFF
        stamp = 0x40000000 | _ping_seq[0]  # far from the server times openbox's own pings carry
        ev = event.ClientMessage(
            window=win, client_type=dd.intern_atom("WM_PROTOCOLS"), data=(32, [ping, stamp, wid, 0, 0])
        )
        win.send_event(ev, event_mask=X.NoEventMask)
        dd.flush()
        return stamp, wid
    except _x_errors():
        return None


def _drain_damage(dd: Any, until: float, stamp: Any = None) -> tuple[Any, ...]:
    """Read events until ``until`` (monotonic) or none is pending: (the time of the last change
    that counts — see :data:`THIN` — or None, the time the ping ``stamp`` — (stamp, window) —
    was answered, or its window closed, or None)."""
    from Xlib import X

    last = pong = None
    while True:
        while dd.pending_events():
            ev = dd.next_event()
            area = getattr(ev, "area", None)
            if area is not None:
                if area.width > THIN and area.height > THIN:
                    last = time.monotonic()
            elif ev.type == X.ClientMessage:
                with contextlib.suppress(IndexError, TypeError):  # another client's message shape
                    if stamp is not None and ev.data[1][1] == stamp[0]:
                        pong = time.monotonic()
            elif ev.type in (X.MapNotify, X.UnmapNotify, X.DestroyNotify, X.CreateNotify):
                last = time.monotonic()
                if stamp is not None and ev.type in (X.UnmapNotify, X.DestroyNotify):
                    with contextlib.suppress(AttributeError, TypeError):  # an event without a window
                        if int(ev.window.id) == stamp[1]:
                            pong = last  # the pinged window closed: it will not answer
        left = until - time.monotonic()
        if left <= 0 or (stamp is not None and pong is not None):
            return last, pong
        ready, _, _ = select.select([dd], [], [], left)
        if not ready:
            return last, pong


def _forget_damage() -> None:
    """Drop the events from before an input (the settle after it counts only what follows)."""
    dd = _damage_display()
    if dd is not None:
        with contextlib.suppress(*_x_errors()):
            while dd.pending_events():
                dd.next_event()


def _cpu_ns() -> int:
    """CPU time of every app's main thread (ns, /proc/PID/schedstat): the desktop's core and this
    controller left out. Nanosecond resolution, where /proc/PID/stat counts 10 ms ticks."""
    return _apps_total("schedstat", {os.getpid(), *(p.pid for p in _core)}, lambda text: int(text.split()[0]))


def _active_label() -> str:
    """The focused top-level window's class and title, lower case ("" when none)."""
    d = display()
    active = _prop(d.screen().root, "_NET_ACTIVE_WINDOW")
    if active is None or not len(active) or not int(active[0]):
        return ""
    win = d.create_resource_object("window", int(active[0]))
    try:
        cls = win.get_wm_class() or ("", "")
    except _x_errors():
        cls = ("", "")
    return (" ".join(cls) + " " + _title(win)).lower()


def settle(args: Args) -> dict[str, Any]:
    """Return once the screen and the apps have been quiet for ``quiet_s``, bounded by ``timeout_s``.

    Quiet means no damage event from the X server (every redraw of any window reports its
    rectangles; a blinking caret does not count), no top-level window mapped, unmapped or
    destroyed, and the apps' main threads below :data:`BUSY` of a core. The window starts
    when the focused app answers a ping sent after the input (:func:`_ping`; at most
    :data:`PING_S`), so an input that changes nothing returns after the answer and
    ``quiet_s``. Without DAMAGE: the polling :func:`wait_idle`.
    """
    quiet = float(args.get("quiet_s", 0.05))
    per_app = args.get("per_app") or []  # [[text in the focused window's class or title, quiet_s], ...]
    if per_app:
        label = _active_label()
        quiet = next((float(q) for text, q in per_app if str(text).lower() in label), quiet)
    timeout = float(args.get("timeout_s", 4.0))
    step = float(args.get("step_s", 0.015))
    dd = _damage_display()
    if dd is None:
        return wait_idle({"quiet_s": max(quiet, 0.25), "timeout_s": timeout})
    start = time.monotonic()
    end = start + timeout
    last = start
    drawn = 0
    stamp = _ping(dd)
    pong = None
    cpu, at = _cpu_ns(), start
    marks: list[
        Any
    ] = []  # (seconds after start, "d" drawn / "c" busy / "p" ping answered): why a settle took long
    while True:
        now = time.monotonic()
        waiting = stamp is not None and pong is None and now - start < PING_S
        if (now - last >= quiet and not waiting) or now >= end:
            idle = now - last >= quiet
            return {
                "idle": idle,
                "seconds": now - start,
                "changes": drawn,
                "marks": marks,
                "quiet_s": quiet,
                "pinged": None if stamp is None else pong is not None,
            }
        seen, answered = _drain_damage(dd, min(end, now + step, max(last + quiet, now + 0.001)), stamp)
        if answered is not None and pong is None:
            pong = answered
            last = max(last, answered)
            marks.append([round(answered - start, 4), "p"])
        if seen is not None:
            last = seen
            drawn += 1
            if len(marks) < 20:
                marks.append([round(seen - start, 4), "d"])
        c, t = _cpu_ns(), time.monotonic()
        if t > at and (c - cpu) / 1e9 > BUSY * (t - at):
            last = t
            if len(marks) < 20:
                marks.append([round(t - start, 4), "c"])
        cpu, at = c, t


# ----------------------------------------------------------------------- accessibility
_atspi = None


def atspi() -> Any:
    global _atspi
    if _atspi is None:
        import gi

        gi.require_version("Atspi", "2.0")
        from gi.repository import Atspi

        Atspi.init()
        Atspi.set_timeout(800, 3000)
        _atspi = Atspi
    return _atspi


_CAP_TEXT = 8000
"""Characters of an element's text shipped per walk; a longer text carries its length (text_len)."""

# What a cached node's facts depend on, by AT-SPI event: an event from an object drops what
# it may have changed, and the next read asks the app again for that part only.
_EV_KIDS = ("object:children-changed",)
_EV_NODE = ("object:state-changed", "object:property-change", "object:text-changed")
_EV_BOXES = ("object:bounds-changed", "object:visible-data-changed")
_EV_TABLE = (
    "object:model-changed",
    "object:active-descendant-changed",
    "object:selection-changed",
    "object:row-inserted",
    "object:row-deleted",
    "object:column-inserted",
    "object:column-deleted",
    "object:row-reordered",
    "object:column-reordered",
)
_EV_STATES = ("object:state-changed:", "object:active-descendant-changed", "object:selection-changed")
_EV_STATES_NOT = (
    "object:state-changed:showing",
    "object:state-changed:visible",
    "object:state-changed:defunct",
)
_CACHE_MAX = 20000


def _other_app(a: Any, b: Any) -> bool:
    """``a`` and ``b`` surely belong to different applications (their AT-SPI bus names, held by
    libatspi without a round trip, differ); False when that cannot be told."""
    try:
        x, y = a.app.bus_name, b.app.bus_name
    except Exception:
        return False
    return bool(x) and bool(y) and x != y


class _TreeCache:
    """The element tree as last read, per object, refreshed where the apps said something changed.

    A walk asks each app for every node's role, name, states, box and text: hundreds of D-Bus
    round trips that the app answers from its main thread, slow on a loaded machine. The
    controller listens to the AT-SPI events that report a change (children added or removed,
    a state, name, value or text changed, a box moved, a table scrolled or its selection
    moved) and forgets only what such an event touched: the node's facts, its child list, its
    subtree's boxes (a move or a scroll), a table's block of visible cells. Before using the
    cache a walk makes one round trip to every window (its box), which also proves that every
    event an app sent before answering has arrived (D-Bus keeps one sender's messages in
    order); a window whose box changed is read again whole. An event from an object the cache
    never saw (a Calc cell) drops the cached cell blocks of its application, or only their states
    when it is a state, selection or active-descendant change (a cursor move). The listener is registered when the
    desktop starts, so apps launched later send these events from their first window on."""

    def __init__(self) -> None:
        self.info: dict[
            Any, Any
        ] = {}  # acc -> (node without depth/window/app, ifaces, fields read at every walk)
        self.kids: dict[Any, Any] = {}  # acc -> (child count, [child accs])
        self.parent: dict[Any, Any] = {}  # acc -> parent acc
        self.cells: dict[Any, Any] = {}  # table acc -> ([cell nodes], capped, key, [cell accs])
        self.stale: set[Any] = set()  # tables whose cells' states are to be read again (a cursor move)
        self.anchors: dict[Any, Any] = {}  # window acc -> [root panes]: boxes checked before each cached walk
        self.gtk: dict[Any, bool] = {}  # acc -> it is a native GTK widget (its box is right; see _lo_gap)
        self.listener: Any = None
        self.events = 0

    def listen(self, A: Any) -> None:
        if self.listener is not None:
            return
        self.listener = A.EventListener.new(self._on_event)
        for kind in (*_EV_KIDS, *_EV_NODE, *_EV_BOXES, *_EV_TABLE):
            self.listener.register(kind)

    def clear(self) -> None:
        self.info.clear()
        self.kids.clear()
        self.parent.clear()
        self.cells.clear()
        self.stale.clear()
        self.anchors.clear()
        self.gtk.clear()

    def pump(self) -> None:
        """Hand every AT-SPI event received so far to :meth:`_on_event`."""
        from gi.repository import GLib

        ctx = GLib.MainContext.default()
        for _ in range(100000):
            if not ctx.iteration(False):
                break

    def _on_event(self, event: Any, *_: Any) -> None:
        self.events += 1
        kind = event.type or ""
        src = event.source
        known = src in self.info or src in self.kids
        # a cursor move in a sheet: the table's active descendant and the cells' focused and
        # selected states; the cells' texts and boxes stay, only their states are read again
        states_only = kind.startswith(_EV_STATES) and not kind.startswith(_EV_STATES_NOT)
        if src in self.cells:
            if states_only:
                self.stale.add(src)
            else:
                self.cells.pop(src, None)
        if kind.startswith("object:property-change:accessible-parent"):
            # LibreOffice adds a paragraph by naming its parent, not by children-changed
            try:
                parent = src.get_parent()
            except _atspi_errors():
                parent = None
            if parent is not None and parent in self.kids:
                self.kids.pop(parent, None)
            else:
                self.kids.clear()
        if not known:  # a cell (never cached as an object) or an object not walked
            # only the tables of the event's own application: another app's change (the panel's
            # clock redrawn on the task's time) does not touch a sheet's cells
            tables = [t for t in self.cells if not _other_app(t, src)]
            if states_only:
                self.stale.update(tables)
            else:
                for t in tables:
                    self.cells.pop(t, None)
            return
        if kind.startswith("object:state-changed:defunct"):
            self.kids.pop(self.parent.get(src), None)
            self.info.pop(src, None)
        elif kind.startswith(_EV_KIDS):
            self.kids.pop(src, None)
        elif kind.startswith(_EV_BOXES) or kind.startswith(
            ("object:state-changed:showing", "object:state-changed:visible")
        ):
            self.drop_subtree(src)
        elif kind.startswith(("object:text-changed", "object:property-change:accessible-name")):
            # a new text can resize the item and move its siblings (a status bar's fields) with
            # no event of their own: the parent's subtree is read again
            self.drop_subtree(self.parent.get(src, src))
        elif kind.startswith((*_EV_NODE, *_EV_TABLE)):
            self.info.pop(src, None)

    def drop_subtree(self, acc: Any) -> None:
        """Forget the facts (boxes, states) of ``acc`` and everything under it; child lists stay."""
        todo = [acc]
        seen = set()
        while todo:
            a = todo.pop()
            if a in seen:
                continue
            seen.add(a)
            self.info.pop(a, None)
            self.cells.pop(a, None)
            kids = self.kids.get(a)
            if kids:
                todo.extend(kids[1])


_cache = _TreeCache()


def _node(acc: Any, A: Any, depth: int, app: Any) -> tuple[Any, ...]:
    role = acc.get_role_name()
    name = acc.get_name() or ""
    sset = acc.get_state_set()
    states = [s.value_nick for s in sset.get_states()]
    box = None
    try:
        e = acc.get_extents(A.CoordType.SCREEN)
        box = [e.x, e.y, e.width, e.height]
    except _atspi_errors():
        pass
    node = {"role": role, "name": name, "states": states, "box": box, "depth": depth, "app": app}
    ifaces = acc.get_interfaces()
    if "Text" in ifaces and role not in ("frame", "window", "dialog"):
        try:
            n = A.Text.get_character_count(acc)
            if n:
                txt = A.Text.get_text(acc, 0, min(n, _CAP_TEXT))
                node["text"] = txt
                if n > _CAP_TEXT:
                    node["text_len"] = n
        except _atspi_errors():
            pass
    if "Value" in ifaces:
        with contextlib.suppress(*_atspi_errors()):
            node["value"] = A.Value.get_current_value(acc)
    return node, sset, ifaces


def _lo_gap(node: Any, parent_box: Any) -> int:
    """How far below its reported place LibreOffice draws a window's own (VCL) content, or 0.

    Measured on LibreOffice 7.4 (gtk3): a document window's ``root pane`` reports its box 25 px
    higher than the GTK panel that holds it, below the native menu bar (same size otherwise), and
    every VCL object under it (toolbar buttons, the document's paragraphs, the status bar) is
    reported shifted the same way; a click on such an element's box hit the menu bar or the line
    above. Native GTK widgets inside (a toolbar's combo box entries) report their boxes right.
    When LibreOffice later moves its root pane down the gap is 0 and nothing is shifted."""
    box = node.get("box")
    if node.get("role") != "root pane" or not box or not parent_box:
        return 0
    gap = int(parent_box[1] - box[1])
    same = parent_box[0] == box[0] and parent_box[3] == box[3]
    return gap if same and 0 < gap <= 80 else 0


def _visible(box: Any) -> bool:
    if box is None:
        return True
    x, y, w, h = box
    return bool(w > 0 and h > 0 and x + w > 0 and y + h > 0 and x < W and y < H)


_CACHED_APPS = re.compile(r"soffice|libreoffice", re.IGNORECASE)


# ----------------------------------------------------------------------- LibreOffice's saved state
# LibreOffice shows whether a document has unsaved changes only as an icon in its status bar (a red
# floppy when modified, a faint grey one when not); that field has no accessible name or text (7.4),
# so the element list showed nothing after ctrl+s. The field is found where LibreOffice's own status
# bar definition puts it (the module's statusbar.xml) and read from the pixels it drew; it is named
# with LibreOffice's own tooltips for the two icons.
LO_MODIFIED = "The document has been modified. Click to save the document."
LO_NOT_MODIFIED = "The document has not been modified since the last save."
_LO_MODULES = {
    "LibreOffice Writer": "swriter",
    "LibreOffice Calc": "scalc",
    "LibreOffice Impress": "simpress",
}
_LO_STATUSBAR = "/usr/lib/libreoffice/share/config/soffice.cfg/modules/{}/statusbar/statusbar.xml"
_lo_field: dict[str, Any] = {}


def _modified_field(window: str) -> Any:
    """The position of ``.uno:ModifiedStatus`` among the status bar's fields of ``window``'s module, or None."""
    module = next((m for suffix, m in _LO_MODULES.items() if window.endswith(suffix)), None)
    if module is None:
        return None
    if module not in _lo_field:
        try:
            with open(_LO_STATUSBAR.format(module), encoding="utf-8") as f:
                items = re.findall(r'<statusbar:statusbaritem\s+xlink:href="([^"]+)"', f.read())
            _lo_field[module] = items.index(".uno:ModifiedStatus")
        except (OSError, ValueError):
            _lo_field[module] = None
    return _lo_field[module]


def _reddish(pixels: Any) -> int:
    """How many pixels (BGRX bytes) are clearly red: the modified icon is red, the other grey."""
    n = 0
    for i in range(0, len(pixels) - 3, 4):
        b, g, r = pixels[i], pixels[i + 1], pixels[i + 2]
        if r > g + 40 and r > b + 40:
            n += 1
    return n


def _mark_saved_state(out: list[Any]) -> None:
    """Name LibreOffice's document-modified status fields by the icon they show (see above).

    Boxes: LibreOffice 7.4 reports its status bar 25 px above where it draws it (measured), while
    the frame's box is right; the bar sits at the frame's bottom, so the field's pixels are read
    at its box moved by the gap between the bar's bottom and the frame's."""
    from Xlib import X

    frame_bottom: dict[str, int] = {}
    for i, node in enumerate(out):
        box = node.get("box")
        if node.get("depth") == 0 and box:
            frame_bottom[node.get("window", "")] = box[1] + box[3]
        if node.get("role") != "status bar" or not box or "soffice" not in (node.get("app") or ""):
            continue
        at = _modified_field(node.get("window", ""))
        if at is None:
            continue
        fields = []
        for child in out[i + 1 :]:
            if child.get("depth", 0) <= node["depth"]:
                break
            if child.get("depth") == node["depth"] + 1:
                fields.append(child)
        if at >= len(fields):
            continue
        field = fields[at]
        fb = field.get("box")
        if not fb or field.get("text") or field.get("name") or fb[2] > 40 or fb[3] > 40:
            continue
        dy = max(0, frame_bottom.get(node.get("window", ""), 0) - (box[1] + box[3]))
        x, y, w, h = fb[0], fb[1] + dy, fb[2], fb[3]
        if w <= 0 or h <= 0 or x < 0 or y < 0 or x + w > W or y + h > H:
            continue
        try:
            img = display().screen().root.get_image(x, y, w, h, X.ZPixmap, 0xFFFFFFFF)
        except _x_errors():
            continue
        field["name"] = LO_MODIFIED if _reddish(img.data) >= 4 else LO_NOT_MODIFIED


def tree(args: Args) -> dict[str, Any]:
    A = atspi()
    budget = float(args.get("budget_s", 3.0))
    max_nodes = int(args.get("max_nodes", 600))
    max_children = int(args.get("max_children", 200))
    max_cells = int(args.get("max_cells", 120))
    fresh = bool(args.get("fresh", False))
    deadline = time.monotonic() + budget
    out: list[Any] = []
    incomplete = []
    with contextlib.suppress(*_atspi_errors()):
        _cache.listen(A)
    _cache.pump()
    # a fresh walk reads every node into a cache of its own (the shared one stays as it is)
    cache = _TreeCache() if fresh else _cache
    if _cache.listener is None or len(_cache.info) > _CACHE_MAX:
        _cache.clear()
    desktop = A.get_desktop(0)
    try:
        napps = desktop.get_child_count()
    except _atspi_errors() as exc:
        return {"nodes": [], "incomplete": f"accessibility bus unreachable: {exc}"}

    def read(acc: Any, parent_role: str) -> Any:
        hit = cache.info.get(acc)
        if hit is None:
            node, _sset, ifaces = _node(acc, A, 0, "")
            # what can change with no event is read again at every walk (only that): a value
            # (a scroll bar's position), an entry's text (Calc's Name Box, "A1" -> "A2"), a
            # status bar's fields ("Page 1 of 2") and their boxes
            vol: tuple[str, ...] = ()
            if "Value" in ifaces:
                vol += ("value",)
            if node["role"] == "text" or parent_role == "status bar":
                vol += ("text",)
            if parent_role == "status bar":
                vol += ("box",)
            hit = cache.info[acc] = (node, ifaces, vol)
            return hit
        node, ifaces, vol = hit
        if vol:
            node = dict(node)
            if "value" in vol:
                with contextlib.suppress(*_atspi_errors()):
                    node["value"] = A.Value.get_current_value(acc)
            if "text" in vol and "Text" in ifaces:
                node.pop("text", None)
                with contextlib.suppress(*_atspi_errors()):
                    n = A.Text.get_character_count(acc)
                    if n:
                        txt = A.Text.get_text(acc, 0, min(n, _CAP_TEXT))
                        node["text"] = txt + ("…" if n > _CAP_TEXT else "")
            if "box" in vol:
                try:
                    e = acc.get_extents(A.CoordType.SCREEN)
                    node["box"] = [e.x, e.y, e.width, e.height]
                except _atspi_errors():
                    node["box"] = None
        return node, ifaces, vol

    def children(acc: Any) -> Any:
        hit = cache.kids.get(acc)
        if hit is None:
            n = acc.get_child_count()
            got = []
            for i in range(min(n, max_children + 1)):
                try:
                    child = acc.get_child_at_index(i)
                except _atspi_errors():
                    child = None
                got.append(child)
                if child is not None:
                    cache.parent[child] = acc
            hit = cache.kids[acc] = (n, got)
        return hit

    cell_accs: list[Any] = []  # the cells a cells() call listed, in order

    def restate(block: Any) -> Any:
        """``block`` with its cells' states read again; None when a cell is gone (read all again)."""
        nodes = []
        for node, cell in zip(block[0], block[3], strict=True):
            try:
                states = [st.value_nick for st in cell.get_state_set().get_states()]
            except _atspi_errors():
                return None
            if "defunct" in states:
                return None
            nodes.append(dict(node, states=states))
        return (nodes, block[1], block[2], block[3])

    def role_anchor(node: Any) -> Any:
        return node["role"] == "root pane"

    def is_gtk(acc: Any) -> bool:
        hit = cache.gtk.get(acc)
        if hit is None:
            try:
                hit = (acc.get_attributes() or {}).get("toolkit") == "gtk"
            except _atspi_errors():
                hit = False
            cache.gtk[acc] = hit
        return hit

    def walk(
        acc: Any,
        depth: int,
        app: Any,
        parent_role: str,
        window: Any = None,
        top: Any = None,
        parent_box: Any = None,
        dy: int = 0,
    ) -> None:
        if len(out) >= max_nodes:
            if "node cap" not in incomplete:
                incomplete.append("node cap")
            return
        if time.monotonic() > deadline:
            if "time budget" not in incomplete:
                incomplete.append("time budget")
            return
        try:
            base, ifaces, _vol = read(acc, parent_role)
        except _atspi_errors():
            return
        node = dict(base, depth=depth, app=app)
        if window is None:
            window = node["name"]
            top = acc
        if role_anchor(node) and acc not in cache.anchors.setdefault(top, []):
            cache.anchors[top].append(acc)
        node["window"] = window
        st = node["states"]
        if "showing" not in st and depth > 0:
            return
        role = node["role"]
        raw_box = node["box"]
        if _CACHED_APPS.search(app or ""):
            dy = _lo_gap(node, parent_box) or (dy if role != "root pane" else 0)
            if dy and raw_box and not is_gtk(acc):
                node["box"] = [raw_box[0], raw_box[1] + dy, raw_box[2], raw_box[3]]
        shown = _visible(node["box"])
        # LibreOffice reports the items of closed menus as showing: open menus only
        if role == "menu" and parent_role == "menu bar" and "selected" not in st and "expanded" not in st:
            if shown:
                out.append(node)
            return
        if shown:  # a zero-sized container (a GTK page tab) still holds visible children
            out.append(node)
        if role == "table" and "Table" in ifaces:
            try:
                n = acc.get_child_count()
            except _atspi_errors():
                return
            if n > max_children:
                block = cache.cells.get(acc)
                if block is not None and block[2] != (depth + 1, app, window, max_cells, dy):
                    block = None
                if block is not None and acc in cache.stale:
                    block = restate(block)
                cache.stale.discard(acc)
                if block is None:
                    first = len(out)
                    cell_accs.clear()
                    capped = cells(acc, A, depth + 1, app, raw_box, max_cells, window, dy)
                    key = (depth + 1, app, window, max_cells, dy)
                    block = cache.cells[acc] = (out[first:], capped, key, list(cell_accs))
                    if capped is None:  # cut by the time budget: not kept
                        cache.cells.pop(acc, None)
                else:
                    cache.cells[acc] = block
                    out.extend(dict(c) for c in block[0])
                if block[1]:
                    incomplete.append(f"table: first {max_cells} visible cells shown")
                return
        try:
            n, kids = children(acc)
        except _atspi_errors():
            return
        if n > max_children:
            incomplete.append(f"{role} {node['name']!r}: {n} children, first {max_children} shown")
        for child in kids[:max_children]:
            if child is not None:
                walk(child, depth + 1, app, role, window, top, raw_box, dy)

    def cells(table: Any, A: Any, depth: int, app: Any, tbox: Any, cap: int, window: Any, dy: int = 0) -> Any:
        """The visible cells of a huge table (a Calc sheet), row by row from the top-left visible cell.

        Four calls per cell where a full node takes nine: a cell's role is known, and its
        box comes from the grid — each column's x and width from the first row, each row's
        y and height from its first cell — so only those cells' extents are asked for; the
        other cells cost their lookup, name, states and text (and value when not empty)."""
        if not tbox:
            return
        right, bottom = tbox[0] + tbox[2], tbox[1] + tbox[3]
        try:
            first = table.get_accessible_at_point(tbox[0] + 2, tbox[1] + 2, A.CoordType.SCREEN)
            pos = A.TableCell.get_position(first) if first is not None else None
            r0, c0 = (pos[1], pos[2]) if pos else (0, 0)
        except _atspi_errors():
            r0, c0 = 0, 0

        def at(r: int, c: int) -> Any:
            try:
                return A.Table.get_accessible_at(table, r, c)
            except _atspi_errors():
                return None

        def box(cell: Any) -> Any:
            try:
                e = cell.get_extents(A.CoordType.SCREEN)
                return [e.x, e.y, e.width, e.height]
            except _atspi_errors():
                return None

        def add(cell: Any, b: Any) -> bool:
            box = [b[0], b[1] + dy, b[2], b[3]]  # drawn where its root pane is (see _lo_gap)
            node = {"role": "table cell", "depth": depth, "app": app, "window": window, "box": box}
            try:
                node["name"] = cell.get_name() or ""
                node["states"] = [st.value_nick for st in cell.get_state_set().get_states()]
            except _atspi_errors():
                return False
            with contextlib.suppress(*_atspi_errors()):
                txt = A.Text.get_text(cell, 0, -1)
                if txt:
                    node["text"] = txt[:_CAP_TEXT] + ("…" if len(txt) > _CAP_TEXT else "")
                    node["value"] = A.Value.get_current_value(
                        cell
                    )  # a number's value (a cell with text only)
            out.append(node)
            cell_accs.append(cell)
            return True

        cols: list[Any] = []  # (column, x, width) of the visible columns, found in the first row
        count = 0
        r = r0
        while count < cap and time.monotonic() < deadline:
            head = at(r, c0)
            hb = box(head) if head is not None else None
            if hb is None or hb[1] > bottom:
                break
            if hb[3] <= 0:  # a hidden row
                r += 1
                continue
            y, h = hb[1], hb[3]
            if not cols:
                c, cell, b = c0, head, hb
                while cell is not None and b is not None and b[0] <= right and c - c0 < max_children:
                    if b[2] > 0:
                        cols.append((c, b[0], b[2]))
                        if count < cap and add(cell, [b[0], y, b[2], h]):
                            count += 1
                    c += 1
                    cell = at(r, c)
                    b = box(cell) if cell is not None else None
                if not cols:
                    break
            else:
                for c, x, w in cols:
                    if count >= cap:
                        break
                    cell = head if c == c0 else at(r, c)
                    if cell is not None and add(cell, [x, y, w, h]):
                        count += 1
            r += 1
        if count < cap and time.monotonic() >= deadline:
            return None
        return count >= cap

    apps = []
    for i in range(napps):
        try:
            app = desktop.get_child_at_index(i)
            if app is None:
                continue
            app_name = app.get_name() or ""
            n = app.get_child_count()
        except _atspi_errors():
            continue
        try:
            pid = app.get_process_id()
            owned = _launched_pid(pid)
            own = _shell_pid(pid)
        except _atspi_errors():
            owned = own = False
        wins = []
        for j in range(min(n, 20)):
            try:
                win = app.get_child_at_index(j)
            except _atspi_errors():
                continue
            if win is None:
                continue
            wins.append(win)
            # one round trip to the app (events it sent before answering have arrived) and
            # the window's box: a moved or resized window is read again whole
            # (and of its direct children and root panes: LibreOffice moves its root pane 25 px
            # down inside an unmoved frame, without an event, once its menu bar is laid out)
            kids = cache.kids.get(win)
            for part in [win, *(kids[1][:8] if kids else ()), *cache.anchors.get(win, ())]:
                hit = cache.info.get(part)
                if part is None or (hit is None and part is not win):
                    continue
                try:
                    e = part.get_extents(A.CoordType.SCREEN)
                    now = [e.x, e.y, e.width, e.height]
                except _atspi_errors():
                    now = None
                if hit is not None and hit[0].get("box") != now:
                    cache.drop_subtree(win)
                    break
        apps.append((not own, app_name, owned, wins))
    _cache.pump()
    shared = cache
    # the desktop's own programs first, then the apps in the order they registered: the same list
    # whether a pooled desktop started its icons or an app (a warm office) before the panel or not
    apps.sort(key=lambda a: a[0])
    for _, app_name, owned, wins in apps:
        # the cache is proven (tests/devices/linux/test_linux_gui_tree_cache.py) for LibreOffice
        # only: Chromium adds a combo box's popup without an event, so other apps read whole
        cache = shared if _CACHED_APPS.search(app_name) else _TreeCache()
        first = len(out)
        for win in wins:
            walk(win, 0, app_name, "application")
        for node in out[first:]:
            node["launched"] = owned
    with contextlib.suppress(Exception):  # a reading that failed leaves the field as AT-SPI gave it
        _mark_saved_state(out)
    return {
        "nodes": out,
        "incomplete": "; ".join(incomplete) or None,
        "cache": {
            "events": _cache.events,
            "listening": _cache.listener is not None,
            "objects": len(_cache.info),
        },
    }


# ----------------------------------------------------------------------- forwarding
def _pipe(src: Any, dst: Any) -> None:
    """Copy ``src`` to ``dst`` until EOF. The host's relay has its twin (``linux/gui/sites_relay.py:
    _pump``): this file runs alone under the sandbox's Python and imports nothing of the project."""
    import socket

    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        dst.shutdown(socket.SHUT_WR)


def forward(args: Args) -> dict[str, int]:
    """Listen on 127.0.0.1:port in the sandbox and pass each connection to a Unix socket (the host's relay)."""
    import socket

    port, path = int(args["port"]), str(args["path"])
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind(("127.0.0.1", port))
    lsock.listen(64)

    def one(conn: Any) -> None:
        with conn:
            try:
                up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                up.connect(path)
            except OSError:
                return
            with up:
                t = threading.Thread(target=_pipe, args=(conn, up), daemon=True)
                t.start()
                _pipe(up, conn)
                t.join(30)

    def serve() -> None:
        while True:
            try:
                conn, _ = lsock.accept()
            except OSError:
                return
            threading.Thread(target=one, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return {"listening": port}


# ----------------------------------------------------------------------- loop
def cmd_windows(args: Args) -> dict[str, list[Any]]:
    return {"windows": windows()}


COMMANDS: dict[str, Callable[[Args], Any]] = {
    "windows": cmd_windows,
    "focus_window": focus_window,
    "close_window": close_window,
    "screenshot": screenshot,
    "tree": tree,
    "type": type_text,
    "keys": keys,
    "pointer": pointer,
    "release_all": release_all,
    "launch": launch,
    "kill_apps": kill_apps,
    "stop_app": stop_app,
    "start_shell": start_shell,
    "run": run,
    "wait_idle": wait_idle,
    "settle": settle,
    "forward": forward,
    "ping": lambda args: {"pong": True},
}


def reply(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _non_dumpable() -> None:
    """No ptrace, no /proc/<pid>/mem or fd of this process for the agent's same-uid processes."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):  # no libc to load, or one without prctl
        ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _fence() -> Any:
    """Enter the desktop's filesystem fence (``DW_FENCE``, a Landlock policy) once the desktop's core
    runs: every app, Wine's server and every command start inside it. ``None`` when none is asked."""
    policy = os.environ.pop("DW_FENCE", "")
    if not policy:
        return None
    sys.path.insert(0, os.path.dirname(JAIL))
    import jail

    rules = json.loads(policy)
    if rules.get("hide"):
        _hide_for_server(rules["hide"])
    abi = jail.landlock_abi()
    if not abi or jail.landlock(abi, rules, scope=False) != "fs+scope":
        raise RuntimeError("the filesystem fence (Landlock) could not be applied")
    return abi


_ns_holders: list[Any] = []  # the namespace holder of _hide_for_server
_ns_fds: list[int] = []  # its user and mount namespaces, handed to every launch (``inside_jail.py --in-ns``)


def _hide_for_server(paths: Any) -> None:
    """Before the fence (Landlock forbids ``mount``): a namespace holder in which ``paths`` are empty,
    for Wine's server to join (``DW_SERVER_NS``; ``inside_jail.py --in-ns``). Where none can be made
    the server sees the fence's view, and ``DW_SERVER_NS_PROBLEM`` says why."""
    holder = subprocess.Popen(
        [sys.executable, JAIL, "--hold-ns", *[str(p) for p in paths]],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=_log_file(),
    )
    assert holder.stdout is not None  # a pipe
    line = holder.stdout.readline().decode("utf-8", "replace").strip()
    holder.stdout.close()
    if line == "ready":
        # opened now: once fenced, /proc/<holder>/ns is out of reach (Landlock allows ptrace-mode
        # access only within the domain, and the holder is outside it)
        fds = [os.open(f"/proc/{holder.pid}/ns/{kind}", os.O_RDONLY) for kind in ("user", "mnt")]
        _ns_holders.append(holder)
        _ns_fds.extend(fds)
        os.environ["DW_SERVER_NS"] = ",".join(str(fd) for fd in fds)
    else:
        holder.kill()
        holder.wait()
        os.environ["DW_SERVER_NS_PROBLEM"] = line or "the namespace holder ended"


def main() -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    _non_dumpable()
    try:
        info = start_desktop()
        info["fence"] = _fence()
        reply({"id": 0, "ok": True, "result": {"ready": info}})
    except Exception as exc:  # broad on purpose: any failure to start is the harness's answer, not a
        # traceback on a pipe it reads as JSON (X, D-Bus, Wine and the file system all fail differently)
        reply({"id": 0, "ok": False, "error": f"desktop start failed: {exc}"})
        return 1
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            reply({"id": None, "ok": False, "error": "malformed request"})
            continue
        mid = msg.get("id")
        cmd = msg.get("cmd")
        if cmd == "quit":
            reply({"id": mid, "ok": True, "result": {}})
            break
        fn = COMMANDS.get(cmd)
        if fn is None:
            reply({"id": mid, "ok": False, "error": f"unknown command {cmd!r}"})
            continue
        try:
            reply({"id": mid, "ok": True, "result": fn(msg.get("args") or {})})
        except Exception as exc:  # broad on purpose: one command's failure, whatever it is, is that
            # command's error reply (with its trace); the desktop and its apps live on for the next
            reply(
                {
                    "id": mid,
                    "ok": False,
                    "error": f"{type(exc).__name__}: {exc}",
                    "trace": traceback.format_exc()[-2000:],
                }
            )
    for proc in [*_procs.values(), *_shell.values(), *reversed(_core)]:
        with contextlib.suppress(OSError):
            proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
