"""A per-sandbox memory and process total through cgroup v2, where the host delegates one to us.

Why: the sandboxes' rlimits (:mod:`.limits`) bound each *process* of a command (address
space, file size, CPU) and each command's process count, but not what a whole desktop —
its apps, Wine's server, every command together — may hold. cgroup v2 can: a child group
per sandbox with ``memory.max`` and ``pids.max``, the kernel refusing (and counting in
``memory.events`` / ``pids.events``) anything past it, and ``cgroup.kill`` ending every
process in it at once.

It is used only where the host really offers it: a cgroup v2 hierarchy whose ``memory``
and ``pids`` controllers are enabled for the children of a group this process may write
(a delegated subtree: ``systemd-run --scope -p Delegate=yes``, a container runtime's
cgroup namespace, or ``DEVICESWORLD_CGROUP`` naming such a group). Everywhere else —
cgroup v1, a hybrid host whose v2 hierarchy holds no controllers, a group not delegated to
us — :func:`detect` says why, and the sandboxes keep to the rlimits and the sized tmpfs
homes alone (docs/gui.md, "Sandbox limits"). Nothing here ever moves the harness itself.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ENV_BASE = "DEVICESWORLD_CGROUP"
"""A delegated cgroup v2 group (absolute path under the cgroup2 mount) to make sandboxes' groups in."""
NEEDED = ("memory", "pids")
_COUNTER = itertools.count(1)


@dataclass(frozen=True)
class CgroupSupport:
    """Where sandboxes' groups can be made (``base``), or why none can (``base`` is ``None``)."""

    base: Path | None
    reason: str

    @property
    def available(self) -> bool:
        return self.base is not None


def _cgroup2_mounts(mountinfo: str) -> list[Path]:
    """Mount points of cgroup v2 hierarchies (the filesystem type follows `` - `` in mountinfo)."""
    found = []
    for line in mountinfo.splitlines():
        head, sep, tail = line.partition(" - ")
        if sep and tail.split(" ", 1)[0] == "cgroup2":
            fields = head.split()
            if len(fields) >= 5:
                found.append(Path(fields[4].replace("\\040", " ")))
    return found


def _own_group(proc_cgroup: str) -> str | None:
    """This process's group in the v2 hierarchy (the ``0::`` line of /proc/self/cgroup)."""
    for line in proc_cgroup.splitlines():
        if line.startswith("0::"):
            return line[3:].strip() or "/"
    return None


def _words(path: Path) -> set[str]:
    try:
        return set(path.read_text().split())
    except OSError:
        return set()


def detect(
    *,
    environ: dict[str, str] | None = None,
    mountinfo: Path = Path("/proc/self/mountinfo"),
    proc_cgroup: Path = Path("/proc/self/cgroup"),
) -> CgroupSupport:
    """Whether this host lets the harness give each sandbox a cgroup v2 group with a memory and pids total."""
    env = os.environ if environ is None else environ
    try:
        mounts = _cgroup2_mounts(mountinfo.read_text())
    except OSError as exc:
        return CgroupSupport(None, f"cannot read {mountinfo}: {exc.strerror or exc}")
    if not mounts:
        return CgroupSupport(None, "no cgroup v2 hierarchy is mounted (cgroup v1 only)")
    usable = [m for m in mounts if set(NEEDED) <= _words(m / "cgroup.controllers")]
    if not usable:
        return CgroupSupport(
            None,
            f"cgroup v2 is mounted at {mounts[0]} but without the memory and pids controllers "
            "(a hybrid host: cgroup v1 holds them)",
        )
    mount = usable[0]
    chosen = env.get(ENV_BASE, "").strip()
    if chosen:
        base = Path(chosen)
        if not base.is_absolute() or not any(base == m or m in base.parents for m in usable):
            return CgroupSupport(
                None, f"{ENV_BASE}={chosen} is not a group under the cgroup v2 mount {mount}"
            )
    else:
        try:
            own = _own_group(proc_cgroup.read_text())
        except OSError:
            own = None
        if own is None:
            return CgroupSupport(None, "this process is in no cgroup v2 group")
        base = mount / own.lstrip("/")
    if not base.is_dir():
        return CgroupSupport(None, f"{base} does not exist")
    enabled = _words(base / "cgroup.subtree_control")
    missing = [c for c in NEEDED if c not in enabled]
    if missing:
        return CgroupSupport(
            None,
            f"{base} does not enable {' and '.join(missing)} for its children (cgroup.subtree_control); "
            f"delegate a group with them enabled and name it in {ENV_BASE}",
        )
    if not os.access(base, os.W_OK | os.X_OK):
        return CgroupSupport(None, f"{base} is not delegated to this user (not writable)")
    return CgroupSupport(base, f"sandbox groups under {base}")


@cache
def host_support() -> CgroupSupport:
    """:func:`detect` for this process (once)."""
    return detect()


class SandboxCgroup:
    """One sandbox's group: a memory and process total, joined by the sandbox's first process."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls, base: Path, name: str, *, memory_bytes: int, processes: int) -> SandboxCgroup:
        """A new group ``dw-<name>-<pid>-<n>`` under ``base`` with its totals written; raises ``OSError``."""
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)[:40]
        path = base / f"dw-{safe}-{os.getpid()}-{next(_COUNTER)}"
        path.mkdir()
        group = cls(path)
        try:
            (path / "memory.max").write_text(f"{memory_bytes}\n")
            if (path / "memory.swap.max").exists():
                (path / "memory.swap.max").write_text("0\n")
            (path / "pids.max").write_text(f"{processes}\n")
        except OSError:
            group.close()
            raise
        return group

    def enter_argv(self) -> list[str]:
        """An argv prefix that joins this group and then runs the rest (children inherit the group)."""
        return ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', str(self.path / "cgroup.procs")]

    def events(self) -> dict[str, int]:
        """How often the totals were hit: ``memory`` (``max`` + ``oom_kill``) and ``processes`` (``pids max``)."""

        def read(name: str) -> dict[str, int]:
            out: dict[str, int] = {}
            with contextlib.suppress(OSError):
                for line in (self.path / name).read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if value.strip().isdigit():
                        out[key] = int(value)
            return out

        mem, pids = read("memory.events"), read("pids.events")
        return {"memory": mem.get("max", 0) + mem.get("oom_kill", 0), "processes": pids.get("max", 0)}

    def close(self) -> None:
        """End every process in the group and remove it (best effort: a busy group is retried briefly)."""
        kill = self.path / "cgroup.kill"  # Linux 5.14+; older kernels: the desktop's own kill must do
        if kill.exists():
            with contextlib.suppress(OSError):
                kill.write_text("1\n")
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.02)


def setpriv_argv(ids: tuple[int, int]) -> list[str]:
    """An argv prefix that becomes host user ``ids`` (no supplementary groups) and runs the rest: after
    :meth:`SandboxCgroup.enter_argv`, since the sandbox's user may not write the group."""
    tool = shutil.which("setpriv") or "setpriv"
    return [tool, f"--reuid={ids[0]}", f"--regid={ids[1]}", "--clear-groups", "--"]


def sandbox_cgroup(name: str, *, memory_bytes: int, processes: int) -> SandboxCgroup | None:
    """A group for a new sandbox where the host offers one (see :func:`detect`), else ``None``."""
    support = host_support()
    if support.base is None:
        return None
    try:
        return SandboxCgroup.create(support.base, name, memory_bytes=memory_bytes, processes=processes)
    except OSError:
        return None


__all__ = [
    "ENV_BASE",
    "CgroupSupport",
    "SandboxCgroup",
    "detect",
    "host_support",
    "sandbox_cgroup",
    "setpriv_argv",
]
