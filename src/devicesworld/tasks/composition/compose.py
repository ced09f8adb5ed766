"""From a typed task graph to one executable composite task.

Steps: assign each node a device instance of its platform; insert a transfer task
where a file crosses devices; instantiate nodes in topological order, propagating
each upstream output value into the downstream inputs (JarvisGUI's value
propagation) and letting the user state any input no task feeds; merge the
fragments into one :class:`Task` whose conditions record the subtask they belong to,
so that SSR can be computed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from devicesworld.devices.base import traits_of
from devicesworld.spec.models import (
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
)
from devicesworld.tasks.authoring.android_script import ScriptError, UiStep
from devicesworld.tasks.composition.atomic import AtomicTask, Fragment, InstanceContext, SlotValue
from devicesworld.tasks.composition.graph import Edge, Node, TaskGraph, grow_graph
from devicesworld.tasks.composition.reasoning import AGENT, ReasoningError
from devicesworld.tasks.composition.record import record_with_spans
from devicesworld.tasks.composition.types import DEFAULT_TYPES, TypeSystem
from devicesworld.tasks.composition.values import NoUserValue, UserValues
from devicesworld.tasks.surfaces import task_surfaces

Category = Literal["single_device_dependent", "multi_device_independent", "multi_device_dependent"]
MAX_DEVICES = 4
"""Step limit while recording a reference solution (the task's own budget is set afterwards)."""

Scaffold = Callable[[str, random.Random], list[DeviceOp]]
"""Setup every device of a kind needs once, before any atomic task's setup (e.g. a home)."""


class CompositionError(Exception):
    """This graph cannot become a task (no device plan, no transfer, nothing to verify)."""


@dataclass
class Composer:
    library: Sequence[AtomicTask]
    types: TypeSystem = DEFAULT_TYPES
    scaffolds: Mapping[str, Scaffold] = field(default_factory=dict)
    transfers: Mapping[tuple[str, str], AtomicTask] = field(default_factory=dict)
    """Transfer task per (source kind, target kind), inserted where a file crosses devices."""

    def compose(self, seed: int, category: Category, max_tasks: int = 3, task_id: str | None = None) -> Task:
        """One composite task from a seed; raises :class:`CompositionError` when the sample is unusable."""
        rng = random.Random(seed)
        if category == "multi_device_independent":
            graph = TaskGraph()
            standalone = self._standalone()
            platforms = sorted({t.platform for t in standalone})
            rng.shuffle(platforms)
            for i in range(max_tasks):
                platform = platforms[i % len(platforms)]
                graph.add(rng.choice([t for t in standalone if t.platform == platform]))
        else:
            library = list(self.library)
            if category == "single_device_dependent":
                platform = rng.choice(sorted({t.platform for t in library}))
                library = [t for t in library if t.platform == platform]
            first = rng.choice(library)
            producers = [t for t in library if any(self.types.is_subtype(o.type, "file") for o in t.outputs)]
            if category == "multi_device_dependent" and producers and rng.random() < 1 / 3:
                first = rng.choice(producers)  # a file that must cross devices: exercises transfers
            graph = grow_graph(library, self.types, max_tasks, rng, first=first)
            if not graph.edges:
                raise CompositionError("no two tasks could be connected")
        self._assign_devices(graph, category, rng)
        self._insert_transfers(graph)
        return self.realise(graph, rng, task_id or f"comp-{category}-{seed}", category=category)

    def _standalone(self) -> list[AtomicTask]:
        """Tasks that make sense alone: they verify something and need no file from another task."""
        return [
            t
            for t in self.library
            if not t.outputs and not any(self.types.is_subtype(s.type, "file") for s in t.inputs)
        ] or list(self.library)

    # ------------------------------------------------------------------ devices
    def _assign_devices(self, graph: TaskGraph, category: Category, rng: random.Random) -> None:
        counts: dict[str, int] = {}
        if category == "single_device_dependent":
            kinds = {n.task.platform for n in graph.nodes}
            if len(kinds) != 1:
                raise CompositionError(f"tasks span several platforms ({', '.join(sorted(kinds))})")
            for n in graph.nodes:
                n.device = f"{n.task.platform}_0"
            return
        for n in graph.nodes:
            kind = n.task.platform
            if kind == AGENT:
                continue
            used = counts.get(kind, 0)
            total = sum(counts.values())
            spread = category == "multi_device_independent" or rng.random() < 0.5
            if used == 0 or (spread and total < MAX_DEVICES and used < 2):
                n.device = f"{kind}_{used}"
                counts[kind] = used + 1
            else:
                n.device = f"{kind}_{rng.randrange(used)}"
        if len({n.device for n in graph.nodes if n.device}) < 2:
            raise CompositionError("every task landed on one device")

    def _insert_transfers(self, graph: TaskGraph) -> None:
        hops: dict[tuple[str, str, str], Node] = {}
        """One transfer per (file, target device): two readers on one device share it."""
        for edge in list(graph.edges):
            src, dst = graph.node(edge.src), graph.node(edge.dst)
            slot_type = next(s.type for s in src.task.outputs if s.name == edge.src_slot)
            if src.device == dst.device or not self.types.is_subtype(slot_type, "file"):
                continue  # values travel with the agent; only files need moving
            transfer = self.transfers.get((src.task.platform, dst.task.platform))
            if transfer is None:
                raise CompositionError(f"no transfer task from {src.task.platform} to {dst.task.platform}")
            graph.edges.remove(edge)
            key = (edge.src, edge.src_slot, dst.device)
            hop = hops.get(key)
            if hop is None:
                hop = hops[key] = graph.add(transfer)
                hop.device = dst.device
                graph.edges.append(Edge(edge.src, edge.src_slot, hop.id, transfer.inputs[0].name))
            graph.edges.append(Edge(hop.id, transfer.outputs[0].name, edge.dst, edge.dst_slot))

    # -------------------------------------------------------------- instantiate
    def realise(
        self,
        graph: TaskGraph,
        rng: random.Random,
        task_id: str,
        *,
        category: str,
        pattern: str = "typed_composition",
        missing: frozenset[str] = frozenset(),
        frame: Callable[[list[str]], str] | None = None,
    ) -> Task:
        """Instantiate a graph whose nodes already have devices (and transfers) into one task.

        ``missing`` names read nodes whose setup is left out: their source does not
        exist, so the request is infeasible and the task expects it to be reported.
        ``frame`` turns the located clauses into the instruction (a pattern's phrasing).
        """
        devices = sorted({n.device for n in graph.nodes if n.device}, key=lambda d: (d.rsplit("_", 1)[0], d))
        setup: list[DeviceOp] = []
        for device in devices:
            kind = device.rsplit("_", 1)[0]
            if kind in self.scaffolds:
                setup += self.scaffolds[kind](device, rng)
        user = UserValues(rng)
        names: dict[str, set[str]] = {}
        produced: dict[tuple[str, str], SlotValue] = {}
        fragments: list[tuple[Node, Fragment]] = []
        for node in graph.topological_order():
            inputs: dict[str, SlotValue] = {}
            for slot in node.task.inputs:
                edge = next((e for e in graph.edges if e.dst == node.id and e.dst_slot == slot.name), None)
                if edge is None:
                    try:
                        inputs[slot.name] = user.make(slot.type, self.types)
                    except NoUserValue as exc:
                        raise CompositionError(f"an input nothing feeds: {exc}") from exc
                    continue
                value = produced[(edge.src, edge.src_slot)]
                if value.device is not None and value.device != node.device:
                    where = device_place(value.device, devices)
                    value = replace(value, mention=f"{value.mention} ({where})")
                inputs[slot.name] = value
            context = InstanceContext(node.device, rng, names.setdefault(node.device, set()))
            try:
                fragment = node.task.instantiate(context, inputs)
            except ReasoningError as exc:
                raise CompositionError(f"a reasoning step does not fit its inputs: {exc}") from exc
            _declare_distractors(fragment, inputs, node.task.platform)
            for name, out in fragment.outputs.items():
                produced[(node.id, name)] = out
            fragments.append((node, fragment))
        conditions = [
            c.model_copy(update={"id": f"{node.id}.{c.id}", "subtask": node.id})
            for node, fragment in fragments
            for c in fragment.conditions
        ]
        if not conditions:
            raise CompositionError("the composed task has nothing to verify")
        needed = {c.device for c in conditions} | {graph.node(e.src).device for e in graph.edges}
        for device in devices:
            if device not in needed:
                raise CompositionError(f"device {device} is not needed by any subtask")
        hidden = [v for v in produced.values() if v.hidden]
        clauses = _located(fragments)
        instruction = frame(clauses) if frame is not None else merge_instructions(clauses)
        for value in hidden:
            if any(form in instruction for form in _spellings(value.value)):
                raise CompositionError(
                    f"the instruction would reveal a value the agent must find ({value.mention})"
                )
        sources = [
            SourceValue(device=v.device, value=v.value, description=v.mention)
            for v in hidden
            if v.device is not None and isinstance(v.value, str | int | float)
        ]
        derivations = [d.as_dict() for _, f in fragments for d in f.derivations]
        task_setup = setup + [op for n, f in fragments if n.id not in missing for op in f.setup]
        if missing:
            conditions = [
                Condition(
                    id="reported",
                    device=GLOBAL_DEVICE,
                    check="infeasible_reported",
                    description="the request cannot be done: a source it names does not exist",
                )
            ]
            absent = [
                {"device": v.device, "description": v.mention}
                for (node_id, _), v in produced.items()
                if node_id in missing and v.device is not None
            ]
            sources, derivations = [], []
        composition: dict[str, Any] = {
            "category": category,
            "subtasks": [
                {"id": n.id, "atomic": n.task.name, "device": n.device or None} for n in graph.nodes
            ],
            "edges": [e.__dict__ for e in graph.edges],
            "derivations": derivations,
        }
        if missing:
            composition["absent_sources"] = absent
        device_specs = [DeviceSpec(id=d, kind=d.rsplit("_", 1)[0]) for d in devices]
        platforms = sorted({n.task.platform for n in graph.nodes if n.device})
        task = Task(
            id=task_id,
            instruction=instruction,
            devices=device_specs,
            setup=task_setup,
            evaluation=Evaluation(conditions=conditions),
            solution=[],
            metadata=Metadata(
                pattern=pattern,
                apps=platforms,
                split="train",
                origin="composition",
                sources=sources,
                composition=composition,
            ),
        )
        if missing:
            reason = "a source named in the request does not exist"
            solution = [Step(action="report_infeasible", args={"reason": reason})]
            spans: dict[str, list[int]] = {}
            # the apps the request is about: those its feasible version would use
            sketch = [
                Step(device=item.device, action=item.action, args=dict(item.args))
                for _, fragment in fragments
                for item in fragment.solution
            ]
            task = task.model_copy(
                update={
                    "metadata": task.metadata.model_copy(
                        update={"apps": task_surfaces(task.model_copy(update={"solution": sketch}))}
                    )
                }
            )
        else:
            solution, spans = self._solution(task, fragments)
        metadata = task.metadata.model_copy(
            update={
                "difficulty": difficulty(task, len(graph.nodes), len(solution)),
                "composition": {**composition, "solution_spans": spans},
            }
        )
        return task.model_copy(
            update={
                "solution": solution,
                "limits": Limits(max_steps=step_budget(len(solution))),
                "metadata": metadata,
            }
        )

    def _solution(
        self, task: Task, fragments: list[tuple[Node, Fragment]]
    ) -> tuple[list[Step], dict[str, list[int]]]:
        """The concrete reference solution and, per subtask, the span ``[start, end)`` of its steps."""
        owners: list[str] = []
        items: list[Step | UiStep] = []
        for node, fragment in fragments:
            owners += [node.id] * len(fragment.solution)
            items += fragment.solution
        try:
            return record_with_spans(task, items, owners)
        except ScriptError as exc:
            raise CompositionError(f"the reference solution cannot be played: {exc}") from exc


def device_place(device_id: str, all_devices: Sequence[str]) -> str:
    """How an instruction names where a clause happens: "on the phone", "on phone android_1"."""
    kind = device_id.rsplit("_", 1)[0]
    place = traits_of(kind).place_of(kind)
    if sum(d.rsplit("_", 1)[0] == kind for d in all_devices) > 1:
        return f"{place} {device_id}"
    return place


def _located(fragments: list[tuple[Node, Fragment]]) -> list[str]:
    """Clauses in order, each prefixed with its device whenever the device changes."""
    devices = sorted({node.device for node, _ in fragments})
    out: list[str] = []
    previous = ""
    for node, fragment in fragments:
        if not fragment.instruction:
            continue
        text = fragment.instruction
        if node.device != previous:
            text = f"{device_place(node.device, devices)}, {text}"
            previous = node.device
        out.append(text)
    return out


def merge_instructions(parts: list[str]) -> str:
    """Join subtask instructions into one request, in execution order."""
    parts = [p.strip().rstrip(".") for p in parts]
    if len(parts) == 1:
        return _capital(parts[0]) + "."
    if len(parts) == 2:
        return f"{_capital(parts[0])}, and then {parts[1]}."
    middle = "; then ".join(parts[1:-1])
    return f"First {parts[0]}; then {middle}; finally {parts[-1]}."


def _capital(s: str) -> str:
    return s[:1].upper() + s[1:]


def step_budget(solution_steps: int) -> int:
    """An agent's step budget: the default 50, or twice the reference solution plus slack if longer."""
    return max(50, 2 * solution_steps + 10)


def _spellings(value: object) -> set[str]:
    """The ways a value could appear in text: ``21.0`` also as ``21``, ``+15551234`` also by digits."""
    forms = {str(value)}
    if isinstance(value, float):
        forms.add(f"{value:g}")
    if isinstance(value, str) and value.startswith("+"):
        forms.add(value.lstrip("+"))
    return {f for f in forms if f}


Difficulty = Literal["easy", "medium", "hard", "expert"]

PATTERN_WEIGHT = {
    "conditional_decision": 2,
    "conflict_resolution": 2,
    "multi_source_integration": 1,
    "extraction_transformation": 1,
    "output_consistency": 1,
}


def difficulty(task: Task, n_subtasks: int, solution_steps: int) -> Difficulty:
    """Difficulty from what makes cross-device work hard, not graph size alone (paper §3.1).

    Points for every device past the first and every device class past the first,
    for each value the agent must find on a device, for the pattern's reasoning
    (a decision or a conflict weighs more than a copy), and for long reference
    solutions (a proxy for interface depth: phone navigation, multi-step forms).
    """
    kinds = {d.kind for d in task.devices}
    points = (len(task.devices) - 1) + (len(kinds) - 1)
    points += min(len(task.metadata.sources), 3)
    points += PATTERN_WEIGHT.get(task.metadata.pattern, 0)
    points += 0 if solution_steps <= 8 else 1 if solution_steps <= 20 else 2 if solution_steps <= 40 else 3
    points += max(0, n_subtasks - 3)
    return "easy" if points <= 2 else "medium" if points <= 4 else "hard" if points <= 7 else "expert"


def _declare_distractors(fragment: Fragment, inputs: Mapping[str, SlotValue], kind: str) -> None:
    """A condition checking a value that comes with distractors (a conflict's losing side, a
    decision's other branch) lists them, so that an answer giving one of them too fails."""
    from devicesworld.verify.registry import find_check

    offered = [v for v in inputs.values() if v.distractors]
    if not offered:
        return
    for i, cond in enumerate(fragment.conditions):
        spec = find_check(kind, cond.check)
        if spec is None or "distractors" not in spec.args_model.model_fields:
            continue
        wanted = [d for v in offered if _mentions(cond.args, v.value) for d in v.expected_distractors()]
        if wanted:
            fragment.conditions[i] = cond.model_copy(update={"args": {**cond.args, "distractors": wanted}})


def _mentions(obj: Any, value: Any) -> bool:
    if isinstance(obj, dict):
        return any(_mentions(v, value) for v in obj.values())
    if isinstance(obj, list):
        return any(_mentions(v, value) for v in obj)
    if isinstance(obj, bool):
        return False
    spelled = f"{value:g}" if isinstance(value, float) else str(value)
    return obj == value or str(obj) == spelled
