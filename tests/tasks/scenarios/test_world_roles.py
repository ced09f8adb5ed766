"""A family names which of its roles take the persona world (``world.roles``).

A second phone is someone else's: it takes that household member's own world
(test_world_members). The home always lives in the world (issue #13): its kind overlays the family's rooms and devices on the lived home,
so the home role takes the world even when ``roles`` leaves it out or the family has no
``world`` - unless ``world.without`` keeps it out (a story that reads every light).
"""

from __future__ import annotations

import pytest

from devicesworld.devices.base import get_kind
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.tasks.scenarios.compile import Choice, FamilyError, check_family, compile_task, role_devices
from devicesworld.tasks.scenarios.loader import family_by_name, shipped_macros
from devicesworld.tasks.scenarios.model import WorldRequest
from devicesworld.worlds import build_world


def test_the_world_goes_to_the_named_roles_only() -> None:
    base = family_by_name("bank_two_factor_portal")
    first, second = list(base.roles)
    chosen = base.model_copy(update={"world": WorldRequest(size="small", seeds=3, roles=[second])})
    task = compile_task(chosen, shipped_macros(), Choice(seed=1), "dw-t-world-roles")
    assert task.world is not None
    assert task.world.devices == [role_devices(chosen)[second]]
    assert role_devices(chosen)[first] not in task.world.devices


def test_without_roles_the_world_goes_to_the_default_devices() -> None:
    base = family_by_name("bank_two_factor_portal")
    chosen = base.model_copy(update={"world": WorldRequest(size="small", seeds=3)})
    task = compile_task(chosen, shipped_macros(), Choice(seed=1), "dw-t-world-default")
    assert task.world is not None and task.world.devices is None


def test_an_unknown_world_role_is_named() -> None:
    base = family_by_name("bank_two_factor_portal")
    broken = base.model_copy(update={"world": WorldRequest(roles=["nobody"])})
    with pytest.raises(FamilyError, match=r"world\.roles: unknown role 'nobody'"):
        check_family(broken, shipped_macros())


def _home_role(family_name: str) -> str:
    family = family_by_name(family_name)
    return next(r for r, k in family.roles.items() if get_kind(k).world.overlay is not None)  # type: ignore[union-attr]


def test_a_family_without_a_world_gets_the_world_under_its_home_and_keeps_its_parameters() -> None:
    family = family_by_name("cool_the_study")
    assert family.world is None
    home = role_devices(family)[_home_role(family.family)]
    task = compile_task(family, shipped_macros(), Choice(seed=4), "dw-t-home-world")
    assert task.world is not None and task.world.devices == [home] and task.world.reads == []
    alone = family.model_copy(update={"world": WorldRequest(roles=[], without=[_home_role(family.family)])})
    own = compile_task(alone, shipped_macros(), Choice(seed=4), "dw-t-home-world")
    assert own.world is None
    assert own.instruction == task.instruction
    assert [op for op in own.setup if op.op == "remove_room"] == []
    names = [op.args["name"] for op in task.setup if op.op == "configure_home"]
    assert names == [build_world(task.world.persona_seed, "lived").home.name]  # merged into the world's home


def test_named_roles_gain_the_home_and_without_keeps_it_out() -> None:
    family = family_by_name("fahrenheit_for_grandma")
    role = _home_role(family.family)
    devices = role_devices(family)
    assert family.world is not None and family.world.roles is not None and role not in family.world.roles
    task = compile_task(family, shipped_macros(), Choice(seed=2), "dw-t-home-gain")
    assert task.world is not None and devices[role] in (task.world.devices or [])
    kept = family.model_copy(update={"world": family.world.model_copy(update={"without": [role]})})
    task = compile_task(kept, shipped_macros(), Choice(seed=2), "dw-t-home-kept")
    assert task.world is not None and devices[role] not in (task.world.devices or [])


def test_a_role_in_roles_and_without_is_refused() -> None:
    base = family_by_name("bank_two_factor_portal")
    first = next(iter(base.roles))
    broken = base.model_copy(update={"world": WorldRequest(roles=[first], without=[first])})
    with pytest.raises(FamilyError, match="both in roles and in without"):
        check_family(broken, shipped_macros())


def test_an_infeasible_variant_finds_no_world_heater_where_the_family_dropped_its_own() -> None:
    family = family_by_name("guests_arrival_heating")
    variant = next(v for v in family.infeasible if v.id == "no_heater")
    home = role_devices(family)[_home_role(family.family)]
    for seed in range(3):
        task = compile_task(family, shipped_macros(), Choice(seed=seed, variant=variant.id), "dw-t-no-heater")
        room = next(op.args["name"] for op in task.setup if op.device == home and op.op == "add_room")
        with CrossDeviceEnv(task) as env:
            env.reset()
            state = env.getter_for(home)("state", {})
        in_room = [d["category"] for d in state["devices"].values() if d["room"] == room]
        assert "heater" not in in_room and in_room, (seed, room, in_room)
        assert len(state["devices"]) > len(in_room) + 5, "the rest of the world's home is there"
