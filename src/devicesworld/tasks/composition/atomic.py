"""Atomic tasks: typed, parameterised building blocks of composite tasks (JarvisGUI §3.1).

An atomic task has static parts — its input and output slots and its platform (a
device kind) — and dynamic parts — instruction, verifiers, setup, reference steps and
output values — produced by :meth:`AtomicTask.instantiate` from concrete input
values. A slot value carries both the value (for verifiers) and a *mention* (how an
instruction refers to it), so that a value the agent must find on a device is never
spelled out in the instruction.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from devicesworld.spec.models import Condition, DeviceOp, Step
from devicesworld.spec.values import SLOT_VALUE_TYPES
from devicesworld.tasks.authoring.android_script import UiStep

if TYPE_CHECKING:
    from devicesworld.tasks.composition.reasoning import Derivation


@dataclass(frozen=True)
class Slot:
    name: str
    type: str


@dataclass(frozen=True)
class SlotValue:
    """A value flowing along an edge of a task graph."""

    type: str
    value: Any
    mention: str
    """How an instruction refers to it: the literal for user-given values, a description otherwise."""
    hidden: bool = False
    """True when the agent must find the value on a device (the instruction must not contain it)."""
    device: str | None = None
    """Where the value lives, for values read from a device and for files."""
    distractors: tuple[Any, ...] = ()
    """Plausible wrong answers the task itself offers (the losing side of a conflict, the other
    branch of a decision): a verifier of this value fails an answer that also gives one."""

    def expected(self, written: Any = None) -> dict[str, Any]:
        """The value as a verifier expects it, typed after the slot (a time compares as a time).

        ``written`` is the spelling the reference solution writes (default: the value itself).
        """
        kind = SLOT_VALUE_TYPES.get(self.type, "auto")
        return {"value": self.value if written is None else written, "type": kind}

    def expected_distractors(self) -> list[dict[str, Any]]:
        kind = SLOT_VALUE_TYPES.get(self.type, "auto")
        return [{"value": d, "type": kind} for d in self.distractors]


@dataclass
class Fragment:
    """One instantiated atomic task: what it contributes to the composite task."""

    instruction: str
    setup: list[DeviceOp] = field(default_factory=list)
    conditions: list[Condition] = field(default_factory=list)
    solution: list[Step | UiStep] = field(default_factory=list)
    """Concrete steps, or phone steps by meaning that the composer records into concrete ones."""
    outputs: dict[str, SlotValue] = field(default_factory=dict)
    derivations: list[Derivation] = field(default_factory=list)
    """Reasoning steps: how each output was computed, so quality control can recompute it."""


@dataclass
class InstanceContext:
    """What an atomic task may use while instantiating: its device, randomness, unique names."""

    device_id: str
    rng: random.Random
    names: set[str] = field(default_factory=set)

    def op(self, name: str, /, **args: Any) -> DeviceOp:
        """A setup op on this task's device."""
        return DeviceOp(device=self.device_id, op=name, args=args)

    def step(self, action: str, /, **args: Any) -> Step:
        """A reference step on this task's device."""
        return Step(device=self.device_id, action=action, args=args)

    def cond(self, cid: str, check: str, /, **args: Any) -> Condition:
        """A condition on this task's device."""
        return Condition(id=cid, device=self.device_id, check=check, args=args)

    def unique(self, base: str) -> str:
        """A name not used yet by any task of the same composite task (``lamp``, ``lamp_2``, ...)."""
        name, n = base, 1
        while name in self.names:
            n += 1
            name = f"{base}_{n}"
        self.names.add(name)
        return name


class AtomicTask(Protocol):
    """Static parts (slots, platform) as read-only attributes; dynamic parts from ``instantiate``."""

    @property
    def name(self) -> str: ...

    @property
    def platform(self) -> str:
        """The device kind it runs on."""
        ...

    @property
    def inputs(self) -> tuple[Slot, ...]: ...

    @property
    def outputs(self) -> tuple[Slot, ...]: ...

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment: ...
