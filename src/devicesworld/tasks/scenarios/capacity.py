"""How many distinct tasks a family's parameters allow, counted without compiling or proving any.

``tasks/full.py`` drops a later task that repeats an earlier one (the same instruction,
world, setup and devices), so a family whose draws repeat contributes fewer tasks than
its quota: ``lock_the_door`` drew a hall from three names and built 7 of 15. The build
gives task ``i`` phrasing ``i mod n`` and, one in six (every task of an
``infeasible_only`` family), an infeasible variant (``build.choice_for``), so the
distinct tasks are counted per *slot* — one variant (or the feasible task) with one
phrasing — as the distinct pairs (instruction, setup) its parameters render, times the
persona seeds when the family starts from a world. A slot whose parameters are all
pools, ranges, times or days is counted exactly, by rendering every combination (up
to :data:`ENUMERATE_LIMIT`); a generated value (a person, a phone number, a code) or
a world value makes the count a lower estimate (:data:`GENERATED`). The expected
number of distinct tasks at a quota follows from how many draws each slot gets.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field

from devicesworld.tasks.scenarios.build import choice_for
from devicesworld.tasks.scenarios.model import Family, Infeasible, Param, Phrasing, SetupOp
from devicesworld.tasks.scenarios.ops import SIGNATURES
from devicesworld.tasks.scenarios.templates import Value, refs, render, render_text, walk_refs

ENUMERATE_LIMIT = 20_000
"""Combinations rendered one by one; a larger slot is counted as the product of its domains."""
CAP = 1_000_000
"""Counts are capped here (a family this wide is never the bottleneck)."""
GENERATED: dict[str, int] = {
    "first_name": 500,
    "surname": 500,
    "person": 10_000,
    "phone": 8_000_000,
    "code4": 9_000,
    "code6": 900_000,
    "email": 10_000,
    "company": 1_000,
    "street": 10_000,
}
"""Conservative sizes of the generated values (Faker's lists are longer)."""


class SlotCapacity(BaseModel):
    variant: str | None = Field(description="an infeasible variant's id, or None for the feasible task")
    phrasing: int
    style: str
    distinct: int
    exact: bool = Field(description="every combination was rendered (no generated or world value)")
    varies: list[str] = Field(description="the parameters its instruction and setup depend on")


class Capacity(BaseModel):
    family: str
    distinct: int = Field(description="distinct tasks over every slot (capped at CAP)")
    exact: bool
    quota: int
    expected: float = Field(description="expected distinct tasks among the quota's draws (the build's slots)")
    slots: list[SlotCapacity]


def family_capacity(family: Family, quota: int, seed: int = 0) -> Capacity:
    """Distinct tasks per slot and in all; the expected distinct tasks of a build asking ``quota``."""
    slots: list[SlotCapacity] = []
    for variant in _slot_variants(family):
        setup = _setup(family, variant)
        for i, phrasing in enumerate(_phrasings(family, variant)):
            count, exact, varies = _slot(family, phrasing.text, setup)
            slots.append(
                SlotCapacity(
                    variant=variant,
                    phrasing=i,
                    style=phrasing.style,
                    distinct=count,
                    exact=exact,
                    varies=varies,
                )
            )
    draws: dict[tuple[str | None, int], int] = {}
    for index in range(quota):
        choice = choice_for(family, seed, index)
        n = len(_phrasings(family, choice.variant))
        key = (choice.variant, choice.phrasing % n)
        draws[key] = draws.get(key, 0) + 1
    expected = 0.0
    for s in slots:
        n = draws.get((s.variant, s.phrasing), 0)
        expected += s.distinct * -math.expm1(n * math.log1p(-1 / s.distinct)) if s.distinct > 1 else min(n, 1)
    total = min(CAP, sum(s.distinct for s in slots))
    return Capacity(
        family=family.family,
        distinct=total,
        exact=all(s.exact for s in slots),
        quota=quota,
        expected=round(expected, 1),
        slots=slots,
    )


def _slot_variants(family: Family) -> list[str | None]:
    """The feasible task (unless the family only makes infeasible ones) and each variant."""
    return ([] if family.infeasible_only else [None]) + [v.id for v in family.infeasible]


def _variant(family: Family, variant: str) -> Infeasible:
    return next(v for v in family.infeasible if v.id == variant)


def _phrasings(family: Family, variant: str | None) -> list[Phrasing]:
    if variant is not None and _variant(family, variant).phrasings:
        return list(_variant(family, variant).phrasings)
    return list(family.phrasings)


def _setup(family: Family, variant: str | None) -> list[SetupOp]:
    if variant is None:
        return list(family.setup)
    v = _variant(family, variant)
    return [op for op in family.setup if op.tag is None or op.tag not in v.drop] + list(v.add_setup)


def _slot(family: Family, text: str, setup: list[SetupOp]) -> tuple[int, bool, list[str]]:
    """Distinct (instruction, setup) renderings of one slot, whether exact, and what varies."""
    named = {name for name, _, _ in refs(text)} | {
        name for name, _, _ in walk_refs([op.args for op in setup])
    }
    needed = _closure(family, named)
    base = [p for p in family.params if p in needed]
    seeds = _world_seeds(family)
    domains: dict[str, list[Any] | None] = {p: _domain(family.params[p]) for p in base}
    sizes = [len(d) if d is not None else _open_size(family.params[p]) for p, d in domains.items()]
    product = math.prod(sizes)
    if any(d is None for d in domains.values()) or product > ENUMERATE_LIMIT:
        exact = False
        count = product
    else:
        exact = True
        count = _enumerate(family, text, setup, base, {p: d or [] for p, d in domains.items()}, needed)
    return min(CAP, count * seeds), exact and seeds == 1, sorted(base)


def _world_seeds(family: Family) -> int:
    """How many persona worlds the family's draws start from (1: none).

    A family without a ``world`` block still gets the default world under a device that overlays
    its setup on the world (the home), drawn after its parameters (``compile.draw``).
    """
    from devicesworld.tasks.scenarios.compile import world_roles
    from devicesworld.tasks.scenarios.model import WorldRequest

    roles = world_roles(family)
    if roles is not None and not roles:
        return 1
    return (family.world or WorldRequest()).seeds


def _closure(family: Family, names: Iterable[str]) -> set[str]:
    """The values named and, for a derived one, its inputs (recursively)."""
    out: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in out:
            continue
        out.add(name)
        if name in family.derive:
            todo += family.derive[name].inputs
            todo += [r for r, _, _ in walk_refs(family.derive[name].params)]
    return out


def _domain(param: Param) -> list[Any] | None:
    """Every value a parameter can take (as ``compile._draw_one`` draws them), or None when open."""
    from devicesworld.spec.models import DEFAULT_START_TIME
    from devicesworld.tasks.scenarios.slots import meaning

    if param.pool is not None:
        unique = dict.fromkeys(json.dumps(v, sort_keys=True) for v in param.pool)
        return [json.loads(v) for v in unique]
    if param.range is not None:
        low, high, step = param.range
        n = round((high - low) / step)
        whole = meaning(param.type).python == (int,)
        return list(
            dict.fromkeys(
                round(low + step * k) if whole else round(float(low + step * k), 2) for k in range(n + 1)
            )
        )
    if param.time is not None:
        start, end, step = param.time
        lo, hi = (_minutes(t) for t in (start, end))
        return [f"{m // 60:02d}:{m % 60:02d}" for m in range(lo, hi + 1, step)]
    if param.days is not None:
        first = DEFAULT_START_TIME.date()
        return [(first + timedelta(days=d)).isoformat() for d in range(param.days[0], param.days[1] + 1)]
    return None


def _open_size(param: Param) -> int:
    if param.gen is not None:
        return GENERATED[param.gen]
    return 1  # a world value: counted through the persona seeds


def _minutes(hhmm: str) -> int:
    hour, minute = (int(x) for x in hhmm.split(":"))
    return hour * 60 + minute


def _enumerate(
    family: Family,
    text: str,
    setup: list[SetupOp],
    base: list[str],
    domains: Mapping[str, list[Any]],
    needed: set[str],
) -> int:
    seen: set[str] = set()
    derive = [(n, d) for n, d in family.derive.items() if n in needed]
    for combo in itertools.product(*(domains[p] for p in base)):
        picked = dict(zip(base, combo, strict=True))
        if any(picked[p] == picked[o] for p in base for o in family.params[p].differs_from if o in picked):
            continue
        values = {p: Value(family.params[p].type, v) for p, v in picked.items()}
        try:
            for name, d in derive:
                sig = SIGNATURES[d.op]
                result = sig.fn(*(values[i].value for i in d.inputs), **render(d.params, values))
                values[name] = Value(d.type, result)
            key = json.dumps(
                [render_text(text, values, spoken=True), [render(op.args, values) for op in setup]],
                sort_keys=True,
                default=str,
            )
        except (ValueError, TypeError, KeyError):
            continue  # a draw the build would reject
        seen.add(key)
    return len(seen)
