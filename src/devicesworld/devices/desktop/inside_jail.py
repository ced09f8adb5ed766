"""Runs one command inside a desktop sandbox under the shared limits (Debian's ``/usr/bin/python3``).

Why a launcher of its own: a desktop is one long-lived sandbox, so unlike tool mode's
one-``bwrap``-per-command there is no PID namespace that dies with a command. This
small program is started by the controller (``inside_ctl.py: run``) for every command
and gives it what a fresh sandbox would:

* **its own process tree, killed with it**: the launcher is a child subreaper
  (``PR_SET_CHILD_SUBREAPER``), so whatever the command starts — also ``cmd &`` or
  ``setsid cmd`` — is re-parented to it when its parent dies, and is killed when the
  command ends or times out;
* **limits** of :mod:`devicesworld.devices.limits` as hard rlimits: address space,
  file size, CPU time and processes. ``RLIMIT_NPROC`` counts every process of a uid, so
  the command runs in a new user namespace (same uid): since Linux 5.14 the count is
  kept per namespace, which makes it a per-command limit that the desktop's own apps do
  not eat into. Where no user namespace can be made it is the uid's count now plus the
  limit;
* **Landlock** (where the kernel has it): the command cannot signal or ``ptrace`` any
  process outside its own tree (the controller, the launcher, the apps the device
  started), and, when asked (Windows' ``cmd``), may execute and open only the listed
  paths.

Usage: ``python3 inside_jail.py SPEC_JSON ARGV...``. SPEC: ``memory_bytes``,
``processes``, ``file_bytes``, ``cpu_s``, ``timeout_s``, ``cwd``, ``status_fd`` (where a
one-line JSON verdict is written: exit code or signal, timed out, and ``peak_tasks``, the most
processes and threads the command's tree held at once, sampled), optional ``landlock`` ``{"exec": [...], "ro": [...],
"rw": [...]}``. Never imported by the harness.

Two more modes serve Windows desktops, whose ``wineserver`` opens files for every Wine
client (``type \\\\?\\unix\\proc\\...`` from ``cmd`` is the server's open):

* ``inside_jail.py --hold-ns PATH...`` (started by the controller before it enters its
  Landlock fence, which forbids ``mount``): a new user and mount namespace where each PATH
  (``/proc``, ``/sys``) is covered by an empty read-only tmpfs; prints ``ready`` and holds it;
* ``inside_jail.py --in-ns ARGV...``: joins the user namespace whose descriptor ``$DW_SERVER_NS``
  names (the controller opens it before its fence and hands it over to every app it launches),
  and with ``DW_NS=mount`` (the server) the mount namespace too, and executes ARGV
  (``wineserver -p``). The server keeps the desktop's Landlock domain, so it may still
  ``ptrace`` the apps (``ReadProcessMemory`` for the element tree), which a fence of its own
  would forbid; only its view of the file system is narrower.
"""

import contextlib
import ctypes
import json
import os
import resource
import signal
import sys
import time
from collections.abc import Iterator
from typing import NoReturn

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWUSER = 0x10000000
CLONE_NEWNS = 0x00020000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REC = 0x4000
MS_SLAVE = 1 << 19
PR_SET_PDEATHSIG = 1
SYS_LANDLOCK_CREATE_RULESET = 444
SYS_LANDLOCK_ADD_RULE = 445
SYS_LANDLOCK_RESTRICT_SELF = 446
LANDLOCK_RULE_PATH_BENEATH = 1
LANDLOCK_SCOPE_SIGNAL = 2
FS_EXECUTE = 1
FS_WRITE_FILE = 2
FS_READ_FILE = 4
FS_READ_DIR = 8
FS_MAKE_BLOCK = 1 << 11
FS_TRUNCATE = 1 << 14
FS_IOCTL_DEV = 1 << 15
FILE_RIGHTS = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _prctl(option: int, value: int) -> bool:
    return bool(_libc.prctl(option, ctypes.c_ulong(value), 0, 0, 0) == 0)


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    v = _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return int(v) if v > 0 else 0


def _handled_fs(abi: int) -> int:
    mask = (1 << 13) - 1
    if abi >= 2:
        mask |= 1 << 13  # REFER
    if abi >= 3:
        mask |= FS_TRUNCATE
    if abi >= 5:
        mask |= FS_IOCTL_DEV
    return mask


def landlock(abi: int, policy: dict[str, list[str]] | None, scope: bool = True) -> str:
    """Enter a Landlock domain: no signals out (ABI 6+; ``scope``), and the filesystem policy if given.

    The controller of a Windows desktop enters a filesystem-only domain itself (``scope``
    off: it and Wine's server must still signal the apps), so everything Wine opens on
    anyone's behalf — ``wineserver`` opens files for its clients — stays inside it."""
    scoped = LANDLOCK_SCOPE_SIGNAL if abi >= 6 and scope else 0
    # without a filesystem policy, a domain that only refuses making block devices still
    # confines ptrace (and, ABI 6+, signals) to the command's own processes
    fs = _handled_fs(abi) if policy else (0 if scoped else FS_MAKE_BLOCK)
    attr = _RulesetAttr(fs, 0, scoped)
    size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else 8
    fd = int(_libc.syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), 0))
    if fd < 0:
        return "failed"
    try:
        if policy:
            rw = fs & ~FS_EXECUTE
            for kind, rights in (
                ("exec", FS_EXECUTE | FS_READ_FILE | FS_READ_DIR),
                ("ro", FS_READ_FILE | FS_READ_DIR),
                ("rw", rw),
            ):
                for path in policy.get(kind, []):
                    try:
                        pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                    except OSError:
                        continue
                    try:
                        allowed = rights & fs
                        if not os.path.isdir(path):
                            allowed &= FILE_RIGHTS
                        rule = _PathBeneath(allowed, pfd)
                        _libc.syscall(
                            SYS_LANDLOCK_ADD_RULE, fd, LANDLOCK_RULE_PATH_BENEATH, ctypes.byref(rule), 0
                        )
                    finally:
                        os.close(pfd)
        _prctl(PR_SET_NO_NEW_PRIVS, 1)
        if _libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, fd, 0) != 0:
            return "failed"
    finally:
        os.close(fd)
    return "fs+scope" if policy else "scope"


def _own_namespace() -> bool:
    """A new user namespace with the same uid and gid (so NPROC counts this command only)."""
    uid, gid = os.getuid(), os.getgid()
    if _libc.unshare(CLONE_NEWUSER) != 0:
        return False
    try:
        with open("/proc/self/setgroups", "w") as f:
            f.write("deny")
        with open("/proc/self/uid_map", "w") as f:
            f.write(f"{uid} {uid} 1")
        with open("/proc/self/gid_map", "w") as f:
            f.write(f"{gid} {gid} 1")
    except OSError:
        return False
    return True


def _uid_tasks(uid: int) -> int:
    n = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                st = os.stat(f"/proc/{name}/task")
                if st.st_uid == uid:
                    n += len(os.listdir(f"/proc/{name}/task"))
            except OSError:
                pass
    return n


def _stats() -> Iterator[tuple[int, list[str]]]:
    """(pid, the fields of /proc/<pid>/stat after the command name) of every process now."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        yield int(name), fields


def _children(me: int) -> list[int]:
    return [pid for pid, fields in _stats() if int(fields[1]) == me]


def tree_tasks(me: int) -> int:
    """Tasks (processes and threads: what ``RLIMIT_NPROC`` counts) of the command's tree below ``me``."""
    kids: dict[int, list[int]] = {}
    threads: dict[int, int] = {}
    for pid, fields in _stats():
        kids.setdefault(int(fields[1]), []).append(pid)
        threads[pid] = int(fields[17])  # num_threads (field 20 of stat)
    total, todo = 0, list(kids.get(me, []))
    while todo:
        pid = todo.pop()
        total += threads.get(pid, 1)
        todo.extend(kids.get(pid, []))
    return total


def _reap_all() -> bool:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return True
        if pid == 0:
            return False


def sweep(me: int) -> None:
    """Kill and reap every descendant: orphans come to us (subreaper) as their parents die."""
    for _ in range(10000):
        kids = _children(me)
        for pid in kids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if _reap_all() and not kids:
            return
        time.sleep(0.005)


def hold_namespace(paths: list[str]) -> int:
    """A user and mount namespace with each of ``paths`` covered by an empty tmpfs, held until the
    controller (our parent) dies. Prints ``ready`` once made, or ``failed: why``."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    uid, gid = os.getuid(), os.getgid()
    try:
        if _libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
            raise OSError(ctypes.get_errno(), "unshare")
        for name, text in (
            ("setgroups", "deny"),
            ("uid_map", f"{uid} {uid} 1"),
            ("gid_map", f"{gid} {gid} 1"),
        ):
            with open(f"/proc/self/{name}", "w") as f:
                f.write(text)
        # a slave: mounts made later in the desktop (a pooled spare's task drive) still reach us
        if _libc.mount(b"none", b"/", None, MS_REC | MS_SLAVE, None) != 0:
            raise OSError(ctypes.get_errno(), "mount --make-rslave /")
        for path in paths:
            if not os.path.isdir(path):  # nothing to hide (a sandbox without /sys)
                continue
            flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
            if _libc.mount(b"none", path.encode(), b"tmpfs", flags, b"size=4k,mode=555") != 0:
                raise OSError(ctypes.get_errno(), f"mount tmpfs on {path}")
    except OSError as exc:
        print(f"failed: {exc}", flush=True)
        return 1
    print("ready", flush=True)
    sys.stdout.close()
    while True:
        signal.pause()


def in_namespace(fds: list[int], argv: list[str]) -> NoReturn:
    """Join the user and mount namespaces whose descriptors ``fds`` are (opened by the controller
    from the holder of :func:`hold_namespace`) and execute ``argv``; with none (none could be made)
    execute it as it is."""
    if os.environ.pop("DW_NS", "") != "mount":
        fds = fds[:1]  # an app: the server's user namespace only (Wine's loader needs /proc)
    for fd, kind in zip(fds, (CLONE_NEWUSER, CLONE_NEWNS)[: len(fds)], strict=True):
        if _libc.setns(fd, kind) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"setns: {os.strerror(err)}")
        os.close(fd)
    if len(fds) > 1:
        os.chdir(os.environ.get("HOME", "/"))
    _exec_command(argv)


def main() -> int:
    if sys.argv[1] == "--hold-ns":
        return hold_namespace(sys.argv[2:])
    if sys.argv[1] == "--in-ns":
        fds = [int(fd) for fd in os.environ.pop("DW_SERVER_NS", "").split(",") if fd]
        return in_namespace(fds, sys.argv[2:])
    spec = json.loads(sys.argv[1])
    argv = sys.argv[2:]
    status_fd = int(spec.get("status_fd", -1))
    if status_fd >= 0:
        os.set_inheritable(status_fd, False)
    me = os.getpid()
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    uid = os.getuid()
    userns = _own_namespace()  # before going non-dumpable: that makes /proc/self/uid_map root's
    _prctl(PR_SET_DUMPABLE, 0)
    processes = int(spec["processes"])
    if not userns:
        processes += _uid_tasks(uid)
    abi = landlock_abi()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD, signal.SIGTERM})
    r, w = os.pipe()  # the child says here why it could not start
    child = os.fork()
    if child == 0:
        try:
            os.close(r)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD, signal.SIGTERM})
            # Python ignores SIGXFSZ and SIGPIPE, and an ignored signal stays ignored across exec: the
            # command gets the defaults back, so a write past the file-size limit kills the writer
            # (a RESOURCE_LIMIT) instead of failing quietly (Wine's scripts swallow the EFBIG)
            for sig in (signal.SIGXFSZ, signal.SIGPIPE):
                signal.signal(sig, signal.SIG_DFL)
            os.setsid()
            mem, fsize, cpu = int(spec["memory_bytes"]), int(spec["file_bytes"]), int(spec["cpu_s"])
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            # Wine reserves most of its address space up front: its commands are bounded on
            # private writable memory (RLIMIT_DATA) instead of address space
            kind = resource.RLIMIT_DATA if spec.get("memory_kind") == "data" else resource.RLIMIT_AS
            resource.setrlimit(kind, (mem, mem))
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))  # SIGXCPU, then SIGKILL 5 s later
            resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
            fence = landlock(abi, spec.get("landlock")) if abi else "none"
            if spec.get("landlock") and fence != "fs+scope":
                raise OSError("the filesystem policy could not be applied (Landlock)")
            os.chdir(spec.get("cwd") or os.environ.get("HOME", "/"))
            os.set_inheritable(w, False)
            _exec_command(argv)
        except BaseException as exc:  # reported to the launcher
            try:
                os.write(w, f"{type(exc).__name__}: {exc}".encode()[:2000])
            finally:
                os._exit(126)
    os.close(w)
    deadline = time.monotonic() + float(spec.get("timeout_s", 30))
    status = None
    why = None
    # the most tasks the tree held at once, sampled (at most twice a second) while it runs: a tree
    # that reached the process limit is reported as having hit it, whatever its programs printed
    # (Wine's ``start`` says only "File not found." when it cannot fork)
    peak, sampled = 0, 0.0
    while status is None:
        now = time.monotonic()
        left = deadline - now
        if left <= 0:
            break
        if now - sampled >= 0.5:
            peak, sampled = max(peak, tree_tasks(me)), now
        info = signal.sigtimedwait({signal.SIGCHLD, signal.SIGTERM}, min(left, 0.5))
        if info is not None and info.si_signo == signal.SIGTERM:
            why = "stopped"
            break
        while True:
            try:
                pid, st = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid = 0
            if pid == 0:
                break
            if pid == child:
                status = st
    timed_out = status is None and why is None
    peak = max(peak, tree_tasks(me))
    with contextlib.suppress(OSError):
        os.killpg(child, signal.SIGKILL)
    sweep(me)
    with os.fdopen(r, "rb") as f:
        failed = f.read().decode("utf-8", "replace")
    verdict = {
        "timed_out": timed_out,
        "stopped": why == "stopped",
        "exit_code": None,
        "signal": None,
        "userns": userns,
        "landlock_abi": abi,
        "start_error": failed or None,
        "peak_tasks": peak,
        "processes_limit": int(spec["processes"]),
    }
    if status is not None:
        if os.WIFSIGNALED(status):
            verdict["signal"] = os.WTERMSIG(status)
            verdict["exit_code"] = 128 + os.WTERMSIG(status)
        else:
            verdict["exit_code"] = os.WEXITSTATUS(status)
    if status_fd >= 0:
        os.write(status_fd, (json.dumps(verdict) + "\n").encode())
        os.close(status_fd)
    return 0


PRELOAD_KEPT = "DW_JAIL_PRELOAD"
"""Where the jail keeps the command's ``LD_PRELOAD`` (the task clock's libfaketime) while it runs
without it: under libfaketime the jail's own short sleeps failed with EINVAL."""


def _without_preload() -> None:
    """Run the jail itself without ``LD_PRELOAD``; the command gets it back (:func:`_exec_command`)."""
    if os.environ.get("LD_PRELOAD") and PRELOAD_KEPT not in os.environ:
        env = dict(os.environ)
        env[PRELOAD_KEPT] = env.pop("LD_PRELOAD")
        os.execve(sys.executable, [sys.executable, *sys.argv], env)


def _exec_command(argv: list[str]) -> NoReturn:
    """Become the command: the one place the jail hands the command its ``LD_PRELOAD`` back."""
    kept = os.environ.pop(PRELOAD_KEPT, None)
    if kept:
        os.environ["LD_PRELOAD"] = kept
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    _without_preload()
    sys.exit(main())
