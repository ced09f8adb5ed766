"""A task's metadata, typed: the nine workflow patterns, the three categories, and what a built
task records about how it was made (``metadata.composition``, ``reads``, ``tier``).

Why: metadata used to accept any field, and readers took a family task's record back through
untyped ``getattr`` and dict look-ups, so a renamed key read as "absent" without an error. Every
key the shipped suites hold is modelled here, and an unknown key is an error.

The shipped suites are written byte for byte (``tasks build --suite full`` reproduces them), so
the optional records write only the keys they were given (:class:`Recorded`), in the order the
builders always wrote them (the field order below).
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

WorkflowPattern = Literal[
    "direct_information_transfer",
    "extraction_transformation",
    "multi_source_integration",
    "cross_device_state_synchronization",
    "conflict_resolution",
    "conditional_decision",
    "infeasible_request",
    "output_consistency",
    "device_state_control",
]
PATTERNS: tuple[str, ...] = get_args(WorkflowPattern)
"""The nine workflow patterns of the DevicesWorld paper (§3.1): every scenario family has one.
Handwritten and GUI tasks name finer patterns of their own (``document_editing``), so
``Metadata.pattern`` is any name; these nine are the ones the paper counts."""

Category = Literal["single_device_dependent", "multi_device_independent", "multi_device_dependent"]
CATEGORIES: tuple[str, ...] = get_args(Category)
"""JarvisGUI's composition categories (§3.1)."""


class Recorded(BaseModel):
    """A record a builder writes: unknown keys are errors, and only the keys set are written."""

    model_config = ConfigDict(extra="forbid")

    @model_serializer(mode="wrap")
    def _only_set(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if k in self.model_fields_set}


class DerivationRecord(Recorded):
    """How an expected value was worked out (``tasks/derivations.py`` recomputes it)."""

    op: str
    inputs: list[Any]
    params: dict[str, Any]
    result: Any


class DifficultyFeatures(Recorded):
    """What a scenario task's difficulty grade is computed from (``tasks/scenarios/difficulty.py``)."""

    devices: int
    classes: int
    sources: int
    source_cost: int
    """Sum of WHERE_COST over the values to find, where each sits as measured."""
    hidden: int = 0
    """Values to find that are not on their device's first screen (measured)."""
    lookalikes: int = 0
    """Look-alike values ahead of the needed ones, at most LOOKALIKE_CAP counted per value."""
    distractors: int
    clutter: float
    """Setup operations per device (how much else the devices hold)."""
    outputs: int
    gui_steps: int
    reasoning: int
    """Derivations whose result is a value the agent works out (a time, a sum, a converted unit)."""
    choices: int = 0
    """Decisions whose result is one of the options the instruction names (a mode, a word)."""
    infeasible: bool
    carry: int = 0
    """Long-tier tasks: the longest distance a read value is carried (:class:`LongMeasures`)."""

    @model_serializer(mode="wrap")
    def _all(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Every feature, set or defaulted: the grade reads all of them."""
        data: dict[str, Any] = handler(self)
        return data


class LongMeasures(Recorded):
    """What a long-tier task measures against ``tiers.LONG`` (``metadata.composition.long``)."""

    steps: int
    devices: int
    conditions: int
    carry: int
    """The longest distance, in reference steps, a value read on a device is carried to a step needing it."""
    carried: str = ""
    """The source whose value is carried that far (its description)."""
    hidden: int
    """Sources measured behind a scroll, a search or inside a document."""
    combine: int
    """Derived values that combine at least two sources."""

    @model_serializer(mode="wrap")
    def _all(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return data


class Subtask(Recorded):
    """One part of a composed task and its device (``None``: the agent's own reasoning); v1's
    also name the atomic task."""

    id: str
    atomic: str | None = None
    device: str | None


class Edge(Recorded):
    """v1: a value flowing from one subtask's output slot to another's input slot."""

    src: str
    src_slot: str
    dst: str
    dst_slot: str


class AbsentSource(Recorded):
    """An infeasible task's source the devices do not have (what the request names)."""

    device: str
    description: str


class Placement(Recorded):
    """Where one value to find sits on its device, as measured (``tasks/scenarios/placement.py``)."""

    where: str
    ahead: int = 0


class Composition(Recorded):
    """How a built task was made: its category, family and phrasing, the subtasks and the
    derivations of its expected values, where its values sit, and its difficulty features.

    ``full-v1``'s tasks (the v1 engine) have ``edges`` and no family; scenario tasks have a
    family, a phrasing, ``where`` and ``features``."""

    category: Category | None = None
    family: str | None = None
    phrasing: str | None = None
    variant: str | None = None
    """An infeasible variant's name (``None``: the feasible task)."""
    subtasks: list[Subtask] = []
    edges: list[Edge] = []
    derivations: list[DerivationRecord] = []
    where: dict[str, str] = {}
    """Value name -> the source device it is read from."""
    absent_sources: list[AbsentSource] = []
    solution_spans: dict[str, list[int]] = {}
    """Subtask id -> ``[start, end)`` of its reference steps."""
    placement: dict[str, Placement] = {}
    features: DifficultyFeatures | None = None
    long: LongMeasures | None = None


class ReadRecord(Recorded):
    """A value a kind's GUI task reads (``tasks/source_difficulty.py`` checks and grades it)."""

    value: str
    where: str = "first_screen"
    ahead: int = 0
