"""The task document: one JSON object per task, validated by these pydantic models.

The structural rules (types, required fields, id formats) live here; the rules that
need the device registry (does this kind have that op, do the args fit the op) live in
:mod:`devicesworld.tasks.semantic`, so that the JSON Schema stays a pure description of
the file format and plugins can add kinds without touching it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from devicesworld.clip import clip, clip_repr
from devicesworld.numbers import check_number
from devicesworld.spec.limits import MAX_VALUE_DEPTH, check_value_depth
from devicesworld.spec.metadata import Composition, ReadRecord
from devicesworld.worlds.model import Member, WorldSize, omit

SCHEMA_VERSION: Final = 1
"""The version a document without one is read as (every shipped suite is version 1)."""
PROFILES_SCHEMA_VERSION: Final = 2
"""From this version on device profiles read as written: ``desktop: gui`` is GUI-only.

In version 1 a kind may read a profile the way it was meant when written
(``DeviceKind.legacy_profile``: a Linux ``gui`` desktop and a Windows desktop had a shell,
so they read as ``hybrid``). Nothing else differs between the versions."""
DEFAULT_START_TIME = datetime(2026, 3, 2, 9, 0, 0)
GLOBAL_DEVICE = "env"
"""Pseudo device id for conditions on the episode itself (e.g. an infeasibility report)."""

DeviceId = str
_ID_RE = r"^[a-z][a-z0-9]*_\d+$"
_TASK_ID_RE = r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$"


class _Model(BaseModel):
    """Unknown fields are errors; numbers are strict (``true`` is not ``1``, see :mod:`devicesworld.numbers`)."""

    model_config = ConfigDict(extra="forbid")


def _bounded_depth(value: Any) -> Any:
    """Free-form values nest at most ``MAX_VALUE_DEPTH`` levels (deeper ones cannot be serialised)."""
    return check_value_depth(value, MAX_VALUE_DEPTH)


class DeviceSpec(_Model):
    """A device taking part in the task."""

    id: str = Field(pattern=_ID_RE, description="`<kind>_<n>`, e.g. `android_0`, `smarthome_0`.")
    kind: str = Field(description="Device kind: android, linux, smarthome (later windows).")
    profile: dict[str, Any] = Field(
        default_factory=dict, description="Kind-specific configuration (screen, language, home layout...)."
    )

    _profile_depth = field_validator("profile")(_bounded_depth)

    @model_validator(mode="after")
    def _id_matches_kind(self) -> DeviceSpec:
        if not self.id.startswith(self.kind + "_"):
            raise ValueError(
                f"device id {clip_repr(self.id)} must be '{clip(self.kind)}_<n>' "
                f"for kind {clip_repr(self.kind)}"
            )
        return self


class DeviceOp(_Model):
    """One setup or cleanup operation on one device."""

    device: str
    op: str
    args: dict[str, Any] = Field(default_factory=dict)

    _args_depth = field_validator("args")(_bounded_depth)


class Condition(_Model):
    """One verifier condition: a named check on one device (or on `env`, the episode itself)."""

    id: str
    device: str
    check: str
    args: dict[str, Any] = Field(default_factory=dict)
    scored: bool = Field(default=True, description="Counts towards the partial score.")
    required: bool = Field(default=True, description="Must hold for the task to succeed.")
    subtask: str | None = Field(default=None, description="Composite tasks: the subtask it belongs to.")
    description: str = ""

    _args_depth = field_validator("args")(_bounded_depth)


class CollateralPolicy(_Model):
    """Whether the evaluator adds the ``no_collateral_damage`` guard (it does unless a task opts out)."""

    guard: bool = Field(default=True, description="Fail any device change outside the task's write set.")
    reason: str = Field(default="", description="Why a task opts out; required when guard is false.")

    @model_validator(mode="after")
    def _opt_out_needs_reason(self) -> CollateralPolicy:
        if not self.guard and not self.reason.strip():
            raise ValueError("a task that turns the collateral-damage guard off must give a reason")
        return self


class Evaluation(_Model):
    conditions: list[Condition] = Field(min_length=1)
    writes: dict[str, list[str]] = Field(
        default_factory=dict,
        description=(
            "Per device id: extra state paths (globs, e.g. `files/Notes/*`) the task may change "
            "beyond those its checks name as outputs."
        ),
    )
    harmless: dict[str, list[str]] = Field(
        default_factory=dict,
        description=(
            "Per device id: state paths (globs) whose changes never count — what a person would "
            "expect beside the asked output (the backup file the task's editor leaves), not an output."
        ),
    )
    collateral: CollateralPolicy = Field(default_factory=CollateralPolicy)

    @model_serializer(mode="wrap")
    def _omit_defaults(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Leave the guard's defaults out, so tasks written before it serialise byte for byte."""
        return omit(
            handler(self),
            writes=not self.writes,
            harmless=not self.harmless,
            collateral=self.collateral == CollateralPolicy(),
        )

    @field_validator("conditions")
    @classmethod
    def _unique_ids(cls, conditions: list[Condition]) -> list[Condition]:
        seen: set[str] = set()
        for c in conditions:
            if c.id in seen:
                raise ValueError(f"duplicate condition id {clip_repr(c.id)}")
            seen.add(c.id)
        return conditions


class WorldSpec(_Model):
    """The persona world a task's devices start from (see docs/worlds.md); the task's own
    setup ops run after it and act as the task-specific overrides."""

    persona_seed: int = Field(ge=0, le=2**31 - 1, description="Which persona: the same seed, the same world.")
    size: WorldSize = Field(default="lived", description="`lived` (default) or `small` (unit tests, smoke).")
    devices: list[str] | None = Field(
        default=None,
        description="Device ids that take the world; default: the first device of each kind that supports worlds.",
    )
    reads: list[str] = Field(
        default_factory=list,
        description="Keys of the world values the task reads (e.g. `verification_code/0`); QC checks their twins are declared distractors.",
    )
    members: dict[str, Member] = Field(
        default_factory=dict,
        description="Device id -> household member (`partner`, `child`) whose own world that device takes: "
        "the persona's partner's phone, a second desktop. Omitted when empty.",
    )
    mirrored: bool = Field(
        default=False,
        description="The partner's and child's worlds hold their texts with the user (a child's: also with the "
        "partner) as the other side's world has them, sent and received swapped, so one household "
        "conversation is on both phones (docs/worlds.md). Set by the builder where it changes a phone of "
        "the task; omitted when false.",
    )

    _strict_numbers = field_validator("persona_seed", mode="before")(check_number)

    @model_serializer(mode="wrap")
    def _omit_no_members(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A world without members (or not mirrored) serialises as before they existed (shipped suites
        byte for byte)."""
        return omit(handler(self), members=not self.members, mirrored=not self.mirrored)


class Step(_Model):
    """An agent step: ``{"device": id, "action": name, "args": {...}}``.

    ``finish`` and ``report_infeasible`` are global and need no device.
    """

    device: str | None = None
    action: str
    args: dict[str, Any] = Field(default_factory=dict)

    _args_depth = field_validator("args")(_bounded_depth)


class Limits(_Model):
    max_steps: int = Field(default=50, ge=1, le=10_000)
    max_seconds: float | None = Field(default=600.0, gt=0, description="Wall-clock budget per episode.")

    # `true` is not 1 step (see devicesworld.numbers); args are checked where they are parsed.
    _strict_numbers = field_validator("max_steps", "max_seconds", mode="before")(check_number)


class SourceValue(_Model):
    """A value the agent must read from a source device before it can act (for failure diagnosis).

    Declaring sources is optional. When a task declares them, a budget-exhausted run
    in which one of these values never appeared in anything the agent saw (an
    observation or an action's feedback) is diagnosed as B1, "required source
    information never acquired" (see docs/analysis.md).
    """

    device: str = Field(description="The device the value must be read from.")
    value: str | int | float = Field(description="The value as it is shown to the agent, e.g. `14:30`.")
    description: str = ""


class Metadata(_Model):
    """What a task is and how it was made; every key is typed (:mod:`devicesworld.spec.metadata`).

    The first fields are always written; the records after them only when a builder set them, so
    the shipped suites read and write back byte for byte."""

    pattern: str = Field(
        default="device_state_control",
        description="The workflow pattern: one of the paper's nine (spec.metadata.PATTERNS) or a finer one.",
    )
    difficulty: Literal["easy", "medium", "hard", "expert"] = "easy"
    device_kinds: list[str] = Field(default_factory=list, description="One entry per device, in order.")
    apps: list[str] = Field(default_factory=list, description="Apps or surfaces the task touches.")
    split: str = "test"
    origin: str = "handwritten"
    tags: list[str] = Field(default_factory=list)
    sources: list[SourceValue] = Field(
        default_factory=list,
        description="Values the agent must acquire from source devices; used only by failure diagnosis.",
    )
    reads: list[ReadRecord] | None = Field(
        default=None, description="A GUI task's values read from its devices (tasks/source_difficulty.py)."
    )
    composition: Composition | None = Field(
        default=None, description="How a composed or scenario task was made (family, derivations, features)."
    )
    tier: Literal["standard", "long"] | None = Field(default=None, description="Absent: standard.")
    category: str | None = Field(default=None, description="A B-MoCA daily task's category ('system').")
    gym_name: str | None = Field(default=None, description="A B-MoCA task's Gymnasium environment name.")
    original_instruction: str | None = Field(
        default=None, description="`tasks refine`: the instruction before its rewrite."
    )
    rewrite_model: str | None = Field(default=None, description="`tasks refine`: the model that rewrote it.")
    judge: dict[str, Any] | None = Field(default=None, description="`tasks refine`: the judge's verdict.")
    locale: str | None = Field(default=None, description="The task's locale for value matching (en-US).")

    @model_serializer(mode="wrap")
    def _records_when_set(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if k in _ALWAYS or k in self.model_fields_set}


_ALWAYS = frozenset(("pattern", "difficulty", "device_kinds", "apps", "split", "origin", "tags", "sources"))


class Task(_Model):
    """A complete, executable task."""

    schema_version: Literal[1, 2] = Field(
        default=SCHEMA_VERSION,
        description="1: profiles as meant before the GUI-only desktop (a `gui` desktop has a shell, read as "
        "`hybrid`); 2: profiles read as written (`desktop: gui` is GUI-only).",
    )
    id: str = Field(pattern=_TASK_ID_RE)
    instruction: str = Field(min_length=1)
    devices: list[DeviceSpec] = Field(min_length=1, max_length=4)
    start_time: datetime = Field(
        default=DEFAULT_START_TIME, description="Virtual clock at reset; devices never read the wall clock."
    )
    world: WorldSpec | None = Field(
        default=None, description="The persona world applied before `setup` (omitted: empty devices)."
    )
    setup: list[DeviceOp] = Field(default_factory=list)
    evaluation: Evaluation
    cleanup: list[DeviceOp] = Field(
        default_factory=list, description="Extra ops; every device's own cleanup always runs after them."
    )
    limits: Limits = Field(default_factory=Limits)
    metadata: Metadata = Field(default_factory=Metadata)
    solution: list[Step] = Field(
        default_factory=list, description="Reference steps, replayed by the oracle; never shown to agents."
    )

    @model_serializer(mode="wrap")
    def _omit_no_world(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A task without a world serialises as before worlds existed (shipped suites byte for byte)."""
        return omit(handler(self), world=self.world is None)

    @field_validator("instruction")
    @classmethod
    def _instruction_not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("instruction is blank")
        return v

    @model_validator(mode="after")
    def _device_ids_unique(self) -> Task:
        ids = [d.id for d in self.devices]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"duplicate device ids: {', '.join(dup[:10])}")
        if not self.metadata.device_kinds:
            self.metadata.device_kinds = [d.kind for d in self.devices]
        unknown = sorted({s.device for s in self.metadata.sources} - set(ids))
        if unknown:
            shown = ", ".join(clip(u, 80) for u in unknown[:10])
            raise ValueError(f"metadata.sources name devices the task does not have: {shown}")
        if self.world is not None and self.world.devices is not None:
            unknown = sorted(set(self.world.devices) - set(ids))
            if unknown:
                shown = ", ".join(clip(u, 80) for u in unknown[:10])
                raise ValueError(f"world.devices names devices the task does not have: {shown}")
        if self.world is not None and self.world.members:
            unknown = sorted(set(self.world.members) - set(ids))
            if unknown:
                shown = ", ".join(clip(u, 80) for u in unknown[:10])
                raise ValueError(f"world.members names devices the task does not have: {shown}")
            both = sorted(set(self.world.members) & set(self.world.devices or []))
            if both:
                shown = ", ".join(clip(u, 80) for u in both[:10])
                raise ValueError(
                    f"world.members names devices that take the persona's own world too: {shown}"
                )
        unknown = sorted(set(self.evaluation.writes) - set(ids))
        if unknown:
            shown = ", ".join(clip(u, 80) for u in unknown[:10])
            raise ValueError(f"evaluation.writes names devices the task does not have: {shown}")
        return self

    def device_ids(self) -> list[str]:
        return [d.id for d in self.devices]

    @property
    def device_combo(self) -> str:
        """A stable label for breakdowns: sorted kinds with counts, e.g. ``androidx2+linux``."""
        counts: dict[str, int] = {}
        for d in self.devices:
            counts[d.kind] = counts.get(d.kind, 0) + 1
        return "+".join(k if n == 1 else f"{k}x{n}" for k, n in sorted(counts.items()))


def task_json_schema() -> dict[str, Any]:
    schema = Task.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "DevicesWorld task"
    return schema
