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


def test_with_own_numbers_each_phone_carries_its_owners_world_number() -> None:
    """``world.own_numbers``: the user's phone is the persona's number, the partner's phone the
    partner's; the family's texts and checks name them by ``{me.phone}`` / ``{my_partner.phone}``,
    and the solution's text reaches the partner's phone from the user's world number."""
    from devicesworld.env.controller import CrossDeviceEnv
    from devicesworld.tasks.scenarios.model import WorldRequest

    base = {f.family: f for f in shipped_families()}["locker_code_to_partner"]
    assert base.world is not None and base.world.own_numbers
    family = base.model_copy(update={"world": base.world.model_copy(update={"size": "small", "seeds": 3})})
    task = compile_task(family, shipped_macros(), choice_for(family, 1, 0), "dw-t-numbers")
    assert task.world is not None
    world = build_world(task.world.persona_seed, "small", task.start_time)
    partner = next(p for p in world.people if p.relation == "household")
    numbers = {d.id: d.profile.get("owner_number") for d in task.devices}
    assert numbers == {"android_0": world.persona.person.phone, "android_1": partner.phone}
    sent = next(c for c in task.evaluation.conditions if c.check == "sms_sent")
    assert sent.args["to"] == partner.phone
    with CrossDeviceEnv(task) as env:
        env.reset()
        for step in task.solution:
            env.step(step)
        assert env.evaluate().success
    # with the flag no phone is on +1555100N, so a family that still writes one is refused
    stale = [
        *family.setup,
        family.setup[-1].model_copy(update={"args": {"address": "+15551001", "body": "x"}}),
    ]
    with pytest.raises(FamilyError, match=r"own_numbers.*\+15551001"):
        check_family(family.model_copy(update={"setup": stale}), shipped_macros())
    # without it the phones keep their default numbers (no profile)
    plain = family.model_copy(update={"world": WorldRequest(size="small", seeds=3, roles=["mine"])})
    assert all(
        not d.profile for d in compile_task(plain, shipped_macros(), choice_for(plain, 1, 0), "x").devices
    )
