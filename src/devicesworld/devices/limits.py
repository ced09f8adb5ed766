"""The resource limits of every sandbox (tool-mode Linux, GUI desktops, Windows), in one model.

Why one place: the sandboxes (memory, processes, file size, CPU time, home size,
command time, command output) and the harness-side readers (document size, parse time
and memory) each need a bound, and a run on a bigger machine should be able to raise them all
the same way. Defaults are chosen so that every task of the suites fits with a wide
margin while one episode cannot take the host down (docs/linux.md, "Security and
limits"; docs/gui.md and docs/windows.md, "Sandbox limits"). Each field can be overridden with ``DEVICESWORLD_LIMIT_<FIELD>`` (for
example ``DEVICESWORLD_LIMIT_MEMORY_MB=4096``); a bad value is a clear error.
"""

from __future__ import annotations

import os
import signal
from functools import cache

from pydantic import BaseModel, ConfigDict, Field, ValidationError

ENV_PREFIX = "DEVICESWORLD_LIMIT_"


class Limits(BaseModel):
    """Per-sandbox and per-read bounds (all enforced by the kernel or by a killed subprocess)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_mb: int = Field(1024, ge=64, description="Address space of each process in a command (RLIMIT_AS).")
    processes: int = Field(
        256, ge=8, description="Processes and threads a command may have at once (RLIMIT_NPROC)."
    )
    file_mb: int = Field(512, ge=1, description="Largest single file a command may write (RLIMIT_FSIZE).")
    cpu_s: int = Field(120, ge=1, description="CPU seconds per process of a command (RLIMIT_CPU).")
    command_s: float = Field(600.0, gt=0, description="Longest wall-clock time any one command may run.")
    home_mb: int = Field(
        1024,
        ge=16,
        description="Size of the device's home and /tmp together (a sized tmpfs under bubblewrap).",
    )
    sized_home: bool = Field(
        True,
        description="Hold the home in a tmpfs of home_mb (one holder process per device, ~3 process "
        "starts at device creation); false: measure the home while commands run instead.",
    )
    sandbox_memory_mb: int = Field(
        2048,
        ge=128,
        description="Memory of a whole sandbox together (a desktop, its apps and commands): cgroup v2 "
        "memory.max, only where the host delegates a cgroup v2 group (devices/cgroups.py).",
    )
    sandbox_processes: int = Field(
        1024,
        ge=16,
        description="Processes and threads of a whole sandbox together: cgroup v2 pids.max, only where "
        "the host delegates a cgroup v2 group.",
    )
    output_kib: int = Field(
        64,
        ge=1,
        description="GUI desktops: bytes (KiB) of a command's stdout and of its stderr kept at the head and "
        "again at the tail; the middle is cut with a stated count.",
    )
    read_mb: int = Field(32, ge=1, description="Largest file a harness-side document read opens.")
    expanded_mb: int = Field(256, ge=1, description="Largest declared unpacked size of a zip-based document.")
    parse_s: float = Field(8.0, gt=0, description="Wall-clock time to open one large or complex document.")
    parse_memory_mb: int = Field(
        1024, ge=128, description="Address space of the document-opening subprocess."
    )

    @property
    def memory_bytes(self) -> int:
        return self.memory_mb * 1024 * 1024

    @property
    def sandbox_memory_bytes(self) -> int:
        return self.sandbox_memory_mb * 1024 * 1024

    @property
    def home_bytes(self) -> int:
        return self.home_mb * 1024 * 1024

    @property
    def read_bytes(self) -> int:
        return self.read_mb * 1024 * 1024

    @property
    def output_bytes(self) -> int:
        return self.output_kib * 1024

    def bound(self, limit: str) -> str:
        """The value of a named limit in words (for a ``RESOURCE_LIMIT`` message)."""
        return {
            "memory": f"{self.memory_mb} MiB of memory per process",
            "processes": f"{self.processes} processes at once",
            "file size": f"{self.file_mb} MiB per file",
            "CPU time": f"{self.cpu_s} s of CPU time per process",
            "home size": f"{self.home_mb} MiB in the home and /tmp",
            "sandbox memory": f"{self.sandbox_memory_mb} MiB of memory for the whole sandbox",
            "sandbox processes": f"{self.sandbox_processes} processes in the whole sandbox",
        }.get(limit, limit)

    def hit_message(self, limit: str, exit_code: int | None) -> str:
        """The ``RESOURCE_LIMIT`` message every sandbox gives for a command that hit ``limit``."""
        return f"the command hit the sandbox's {limit} limit ({self.bound(limit)}); exit code {exit_code}"


class LimitsError(ValueError):
    """A ``DEVICESWORLD_LIMIT_*`` variable does not hold a valid value."""


def limits_from_env(environ: dict[str, str] | None = None) -> Limits:
    """The defaults with every ``DEVICESWORLD_LIMIT_<FIELD>`` override applied."""
    env = os.environ if environ is None else environ
    values: dict[str, str] = {}
    for key, value in env.items():
        if key.startswith(ENV_PREFIX):
            field = key[len(ENV_PREFIX) :].lower()
            if field not in Limits.model_fields:
                known = ", ".join(ENV_PREFIX + f.upper() for f in Limits.model_fields)
                raise LimitsError(f"{key} is not a known limit; known: {known}")
            values[field] = value
    try:
        return Limits.model_validate(values)
    except ValidationError as exc:
        problems = "; ".join(
            f"{ENV_PREFIX}{str(e['loc'][0]).upper()}: {e['msg']}" for e in exc.errors(include_input=False)
        )
        raise LimitsError(f"bad resource limit: {problems}") from None


@cache
def default_limits() -> Limits:
    """The limits of this process (read once from the environment)."""
    return limits_from_env()


_LIMIT_SIGNALS = {signal.SIGXCPU: "CPU time", signal.SIGXFSZ: "file size"}
_LIMIT_TEXTS = (
    ("File size limit exceeded", "file size"),
    ("File too large", "file size"),
    ("CPU time limit exceeded", "CPU time"),
    ("Cannot allocate memory", "memory"),
    ("MemoryError", "memory"),
    ("std::bad_alloc", "memory"),
    ("out of memory", "memory"),
    ("fork: retry", "processes"),
    ("fork: Resource temporarily unavailable", "processes"),
    ("can't start new thread", "processes"),
    ("BlockingIOError: [Errno 11]", "processes"),
)


def limit_hit(exit_code: int, stderr: str) -> str | None:
    """Which limit a failed command ran into, judged from its exit status and error output."""
    for sig, what in _LIMIT_SIGNALS.items():
        if exit_code in (128 + sig, -sig):
            return what
    for needle, what in _LIMIT_TEXTS:
        if needle in stderr:
            return what
    return None
