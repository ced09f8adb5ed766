"""Compiling families: the static gate refuses mistakes, compiled tasks are proven tasks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from devicesworld.tasks.scenarios.build import build_proven, choice_for
from devicesworld.tasks.scenarios.compile import Choice, FamilyError, check_family, compile_task
from devicesworld.tasks.scenarios.loader import load_family_file, shipped_families, shipped_macros
from devicesworld.tasks.scenarios.model import Family
from devicesworld.tasks.validate import validate_task

MINI: dict[str, Any] = {
    "family": "mini",
    "title": "A lamp to a stated brightness",
    "pattern": "device_state_control",
    "category": "single_device_dependent",
    "roles": {"home": "smarthome"},
    "params": {
        "level": {"type": "percentage", "range": [30, 80, 5]},
        "room": {"type": "name", "pool": ["study", "den"]},
    },
    "phrasings": [
        {"style": "polite", "text": "Could you set the {room} lamp to {level:percentage}, please?"},
        {"style": "terse", "text": "{room} lamp at {level}."},
        {"style": "indirect", "text": "The {room} is too dark for reading; {level} on the lamp would do."},
        {"style": "context", "text": "I'm working in the {room} tonight, so put its lamp at {level}."},
    ],
    "setup": [
        {"role": "home", "op": "add_room", "args": {"name": "{room}"}},
        {
            "role": "home",
            "op": "add_device",
            "args": {
                "device_id": "{room}_lamp",
                "category": "dimmable_light",
                "room": "{room}",
                "state": {"power": True, "brightness": 100},
            },
        },
    ],
    "solution": [
        {
            "role": "home",
            "action": "control_device",
            "args": {
                "device_id": "{room}_lamp",
                "command": "set_brightness",
                "params": {"brightness": "{level}"},
            },
        },
    ],
    "evaluation": {
        "conditions": [
            {
                "id": "dimmed",
                "role": "home",
                "check": "device_attribute",
                "args": {"device_id": "{room}_lamp", "attribute": "brightness", "equals": "{level}"},
                "expects": {"level": "percentage"},
            }
        ]
    },
}


def _family(**changes: Any) -> Family:
    doc = {**MINI, **changes}
    return Family.model_validate(doc)


def test_a_minimal_family_compiles_to_a_task_that_passes_every_gate() -> None:
    family = _family()
    check_family(family, shipped_macros())
    task = compile_task(family, shipped_macros(), Choice(seed=3), "dw-mini-0000")
    level = task.evaluation.conditions[0].args["equals"]
    assert isinstance(level, int) and 30 <= level <= 80  # a whole-slot argument keeps its type
    assert f"{level}%" in task.instruction  # said with its unit
    assert task.metadata.origin == "scenario"
    report = validate_task(task)
    assert report.ok, report.problems


def test_the_same_choice_rebuilds_the_same_task() -> None:
    family = _family()
    a = compile_task(family, shipped_macros(), Choice(seed=11, phrasing=2), "dw-mini-0001")
    b = compile_task(family, shipped_macros(), Choice(seed=11, phrasing=2), "dw-mini-0001")
    assert a.model_dump_json() == b.model_dump_json()
    assert a.metadata.composition is not None and a.metadata.composition.phrasing == "indirect"


def test_a_phrasing_slot_of_another_meaning_is_refused() -> None:
    phrasings = [dict(p) for p in MINI["phrasings"]]
    phrasings[0] = {"style": "polite", "text": "Please wait {level:duration} and then set the {room} lamp."}
    with pytest.raises(FamilyError, match="a percentage cannot fill a duration slot"):
        check_family(_family(phrasings=phrasings), shipped_macros())


def test_a_check_expecting_a_value_of_another_meaning_is_refused() -> None:
    evaluation = yaml.safe_load(yaml.safe_dump(MINI["evaluation"]))
    evaluation["conditions"][0]["expects"] = {"level": "temperature"}
    with pytest.raises(FamilyError, match="percentage cannot fill a temperature slot"):
        check_family(_family(evaluation=evaluation), shipped_macros())


def test_a_derivation_fed_the_wrong_meaning_is_refused() -> None:
    params = {**MINI["params"], "at": {"type": "clock_time", "time": ["10:00", "12:00", 30]}}
    derive = {"later_at": {"op": "before", "inputs": ["at", "level"], "type": "clock_time"}}
    with pytest.raises(FamilyError, match="percentage cannot fill a duration slot"):
        check_family(_family(params=params, derive=derive), shipped_macros())


def test_unknown_slots_roles_kinds_and_macros_are_named() -> None:
    phrasings = [dict(p) for p in MINI["phrasings"]]
    phrasings[1] = {"style": "terse", "text": "{room} lamp at {brightness}."}
    with pytest.raises(FamilyError, match=r"\{brightness\} names no parameter"):
        check_family(_family(phrasings=phrasings), shipped_macros())
    with pytest.raises(FamilyError, match="unknown device kind 'toaster'"):
        check_family(_family(roles={"home": "toaster"}), shipped_macros())
    with pytest.raises(FamilyError, match="unknown macro 'nope'"):
        check_family(_family(solution=[{"role": "home", "macro": "nope"}]), shipped_macros())
    with pytest.raises(FamilyError, match="macro phone_read_messages is for android"):
        check_family(_family(solution=[{"role": "home", "macro": "phone_read_messages"}]), shipped_macros())


def test_fewer_than_four_phrasings_or_a_missing_style_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 4 phrasings"):
        _family(phrasings=MINI["phrasings"][:3])
    same_style = [{"style": "terse", "text": p["text"]} for p in MINI["phrasings"]]
    with pytest.raises(ValueError, match="lack the styles"):
        _family(phrasings=same_style)


def test_an_instruction_that_reveals_a_source_value_is_refused() -> None:
    family = _family(sources=[{"param": "level", "role": "home", "description": "the level"}])
    with pytest.raises(FamilyError, match="reveals the level"):
        compile_task(family, shipped_macros(), Choice(seed=1), "dw-mini-0002")


def test_a_bad_file_is_one_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "mini.yaml"
    path.write_text(yaml.safe_dump({**MINI, "pattern": "teleportation"}), encoding="utf-8")
    with pytest.raises(FamilyError, match="pattern 'teleportation' is not one of the nine"):
        load_family_file(path)
    path.write_text("family: [unclosed", encoding="utf-8")
    with pytest.raises(FamilyError, match="not valid YAML"):
        load_family_file(path)
    other = tmp_path / "other.yaml"
    other.write_text(yaml.safe_dump(MINI), encoding="utf-8")
    with pytest.raises(FamilyError, match=r"must be named mini\.yaml"):
        load_family_file(other)


@pytest.mark.parametrize("family", shipped_families(), ids=lambda f: f.family)
def test_shipped_families_compile_feasible_and_infeasible_tasks_that_validate(family: Family) -> None:
    """Every gate on two feasible draws and an infeasible one. A family with GUI roles is built
    here as its tool-step twin (the same draws, setup and checks; the gates take milliseconds
    where the GUI proof takes ~20 s a task on live desktops): its GUI translation is checked by
    compiling the same draw, and the live GUI proof by ``test_gui_roles`` and by the byte-for-byte
    rebuild of a GUI family's shard in ``tests/tasks/test_full.py``."""
    indices = [0, 1]
    if family.infeasible:
        indices.append(5)  # INFEASIBLE_EVERY - 1: an infeasible variant
    built_as = family.model_copy(update={"gui": []}) if family.gui else family
    for i in indices:
        rejected: dict[str, int] = {}
        built = build_proven(built_as, 2026, i, f"dw-t-{i:04d}", rejected)
        assert built is not None, rejected
        task, report, choice = built
        assert report.ok, (family.family, i, report.problems)
        if family.gui:
            gui = compile_task(family, shipped_macros(), choice, task.id)
            assert gui.setup == task.setup and gui.evaluation == task.evaluation
            assert all(d.profile for d in gui.devices if d.kind == "linux")
        assert task.metadata.composition is not None
        variant = task.metadata.composition.variant
        if variant is None:
            assert report.near_misses >= 1
            for source in task.metadata.sources:
                assert str(source.value) not in task.instruction
        else:
            assert task.metadata.pattern == "infeasible_request"
            assert task.solution[-1].action == "report_infeasible"
            looks = next(v for v in family.infeasible if v.id == variant).solution
            assert bool(task.solution[:-1]) == bool(looks)  # what shows it cannot be done, then the report


def test_an_infeasible_variant_looks_first_and_its_reason_must_name_the_cause() -> None:
    variant = {
        "id": "no_lamp",
        "drop": ["lamp"],
        "reason": "there is no lamp in the {room}",
        "keywords": ["no lamp", "lamp is missing"],
        "solution": [{"role": "home", "action": "list_devices"}],
    }
    setup = [dict(MINI["setup"][0]), {**MINI["setup"][1], "tag": "lamp"}]
    family = _family(setup=setup, infeasible=[variant])
    check_family(family, shipped_macros())
    task = compile_task(family, shipped_macros(), Choice(seed=3, variant="no_lamp"), "dw-mini-0002")
    assert [s.action for s in task.solution] == ["list_devices", "report_infeasible"]
    assert task.metadata.apps  # the look names its surface
    (reported,) = task.evaluation.conditions
    assert reported.args["keywords"] == ["no lamp", "lamp is missing"]
    report = validate_task(task)
    assert report.ok, report.problems
    assert report.mutations.get("vague_reason") == 1  # "I can't do that" is proven to fail
    bare = compile_task(
        _family(setup=setup, infeasible=[{**variant, "solution": [], "keywords": []}]),
        shipped_macros(),
        Choice(seed=3, variant="no_lamp"),
        "dw-mini-0003",
    )
    assert [s.action for s in bare.solution] == ["report_infeasible"]
    assert "keywords" not in bare.evaluation.conditions[0].args


def test_an_infeasible_variant_solution_with_an_unknown_macro_is_named() -> None:
    variant = {"id": "v", "reason": "no", "solution": [{"role": "home", "macro": "no_such_macro"}]}
    with pytest.raises(FamilyError, match=r"infeasible v, solution 1: unknown macro"):
        check_family(_family(infeasible=[variant]), shipped_macros())


def test_distractors_reach_the_check_as_typed_values() -> None:
    family = next(f for f in shipped_families() if f.family == "parcel_locker_code")
    task = compile_task(family, shipped_macros(), choice_for(family, 1, 0), "dw-t-0100")
    (cond,) = task.evaluation.conditions
    distractors = cond.args["distractors"]
    assert len(distractors) == 2 and all(d["type"] == "text" for d in distractors)
    setup_text = str([op.args for op in task.setup])
    assert all(d["value"] in setup_text for d in distractors)  # the twins are on the phone


def test_world_values_bring_their_twins_and_the_task_names_its_world() -> None:
    family = next(f for f in shipped_families() if f.family == "service_code_to_desktop")
    task = compile_task(family, shipped_macros(), choice_for(family, 3, 0), "dw-t-0200")
    assert task.world is not None and task.world.size == "lived"
    assert [r.split("/")[0] for r in task.world.reads] == ["verification_code"]
    (cond,) = task.evaluation.conditions
    code = cond.args["contains"][0]
    twins = [d["value"] for d in cond.args["distractors"]]
    assert twins and code not in twins
    assert code not in task.instruction


def test_a_world_value_of_another_meaning_or_twins_of_a_plain_value_are_refused() -> None:
    world = {"size": "small", "seeds": 2}
    params = {**MINI["params"], "level": {"type": "percentage", "world": "room_reading"}}
    with pytest.raises(FamilyError, match="temperature cannot fill a percentage slot"):
        check_family(_family(world=world, params=params), shipped_macros())
    with pytest.raises(FamilyError, match="needs the family's `world`"):
        check_family(
            _family(params={**MINI["params"], "t": {"type": "temperature", "world": "room_reading"}}),
            shipped_macros(),
        )
    evaluation = yaml.safe_load(yaml.safe_dump(MINI["evaluation"]))
    evaluation["conditions"][0]["distractors"] = ["level.twins"]
    with pytest.raises(FamilyError, match="not a world value"):
        check_family(_family(evaluation=evaluation), shipped_macros())


def test_a_home_check_takes_a_twin_as_distractor_and_the_twin_near_miss_fails() -> None:
    twin_params = {**MINI["params"], "other": {"type": "percentage", "range": [10, 25, 5]}}
    hall = {
        "role": "home",
        "op": "add_device",
        "args": {
            "device_id": "hall_lamp",
            "category": "dimmable_light",
            "room": "{room}",
            "state": {"brightness": "{other}"},
        },
    }
    condition = {**MINI["evaluation"]["conditions"][0], "distractors": ["other"]}
    doc = {**MINI, "params": twin_params, "evaluation": {"conditions": [condition]}}
    family = Family.model_validate({**doc, "setup": [*MINI["setup"], hall]})
    task = compile_task(family, shipped_macros(), Choice(seed=3, phrasing=0), "t")
    (dimmed,) = task.evaluation.conditions
    other = next(
        op.args["state"]["brightness"] for op in task.setup if op.args.get("device_id") == "hall_lamp"
    )
    assert dimmed.args["distractors"] == [{"value": other, "type": "percentage"}]
    report = validate_task(task)
    assert report.ok, report.problems
