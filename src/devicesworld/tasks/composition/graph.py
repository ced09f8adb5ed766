"""Task graphs and their growth by typed slot matching (JarvisGUI Algorithm 1, A.5).

Starting from one sampled atomic task, the graph grows by picking an open input or an
available output of a node and attaching a new task with a compatible slot: an output
of type ``a`` may feed an input of type ``b`` only when ``a ≤ b``. Growth stops at
``max_tasks`` or when no slot can be matched.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from devicesworld.tasks.composition.atomic import AtomicTask, Slot
from devicesworld.tasks.composition.types import TypeSystem


@dataclass
class Node:
    id: str
    task: AtomicTask
    device: str = ""


@dataclass(frozen=True)
class Edge:
    src: str
    src_slot: str
    dst: str
    dst_slot: str


@dataclass
class TaskGraph:
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)

    def node(self, node_id: str) -> Node:
        return next(n for n in self.nodes if n.id == node_id)

    def add(self, task: AtomicTask) -> Node:
        node = Node(id=f"t{len(self.nodes) + 1}", task=task)
        self.nodes.append(node)
        return node

    def open_inputs(self) -> list[tuple[Node, Slot]]:
        fed = {(e.dst, e.dst_slot) for e in self.edges}
        return [(n, s) for n in self.nodes for s in n.task.inputs if (n.id, s.name) not in fed]

    def outputs(self) -> list[tuple[Node, Slot]]:
        return [(n, s) for n in self.nodes for s in n.task.outputs]

    def topological_order(self) -> list[Node]:
        """Nodes with every producer before its consumers; ties keep insertion order."""
        indegree = {n.id: 0 for n in self.nodes}
        for e in self.edges:
            indegree[e.dst] += 1
        order: list[Node] = []
        ready = [n for n in self.nodes if indegree[n.id] == 0]
        while ready:
            node = ready.pop(0)
            order.append(node)
            for e in self.edges:
                if e.src == node.id:
                    indegree[e.dst] -= 1
                    if indegree[e.dst] == 0:
                        ready.append(self.node(e.dst))
        if len(order) != len(self.nodes):
            raise ValueError("task graph has a cycle")
        return order


def grow_graph(
    library: Sequence[AtomicTask],
    types: TypeSystem,
    max_tasks: int,
    rng: random.Random,
    *,
    first: AtomicTask | None = None,
) -> TaskGraph:
    """Sample a connected, well-typed task graph of at most ``max_tasks`` atomic tasks."""
    graph = TaskGraph()
    graph.add(first if first is not None else rng.choice(list(library)))
    while len(graph.nodes) < max_tasks:
        candidates: list[tuple[str, Node, Slot]] = [("in", n, s) for n, s in graph.open_inputs()]
        candidates += [("out", n, s) for n, s in graph.outputs()]
        rng.shuffle(candidates)
        attached = False
        for direction, node, slot in candidates:
            options = _counterparts(library, types, direction, slot)
            if not options:
                continue
            task, other = rng.choice(options)
            new = graph.add(task)
            if direction == "in":
                graph.edges.append(Edge(new.id, other.name, node.id, slot.name))
            else:
                graph.edges.append(Edge(node.id, slot.name, new.id, other.name))
            attached = True
            break
        if not attached:
            break
    return graph


def _counterparts(
    library: Sequence[AtomicTask], types: TypeSystem, direction: str, slot: Slot
) -> list[tuple[AtomicTask, Slot]]:
    """Tasks with a slot that can connect to ``slot``: (i) an output feeding it, (ii) an input it feeds."""
    if direction == "in":
        return [(t, s) for t in library for s in t.outputs if types.is_subtype(s.type, slot.type)]
    return [(t, s) for t in library for s in t.inputs if types.is_subtype(slot.type, s.type)]
