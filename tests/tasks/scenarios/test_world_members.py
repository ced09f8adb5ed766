"""The compiler gives every further device of a kind that takes the persona's world a member's world."""

from __future__ import annotations

import pytest

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.tasks.scenarios.compile import (
    Choice,
    FamilyError,
    check_family,
    compile_task,
    member_roles,
    role_devices,
)
from devicesworld.tasks.scenarios.loader import family_by_name, shipped_macros
from devicesworld.tasks.scenarios.model import WorldRequest
from devicesworld.worlds import build_world


def test_the_partners_phone_takes_the_partners_world() -> None:
    base = family_by_name("contact_across_phones")
    family = base.model_copy(update={"world": WorldRequest(size="small", seeds=3)})
    devices = role_devices(family)
    assert member_roles(family) == {"partner": "partner"}
    task = compile_task(family, shipped_macros(), Choice(seed=2), "dw-t-members")
    assert task.world is not None and task.world.members == {devices["partner"]: "partner"}
    partner = build_world(task.world.persona_seed, "small", member="partner")
    with CrossDeviceEnv(task) as env:
        env.reset()
        names = {c["name"] for c in env.getter_for(devices["partner"])("contacts", {})}
        assert {p.name for p in partner.phone.contacts} <= names  # the world, then the family's own setup


def test_the_member_goes_to_the_role_that_does_not_take_the_persona_world() -> None:
    family = family_by_name("dinner_moved")  # partner is android_0, mine (the persona's) android_1
    assert role_devices(family)["partner"] == "android_0"
    assert member_roles(family) == {"partner": "partner"}


def test_a_second_desktop_is_the_persona_work_machine_and_a_family_may_name_the_member() -> None:
    assert member_roles(family_by_name("gate_code_to_two_desktops")) == {"laptop": "work"}
    assert member_roles(family_by_name("independent_code_and_heater")) == {"son": "child"}


def test_without_keeps_a_role_out_and_families_without_a_world_are_unchanged() -> None:
    base = family_by_name("contact_across_phones")
    kept = base.model_copy(update={"world": WorldRequest(size="small", seeds=3, without=["partner"])})
    assert member_roles(kept) == {}
    task = compile_task(kept, shipped_macros(), Choice(seed=2), "dw-t-members")
    assert task.world is not None and task.world.members == {}
    assert "members" not in task.model_dump()["world"]
    playlist = family_by_name("playlist_between_phones")
    assert member_roles(playlist) == {"partner": "partner"}  # the partner's phone, the partner's world
    assert member_roles(playlist.model_copy(update={"world": None})) == {}  # no `world`
    assert member_roles(family_by_name("wifi_code_two_desktops")) == {"partner": "partner", "laptop": "work"}
    meeting = family_by_name("meeting_note_everywhere")
    assert member_roles(meeting) == {"desktop": "work"}  # its second desktop is the work machine
    phone_only = WorldRequest(size="lived", seeds=50, roles=["phone"])
    assert member_roles(meeting.model_copy(update={"world": phone_only})) == {}  # listed roles only


def test_a_bad_member_role_is_named() -> None:
    base = family_by_name("contact_across_phones")
    broken = base.model_copy(update={"world": WorldRequest(members={"nobody": "partner"})})
    with pytest.raises(FamilyError, match=r"world\.members: unknown role 'nobody'"):
        check_family(broken, shipped_macros())
    both = base.model_copy(
        update={"world": WorldRequest(roles=["mine", "partner"], members={"partner": "child"})}
    )
    with pytest.raises(FamilyError, match="role partner is in members and in roles or without"):
        check_family(both, shipped_macros())


def test_a_task_is_mirrored_where_the_mirror_changes_one_of_its_phones() -> None:
    """dinner_moved's draws 0001 and 0003 held one-sided household threads (issue #33 rule 2), 0000 and
    0002 one-sided calls only: all four take mirrored worlds, and unmirrored each is found one-sided
    (a task whose phones share nothing keeps its bytes: the next test)."""
    from devicesworld.tasks.coherence import coherence_problems
    from devicesworld.tasks.scenarios.build import choice_for

    family = family_by_name("dinner_moved")
    mirrored = {}
    for index in range(4):
        task = compile_task(family, shipped_macros(), choice_for(family, 2026, index), f"dw-t-{index}")
        assert task.world is not None
        mirrored[index] = task.world.mirrored
        assert ("mirrored" in task.model_dump()["world"]) == task.world.mirrored
        household = ("mirrored_threads", "mirrored_calls")
        assert [p for p in coherence_problems(task) if p.rule in household] == []
        plain = task.model_copy(update={"world": task.world.model_copy(update={"mirrored": False})})
        one_sided = [p for p in coherence_problems(plain) if p.rule in household]
        assert bool(one_sided) == task.world.mirrored
    assert mirrored == {0: True, 1: True, 2: True, 3: True}


def test_a_phone_alone_with_a_member_world_is_not_mirrored() -> None:
    """The partner's phone without the user's (or the user's two phones): nobody holds the other side of
    a household thread, so the worlds stay as drawn; persona 5's worlds do hold one-sided threads."""
    from devicesworld.spec.models import DeviceSpec, WorldSpec
    from devicesworld.tasks.scenarios.compile import _mirrored

    phone, partner = DeviceSpec(id="android_0", kind="android"), DeviceSpec(id="android_1", kind="android")
    both = WorldSpec(persona_seed=5, members={"android_1": "partner"})
    assert _mirrored(both, [phone, partner]).mirrored
    alone = WorldSpec(persona_seed=5, devices=[], members={"android_1": "partner"})
    assert not _mirrored(alone, [phone, partner]).mirrored
    work = WorldSpec(persona_seed=5, members={"android_1": "work"})
    assert not _mirrored(work, [phone, partner]).mirrored
