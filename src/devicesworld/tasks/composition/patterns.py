"""Pattern builders: the nine cross-device workflow patterns of DevicesWorld (§3.1).

Each builder draws a *shape* — which reads feed which reasoning step and which
writes — from the atomic libraries by slot type, places the nodes on devices so
that the pattern really crosses devices, and hands the graph to the composer,
which instantiates it with values, transfers and recorded solutions. Builders
know nothing about particular apps: a new read or write in a library is picked up
by every pattern whose types it fits.

Device plans follow a target device combination drawn per task (two phones, two
desktops, two classes, all three classes, up to four devices), so the suite
covers combinations on purpose rather than by accident.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from devicesworld.devices.base import traits_of
from devicesworld.spec.models import Task
from devicesworld.tasks.composition.atomic import AtomicTask, Slot
from devicesworld.tasks.composition.compose import Composer, CompositionError, merge_instructions
from devicesworld.tasks.composition.graph import Edge, Node, TaskGraph
from devicesworld.tasks.composition.reasoning import DECISIONS, INTEGRATORS, RESOLVERS, TRANSFORMS
from devicesworld.tasks.composition.types import TypeSystem

PATTERNS: tuple[str, ...] = (
    "direct_information_transfer",
    "extraction_transformation",
    "multi_source_integration",
    "cross_device_state_synchronization",
    "conflict_resolution",
    "conditional_decision",
    "infeasible_request",
    "output_consistency",
    "device_state_control",
)

MAX_DEVICES = 4


def can_be_apart(a: AtomicTask, b: AtomicTask) -> bool:
    """Two nodes can be on two devices unless their kind has one instance per task (one home)."""
    return a.platform != b.platform or not traits_of(a.platform).single_instance


@dataclass
class Shape:
    """A graph being drawn: nodes with the kind they must run on, edges, and who must be apart."""

    graph: TaskGraph = field(default_factory=TaskGraph)
    apart: list[tuple[str, str]] = field(default_factory=list)
    """Node pairs that must run on different devices (the pattern's cross-device hop)."""

    def add(self, task: AtomicTask) -> Node:
        return self.graph.add(task)

    def link(self, src: Node, src_slot: str, dst: Node, dst_slot: str) -> None:
        self.graph.edges.append(Edge(src.id, src_slot, dst.id, dst_slot))


class Catalogue:
    """The libraries sorted by role, with typed lookups used by every builder."""

    def __init__(self, library: Sequence[AtomicTask], types: TypeSystem) -> None:
        self.types = types
        self.reads = [t for t in library if not t.inputs and _value_outputs(t, types)]
        self.writers = [
            t
            for t in library
            if not t.outputs and t.inputs and all(not types.is_subtype(s.type, "file") for s in t.inputs)
        ]
        self.single_writers = [t for t in self.writers if len(t.inputs) == 1]
        self.multi_writers = [t for t in self.writers if len(t.inputs) >= 2]

    def feeds(self, out_type: str, writer: AtomicTask) -> list[Slot]:
        return [s for s in writer.inputs if self.types.is_subtype(out_type, s.type)]

    def writers_for(self, out_type: str, kinds: Sequence[str] | None = None) -> list[AtomicTask]:
        return [
            w
            for w in self.single_writers
            if self.feeds(out_type, w) and (kinds is None or w.platform in kinds)
        ]

    def reads_of(self, in_type: str, kinds: Sequence[str] | None = None) -> list[tuple[AtomicTask, Slot]]:
        return [
            (r, s)
            for r in self.reads
            for s in _value_outputs(r, self.types)
            if self.types.is_subtype(s.type, in_type) and (kinds is None or r.platform in kinds)
        ]


def _value_outputs(task: AtomicTask, types: TypeSystem) -> list[Slot]:
    return [s for s in task.outputs if not types.is_subtype(s.type, "file")]


Builder = Callable[["PatternContext"], Shape]


@dataclass
class PatternContext:
    catalogue: Catalogue
    rng: random.Random

    def choice(self, items: Sequence[object], what: str) -> object:
        if not items:
            raise CompositionError(f"no {what} in the libraries")
        return self.rng.choice(list(items))


# ------------------------------------------------------------------------ shapes
def _read_write_pair(ctx: PatternContext, kinds_differ: bool) -> tuple[AtomicTask, Slot, AtomicTask]:
    cat = ctx.catalogue
    pairs = [
        (r, s, w)
        for r in cat.reads
        for s in _value_outputs(r, cat.types)
        for w in cat.writers_for(s.type)
        if can_be_apart(r, w) and (not kinds_differ or r.platform != w.platform)
    ]
    if not pairs:
        raise CompositionError("no read feeds any writer")
    r, s, w = ctx.rng.choice(pairs)
    return r, s, w


def direct_transfer(ctx: PatternContext) -> Shape:
    shape = Shape()
    r, slot, w = _read_write_pair(ctx, kinds_differ=ctx.rng.random() < 0.6)
    read, write = shape.add(r), shape.add(w)
    shape.link(read, slot.name, write, ctx.catalogue.feeds(slot.type, w)[0].name)
    shape.apart.append((read.id, write.id))
    return shape


def extraction_transformation(ctx: PatternContext) -> Shape:
    cat = ctx.catalogue
    options = [
        (r, s, t, w)
        for t in TRANSFORMS
        for r, s in cat.reads_of(t.inputs[0].type)
        for w in cat.writers_for(t.outputs[0].type)
        if can_be_apart(r, w)
    ]
    if not options:
        raise CompositionError("no read/transform/write chain in the libraries")
    r, s, t, w = ctx.rng.choice(options)
    shape = Shape()
    read, step, write = shape.add(r), shape.add(t), shape.add(w)
    shape.link(read, s.name, step, t.inputs[0].name)
    shape.link(step, t.outputs[0].name, write, cat.feeds(t.outputs[0].type, w)[0].name)
    shape.apart.append((read.id, write.id))
    return shape


def multi_source_integration(ctx: PatternContext) -> Shape:
    """Two values from two devices meet in one output: a multi-input write, or a combining step."""
    cat = ctx.catalogue
    shape = Shape()
    if cat.multi_writers and ctx.rng.random() < 0.7:
        w = ctx.rng.choice(cat.multi_writers)
        write = shape.add(w)
        reads: list[Node] = []
        for slot in w.inputs[:2]:
            candidates = [
                (r, s) for r, s in cat.reads_of(slot.type) if all(can_be_apart(n.task, r) for n in reads)
            ]
            if not candidates:
                raise CompositionError(f"nothing reads a {slot.type} for {w.name}")
            r, s = ctx.rng.choice(candidates)
            reads.append(shape.add(r))
            shape.link(reads[-1], s.name, write, slot.name)
        shape.apart.append((reads[0].id, reads[1].id))
        return shape
    combiner = ctx.rng.choice(INTEGRATORS)
    writers = cat.writers_for(combiner.outputs[0].type)
    first, second = (cat.reads_of(s.type) for s in combiner.inputs)
    if not writers or not first or not second:
        raise CompositionError(f"no sources or outputs for {combiner.name}")
    (r1, s1), (r2, s2) = ctx.rng.choice(first), ctx.rng.choice(second)
    a, b, step = shape.add(r1), shape.add(r2), shape.add(combiner)
    shape.link(a, s1.name, step, combiner.inputs[0].name)
    shape.link(b, s2.name, step, combiner.inputs[1].name)
    w = ctx.rng.choice(writers)
    write = shape.add(w)
    shape.link(step, combiner.outputs[0].name, write, cat.feeds(combiner.outputs[0].type, w)[0].name)
    shape.apart += [(a.id, b.id)]
    return shape


def state_synchronisation(ctx: PatternContext) -> Shape:
    """A device's live state (a temperature, a level, a schedule) copied to another device."""
    cat = ctx.catalogue
    pairs = [
        (r, s, w)
        for r in cat.reads
        if is_state_read(r)
        for s in _value_outputs(r, cat.types)
        for w in cat.writers_for(s.type)
        if s.type != "value" and any(i.type == s.type for i in w.inputs) and can_be_apart(r, w)
    ]
    if not pairs:
        raise CompositionError("no state read matches a writer of the same type")
    r, s, w = ctx.rng.choice(pairs)
    shape = Shape()
    read, write = shape.add(r), shape.add(w)
    shape.link(read, s.name, write, cat.feeds(s.type, w)[0].name)
    shape.apart.append((read.id, write.id))
    return shape


def conflict_resolution(ctx: PatternContext) -> Shape:
    cat = ctx.catalogue
    options = [
        (res, w)
        for res in RESOLVERS
        for w in cat.writers_for(res.outputs[0].type)
        if len(cat.reads_of(res.inputs[0].type)) >= 1
    ]
    if not options:
        raise CompositionError("no conflict resolver has sources and an output")
    res, w = ctx.rng.choice(options)
    reads = cat.reads_of(res.inputs[0].type)
    pairs = [(x, y) for x in reads for y in reads if can_be_apart(x[0], y[0])]
    if not pairs:
        raise CompositionError(f"no two sources of {res.inputs[0].type} can sit on different devices")
    (r1, s1), (r2, s2) = ctx.rng.choice(pairs)
    shape = Shape()
    a, b, step, write = shape.add(r1), shape.add(r2), shape.add(res), shape.add(w)
    shape.link(a, s1.name, step, res.inputs[0].name)
    shape.link(b, s2.name, step, res.inputs[1].name)
    shape.link(step, res.outputs[0].name, write, cat.feeds(res.outputs[0].type, w)[0].name)
    shape.apart.append((a.id, b.id))
    return shape


def conditional_decision(ctx: PatternContext) -> Shape:
    cat = ctx.catalogue
    options = [
        (r, s, d, w)
        for d in DECISIONS
        for r, s in cat.reads_of(d.inputs[0].type)
        for w in cat.writers_for(d.outputs[0].type)
        if any(i.type == d.outputs[0].type for i in w.inputs) and can_be_apart(r, w)
    ]
    if not options:
        raise CompositionError("no read/decision/write chain in the libraries")
    r, s, d, w = ctx.rng.choice(options)
    shape = Shape()
    read, step, write = shape.add(r), shape.add(d), shape.add(w)
    shape.link(read, s.name, step, d.inputs[0].name)
    shape.link(step, d.outputs[0].name, write, cat.feeds(d.outputs[0].type, w)[0].name)
    shape.apart.append((read.id, write.id))
    return shape


def output_consistency(ctx: PatternContext) -> Shape:
    """One value written to two or three endpoints on different devices."""
    cat = ctx.catalogue
    r, s, first = _read_write_pair(ctx, kinds_differ=False)
    writers = [w for w in cat.writers_for(s.type) if w.name != first.name and can_be_apart(first, w)]
    if not writers:
        raise CompositionError(f"only one writer takes a {s.type}")
    extra = ctx.rng.sample(writers, min(len(writers), ctx.rng.choice((1, 1, 2))))
    if len(extra) == 2 and not can_be_apart(*extra):
        extra = extra[:1]
    shape = Shape()
    read = shape.add(r)
    outs = [shape.add(w) for w in (first, *extra)]
    for out in outs:
        shape.link(read, s.name, out, cat.feeds(s.type, out.task)[0].name)
    for i, a in enumerate(outs):
        for b in outs[i + 1 :]:
            shape.apart.append((a.id, b.id))
    return shape


def device_state_control(ctx: PatternContext) -> Shape:
    """Direct control of device states with values the user states, on two or three devices."""
    cat = ctx.catalogue
    controls = [w for w in cat.single_writers if is_control(w)]
    if len(controls) < 2:
        raise CompositionError("fewer than two state controls in the libraries")
    shape = Shape()
    for w in ctx.rng.sample(controls, k=min(len(controls), ctx.rng.choice((2, 2, 3)))):
        shape.add(w)
    return shape


def is_control(task: AtomicTask) -> bool:
    """A write that changes a device's own state (a home appliance, a phone setting or alarm).

    The kind says which: every task of a kind with live state (``KindTraits.live_state``),
    or the tasks whose name holds one of its ``state_words``.
    """
    traits = traits_of(task.platform)
    return traits.live_state or any(w in task.name for w in traits.state_words)


def is_state_read(task: AtomicTask) -> bool:
    """A read of a device's live state (synchronisation copies such state to another device)."""
    return is_control(task)


def infeasible_request(ctx: PatternContext) -> Shape:
    """A transfer or transformation whose source does not exist: the agent must report it."""
    return direct_transfer(ctx) if ctx.rng.random() < 0.6 else extraction_transformation(ctx)


BUILDERS: dict[str, Builder] = {
    "direct_information_transfer": direct_transfer,
    "extraction_transformation": extraction_transformation,
    "multi_source_integration": multi_source_integration,
    "cross_device_state_synchronization": state_synchronisation,
    "conflict_resolution": conflict_resolution,
    "conditional_decision": conditional_decision,
    "infeasible_request": infeasible_request,
    "output_consistency": output_consistency,
    "device_state_control": device_state_control,
}


# ------------------------------------------------------------------- devices
def place(shape: Shape, rng: random.Random, spread: float, min_devices: int = 2) -> None:
    """Give every device node a device instance, honouring ``apart``; at most four devices.

    A node reuses a device of its kind unless it must be apart from a node already
    there, or (with probability ``spread``) a fresh instance is opened while fewer
    than four devices exist. Same-kind nodes that must be apart become two phones
    or two desktops; a kind with one instance per task (one home) never gets a second.
    """
    apart: dict[str, set[str]] = {}
    for a, b in shape.apart:
        apart.setdefault(a, set()).add(b)
        apart.setdefault(b, set()).add(a)
    instances: dict[str, list[str]] = {}
    placed: dict[str, str] = {}
    for node in shape.graph.nodes:
        if node.task.platform == "agent":
            continue
        kind = node.task.platform
        taken = {placed[o] for o in apart.get(node.id, set()) if o in placed}
        free = [d for d in instances.get(kind, []) if d not in taken]
        total = sum(len(v) for v in instances.values())
        can_open = total < MAX_DEVICES and (not traits_of(kind).single_instance or not instances.get(kind))
        if free and not (can_open and rng.random() < spread and len(instances.get(kind, [])) < 2):
            device = rng.choice(free)
        elif can_open:
            device = f"{kind}_{len(instances.get(kind, []))}"
            instances.setdefault(kind, []).append(device)
        else:
            raise CompositionError(f"no device plan keeps {node.task.name} apart from its partner")
        placed[node.id] = device
        node.device = device
    if len(set(placed.values())) < min_devices:
        raise CompositionError("every task landed on one device")


# ----------------------------------------------------------------- phrasing
FRAMES: dict[str, tuple[str, ...]] = {
    "cross_device_state_synchronization": (
        "{merged}",
        "Keep my devices in sync. {merged}",
        "{merged} I want the two to match.",
    ),
    "conflict_resolution": (
        "{merged}",
        "My devices disagree, so resolve it as follows. {merged}",
    ),
    "conditional_decision": ("{merged}", "Decide based on what you find. {merged}"),
    "infeasible_request": (
        "{merged}",
        "{merged}",
        "{merged} If something I refer to does not exist, tell me instead of guessing.",
    ),
    "output_consistency": (
        "{merged}",
        "{merged} Every place must show exactly the same value.",
    ),
    "device_state_control": ("{merged}", "Set things up for me: {lower}"),
}


def frame_for(pattern: str, rng: random.Random) -> Callable[[list[str]], str]:
    template = rng.choice(FRAMES.get(pattern, ("{merged}", "Please help me with this. {merged}")))

    def frame(clauses: list[str]) -> str:
        merged = merge_instructions(clauses)
        return template.format(merged=merged, lower=merged[:1].lower() + merged[1:])

    return frame


# -------------------------------------------------------------------- build
def build_pattern_task(composer: Composer, pattern: str, seed: int, task_id: str) -> Task:
    """One task of ``pattern`` from ``seed``; :class:`CompositionError` when the draw is unusable."""
    rng = random.Random(seed)
    ctx = PatternContext(Catalogue(composer.library, composer.types), rng)
    shape = BUILDERS[pattern](ctx)
    single_ok = pattern == "device_state_control"
    place(shape, rng, spread=rng.choice((0.3, 0.6, 0.9)), min_devices=1 if single_ok else 2)
    composer._insert_transfers(shape.graph)
    missing: frozenset[str] = frozenset()
    if pattern == "infeasible_request":
        reads = [n.id for n in shape.graph.nodes if not n.task.inputs and n.task.outputs]
        missing = frozenset({rng.choice(reads)})
    return composer.realise(
        shape.graph,
        rng,
        task_id,
        category=_category(shape),
        pattern=pattern,
        missing=missing,
        frame=frame_for(pattern, rng),
    )


def _category(shape: Shape) -> str:
    devices = {n.device for n in shape.graph.nodes if n.device}
    if len(devices) == 1:
        return "single_device_dependent"
    return "multi_device_dependent" if shape.graph.edges else "multi_device_independent"
