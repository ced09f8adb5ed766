"""Build ``wintree.exe`` from ``wintree.c`` (and ``dwshell.exe``, the desktop's taskbar, icons and
Start menu, from ``dwshell.c``) with mingw, once per source version, into the cache.

Why not check the exe in: the source is the artifact people review, and a build is
reproducible (``-Wl,--no-insert-timestamp`` drops the PE timestamp, so two builds of the
same source with the same compiler are byte-identical; a test checks this). The exe is
cached under ``<cache>/wintree/<source hash>/wintree.exe``, so it is built once per
machine and again only when the source changes. Without mingw there is no element
tree: :func:`helper_exe` says so with the package to install.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from devicesworld.diskcache import cache_root

SOURCE = Path(__file__).with_name("wintree.c")
SHELL_SOURCE = Path(__file__).with_name("dwshell.c")
COMPILER = "x86_64-w64-mingw32-gcc"
FLAGS = ("-O2", "-s", "-Wall", "-Wl,--no-insert-timestamp")
LIBS = ("-lcomctl32",)
SHELL_LIBS = ("-municode", "-mwindows", "-lcomctl32", "-lshell32")
INSTALL_HINT = "apt-get install --no-install-recommends gcc-mingw-w64-x86-64-win32"


class HelperUnavailable(RuntimeError):
    """The element-tree helper cannot be built here (no mingw, or the build failed)."""


def source_hash(source: Path = SOURCE) -> str:
    libs = SHELL_LIBS if source == SHELL_SOURCE else LIBS
    return hashlib.sha256(source.read_bytes() + " ".join((*FLAGS, *libs)).encode()).hexdigest()[:16]


def compile_to(out: Path, source: Path = SOURCE) -> None:
    """Compile the helper (or ``source``) to ``out``; raises :class:`HelperUnavailable` with the reason."""
    compiler = shutil.which(COMPILER)
    if compiler is None:
        raise HelperUnavailable(f"{COMPILER} is not installed ({INSTALL_HINT})")
    done = subprocess.run(
        [compiler, *FLAGS, "-o", str(out), str(source), *(SHELL_LIBS if source == SHELL_SOURCE else LIBS)],
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    )
    if done.returncode != 0 or not out.is_file():
        raise HelperUnavailable(f"building {source.stem}.exe failed: {done.stderr.strip()[-600:]}")


def helper_exe(cache: Path | None = None, source: Path = SOURCE) -> Path:
    """The built helper (or ``source``'s program), compiling it on first use (concurrent builders
    each rename atomically)."""
    folder = (cache or cache_root()) / source.stem / source_hash(source)
    exe = folder / f"{source.stem}.exe"
    if exe.is_file():
        return exe
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f"{source.stem}-", suffix=".exe", dir=folder)
    os.close(fd)
    try:
        compile_to(Path(tmp), source)
        Path(tmp).chmod(0o755)
        os.replace(tmp, exe)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return exe


def shell_exe(cache: Path | None = None) -> Path:
    """The built desktop shell (``dwshell.exe``: taskbar with Start menu and clock, desktop icons)."""
    return helper_exe(cache, SHELL_SOURCE)
