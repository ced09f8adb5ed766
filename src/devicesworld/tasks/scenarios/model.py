"""The scenario family format: one YAML document per family (docs/scenarios.md).

A family is a thing people actually do across their devices, written once with
typed parameters and several hand-written phrasings, and compiled into as many
ordinary tasks as its parameters allow (``tasks/scenarios/compile.py``). These
models are the boundary: a family file is validated here, so a mistake in one is a
clear message naming the family and the field, never a traceback.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from devicesworld.spec.causes import Cause
from devicesworld.spec.metadata import CATEGORIES, PATTERNS, Category, WorkflowPattern
from devicesworld.tasks.scenarios.tiers import LONG, source_closure
from devicesworld.worlds.model import Member

STYLES = ("polite", "terse", "indirect", "context")
MIN_PHRASINGS = 4


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Param(_Strict):
    """A typed parameter: drawn from a pool or generated, optionally different from others."""

    type: str
    pool: list[Any] | None = None
    range: tuple[float, float, float] | None = Field(
        default=None, description="[low, high, step] for numbers, inclusive"
    )
    gen: (
        Literal["person", "first_name", "surname", "phone", "code4", "code6", "email", "company", "street"]
        | None
    ) = None
    time: tuple[str, str, int] | None = Field(default=None, description='["HH:MM", "HH:MM", step minutes]')
    days: tuple[int, int] | None = Field(default=None, description="a date this many days after the start")
    world: str | None = Field(
        default=None,
        description="a value kind of the persona world (docs/worlds.md): its target, with its twins",
    )
    match: dict[str, Any] = Field(
        default_factory=dict, description="world values only: the target's fields must have these values"
    )
    differs_from: list[str] = Field(default_factory=list)
    """Drawn again until it differs from each of these (twins, distractors)."""

    @model_validator(mode="after")
    def _one_source(self) -> Param:
        given = [k for k in ("pool", "range", "gen", "time", "days", "world") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                f"give exactly one of pool, range, gen, time, days, world (got {given or 'none'})"
            )
        if self.pool is not None and not self.pool:
            raise ValueError("pool is empty")
        return self


class WorldRequest(_Strict):
    """The persona world a family's tasks start from (issue #13): drawn per task from ``seeds``."""

    size: Literal["lived", "small"] = "lived"
    seeds: int = Field(default=40, ge=1, le=10_000, description="persona seeds 0..seeds-1 are drawn from")
    roles: list[str] | None = Field(
        default=None,
        description="roles whose devices take the world (default: the first device of each kind); "
        "roles whose kind overlays a family's setup on its world (the home) are added unless `without`",
    )
    without: list[str] = Field(
        default_factory=list,
        description="roles that keep only what the family builds, even where the world could be merged "
        "under it (a story that reads every light in the home); every other role whose kind can "
        "overlay a family's setup on the world takes it, as the first device of its kind",
    )
    members: dict[str, Member] = Field(
        default_factory=dict,
        description="role -> household member whose own world that role's device takes, overriding the "
        "default (every further device of a kind that takes the persona's world takes its kind's next "
        "member: a second phone the partner's, a second desktop the persona's `work` machine)",
    )
    own_numbers: bool = Field(
        default=False,
        description="each phone taking a person's world carries that person's number from the world (the "
        "user's phone `{me.phone}`, the partner's `{my_partner.phone}`, the eldest child's "
        "`{my_child.phone}`) instead of +1555100N, so the world's contacts and threads reach it and one "
        "person has one name and one number on every device (issue #33)",
    )


class Derived(_Strict):
    """A value computed from others by a named operation (``tasks/scenarios/ops.py``)."""

    op: str
    inputs: list[str]
    params: dict[str, Any] = Field(default_factory=dict)
    type: str


class Phrasing(_Strict):
    style: Literal["polite", "terse", "indirect", "context"]
    text: str = Field(min_length=10)


class SetupOp(_Strict):
    role: str
    op: str
    args: dict[str, Any] = Field(default_factory=dict)
    tag: str | None = Field(default=None, description="infeasible variants drop setup by tag")


class SolutionItem(_Strict):
    """One reference step: a plain step (``action``), a phone step by meaning (``ui``), or a macro."""

    role: str | None = None
    action: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    ui: Literal["open", "tap", "hold", "type", "back", "home", "find"] | None = Field(
        default=None, description="find: scroll the list until the target shows (records the scrolls)"
    )
    target: dict[str, Any] | None = None
    text: str | None = None
    app: str | None = None
    clear: bool = False
    macro: str | None = None
    part: str | None = Field(default=None, description="the subtask it serves (default: its role)")

    @model_validator(mode="after")
    def _one_kind(self) -> SolutionItem:
        kinds = [k for k in ("action", "ui", "macro") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"a solution item has exactly one of action, ui, macro (got {kinds or 'none'})")
        return self


class Check(_Strict):
    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    role: str | None = Field(default=None, description="None: the episode itself (env)")
    check: str
    args: dict[str, Any] = Field(default_factory=dict)
    expects: dict[str, str] = Field(
        default_factory=dict, description="value -> the meaning of the slot it fills in this check"
    )
    distractors: list[str] = Field(
        default_factory=list, description="values that must not be given; each of a meaning the check expects"
    )
    part: str | None = None
    scored: bool = True
    required: bool = True
    description: str = ""


class EvaluationSpec(_Strict):
    conditions: list[Check] = Field(min_length=1)
    writes: dict[str, list[str]] = Field(default_factory=dict, description="role -> paths written")


class Source(_Strict):
    """A value the agent must find on a device: never spelled in the instruction."""

    param: str
    role: str
    description: str
    where: Literal["first_screen", "scroll", "search", "document"] = "first_screen"


class Infeasible(_Strict):
    """A variant that looks feasible until checked: its setup drops or adds something."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    drop: list[str] = Field(default_factory=list, description="setup tags left out")
    add_setup: list[SetupOp] = Field(default_factory=list)
    reason: str
    keywords: list[str] = Field(
        default_factory=list,
        description="templated; the reported reason must name at least one (the real cause, not any excuse)",
    )
    cause: Cause | None = Field(
        default=None,
        description="the blocking cause `{id, entity: [templated names], states: [...]}` "
        "(spec/causes.py); judged by cause instead of `keywords`",
    )
    solution: list[SolutionItem] = Field(
        default_factory=list,
        description="what the agent inspects to see it cannot be done, played before the report "
        "(default: the report alone)",
    )
    phrasings: list[Phrasing] = Field(default_factory=list, description="default: the family's")


class Family(_Strict):
    family: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str
    pattern: WorkflowPattern
    category: Category
    roles: dict[str, str] = Field(min_length=1, description="role -> device kind")
    world: WorldRequest | None = None
    gui: list[str] = Field(
        default_factory=list,
        description=(
            "roles whose devices run through their GUI (the kind's `gui_profile`): their tool-style steps "
            "are compiled into the kind's GUI steps (open the file, type, save), docs/scenarios.md"
        ),
    )
    params: dict[str, Param] = Field(default_factory=dict)
    derive: dict[str, Derived] = Field(default_factory=dict)
    phrasings: list[Phrasing]
    setup: list[SetupOp] = Field(default_factory=list)
    solution: list[SolutionItem] = Field(min_length=1)
    evaluation: EvaluationSpec
    sources: list[Source] = Field(default_factory=list)
    infeasible: list[Infeasible] = Field(default_factory=list)
    infeasible_only: bool = Field(default=False, description="every task of the family is infeasible")
    max_tasks: int | None = Field(default=None, ge=1, description="how many distinct tasks it can make")
    tier: Literal["standard", "long"] = Field(
        default="standard",
        description="long: every task is measured against the long tier's requirements "
        "(tasks/scenarios/tiers.py) and a draw that misses one is refused",
    )

    @field_validator("pattern", mode="before")
    @classmethod
    def _pattern(cls, v: str) -> str:
        if v not in PATTERNS:
            raise ValueError(f"pattern {v!r} is not one of the nine: {', '.join(PATTERNS)}")
        return v

    @field_validator("category", mode="before")
    @classmethod
    def _category(cls, v: str) -> str:
        if v not in CATEGORIES:
            raise ValueError(f"category {v!r} is not one of {', '.join(CATEGORIES)}")
        return v

    @model_validator(mode="after")
    def _phrasings(self) -> Family:
        if len(self.phrasings) < MIN_PHRASINGS:
            raise ValueError(f"a family needs at least {MIN_PHRASINGS} phrasings (has {len(self.phrasings)})")
        missing = set(STYLES) - {p.style for p in self.phrasings}
        if missing:
            raise ValueError(f"phrasings lack the styles {', '.join(sorted(missing))}")
        if self.infeasible_only and not self.infeasible:
            raise ValueError("infeasible_only needs at least one infeasible variant")
        if self.tier == "long":
            misses = self._long_misses()
            if misses:
                raise ValueError("tier long, but the family misses " + "; ".join(misses))
        return self

    def _long_misses(self) -> list[str]:
        """What the family's declaration already shows it misses of the long tier (the measured
        requirements are checked on each compiled task, ``tiers.py``)."""
        out = []
        if len(set(self.roles)) < LONG.devices:
            out.append(f"devices: {len(self.roles)} roles, needs at least {LONG.devices}")
        required = sum(1 for c in self.evaluation.conditions if c.required)
        if required < LONG.conditions:
            out.append(f"conditions: {required} required conditions, needs at least {LONG.conditions}")
        if all(s.where == "first_screen" for s in self.sources):
            out.append("hidden: no source declared behind search, scroll or inside a document")
        names = {s.param for s in self.sources}
        derive = {n: d.inputs for n, d in self.derive.items()}
        if not any(len(source_closure(n, derive, names)) >= 2 for n in self.derive):
            out.append("combine: no derived value combines two sources")
        return out


class Macro(_Strict):
    """A named, parameterised list of solution items (``data/scenarios/_macros.yaml``)."""

    kind: str
    args: list[str] = Field(default_factory=list)
    steps: list[SolutionItem] = Field(min_length=1)
    doc: str = ""
