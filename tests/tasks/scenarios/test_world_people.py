"""``{me.email}`` / ``{my_partner.email}``: seeded mail is addressed to the world's own people (issue #33)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from devicesworld.spec.models import DeviceOp
from devicesworld.tasks.scenarios.build import choice_for
from devicesworld.tasks.scenarios.compile import FamilyError, check_family, compile_task
from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros
from devicesworld.worlds import build_world

from .test_compile import MINI, _family


def _mail_addresses(task_setup: Sequence[DeviceOp]) -> list[str]:
    found: list[str] = []
    for op in task_setup:
        args = op.args or {}
        if op.op == "write_eml":
            found += [args.get("sender", ""), *args.get("to", [])]
    return found


def test_seeded_mail_goes_to_the_persona_and_their_partner_by_their_own_addresses() -> None:
    families = {f.family: f for f in shipped_families()}
    mine = families["flight_email_to_calendar"]
    task = compile_task(mine, shipped_macros(), choice_for(mine, 5, 0), "dw-t-0300")
    assert task.world is not None
    world = build_world(task.world.persona_seed, task.world.size, task.start_time)
    addresses = _mail_addresses(task.setup)
    assert world.persona.person.email in addresses
    assert not any(a.endswith("@example.com") for a in addresses)
    theirs = families["flight_arrival_plan"]
    task = compile_task(theirs, shipped_macros(), choice_for(theirs, 5, 0), "dw-t-0301")
    assert task.world is not None
    world = build_world(task.world.persona_seed, task.world.size, task.start_time)
    partner = next(p for p in world.people if p.relation == "household")
    assert partner.email in _mail_addresses(task.setup)


def test_only_a_family_with_a_world_can_name_its_people() -> None:
    setup = [*MINI["setup"], {"role": "home", "op": "add_room", "args": {"name": "{me.first}"}}]
    with pytest.raises(FamilyError, match=r"\{me\} names no parameter"):
        check_family(_family(setup=setup), shipped_macros())
    check_family(_family(setup=setup, world={"size": "small", "seeds": 2}), shipped_macros())
