"""What other layers need to know about a kind, said by the kind: its :class:`KindTraits`.

The traits describe the device, for the harness that runs and checks it: its surfaces, profiles,
snapshot rules, screenshots. Advice to LLM agents is not among them: a kind registers its
prompt hint in :mod:`devicesworld.prompthints`, which the agent layer reads.

Near-miss generation, the rewrite guards, the app/surface breakdown,
environment splits and the run preflight used to name kinds (``if kind == "smarthome"``),
so a new kind silently fell through every one of those rules. Each such rule is now a
field here, set by the kind's own package on its
:class:`~devicesworld.devices.base.DeviceKind` and read through the registry
(:func:`traits_of`); a kind that sets nothing gets the neutral defaults.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "EnvSplit",
    "KindTraits",
    "KindUse",
    "ParaphraseFn",
    "Splice",
    "StepTuple",
    "SurfacesFn",
]


@dataclass(frozen=True)
class KindUse:
    """How a task uses the devices of one kind: what :attr:`KindTraits.surfaces` reads.

    ``setup`` and ``steps`` are ``(op or action, args)`` of the kind's devices, in task
    order; ``conditions`` holds the arguments of *every* condition of the task (a home
    appliance counts as touched when any condition names it).
    """

    setup: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    steps: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    conditions: Sequence[Mapping[str, Any]] = ()


SurfacesFn = Callable[[KindUse], set[str]]
"""``surfaces(use) -> {"<kind>:<surface>", ...}``: the apps or surfaces a task touches on this kind."""


@dataclass(frozen=True)
class EnvSplit:
    """A kind whose devices can be moved onto shipped profile presets (B-MoCA's train/test split).

    ``presets(split)`` lists the presets of a split (empty for a split it does not have),
    ``presets(None)`` every preset a profile may name; ``keep`` names the profile fields a
    preset does not replace (who owns the phone).
    """

    presets: Callable[[str | None], list[str]]
    keep: tuple[str, ...] = ()
    splits: tuple[str, ...] = ("train", "test")


StepTuple = tuple[str, Mapping[str, Any]]
"""One step of one device as ``(action, args)``."""


@dataclass(frozen=True)
class Splice:
    """A correct variant of a device's steps: replace ``count`` steps from ``at`` by ``steps``."""

    name: str
    at: int
    count: int
    steps: tuple[StepTuple, ...]


ParaphraseFn = Callable[[Sequence[StepTuple], datetime], list[Splice]]


class KindTraits(BaseModel):
    """A kind's answers to the questions other layers ask about it (all optional)."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    noun: str = Field(default="", description="How an instruction names one device: 'phone', 'desktop'.")
    noun_pattern: str | None = Field(
        default=None,
        description="Regex that finds the noun in text (rewrite guards count mentions); default: the noun as a word.",
    )
    place: str = Field(
        default="", description="Where a clause happens, as an instruction says it: 'on the phone'."
    )
    shared_checks: frozenset[str] = Field(
        default=frozenset(),
        description="Checks over state every device of a task shares (the local web): no 'wrong device' miss.",
    )
    conversation_checks: frozenset[str] = Field(
        default=frozenset(),
        description="Checks that read every message to a recipient as one conversation, in order "
        "(issue 32): quality control hedges their values and corrects them in a later message.",
    )
    day_checks: frozenset[str] = Field(
        default=frozenset(),
        description="Checks that fix the day an output happens (an alarm's ring day: a declared ``date`` "
        "or ``days``, or else the first occurrence after the task's start): quality control moves "
        "the output to another day (the kind's ``output_change`` 'day'; near miss ``wrong_day``) and "
        "the check must fail it.",
    )
    statement_checks: frozenset[str] = Field(
        default=frozenset(),
        description="Checks that judge a file's value in the sentence that states it (issue 32: a hedge "
        "there fails, the file's other lines are no corrections): quality control hedges them in the file.",
    )
    surfaces: SurfacesFn | None = Field(
        default=None, description="The apps/surfaces a task touches on the kind (breakdowns, coverage)."
    )
    env_split: EnvSplit | None = Field(default=None, description="Profile presets for train/test splits.")
    screenshots: Literal["never", "while_browsing", "every_step"] = Field(
        default="never", description="When a device gives a screenshot per step (run preflight estimates)."
    )

    gui_profile: Mapping[str, Any] | None = Field(
        default=None,
        description="The profile of a device the kind runs through its GUI (a scenario family's `gui:` roles).",
    )
    gui_solution: Callable[[Sequence[Any], Sequence[Any]], Sequence[Sequence[Any]]] | None = Field(
        default=None,
        description=(
            "One device's tool-style steps (spec Steps, in order) and its setup ops -> for each step the GUI "
            "steps that do it on a `gui_profile` device; raises KeyError with the reason when there is no "
            "faithful GUI way."
        ),
    )
    paraphrases: ParaphraseFn | None = Field(
        default=None,
        description="Other correct ways to do one device's reference steps (an equivalent schedule "
        "encoding, a harmless extra read, a message split over two): `(steps, start) -> [Splice]`; "
        "quality control's paraphrase gate runs each and the verdict must stay success (issue 32).",
    )
    own_address: Callable[[str, Mapping[str, Any]], str | None] | None = Field(
        default=None,
        description="(device id, profile) -> the address other devices text this one at (a phone number), "
        "or None; the coherence gate pairs messages between a task's devices by it (issue #33).",
    )
    address_profile: Callable[[str], Mapping[str, Any]] | None = Field(
        default=None,
        description="(number) -> the profile fields that give a device of this kind that own address; "
        "a family with `world.own_numbers` gives each phone taking a person's world that person's number "
        "from the world with it, so one person has one number on every device (issue #33).",
    )
    services: frozenset[str] | None = Field(
        default=None,
        description="The task-wide services (`DeviceContext.shared`) its devices use, by name ('drive', "
        "'android_network'); empty: none, only the task's clock reaches them. Quality control replays a "
        "variant's changed devices live and plays the others back from the reference run when no live "
        "and played-back device share a service but the drive, which it watches (tasks/recorded.py). "
        "None: not declared (always replayed live).",
    )
    unavailable: Callable[[Mapping[str, Any]], str | None] | None = Field(
        default=None,
        description="Why a device of this profile cannot start on this machine (a missing system tool), or None.",
    )

    @field_validator("noun_pattern")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"noun_pattern is not a regular expression: {exc}") from None
        return value

    def noun_regex(self) -> str | None:
        """The pattern that finds the kind's noun in an instruction; ``None`` when it has no noun."""
        if self.noun_pattern is not None:
            return self.noun_pattern
        return rf"\b{re.escape(self.noun)}s?\b" if self.noun else None

    def place_of(self, kind: str) -> str:
        """:attr:`place`, or ``on <kind>`` when the kind gives none."""
        return self.place or f"on {kind}"
