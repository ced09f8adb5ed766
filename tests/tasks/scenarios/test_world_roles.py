"""A family names which of its roles take the persona world (``world.roles``).

A family that builds its own home (rooms and devices the story needs) cannot let the
world's home in as well - the rooms would clash - so it gives the world to its phone
and desktop only; a second phone is someone else's and keeps its own state.
"""

from __future__ import annotations

import pytest

from devicesworld.tasks.scenarios.compile import Choice, FamilyError, check_family, compile_task, role_devices
from devicesworld.tasks.scenarios.loader import family_by_name, shipped_macros
from devicesworld.tasks.scenarios.model import WorldRequest


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
