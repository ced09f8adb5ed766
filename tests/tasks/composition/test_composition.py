from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.compose import Composer, CompositionError, merge_instructions
from devicesworld.tasks.composition.graph import grow_graph
from devicesworld.tasks.composition.library import smarthome as sh
from devicesworld.tasks.composition.types import DEFAULT_TYPES, TypeSystem
from devicesworld.tasks.validate import validate_task


def test_subtype_order_is_reflexive_and_transitive() -> None:
    t = DEFAULT_TYPES
    assert t.is_subtype("xlsx_file", "office_file")
    assert t.is_subtype("xlsx_file", "file")
    assert t.is_subtype("phone_number", "text")
    assert t.is_subtype("text", "text")
    assert not t.is_subtype("file", "xlsx_file")
    assert not t.is_subtype("phone_number", "number")
    with pytest.raises(KeyError, match="unknown slot type 'spreadsheet'"):
        t.is_subtype("spreadsheet", "file")


def test_cycles_are_rejected() -> None:
    with pytest.raises(ValueError, match="cycle"):
        TypeSystem({"a": ("b",), "b": ("c",), "c": ("a",)})


def test_grown_graphs_are_well_typed_and_bounded() -> None:
    for seed in range(30):
        graph = grow_graph(sh.LIBRARY, DEFAULT_TYPES, 4, random.Random(seed))
        assert 1 <= len(graph.nodes) <= 4
        for e in graph.edges:
            out = next(s for s in graph.node(e.src).task.outputs if s.name == e.src_slot)
            inp = next(s for s in graph.node(e.dst).task.inputs if s.name == e.dst_slot)
            assert DEFAULT_TYPES.is_subtype(out.type, inp.type)
        order = [n.id for n in graph.topological_order()]
        for e in graph.edges:
            assert order.index(e.src) < order.index(e.dst)


def test_growth_stops_when_nothing_matches() -> None:
    lonely = _Atomic("lonely", "toy", inputs=(Slot("x", "audio_file"),))
    graph = grow_graph([lonely], DEFAULT_TYPES, 5, random.Random(0))
    assert len(graph.nodes) == 1 and graph.edges == []


def _composer() -> Composer:
    return Composer(sh.LIBRARY, scaffolds={"smarthome": sh.scaffold})


@pytest.mark.parametrize(
    "category", ["single_device_dependent", "multi_device_dependent", "multi_device_independent"]
)
def test_composed_smarthome_tasks_pass_quality_control(category: str) -> None:
    built = 0
    for seed in range(12):
        try:
            task = _composer().compose(seed, category, max_tasks=3)  # type: ignore[arg-type]
        except CompositionError:
            continue
        built += 1
        report = validate_task(task)
        assert report.ok, (task.id, report.problems)
        subtasks = {c.subtask for c in task.evaluation.conditions}
        assert None not in subtasks
        assert task.metadata.model_extra is not None
        assert task.metadata.model_extra["composition"]["category"] == category
        if category != "single_device_dependent":
            assert len(task.devices) >= 2
    assert built >= 6


def test_hidden_values_never_appear_in_the_instruction() -> None:
    for seed in range(20):
        try:
            task = _composer().compose(seed, "single_device_dependent", max_tasks=3)
        except CompositionError:
            continue
        for op in task.setup:
            if op.op == "add_room" and "temperature" in op.args:
                assert f"{op.args['temperature']:g} °C" not in task.instruction
        for source in task.metadata.sources:
            assert source.device in task.device_ids()
            assert source.description and str(source.value) not in task.instruction


def test_same_seed_same_bytes() -> None:
    a = _composer().compose(7, "multi_device_dependent", max_tasks=4)
    b = _composer().compose(7, "multi_device_dependent", max_tasks=4)
    assert a.model_dump_json() == b.model_dump_json()


def test_single_device_grows_within_one_platform() -> None:
    """The single-device category samples one platform's library, so a cross-platform edge cannot arise."""
    files = _Atomic("make_file", "linux", outputs=(Slot("f", "xlsx_file"),))
    use = _Atomic("use_file", "android", inputs=(Slot("f", "office_file"),))
    for seed in range(6):
        with pytest.raises(CompositionError, match="no two tasks could be connected"):
            Composer([files, use]).compose(seed, "single_device_dependent", max_tasks=2)


def test_files_crossing_devices_get_a_transfer_task() -> None:
    files = _Atomic("make_file", "linux", outputs=(Slot("f", "xlsx_file"),))
    use = _Atomic("use_file", "android", inputs=(Slot("f", "office_file"),))
    hop = _Atomic(
        "drive_transfer", "android", inputs=(Slot("src", "file"),), outputs=(Slot("dst", "transferred_file"),)
    )
    composer = Composer([files, use], transfers={("linux", "android"): hop})
    for seed in range(10):
        try:
            task = composer.compose(seed, "multi_device_dependent", max_tasks=2)
        except CompositionError:
            continue
        subtasks = task.metadata.model_extra["composition"]["subtasks"]  # type: ignore[index]
        assert sorted(s["atomic"] for s in subtasks) == ["drive_transfer", "make_file", "use_file"]
        hop_id = next(s["id"] for s in subtasks if s["atomic"] == "drive_transfer")
        maker = next(s["id"] for s in subtasks if s["atomic"] == "make_file")
        user = next(s["id"] for s in subtasks if s["atomic"] == "use_file")
        edges = {(e["src"], e["dst"]) for e in task.metadata.model_extra["composition"]["edges"]}  # type: ignore[index]
        assert edges == {(maker, hop_id), (hop_id, user)}
        return
    raise AssertionError("no sample connected the two tasks")


def test_missing_transfer_rejects_the_sample() -> None:
    files = _Atomic("make_file", "linux", outputs=(Slot("f", "xlsx_file"),))
    use = _Atomic("use_file", "android", inputs=(Slot("f", "office_file"),))
    with pytest.raises(CompositionError, match="no transfer task from linux to android"):
        for seed in range(10):
            Composer([files, use]).compose(seed, "multi_device_dependent", max_tasks=2)


def test_merge_instructions() -> None:
    assert merge_instructions(["do a."]) == "Do a."
    assert merge_instructions(["do a", "do b"]) == "Do a, and then do b."
    assert merge_instructions(["a", "b", "c"]) == "First a; then b; finally c."


@dataclass(frozen=True)
class _Atomic:
    name: str
    platform: str
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        from devicesworld.spec.models import Condition

        outs = {
            s.name: SlotValue(s.type, f"{self.name}.bin", "the file", False, ctx.device_id)
            for s in self.outputs
        }
        cond = Condition(id="c", device="env", check="finished")
        return Fragment(instruction=self.name, conditions=[cond], outputs=outs)
