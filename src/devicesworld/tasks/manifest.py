"""Frozen evaluation sets: a manifest names the tasks of a split and a content hash of each.

Why: ``test`` used to be re-selected from ``full`` at every build, so two runs of "the test
split" could hold different tasks. A manifest (``tasks/data/manifests/<name>-v<version>.json``)
freezes the selection: the ids, a hash of what each task asks and checks (instruction,
devices, start time, world, setup, evaluation, limits), and a hash of the manifest itself,
which every result line and ``run.json`` carry so that reports can refuse to mix runs of
different sets. A new selection is a new version (``devicesworld tasks freeze``); the old
ones stay loadable by name (``--suite test-v2.1``).
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from devicesworld.spec.models import Task

MANIFEST_SCHEMA_VERSION = 1
HASHED_FIELDS = ("instruction", "devices", "start_time", "world", "setup", "evaluation", "limits")
"""What a task's content hash covers: everything that decides what the agent faces and how it is
judged; not the id, the metadata (tags, split, provenance) nor the reference solution."""
UNHASHABLE = "unhashable:"
_NAME = re.compile(r"^(?P<name>[a-z][a-z0-9_]*)-v(?P<version>\d+(?:\.\d+)*)$")


class ManifestError(Exception):
    """A manifest that does not exist, does not parse, or names tasks that are gone."""


class ManifestEntry(BaseModel):
    id: str
    hash: str


class Protocol(BaseModel):
    """How a frozen set is run, whatever its tasks say: the paper's budget (§4.1).

    The runner applies it to every task of the set and records it in ``run.json``. It is not
    part of the manifest's hash (it decides how the tasks are run, not which tasks they are),
    and a task file keeps its own limits: a family that needs more steps belongs in a separate
    set (its own manifest and protocol), which reports keep apart like any other set.
    """

    name: str = Field(default="paper", description="A label for the protocol, shown in run.json.")
    max_steps: int = Field(ge=1, le=10_000, description="The step budget of every task of the set.")
    wall_limit: str = Field(
        default="each task's max_seconds, counting environment and agent time; "
        "model latency excluded and recorded apart",
        description="What the wall-clock limit counts (documentation; the runner enforces it).",
    )


PAPER_PROTOCOL = Protocol(max_steps=50)
"""The paper's budget: 50 steps per task, uniform."""
SPLIT_PROTOCOLS: dict[str, Protocol] = {"test": PAPER_PROTOCOL}
"""The protocol of every version of a split whose manifest does not name one."""


class Manifest(BaseModel):
    """One frozen version of a named split."""

    schema_version: int = MANIFEST_SCHEMA_VERSION
    name: str = Field(description="The split's name, e.g. `test`.")
    version: str = Field(description="Dotted version, e.g. `2.1`.")
    source: str = Field(default="full", description="The suite the tasks are read from.")
    created: str = ""
    description: str = ""
    tasks: list[ManifestEntry]
    hash: str = Field(default="", description="sha256 of the canonical JSON of name, version and tasks.")
    protocol: Protocol | None = Field(
        default=None, description="How the set is run; None: the split's (SPLIT_PROTOCOLS), if any."
    )

    @property
    def label(self) -> str:
        return f"{self.name}-v{self.version}"

    def compute_hash(self) -> str:
        body = {"name": self.name, "version": self.version, "tasks": [e.model_dump() for e in self.tasks]}
        return "sha256:" + hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.tasks]

    @property
    def run_protocol(self) -> Protocol | None:
        """The protocol this set is run under: its own, else its split's (``test``: the paper's)."""
        return self.protocol or SPLIT_PROTOCOLS.get(self.name)


def apply_protocol(tasks: list[Task], protocol: Protocol | None) -> list[Task]:
    """``tasks`` with the protocol's uniform step budget (unchanged without a protocol)."""
    if protocol is None:
        return tasks
    return [
        t
        if t.limits.max_steps == protocol.max_steps
        else t.model_copy(update={"limits": t.limits.model_copy(update={"max_steps": protocol.max_steps})})
        for t in tasks
    ]


def canonical(value: Any) -> str:
    """Canonical JSON text: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def task_hash(task: Task) -> str:
    """sha256 of the canonical JSON of the task's hashed fields.

    A task that cannot be serialised (it should not happen for a validated task; a test builds
    one nested too deep to send) still gets a stable, visibly different value: ``unhashable:``
    and a hash of its id and the error's type. Never raises.
    """
    try:
        text = canonical(task.model_dump(mode="json", include=set(HASHED_FIELDS)))
    except (TypeError, ValueError, RecursionError) as exc:  # e.g. nesting too deep to serialise
        return UNHASHABLE + hashlib.sha256(f"{task.id}:{type(exc).__name__}".encode()).hexdigest()
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def manifests_dir() -> Path:
    return Path(str(resources.files("devicesworld.tasks") / "data" / "manifests"))


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def manifest_versions(name: str, folder: Path | None = None) -> list[str]:
    """The versions of ``name`` shipped, oldest first."""
    folder = folder or manifests_dir()
    found = []
    for path in folder.glob(f"{name}-v*.json") if folder.exists() else []:
        m = _NAME.match(path.stem)
        if m and m["name"] == name:
            found.append(m["version"])
    return sorted(found, key=_version_key)


def manifest_labels(folder: Path | None = None) -> list[str]:
    """Every shipped manifest as ``<name>-v<version>``."""
    folder = folder or manifests_dir()
    return sorted(p.stem for p in folder.glob("*.json") if _NAME.match(p.stem)) if folder.exists() else []


def resolve(label: str, folder: Path | None = None) -> Path | None:
    """The manifest file of ``test`` (its newest version) or ``test-v2.1``; None when there is none."""
    folder = folder or manifests_dir()
    m = _NAME.match(label)
    if m:
        path = folder / f"{label}.json"
        return path if path.exists() else None
    versions = manifest_versions(label, folder)
    return folder / f"{label}-v{versions[-1]}.json" if versions else None


def archive_path(label: str, folder: Path | None = None) -> Path:
    """Where a superseded version keeps its tasks as they were frozen (``test-v2.1.jsonl.gz``).

    Why: a new version replaces tasks of the source suite in place (issue #33 rebuilt incoherent
    ones); the old version must still load by name with the content its hashes name, so runs and
    reports against it stay comparable (issue #36).
    """
    return (folder or manifests_dir()) / f"{label}.jsonl.gz"


def archived_tasks(label: str, folder: Path | None = None) -> list[Task] | None:
    """The archived tasks of a superseded version, in the manifest's order; None without an archive."""
    import gzip

    from devicesworld.spec.models import Task

    path = archive_path(label, folder)
    if not path.exists():
        return None
    manifest = load_manifest(label, folder)
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        by_id = {t.id: t for t in (Task.model_validate_json(line) for line in fh if line.strip())}
    return [by_id[i] for i in manifest.ids if i in by_id]


def read_manifest(path: Path) -> Manifest:
    try:
        manifest = Manifest.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ManifestError(f"cannot read the manifest {path}: {str(exc).splitlines()[0]}") from None
    if manifest.hash != manifest.compute_hash():
        raise ManifestError(f"the manifest {path.name} was edited by hand: its hash does not match its tasks")
    return manifest


def load_manifest(label: str, folder: Path | None = None) -> Manifest:
    path = resolve(label, folder)
    if path is None:
        raise ManifestError(f"no manifest {label!r}; shipped: {', '.join(manifest_labels(folder)) or 'none'}")
    return read_manifest(path)


def build_manifest(
    name: str,
    version: str,
    tasks: list[Task],
    *,
    source: str = "full",
    description: str = "",
    created: str | None = None,
    protocol: Protocol | None = None,
) -> Manifest:
    """A manifest of ``tasks``; ``created`` defaults to today (a draw passes "" for stable bytes)."""
    manifest = Manifest(
        name=name,
        version=version,
        source=source,
        created=datetime.now(UTC).date().isoformat() if created is None else created,
        description=description,
        tasks=[ManifestEntry(id=t.id, hash=task_hash(t)) for t in tasks],
        protocol=protocol,
    )
    manifest.hash = manifest.compute_hash()
    return manifest


def manifest_text(manifest: Manifest) -> str:
    """The file form: indented JSON, one task per line, newline at the end (stable bytes)."""
    head = manifest.model_dump(exclude={"tasks"} | ({"protocol"} if manifest.protocol is None else set()))
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    rows = ",\n".join(f"    {json.dumps(e.model_dump(), ensure_ascii=False)}" for e in manifest.tasks)
    return "{\n" + "\n".join(lines) + '\n  "tasks": [\n' + rows + "\n  ]\n}\n"


def next_version(name: str, folder: Path | None = None) -> str:
    """The next minor version after the newest shipped one (``2.1`` -> ``2.2``; none -> ``1.0``)."""
    versions = manifest_versions(name, folder)
    if not versions:
        return "1.0"
    parts = list(_version_key(versions[-1]))
    parts[-1] += 1
    return ".".join(map(str, parts))


def mismatches(manifest: Manifest, tasks: list[Task]) -> list[str]:
    """One line per manifest task that is missing from ``tasks`` or whose content changed."""
    by_id = {t.id: t for t in tasks}
    out = []
    for entry in manifest.tasks:
        task = by_id.get(entry.id)
        if task is None:
            out.append(f"{entry.id}: missing")
        elif (now := task_hash(task)) != entry.hash:
            out.append(f"{entry.id}: hash {now} differs from the manifest's {entry.hash}")
    return out
