"""The slim Wine prefix: built once per machine, copied into every Windows device's home.

Why: ``wineboot`` takes 8-30 s and makes a 695 MB prefix, because Wine 8 copies its PE
builtins into ``system32``. Nearly all of that is byte-identical to the files under
``/usr/lib/x86_64-linux-gnu/wine/*-windows``; turning those into symlinks leaves about
13 MB that copy in tens of milliseconds. So the first Windows device on a machine
builds a *template* prefix (wineboot inside a bubblewrap sandbox as the device user
would run it, then slimmed) under the devicesworld cache folder, stamped with the Wine
version and :data:`LAYOUT`; every device copies that template into its own home.

The template is built with ``HOME=/home/user`` and ``~/Desktop``/``~/Documents``
present, so ``C:\\Users\\user\\Desktop`` and ``Documents`` are Wine's links to
``/home/user/Desktop`` and ``/home/user/Documents`` — the device's home inside its
sandbox. Drive ``Z:`` (the sandbox's ``/``) is removed so the C drive is the only
one an agent meets.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from devicesworld.devices.base import DeviceError
from devicesworld.devices.desktop.sysroot import etc_args, let_others_pass, run_as, usr_args, write_etc
from devicesworld.devices.safefs import sandbox_host_ids
from devicesworld.diskcache import cache_root

LAYOUT = 1
"""Bump when the template's content changes (its stamp then differs and it is rebuilt)."""

WINE_LIB_DIRS = (
    Path("/usr/lib/x86_64-linux-gnu/wine/x86_64-windows"),
    Path("/usr/lib/x86_64-linux-gnu/wine/i386-windows"),
    Path("/usr/lib/wine/x86_64-windows"),
    Path("/usr/lib/wine/i386-windows"),
)
"""Where Wine's PE builtins live (Debian's layout first)."""

WINE_ENV = {
    "WINEPREFIX": "/home/user/.wine",
    "WINEDEBUG": "-all",
    "WINEDLLOVERRIDES": "mscoree,mshtml=",
}
"""The environment every Wine process of a device runs with; the overrides skip the
wine-mono and Gecko installer dialogs."""

INSTALL_HINT = "install it with `apt-get install --no-install-recommends wine wine64` (Debian/Ubuntu)"
BUILD_TIMEOUT_S = 300.0
SHELL_FOLDERS = ("Desktop", "Documents")
LINKED_FOLDERS = ("Downloads", "Pictures")
"""Profile folders Wine links to the home itself (no XDG folders in the sandbox); each device's copy
links ``C:\\Users\\user\\<name>`` to ``/home/user/<name>`` instead, a folder of its own in the home
(where a persona world puts its downloads and pictures, docs/worlds.md)."""
PROFILE_DIR = ("drive_c", "users", "user")
_ETC_FROM_HOST = ("ld.so.cache", "alternatives", "fonts", "localtime")


def wine_binary() -> str | None:
    """The ``wine`` launcher on ``PATH``, or ``None``."""
    return shutil.which("wine") or shutil.which("wine64")


def wine_missing() -> str | None:
    """Why Windows devices cannot run here (wine or bubblewrap missing), or ``None``."""
    if wine_binary() is None or shutil.which("wineboot") is None:
        return f"wine is not installed: {INSTALL_HINT}"
    from devicesworld.devices.desktop.client import bwrap_missing

    problem = bwrap_missing()
    return None if problem is None else f"{problem}: `apt-get install bubblewrap`"


def require_wine() -> str:
    """The wine launcher, or a :class:`DeviceError` ``UNAVAILABLE`` saying how to install it."""
    problem = wine_missing()
    if problem is not None:
        raise DeviceError("UNAVAILABLE", f"Windows devices need Wine: {problem}")
    found = wine_binary()
    assert found is not None
    return found


def wine_version() -> str:
    """``wine --version`` (e.g. ``wine-8.0 (Debian 8.0~repack-4)``)."""
    done = subprocess.run(
        [require_wine(), "--version"], capture_output=True, text=True, timeout=60, env=_host_env()
    )
    return done.stdout.strip() or f"unknown (exit {done.returncode})"


def _host_env() -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "WINEDEBUG": "-all", "HOME": tempfile.gettempdir()}


@dataclass(frozen=True)
class Template:
    """A built template: ``home`` holds ``.wine`` (and the shell folders); ``stamp`` names it."""

    home: Path
    stamp: str
    seconds: float
    """How long building it took (0 when it was already cached)."""

    @property
    def prefix(self) -> Path:
        return self.home / ".wine"


def template_stamp(version: str, ids: tuple[int, int] | None) -> str:
    """A short name for a template made by this Wine, layout and sandbox user."""
    raw = json.dumps({"wine": version, "layout": LAYOUT, "ids": ids}).encode()
    return hashlib.sha256(raw).hexdigest()[:12]


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def template(*, cache: Path | None = None) -> Template:
    """The machine's template prefix, building it on first use (one builder at a time)."""
    require_wine()
    ids = sandbox_host_ids()
    stamp = template_stamp(wine_version(), ids)
    base = (cache or cache_root()) / "wine"
    final = base / f"prefix-{stamp}"
    if (final / "stamp.json").is_file():
        return Template(final / "home", stamp, 0.0)
    with _locked(base / f"prefix-{stamp}.lock"):
        if (final / "stamp.json").is_file():
            return Template(final / "home", stamp, 0.0)
        started = time.monotonic()
        staging = Path(tempfile.mkdtemp(prefix=f"prefix-{stamp}-", dir=base))
        try:
            _build(staging, ids)
            linked = slim(staging / "home" / ".wine")
            seconds = time.monotonic() - started
            (staging / "stamp.json").write_text(
                json.dumps(
                    {"stamp": stamp, "layout": LAYOUT, "symlinks": linked, "build_s": round(seconds, 2)}
                )
            )
            shutil.rmtree(final, ignore_errors=True)
            staging.rename(final)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return Template(final / "home", stamp, seconds)


def _write_etc(etc: Path) -> None:
    etc.mkdir(parents=True, exist_ok=True)
    files = {
        "passwd": "user:x:1000:1000:user:/home/user:/bin/sh\n",
        "group": "user:x:1000:\n",
        "hosts": "127.0.0.1 localhost\n127.0.1.1 desktop\n",
        "hostname": "desktop\n",
    }
    write_etc(etc, files, _ETC_FROM_HOST)


def _build(staging: Path, ids: tuple[int, int] | None) -> None:
    """Run ``wineboot -i`` in a sandbox whose home is ``staging/home``."""
    home, tmp, etc = staging / "home", staging / "tmp", staging / "etc"
    for folder in (home, tmp, *(home / name for name in SHELL_FOLDERS)):
        folder.mkdir(parents=True, exist_ok=True)
    _write_etc(etc)
    if ids is not None:
        for folder in (staging, home, tmp, *(home / name for name in SHELL_FOLDERS)):
            os.chown(folder, *ids)
        let_others_pass([staging])
    argv = ["bwrap", *usr_args(), *etc_args(etc, _ETC_FROM_HOST)]
    argv += [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--bind",
        str(home),
        "/home/user",
        "--bind",
        str(tmp),
        "/tmp",
    ]
    argv += ["--unshare-all", "--uid", "1000", "--gid", "1000", "--die-with-parent", "--new-session"]
    argv += ["--clearenv", "--setenv", "HOME", "/home/user", "--setenv", "USER", "user"]
    argv += ["--setenv", "PATH", "/usr/bin:/bin"]
    for key, value in WINE_ENV.items():
        argv += ["--setenv", key, value]
    argv += ["--chdir", "/home/user", "/bin/sh", "-c", "wineboot -i && wineserver -w"]
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT_S,
        **run_as(ids),
    )
    prefix = home / ".wine"
    if done.returncode != 0 or not (prefix / "system.reg").is_file():
        tail = (done.stderr or done.stdout).strip()[-800:]
        raise OSError(f"wineboot failed (exit {done.returncode}) while building the Windows prefix: {tail}")
    # The C drive is the only drive an agent meets.
    with contextlib.suppress(FileNotFoundError):
        (prefix / "dosdevices" / "z:").unlink()


def _builtin_index() -> dict[str, list[Path]]:
    index: dict[str, list[Path]] = {}
    for folder in WINE_LIB_DIRS:
        if folder.is_dir():
            for entry in folder.iterdir():
                if entry.is_file():
                    index.setdefault(entry.name.lower(), []).append(entry)
    return index


def _same(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with a.open("rb") as fa, b.open("rb") as fb:
        while True:
            ca, cb = fa.read(1 << 20), fb.read(1 << 20)
            if ca != cb:
                return False
            if not ca:
                return True


def slim(prefix: Path) -> int:
    """Replace every file identical to one of Wine's builtins with a symlink to it; returns how many."""
    index = _builtin_index()
    linked = 0
    for path in sorted(prefix.rglob("*")):
        if path.is_symlink() or not path.is_file():
            continue
        for candidate in index.get(path.name.lower(), ()):
            if _same(path, candidate):
                st = path.lstat()
                path.unlink()
                path.symlink_to(candidate)
                with contextlib.suppress(OSError):
                    os.lchown(path, st.st_uid, st.st_gid)
                linked += 1
                break
    return linked


def tree_bytes(folder: Path) -> int:
    """Bytes of the regular files under ``folder`` (symlinks not followed)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def install(tpl: Template, home: Path, ids: tuple[int, int] | None) -> None:
    """Copy the template's prefix and shell folders into a device's ``home`` (owned by ``ids``)."""
    home.mkdir(parents=True, exist_ok=True)
    shutil.copytree(tpl.prefix, home / ".wine", symlinks=True)
    for name in SHELL_FOLDERS:
        (home / name).mkdir(exist_ok=True)
    profile = home.joinpath(".wine", *PROFILE_DIR)
    for name in LINKED_FOLDERS:
        (home / name).mkdir(exist_ok=True)
        link = profile / name
        if link.is_symlink():
            link.unlink()
            link.symlink_to(f"/home/user/{name}")
    if ids is None:
        return
    os.chown(home, *ids)
    for root, dirs, files in os.walk(home):
        for name in (*dirs, *files):
            os.lchown(os.path.join(root, name), *ids)
