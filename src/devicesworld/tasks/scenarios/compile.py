"""Compiling a scenario family into ordinary tasks.

``check_family`` is the static gate (run when a family is loaded): roles name
registered device kinds, every slot names a parameter, values flow only into slots
of their meaning (phrasing slots, operations, checks and their distractors), macros
exist for the role's kind. ``compile_task`` draws the parameters from a seed,
derives values, fills the templates, records phone steps written by meaning into
concrete steps (``tasks/record.py``), and returns a :class:`Task` of origin
``scenario`` that ``tasks validate`` then proves like any other.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from faker import Faker

from devicesworld.devices.base import SetupCall, get_kind, kind_names, traits_of
from devicesworld.devices.traits import KindTraits
from devicesworld.spec.causes import Cause
from devicesworld.spec.metadata import Composition
from devicesworld.spec.models import (
    DEFAULT_START_TIME,
    GLOBAL_DEVICE,
    Condition,
    DeviceOp,
    DeviceSpec,
    Evaluation,
    Limits,
    Metadata,
    SourceValue,
    Step,
    Task,
    WorldSpec,
)
from devicesworld.tasks.derivations import EXACT, Derivation
from devicesworld.tasks.handwritten.recording import ScriptError, Target, UiStep
from devicesworld.tasks.record import FIND, record_with_spans
from devicesworld.tasks.scenarios.model import Family, Macro, Phrasing, SetupOp, SolutionItem, WorldRequest
from devicesworld.tasks.scenarios.ops import SIGNATURES, check_signature
from devicesworld.tasks.scenarios.reveal import reveals
from devicesworld.tasks.scenarios.slots import SlotTypeError, check_flow, check_value, meaning
from devicesworld.tasks.scenarios.templates import Value, check_typed, render, render_text, walk_refs
from devicesworld.tasks.scenarios.tiers import long_misses, measure_long
from devicesworld.tasks.surfaces import task_surfaces
from devicesworld.worlds.model import MEMBERS, Member, Person, World

MAX_REDRAWS = 60


def step_budget(solution_steps: int) -> int:
    """An agent's step budget: the default 50, or twice the reference solution plus slack if longer."""
    return max(50, 2 * solution_steps + 10)


TWINS = ".twins"
"""``x.twins`` in a check's distractors: the near-miss twins of the world value ``x``."""

WORLD_MEANINGS = {
    "verification_code": "code",
    "contact_phone": "phone_number",
    "contact_email": "email",
    "contact_address": "address",
    "event_time": "clock_time",
    "event_date": "date",
    "song": "person",
    "note": "code",
    "file": "file",
    "home_device": "name",
    "room_reading": "temperature",
}
"""The meaning of each value kind of the persona worlds (docs/worlds.md): a world param's type."""


class FamilyError(ValueError):
    """A family that cannot compile (a static mistake, or a draw that cannot make a valid task)."""


# ---------------------------------------------------------------- static check
def role_devices(family: Family) -> dict[str, str]:
    """Role -> device id: ``<kind>_<n>``, numbered per kind in the order the roles are declared."""
    counts: dict[str, int] = {}
    out: dict[str, str] = {}
    for role, kind in family.roles.items():
        n = counts.get(kind, 0)
        counts[kind] = n + 1
        out[role] = f"{kind}_{n}"
    return out


_DEFAULT_NUMBER = re.compile(r"\+1555100\d(?!\d)")
"""A phone's default number (``+1555100N`` for ``android_N``), which ``world.own_numbers`` replaces."""

WORLD_PEOPLE = ("me", "my_partner", "my_child")
"""Values every family with a ``world`` may name without declaring them: the persona (``{me}``,
``{me.email}``), their partner and their eldest child (``{my_partner.first}``, ``{my_child.phone}``),
so a seeded mail is addressed to the user's own address, never a placeholder such as
``me@example.com``, and a household member is named and numbered as the world has them (issue #33).
A family's own parameter of the same name wins."""


def value_types(family: Family) -> dict[str, str]:
    return {**{k: p.type for k, p in family.params.items()}, **{k: d.type for k, d in family.derive.items()}}


def _household(world: World) -> list[Person]:
    """The persona's partner, then their children (eldest first), as every world lists them."""
    return [p for p in world.people if p.relation == "household"]


def world_people(world: World | None, values: Mapping[str, Value]) -> dict[str, Value]:
    """:data:`WORLD_PEOPLE` of the drawn world (their names, with ``email`` and ``phone`` as fields), for
    rendering only: they are not drawn values, so a family that does not name them compiles as before."""
    if world is None:
        return {}
    people = zip(WORLD_PEOPLE, [world.persona.person, *_household(world)], strict=False)
    found = {key: Value("person", p.name, {"email": p.email, "phone": p.phone}) for key, p in people}
    return {k: v for k, v in found.items() if k not in values}


def check_family(family: Family, macros: Mapping[str, Macro]) -> None:
    """Refuse a family whose roles, slots, meanings or macros disagree (a :class:`FamilyError`)."""
    try:
        _check(family, macros)
    except (SlotTypeError, KeyError) as exc:
        message = exc.args[0] if exc.args else str(exc)
        raise FamilyError(f"family {family.family}: {message}") from None


def _check(family: Family, macros: Mapping[str, Macro]) -> None:
    kinds = set(kind_names())
    for role, kind in family.roles.items():
        if kind not in kinds:
            raise KeyError(
                f"role {role}: unknown device kind {kind!r} (registered: {', '.join(sorted(kinds))})"
            )
    types: dict[str, str] = dict.fromkeys(WORLD_PEOPLE, "person") if family.world is not None else {}
    for name, param in family.params.items():
        meaning(param.type)
        if param.world is not None:
            if family.world is None:
                raise KeyError(f"param {name}: a world value needs the family's `world`")
            if param.world not in WORLD_MEANINGS:
                raise KeyError(
                    f"param {name}: unknown world value kind {param.world!r} ({', '.join(WORLD_MEANINGS)})"
                )
            check_flow(WORLD_MEANINGS[param.world], param.type, f"param {name} (world {param.world})")
        for other in param.differs_from:
            if other not in types:
                raise KeyError(f"param {name}: differs_from {other!r} must name an earlier parameter")
            check_flow(param.type, types[other], f"param {name} differs from {other}")
        for v in param.pool or []:
            check_value(param.type, v, f"param {name}, pool value")
        types[name] = param.type
    for name, d in family.derive.items():
        missing = [i for i in d.inputs if i not in types]
        if missing:
            raise KeyError(f"derive {name}: unknown inputs {missing}")
        check_signature(d.op, [types[i] for i in d.inputs], d.type, f"derive {name}")
        meaning(d.type)
        for pname, pval in d.params.items():
            for ref, _, _ in walk_refs(pval):
                if ref not in types:
                    raise KeyError(f"derive {name}: params.{pname} names no value {ref!r}")
                if d.op == "decide" and pname in ("above", "otherwise"):
                    check_flow(types[ref], d.type, f"derive {name}: params.{pname}")
        types[name] = d.type
    roles = set(family.roles)
    for i, ph in enumerate(family.phrasings):
        check_typed(ph.text, types, f"phrasing {i + 1} ({ph.style})")
    for variant in family.infeasible:
        for i, ph in enumerate(variant.phrasings):
            check_typed(ph.text, types, f"infeasible {variant.id}, phrasing {i + 1}")
        for op in variant.add_setup:
            _check_role(op.role, roles, f"infeasible {variant.id}")
    for where, obj in _templated(family):
        for ref, _, _ in walk_refs(obj):
            if ref not in types:
                raise KeyError(f"{where}: {{{ref}}} names no parameter or derived value")
    for i, op in enumerate(family.setup):
        _check_role(op.role, roles, f"setup {i + 1}")
    if family.world is not None and family.world.own_numbers:
        for where, obj in _templated(family):
            stale = _DEFAULT_NUMBER.search(json.dumps(obj))
            if stale:
                raise KeyError(
                    f"{where}: world.own_numbers puts the phones on their owners' world numbers, so "
                    f"{stale.group(0)} is no phone's: name it {{me.phone}}, {{my_partner.phone}} or {{my_child.phone}}"
                )
    setup_tags = {op.tag for op in family.setup if op.tag}
    for variant in family.infeasible:
        unknown = set(variant.drop) - setup_tags
        if unknown:
            raise KeyError(f"infeasible {variant.id}: drops unknown setup tags {sorted(unknown)}")
    _check_items(family, family.solution, roles, macros, "solution")
    for variant in family.infeasible:
        _check_items(family, variant.solution, roles, macros, f"infeasible {variant.id}, solution")
    for c in family.evaluation.conditions:
        if c.role is not None:
            _check_role(c.role, roles, f"check {c.id}")
        for name, slot in c.expects.items():
            if name not in types:
                raise KeyError(f"check {c.id}: expects {name!r}, which names no value")
            check_flow(types[name], slot, f"check {c.id}: {name}")
        for name in c.distractors:
            base = name.removesuffix(TWINS)
            if base not in types:
                raise KeyError(f"check {c.id}: distractor {name!r} names no value")
            if name.endswith(TWINS) and family.params.get(base, None) is None:
                raise KeyError(f"check {c.id}: {name} names the twins of {base}, which is not a world value")
            if name.endswith(TWINS) and family.params[base].world is None:
                raise KeyError(f"check {c.id}: {name} names the twins of {base}, which is not a world value")
            name = base
            if types[name] not in c.expects.values():
                raise SlotTypeError(
                    f"check {c.id}: distractor {name} is a {types[name]}, but the check expects no "
                    f"{types[name]} (it expects {', '.join(sorted(set(c.expects.values()))) or 'nothing'})"
                )
    for role in family.gui:
        _check_role(role, roles, "gui")
        traits = traits_of(family.roles[role])
        if traits.gui_solution is None or traits.gui_profile is None:
            raise KeyError(f"gui: role {role} is a {family.roles[role]}, which has no GUI mode")
    for s in family.sources:
        if s.param not in types:
            raise KeyError(f"source {s.param!r} names no value")
        _check_role(s.role, roles, f"source {s.param}")
    for role in family.evaluation.writes:
        _check_role(role, roles, "evaluation.writes")
    world_roles = family.world.roles if family.world is not None else None
    for role in world_roles or []:
        _check_role(role, roles, "world.roles")
    for role in family.world.without if family.world is not None else []:
        _check_role(role, roles, "world.without")
        if role in (world_roles or []):
            raise KeyError(f"world: role {role} is both in roles and in without")
    for role in family.world.members if family.world is not None else {}:
        _check_role(role, roles, "world.members")
        if role in (world_roles or []) or role in family.world.without:  # type: ignore[union-attr]
            raise KeyError(f"world: role {role} is in members and in roles or without")
        if not _takes_worlds(family.roles[role]) or _overlays(family.roles[role]):
            raise KeyError(
                f"world.members: role {role} is a {family.roles[role]}, which takes no member's world"
            )


def _check_items(
    family: Family, items: list[SolutionItem], roles: set[str], macros: Mapping[str, Macro], where: str
) -> None:
    for i, item in enumerate(items):
        if item.role is None and (item.ui is not None or item.macro is not None):
            raise KeyError(f"{where} {i + 1}: ui steps and macros need a role")
        if item.role is not None:
            _check_role(item.role, roles, f"{where} {i + 1}")
        if item.macro is not None:
            macro = macros.get(item.macro)
            if macro is None:
                raise KeyError(f"{where} {i + 1}: unknown macro {item.macro!r}")
            if item.role is not None and macro.kind != family.roles[item.role]:
                raise KeyError(
                    f"{where} {i + 1}: macro {item.macro} is for {macro.kind}, role {item.role} is a "
                    f"{family.roles[item.role]}"
                )
            lacking = sorted(set(macro.args) - set(item.args))
            if lacking:
                raise KeyError(f"{where} {i + 1}: macro {item.macro} needs args {lacking}")


def _check_role(role: str, roles: set[str], where: str) -> None:
    if role not in roles:
        raise KeyError(f"{where}: unknown role {role!r} (roles: {', '.join(sorted(roles))})")


def _templated(family: Family) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [(f"setup {i + 1}", op.args) for i, op in enumerate(family.setup)]
    out += [(f"solution {i + 1}", i_.model_dump(exclude_none=True)) for i, i_ in enumerate(family.solution)]
    out += [(f"check {c.id}", c.args) for c in family.evaluation.conditions]
    out += [(f"check {c.id} description", c.description) for c in family.evaluation.conditions]
    out += [(f"source {s.param}", s.description) for s in family.sources]
    out += [(f"infeasible {v.id}", v.reason) for v in family.infeasible]
    out += [(f"infeasible {v.id}", [o.args for o in v.add_setup]) for v in family.infeasible]
    out += [(f"infeasible {v.id}", v.keywords) for v in family.infeasible]
    out += [(f"infeasible {v.id} cause", v.cause.entity) for v in family.infeasible if v.cause]
    out += [
        (f"infeasible {v.id}, solution {i + 1}", i_.model_dump(exclude_none=True))
        for v in family.infeasible
        for i, i_ in enumerate(v.solution)
    ]
    out += [(f"writes {r}", w) for r, w in family.evaluation.writes.items()]
    return out


# ------------------------------------------------------------------ world roles
def _overlays(kind: str) -> bool:
    spec = get_kind(kind)
    return spec is not None and spec.world is not None and spec.world.overlay is not None


def _takes_worlds(kind: str) -> bool:
    spec = get_kind(kind)
    return spec is not None and spec.world is not None


def world_roles(family: Family) -> list[str] | None:
    """The roles whose devices take the persona world (None: the default, the first device of each kind).

    Besides the roles a family names, every role that is the first device of a kind able to overlay
    a family's setup on the world (``WorldSupport.overlay``: the family's rooms and devices live inside
    the world's home) takes the world, unless the family lists it in ``world.without`` - so even a
    family without a ``world`` gets the world under such a device.
    """
    devices = role_devices(family)
    request = family.world or WorldRequest(roles=[])
    first = [r for r, k in family.roles.items() if devices[r] == f"{k}_0" and r not in request.without]
    if request.roles is None:
        return None if not request.without else [r for r in first if _takes_worlds(family.roles[r])]
    merged = [r for r in first if _overlays(family.roles[r])]
    return list(dict.fromkeys([*request.roles, *merged]))


def member_roles(family: Family) -> dict[str, Member]:
    """Role -> the household member whose own world that role's device takes (docs/worlds.md).

    Only in a family that has a ``world`` block and puts the persona's own world on a device of
    the same kind: each further role of that kind (not taking the persona's world, not in
    ``world.without``) takes, in the order the roles are declared, the next member its kind
    declares (``WorldSupport.members``: a phone's are the partner, then the eldest child; a
    desktop's the persona's own ``work`` machine, then the partner) unless ``world.members``
    names one for it. A kind whose world is the household's own (one that overlays the family's
    setup: the home) takes no member. Families without a ``world`` are unchanged.
    """
    if family.world is None:
        return {}
    roles = world_roles(family)
    devices = role_devices(family)
    if roles is None:
        roles = [r for r, k in family.roles.items() if devices[r] == f"{k}_0" and _takes_worlds(k)]
    own_kinds = {family.roles[r] for r in roles}
    out: dict[str, Member] = {}
    taken: dict[str, int] = {}
    for role, kind in family.roles.items():
        if role in roles or role in family.world.without or kind not in own_kinds or _overlays(kind):
            continue
        spec = get_kind(kind)
        if spec is None or spec.world is None:
            continue
        n = taken.get(kind, 0)
        taken[kind] = n + 1
        member = family.world.members.get(role)
        if member is None and n < len(spec.world.members):
            member = cast(Member, spec.world.members[n])
        if member is not None:
            out[role] = member
    return out


# ---------------------------------------------------------------------- drawing
@dataclass(frozen=True)
class Drawn:
    values: dict[str, Value]
    derivations: list[dict[str, Any]]
    world: WorldSpec | None
    model: World | None = None
    """The world itself (for the overlay of the family's setup), when the task has one."""


def draw(family: Family, rng: random.Random) -> Drawn:
    """The persona world, parameters from the seed, then derived values (and the derivations QC recomputes)."""
    fake = Faker()
    fake.seed_instance(rng.randrange(2**32))
    world = None
    reads: list[str] = []
    roles = world_roles(family)
    wanted = roles is None or bool(roles)
    if family.world is not None and wanted:
        from devicesworld.worlds import build_world

        seed = rng.randrange(family.world.seeds)
        world = build_world(seed, family.world.size, start=DEFAULT_START_TIME)
    values: dict[str, Value] = {}
    for name, param in family.params.items():
        if param.world is not None:
            assert world is not None
            picks = [p for p in world.values(param.world) if p.target.key not in reads]  # type: ignore[arg-type]
            picks = [p for p in picks if all(p.target.value != values[o].value for o in param.differs_from)]
            picks = [p for p in picks if all(p.target.fields.get(k) == v for k, v in param.match.items())]
            if not picks:
                raise FamilyError(f"family {family.family}: the world has no {param.world} value for {name}")
            pick = rng.choice(picks)
            twins = tuple(dict.fromkeys(t.value for t in pick.twins if t.value != pick.target.value))
            extra = {**pick.target.fields, "label": pick.target.label}
            check_value(param.type, pick.target.value, f"family {family.family}, param {name}")
            values[name] = Value(param.type, pick.target.value, extra, twins)
            reads.append(pick.target.key)
            continue
        for _ in range(MAX_REDRAWS):
            v = _draw_one(param.type, param, rng, fake)
            if all(v != values[o].value for o in param.differs_from):
                break
        else:
            raise FamilyError(f"family {family.family}: param {name} cannot differ from {param.differs_from}")
        check_value(param.type, v, f"family {family.family}, param {name}")
        values[name] = Value(param.type, v)
    derivations: list[dict[str, Any]] = []
    for name, d in family.derive.items():
        sig = SIGNATURES[d.op]
        inputs = [values[i].value for i in d.inputs]
        params = render(d.params, values)
        try:
            result = sig.fn(*inputs, **params)
        except (ValueError, TypeError) as exc:
            raise FamilyError(f"family {family.family}: derive {name} ({d.op}) failed: {exc}") from None
        if meaning(d.type).python == (int,) and isinstance(result, float) and result.is_integer():
            result = int(result)
        exact = EXACT[d.op](*inputs, **params) if d.op in EXACT else None
        exact_form: dict[str, Any] = {"exact": exact} if exact is not None and exact != result else {}
        values[name] = Value(d.type, result, extra=exact_form)
        if sig.reasoning:
            op, rec_inputs, rec_params = (
                sig.record_as(inputs, params) if sig.record_as else (d.op, inputs, params)
            )
            derivations.append(Derivation(op, tuple(rec_inputs), rec_params, result).as_dict())
    spec = None
    if family.world is None and wanted:
        # drawn after every parameter, so a family's parameters do not move when it gains a world
        from devicesworld.worlds import build_world

        request = WorldRequest()
        seed = rng.randrange(request.seeds)
        world = build_world(seed, request.size, start=DEFAULT_START_TIME)
    if world is not None:
        devices = None if roles is None else [role_devices(family)[r] for r in roles]
        members = {role_devices(family)[r]: m for r, m in member_roles(family).items()}
        spec = WorldSpec(persona_seed=seed, size=world.size, devices=devices, reads=reads, members=members)
    return Drawn(values, derivations, spec, world)


def _draw_one(type_: str, param: Any, rng: random.Random, fake: Faker) -> Any:
    if param.pool is not None:
        return rng.choice(param.pool)
    if param.range is not None:
        low, high, step = param.range
        n = round((high - low) / step)
        v = low + step * rng.randrange(n + 1)
        return round(v) if meaning(type_).python == (int,) else round(float(v), 2)
    if param.time is not None:
        start, end, step = param.time
        lo, hi = (_minutes(t) for t in (start, end))
        m = lo + step * rng.randrange((hi - lo) // step + 1)
        return f"{m // 60:02d}:{m % 60:02d}"
    if param.days is not None:
        return (DEFAULT_START_TIME.date() + timedelta(days=rng.randint(*param.days))).isoformat()
    gen = param.gen
    if gen == "person":
        return f"{fake.first_name()} {fake.last_name()}"
    if gen == "first_name":
        return str(fake.first_name())
    if gen == "surname":
        return str(fake.last_name())
    if gen == "phone":
        return f"+1555{rng.randrange(2_000_000, 10_000_000)}"
    if gen == "code4":
        return str(rng.randrange(1000, 10_000))
    if gen == "code6":
        return str(rng.randrange(100_000, 1_000_000))
    if gen == "email":
        return f"{fake.first_name().lower()}.{fake.last_name().lower()}@example.org"
    if gen == "company":
        return str(fake.company())
    if gen == "street":
        return f"{fake.building_number()} {fake.street_name()}"
    raise FamilyError(f"no generator {gen!r}")


def _minutes(hhmm: str) -> int:
    hour, minute = (int(x) for x in hhmm.split(":"))
    return hour * 60 + minute


# -------------------------------------------------------------------- compiling
@dataclass(frozen=True)
class Choice:
    """Which task of a family: the seed draws the values; phrasing and variant are chosen by the builder."""

    seed: int
    phrasing: int = 0
    variant: str | None = None
    """An infeasible variant's id, or None for the feasible task."""


def compile_task(
    family: Family, macros: Mapping[str, Macro], choice: Choice, task_id: str, *, through_gui: bool = True
) -> Task:
    """One task of ``family``; :class:`FamilyError` when this draw cannot make a valid task.

    A family with ``gui`` roles gives those devices their kind's GUI profile and GUI steps;
    ``through_gui=False`` gives its tool-step twin instead (same draw, same checks), whose
    near misses prove the verifier cheaply (:func:`.build.build_task`).
    """
    rng = random.Random(choice.seed)
    drawn = draw(family, rng)
    values, derivations = drawn.values, drawn.derivations
    if family.world is not None:
        values = {**values, **world_people(drawn.model, values)}
    devices = role_devices(family)
    variant = next((v for v in family.infeasible if v.id == choice.variant), None)
    if choice.variant is not None and variant is None:
        raise FamilyError(f"family {family.family} has no infeasible variant {choice.variant!r}")
    phrasings: list[Phrasing] = list(variant.phrasings if variant and variant.phrasings else family.phrasings)
    phrasing = phrasings[choice.phrasing % len(phrasings)]
    try:
        instruction = _sentence(render_text(phrasing.text, values, spoken=True))
        setup_specs: list[SetupOp] = [
            op for op in family.setup if not (variant and op.tag is not None and op.tag in variant.drop)
        ]
        if variant:
            setup_specs += variant.add_setup
        setup = [
            DeviceOp(device=devices[op.role], op=op.op, args=render(op.args, values)) for op in setup_specs
        ]
        setup = _overlay(family, drawn, devices, values, setup)
        sources = [
            SourceValue(
                device=devices[s.role],
                value=values[s.param].value,
                description=render_text(s.description, values, spoken=True),
            )
            for s in family.sources
        ]
        rounding = _ROUNDING_ASKED.search(instruction) is not None
        conditions = [
            _condition(c, devices, values, exact=not rounding) for c in family.evaluation.conditions
        ]
        plan = variant.solution if variant is not None and variant.solution else family.solution
        items, owners = _items(plan, macros, devices, values)
        reason = render_text(variant.reason, values, spoken=True) if variant else ""
        keywords = [render_text(k, values, spoken=True) for k in variant.keywords] if variant else []
        cause = _render_cause(variant.cause, values) if variant is not None and variant.cause else None
    except KeyError as exc:
        raise FamilyError(f"family {family.family}: {exc.args[0] if exc.args else exc}") from None
    types = value_types(family)
    for spec, s in zip(family.sources, sources, strict=True):
        if reveals(instruction, s.value, types.get(spec.param)):
            raise FamilyError(f"family {family.family}: the instruction reveals {s.description} ({s.value})")
    setup_text = " ".join([*(str(v) for op in setup for v in _leaves(op.args)), *_clock_times(setup)])
    for c in family.evaluation.conditions:
        for name in c.distractors:
            if name.endswith(TWINS):
                continue  # the world holds them (docs/worlds.md)
            d = values[name].value
            if variant is None and any(d == values[e].value for e in c.expects):
                raise FamilyError(f"family {family.family}: distractor {name} equals the expected value")
            if not _revealed(d, setup_text) and not _revealed(d, instruction):
                raise FamilyError(f"family {family.family}: distractor {name} is placed on no device")
    used_devices = sorted(set(devices.values()), key=lambda d: (d.rsplit("_", 1)[0], d))
    specs = [DeviceSpec(id=d, kind=d.rsplit("_", 1)[0]) for d in used_devices]
    specs = _own_numbers(family, drawn, specs)
    parts = list(dict.fromkeys(owners))
    composition: dict[str, Any] = {
        "category": family.category,
        "family": family.family,
        "phrasing": phrasing.style,
        "variant": choice.variant,
        "subtasks": [{"id": p, "device": _part_device(p, family, devices)} for p in parts],
        "derivations": [] if variant else derivations,
        "where": {s.param: s.where for s in family.sources},
    }
    writes = {devices[r]: list(render(w, values)) for r, w in family.evaluation.writes.items()}
    if variant is not None:
        conditions = [
            Condition(
                id="reported",
                device=GLOBAL_DEVICE,
                check="infeasible_reported",
                args={"cause": cause} if cause else ({"keywords": keywords} if keywords else {}),
                description=reason,
            )
        ]
        composition["absent_sources"] = [{"device": s.device, "description": s.description} for s in sources]
        sources = []
        writes = {}
    try:
        task = _task(
            task_id,
            instruction,
            specs,
            setup,
            conditions,
            writes,
            variant is not None,
            family,
            sources,
            composition,
        )
        if drawn.world is not None:
            world = drawn.world if variant is None else drawn.world.model_copy(update={"reads": []})
            world = _mirrored(world, specs)
            task = task.model_copy(update={"world": world})
    except ValueError as exc:
        raise FamilyError(f"family {family.family}: not a valid task: {exc}") from None
    inspect = variant is not None and bool(variant.solution)
    gui = _gui_devices(family, devices) if through_gui else {}
    task = _finish(
        task, family, items, owners, variant is not None, reason, composition, inspect=inspect, gui=gui
    )
    if family.tier == "long" and variant is None:
        task = _long_tier(task, family, devices, values, measured=through_gui)
    return task


def _own_numbers(family: Family, drawn: Drawn, specs: list[DeviceSpec]) -> list[DeviceSpec]:
    """With ``world.own_numbers``, each device taking a person's world gets that person's number from
    the world, through its kind's :attr:`KindTraits.address_profile` (a phone's owner number): the
    persona's devices the persona's, a partner's or child's device that member's (``work``, the user's
    other device, keeps its own). Without it the devices are as before (+1555100N)."""
    if family.world is None or not family.world.own_numbers or drawn.world is None or drawn.model is None:
        return specs
    model, spec = drawn.model, drawn.world
    household = _household(model)
    mine = spec.devices if spec.devices is not None else [d.id for d in specs if d.id.endswith("_0")]
    out = []
    for d in specs:
        traits = traits_of(d.kind)
        member = spec.members.get(d.id)
        person = model.persona.person if d.id in mine and member is None else None
        if member in ("partner", "child"):
            person = household[MEMBERS.index(member)]
        if person is None or traits.address_profile is None:
            out.append(d)
            continue
        out.append(d.model_copy(update={"profile": {**d.profile, **traits.address_profile(person.phone)}}))
    return out


def _mirrored(world: WorldSpec, specs: list[DeviceSpec]) -> WorldSpec:
    """The task's world, mirrored (``WorldSpec.mirrored``, worlds/household.py) when its phones belong
    to two people of the household and a mirror changes the texts of one of them: then the user and
    the partner see one conversation (texts and calls) on both phones (issue #33). A task it would not change keeps
    its bytes (and its world) as before."""
    from devicesworld.worlds import build_world

    phones = [d.id for d in specs if traits_of(d.kind).own_address is not None]
    mine = world.devices if world.devices is not None else [d.id for d in specs if d.id.endswith("_0")]
    people = {
        member if (member := world.members.get(p)) in ("partner", "child") else "self"
        for p in phones
        if p in mine or p in world.members
    }
    if len(people) < 2:
        return world
    seed, size = world.persona_seed, world.size
    for m in {world.members[p] for p in phones if p in world.members}:
        plain = build_world(seed, size, DEFAULT_START_TIME, m).phone
        mirror = build_world(seed, size, DEFAULT_START_TIME, m, mirrored=True).phone
        if (mirror.messages, mirror.calls) != (plain.messages, plain.calls):
            return world.model_copy(update={"mirrored": True})
    return world


def _long_tier(
    task: Task, family: Family, devices: Mapping[str, str], values: Mapping[str, Value], *, measured: bool
) -> Task:
    """A long family's task tagged ``tier: long`` with its measures, or refused naming what it misses.

    ``measured`` is False for the tool-step twin (its steps are not the GUI ones): it is tagged
    and measured but never refused, the GUI task is."""
    sources = [
        (s.param, devices[s.role], values[s.param].value, render_text(s.description, values, spoken=True))
        for s in family.sources
    ]
    derived = {n: (list(d.inputs), values[n].value) for n, d in family.derive.items() if n in values}
    m = measure_long(task, sources=sources, derived=derived)
    misses = long_misses(m)
    if misses and measured:
        raise FamilyError(f"family {family.family}: tier long misses {'; '.join(misses)}")
    composition = task.metadata.composition
    if composition is not None:
        composition = composition.model_copy(update={"long": m})
    metadata = task.metadata.model_copy(update={"tier": "long", "composition": composition})
    return task.model_copy(update={"metadata": metadata})


def _overlay(
    family: Family,
    drawn: Drawn,
    devices: Mapping[str, str],
    values: Mapping[str, Value],
    setup: list[DeviceOp],
) -> list[DeviceOp]:
    """The setup of each world device whose kind overlays, rewritten to apply on top of the world.

    The kind decides how (``WorldSupport.overlay``, e.g. the family's rooms replace the world's rooms
    of the same name); it sees every op any variant could put on the device, so a variant that drops
    an op finds the world trimmed exactly as the feasible task does.
    """
    if drawn.model is None or drawn.world is None:
        return setup
    targets = drawn.world.devices
    if targets is None:
        targets = [
            d for r, d in devices.items() if d == f"{family.roles[r]}_0" and _takes_worlds(family.roles[r])
        ]
    every = [*family.setup, *(op for v in family.infeasible for op in v.add_setup)]
    for role, kind in family.roles.items():
        device = devices[role]
        spec = get_kind(kind)
        support = spec.world if spec is not None else None
        if device not in targets or support is None or support.overlay is None:
            continue
        claims: list[SetupCall] = [(op.op, render(op.args, values)) for op in every if op.role == role]
        mine: list[SetupCall] = [(op.op, op.args) for op in setup if op.device == device]
        rewritten = [
            DeviceOp(device=device, op=o, args=a) for o, a in support.overlay(drawn.model, mine, claims)
        ]
        at = next((i for i, op in enumerate(setup) if op.device == device), len(setup))
        before = [op for op in setup[:at] if op.device != device]
        after = [op for op in setup[at:] if op.device != device]
        setup = [*before, *rewritten, *after]
    return setup


def _task(
    task_id: str,
    instruction: str,
    specs: list[DeviceSpec],
    setup: list[DeviceOp],
    conditions: list[Condition],
    writes: dict[str, list[str]],
    infeasible: bool,
    family: Family,
    sources: list[SourceValue],
    composition: dict[str, Any],
) -> Task:
    return Task(
        id=task_id,
        instruction=instruction,
        devices=specs,
        setup=setup,
        evaluation=Evaluation(conditions=conditions, writes=writes),
        solution=[],
        metadata=Metadata(
            pattern="infeasible_request" if infeasible else family.pattern,
            split="train",
            origin="scenario",
            sources=sources,
            composition=Composition.model_validate(composition),
            tags=[f"family:{family.family}"],
        ),
    )


def _finish(
    task: Task,
    family: Family,
    items: list[Step | UiStep],
    owners: list[str],
    infeasible: bool,
    reason: str,
    composition: dict[str, Any],
    *,
    inspect: bool = False,
    gui: Mapping[str, KindTraits] | None = None,
) -> Task:
    """The recorded solution, step budget, surfaces and measured difficulty.

    An infeasible task's solution is the report; with ``inspect`` (a variant's own
    solution) it first plays what shows the request cannot be done. ``gui`` (device -> its
    kind's traits, :func:`_gui_devices`): the solution is recorded and its values placed with tool steps, then
    those devices take the profile and each of their steps becomes the kind's GUI steps
    (:func:`_through_gui`), before surfaces and difficulty are measured.
    """
    sketch = [i for i in items if isinstance(i, Step)]
    spans: dict[str, list[int]] = {}
    if infeasible and inspect:
        looked, _ = _record(task, items, owners)
        solution = [*looked[:-1], Step(action="report_infeasible", args={"reason": reason})]
        apps = []
    elif infeasible:
        sketched = task.model_copy(update={"solution": sketch})
        apps = task_surfaces(_through_gui(sketched, gui)[0] if gui else sketched)
        solution = [Step(action="report_infeasible", args={"reason": reason})]
    else:
        solution, spans = _record(task, items, owners)
        apps = []
    composition["solution_spans"] = spans
    task = task.model_copy(
        update={
            "solution": solution,
            "limits": Limits(max_steps=step_budget(len(solution))),
        }
    )
    from devicesworld.tasks.scenarios.difficulty import features, grade
    from devicesworld.tasks.scenarios.placement import first_screens, place

    # placed on the tool steps: a GUI step opens the same file, so its value is on the same screen
    placed = (
        place(task.metadata.sources, [s.where for s in family.sources], task.instruction, first_screens(task))
        if task.metadata.sources
        else None
    )
    if gui:
        task, spans = _through_gui(task, gui, spans)
        composition["solution_spans"] = spans
        limits = Limits(max_steps=step_budget(len(task.solution)), max_seconds=GUI_MAX_SECONDS)
        task = task.model_copy(update={"limits": limits})
    if not apps:
        apps = task_surfaces(task)
    if placed is not None:
        composition["placement"] = {
            s.param: p.model_dump() for s, p in zip(family.sources, placed, strict=True)
        }
    typed = Composition.model_validate(composition)
    metadata = task.metadata.model_copy(update={"apps": apps, "composition": typed})
    task = task.model_copy(update={"metadata": metadata})
    feats = features(task, family)
    typed = typed.model_copy(update={"features": feats})
    metadata = task.metadata.model_copy(update={"difficulty": grade(feats), "composition": typed})
    return task.model_copy(update={"metadata": metadata})


def _sentence(text: str) -> str:
    text = " ".join(text.split())
    return text[:1].upper() + text[1:]


def _part_device(part: str, family: Family, devices: Mapping[str, str]) -> str | None:
    for c in family.evaluation.conditions:
        if (c.part or c.role) == part and c.role is not None:
            return devices[c.role]
    return devices.get(part)


_ROUNDING_ASKED = re.compile(r"\bround|\bwhole (?:degree|number)|\bnearest\b", re.I)
"""An instruction that asks for a rounded value: then only the rounded value is the answer."""


def _condition(
    c: Any, devices: Mapping[str, str], values: Mapping[str, Value], *, exact: bool = False
) -> Condition:
    args = render(c.args, values)
    if exact:
        for name in c.expects:
            if "exact" in values[name].extra:
                args = _with_exact(args, values[name])
    if c.distractors:
        out: list[dict[str, Any]] = []
        for d in c.distractors:
            base = values[d.removesuffix(TWINS)]
            kind = meaning(base.type).verify_as
            exact_forms = (base.extra["exact"],) if exact and "exact" in base.extra else ()
            for v in base.twins if d.endswith(TWINS) else (base.value, *exact_forms):
                if {"value": v, "type": kind} not in out:
                    out.append({"value": v, "type": kind})
        args["distractors"] = out
    return Condition(
        id=c.id,
        device=devices[c.role] if c.role is not None else GLOBAL_DEVICE,
        check=c.check,
        args=args,
        scored=c.scored,
        required=c.required,
        subtask=c.part or c.role,
        description=render_text(c.description, values, spoken=True),
    )


def _items(
    plan: Sequence[SolutionItem],
    macros: Mapping[str, Macro],
    devices: Mapping[str, str],
    values: Mapping[str, Value],
) -> tuple[list[Step | UiStep], list[str]]:
    items: list[Step | UiStep] = []
    owners: list[str] = []
    for item in plan:
        part = item.part or item.role or "agent"
        if item.macro is not None:
            macro = macros[item.macro]
            local = {**values}
            for arg in macro.args:
                local[arg] = _as_value(render(item.args[arg], values))
            for inner in macro.steps:
                items.append(_item(inner.model_copy(update={"role": item.role}), devices, local))
                owners.append(part)
            continue
        items.append(_item(item, devices, values))
        owners.append(part)
    return items, owners


GUI_MAX_SECONDS = 900.0
"""A task with GUI devices gets the GUI suites' wall-clock budget (each observation is a screenshot
and an element tree), not the default 600 s."""


def gui_unavailable(family: Family) -> str | None:
    """Why the family's GUI roles cannot run on this machine (a missing system tool), or None."""
    for role in family.gui:
        traits = traits_of(family.roles[role])
        problem = traits.unavailable(traits.gui_profile or {}) if traits.unavailable else None
        if problem:
            return f"{role} through the GUI, but {problem}"
    return None


def _gui_devices(family: Family, devices: Mapping[str, str]) -> dict[str, KindTraits]:
    """The devices the family runs through their GUI, each with its kind's traits (which hold
    the GUI profile and the step translation; :func:`_check` made sure both are there)."""
    return {devices[role]: traits_of(family.roles[role]) for role in family.gui}


def _through_gui(
    task: Task, gui: Mapping[str, KindTraits], spans: Mapping[str, list[int]] | None = None
) -> tuple[Task, dict[str, list[int]]]:
    """``task`` with the ``gui`` devices on their GUI profiles and each of their steps replaced
    by the kind's GUI steps; ``spans`` (owner -> ``[start, end)`` of its steps) moved along.

    Each GUI device's steps are translated together, in order, with its setup: a step can
    depend on the ones before it on that device (the page a browser step acts on)."""
    translated: dict[int, list[Step]] = {}
    for device, traits in gui.items():
        at = [i for i, step in enumerate(task.solution) if step.device == device]
        if traits.gui_solution is None or not at:
            continue
        setup = [op for op in task.setup if op.device == device]
        try:
            done = traits.gui_solution([task.solution[i] for i in at], setup)
        except KeyError as exc:
            raise FamilyError(f"no GUI way: {exc.args[0] if exc.args else exc}") from None
        translated.update(
            {i: [Step.model_validate(s) for s in steps] for i, steps in zip(at, done, strict=True)}
        )
    solution: list[Step] = []
    placed: list[tuple[int, int]] = []
    for i, step in enumerate(task.solution):
        start = len(solution)
        solution += translated.get(i, [step])
        placed.append((start, len(solution)))
    moved = {owner: [placed[a][0], placed[b - 1][1]] for owner, (a, b) in (spans or {}).items()}
    devices = [
        d.model_copy(update={"profile": {**(gui[d.id].gui_profile or {}), **d.profile}}) if d.id in gui else d
        for d in task.devices
    ]
    return task.model_copy(update={"solution": solution, "devices": devices}), moved


def _as_value(v: Any) -> Value:
    """A macro argument: already rendered, used as it is (a dict of params stays a dict)."""
    return Value("name", v)


def _item(item: SolutionItem, devices: Mapping[str, str], values: Mapping[str, Value]) -> Step | UiStep:
    device = devices[item.role] if item.role is not None else None
    if item.action is not None:
        return Step(device=device, action=item.action, args=render(item.args, values))
    assert device is not None
    target = Target(**render(item.target, values)) if item.target else None
    if item.ui == "open":
        return UiStep(device, "open_app", None, {"app_name": render(item.app, values)})
    if item.ui == "back":
        return UiStep(device, "navigate_back")
    if item.ui == "home":
        return UiStep(device, "navigate_home")
    if target is None:
        raise KeyError(f"a {item.ui} step needs a target")
    if item.ui == "tap":
        return UiStep(device, "click", target)
    if item.ui == "hold":
        return UiStep(device, "long_press", target)
    if item.ui == "find":
        return UiStep(device, FIND, target)
    return UiStep(
        device, "input_text", target, {"text": render(item.text or "", values), "clear": item.clear}
    )


def _record(
    task: Task, items: list[Step | UiStep], owners: list[str]
) -> tuple[list[Step], dict[str, list[int]]]:
    try:
        return record_with_spans(task, items, owners)
    except ScriptError as exc:
        raise FamilyError(f"the reference solution cannot be played: {exc}") from None


def _revealed(value: Any, text: str) -> bool:
    forms = {str(value)}
    if isinstance(value, float):
        forms.add(f"{value:g}")
    if isinstance(value, str) and value.startswith("+"):
        forms.add(value[1:])
    return any(f and f in text for f in forms)


def _clock_times(setup: list[Any]) -> list[str]:
    """The ``HH:MM`` an op places as separate ``hour`` and ``minute`` (an alarm): a distractor there is placed."""
    out = []
    for op in setup:
        hour, minute = op.args.get("hour"), op.args.get("minute")
        if isinstance(hour, int) and isinstance(minute, int):
            out.append(f"{hour:02d}:{minute:02d}")
    return out


def _leaves(obj: Any) -> list[Any]:
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in _leaves(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in _leaves(v)]
    return [obj]


def _render_cause(cause: Cause, values: Mapping[str, Value]) -> dict[str, Any]:
    """The declared cause with its entity names rendered (`{guest}` -> the network's name)."""
    entity = [render_text(name, values, spoken=True) for name in cause.entity]
    return cause.model_copy(update={"entity": entity}).model_dump()


def _with_exact(args: Any, value: Value) -> Any:
    """Every expected leaf that is ``value`` becomes a typed value carrying its exact form."""
    if isinstance(args, dict):
        if "value" in args and "type" in args:
            return {**args, "exact": value.extra["exact"]} if str(args["value"]) == str(value.value) else args
        return {k: v if k == "distractors" else _with_exact(v, value) for k, v in args.items()}
    if isinstance(args, list):
        return [_with_exact(v, value) for v in args]
    if isinstance(args, str | int | float) and not isinstance(args, bool) and str(args) == str(value.value):
        return {"value": value.value, "type": meaning(value.type).verify_as, "exact": value.extra["exact"]}
    return args
