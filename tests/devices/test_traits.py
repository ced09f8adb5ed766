"""A kind's traits reach every layer that used to name kinds: a new kind gets them by declaring them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devicesworld import prompthints
from devicesworld.devices import base
from devicesworld.devices.base import DeviceKind, KindTraits, get_kind, kind_names, traits_of
from devicesworld.devices.traits import EnvSplit, KindUse
from devicesworld.spec.models import Condition, Task


def _surfaces(use: KindUse) -> set[str]:
    return {f"gizmo:{action}" for action, _ in use.steps} | {f"gizmo:setup-{op}" for op, _ in use.setup}


GIZMO_TRAITS = KindTraits(
    noun="gizmo",
    place="on the gizmo",
    shared_checks=frozenset({"value_is"}),
    surfaces=_surfaces,
    env_split=EnvSplit(
        presets=lambda split: {"train": ["g1", "g2"], "test": ["g3"], None: ["g1", "g2", "g3"]}[split]
    ),
    screenshots="every_step",
)


@pytest.fixture
def gizmo(monkeypatch: pytest.MonkeyPatch) -> Iterator[DeviceKind]:
    """The toy kind again, under another name and with traits (registered for one test)."""
    toy = get_kind("toy")
    assert toy is not None
    kind = DeviceKind(
        name="gizmo",
        doc="A toy with traits.",
        factory=toy.factory,
        actions=toy.actions,
        setup_ops=toy.setup_ops,
        getters=toy.getters,
        checks=toy.checks,
        traits=GIZMO_TRAITS,
    )
    kind_names()
    monkeypatch.setitem(base._REGISTRY, "gizmo", kind)
    prompthints.register("gizmo", act="The gizmo shows nothing: read it.", plan="Plan a read of the gizmo.")
    yield kind
    prompthints.unregister("gizmo")


def _task(devices: list[str]) -> Task:
    return Task.model_validate(
        {
            "id": "gizmo-1",
            "instruction": "Press the gizmo.",
            "devices": [{"id": d, "kind": d.rsplit("_", 1)[0]} for d in devices],
            "setup": [{"device": devices[0], "op": "set", "args": {"value": 1}}],
            "evaluation": {
                "conditions": [{"id": "c", "device": devices[0], "check": "value_is", "args": {"equals": 2}}]
            },
            "solution": [{"device": devices[0], "action": "press"}, {"action": "finish"}],
        }
    )


def test_unknown_kinds_have_neutral_traits() -> None:
    assert traits_of("env") == KindTraits()
    assert traits_of("nosuchkind").place_of("nosuchkind") == "on nosuchkind"


def test_surfaces_come_from_the_kind(gizmo: DeviceKind) -> None:
    from devicesworld.tasks.surfaces import task_surfaces

    assert task_surfaces(_task(["gizmo_0"])) == ["gizmo:press", "gizmo:setup-set"]
    assert task_surfaces(_task(["toy_0"])) == []


def test_near_misses_guards_prompts_and_preflight_read_the_traits(gizmo: DeviceKind) -> None:
    from devicesworld.agents.llm.prompts import action_rules, planner_hints
    from devicesworld.runner.preflight import screenshot_estimate
    from devicesworld.tasks.nearmiss import shared_state
    from devicesworld.tasks.refine.guards import device_mentions

    task = _task(["gizmo_0"])
    cond = task.evaluation.conditions[0]
    assert shared_state(task, cond)
    toy = _task(["toy_0"])
    assert not shared_state(toy, Condition.model_validate(cond.model_dump() | {"device": "toy_0"}))
    assert device_mentions("Press the gizmo, then the other gizmos.", ["gizmo_0"])["gizmo"] == 2
    assert "- The gizmo shows nothing: read it.\n" in action_rules()
    assert "Plan a read of the gizmo.\n" in planner_hints()
    assert "about 2 phone PNGs" in screenshot_estimate([task])  # one per solution step
    assert "about 0 phone PNGs" in screenshot_estimate([toy])


def test_profile_splits_use_the_kinds_presets(gizmo: DeviceKind) -> None:
    from devicesworld.tasks.env_split import split_presets, with_preset

    assert split_presets("test", kind="gizmo") == ["g3"]
    assert "g1" in split_presets("train")
    moved = with_preset(_task(["gizmo_0"]), "g2")
    assert moved.devices[0].profile == {"preset": "g2"}
    with pytest.raises(ValueError, match="unknown environment split 'dev'"):
        split_presets("dev", kind="gizmo")


def test_traits_reject_bad_values() -> None:
    with pytest.raises(ValueError, match="noun_pattern is not a regular expression"):
        KindTraits(noun="x", noun_pattern="(")
    with pytest.raises(ValueError):
        KindTraits.model_validate({"screenshots": "sometimes"})
