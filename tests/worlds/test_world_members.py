"""A household member's own world: the partner's phone, the persona's second machine (docs/worlds.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from devicesworld.devices.base import describe_validation_error
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task, task_json_schema
from devicesworld.tasks.semantic import semantic_problems
from devicesworld.worlds import build_world
from devicesworld.worlds.generate import clear_cache, generate_member
from devicesworld.worlds.model import MEMBERS
from tests.worlds.test_world_apply import _task


@pytest.mark.parametrize("member", MEMBERS)
def test_a_member_world_is_deterministic_and_its_own(member: Any) -> None:
    first = build_world(5, "small", member=member).to_json()
    clear_cache()
    again = build_world(5, "small", member=member)
    assert again.to_json() == first
    assert again == generate_member(build_world(5, "small"), member)  # the cache gives what a build gives
    assert json.loads(first)["member"] == member
    owner = build_world(5, "small")
    assert "member" not in json.loads(owner.to_json())  # an owner's world serialises as before
    assert owner.phone.messages != again.phone.messages  # its own texts, not a copy of the owner's
    assert {d.path for d in again.desktop.files} & {d.path for d in owner.desktop.files}
    assert again.desktop.files != owner.desktop.files
    others = {m: build_world(5, "small", member=m).phone.messages for m in MEMBERS}
    assert len({json.dumps([x.model_dump(mode="json") for x in v]) for v in others.values()}) == len(MEMBERS)


@pytest.mark.parametrize("seed", [0, 9, 23])
def test_the_partner_owns_the_world_and_the_owner_is_the_partner(seed: int) -> None:
    owner = build_world(seed, "lived")
    world = build_world(seed, "lived", member="partner")
    household = [p for p in owner.people if p.relation == "household"]
    me = world.persona.person
    assert (me.first, me.last, me.phone, me.email) == (
        household[0].first,
        household[0].last,
        household[0].phone,
        household[0].email,
    )
    theirs = [p for p in world.people if p.relation == "household"]
    assert theirs[0].name == owner.persona.person.name and theirs[0].phone == owner.persona.person.phone
    assert [(p.name, p.phone) for p in theirs[1:]] == [(p.name, p.phone) for p in household[1:]]  # children
    fam = [(p.name, p.phone) for p in owner.people if p.relation == "family"]
    assert [(p.name, p.phone) for p in world.people if p.relation == "family"] == fam
    assert world.persona.city == owner.persona.city
    assert me.address == owner.persona.person.address
    assert world.home == owner.home
    assert world.persona.employer != owner.persona.employer
    colleagues = {p.phone for p in world.people if p.relation == "colleague"}
    assert colleagues and not colleagues & {p.phone for p in owner.people}
    numbers = [p.phone for p in world.people] + [me.phone]
    assert len(numbers) == len(set(numbers))
    notes = {n.name: n.text for n in owner.phone.notes}
    assert {n.name: n.text for n in world.phone.notes if n.name == "wifi.md"} == {"wifi.md": notes["wifi.md"]}
    # lived sizes, as any lived world
    assert len(world.phone.contacts) >= 40 and len(world.phone.messages) >= 80
    assert len(world.phone.events) >= 40 and len(world.phone.songs) >= 30
    assert len(world.desktop.files) >= 30
    # near-miss twins planted as in the owner's world
    for kind in ("verification_code", "contact_phone", "event_time", "song", "note", "file"):
        assert world.values(kind)
    firsts = [p.first for p in world.people if p.relation != "household"]
    assert len(firsts) > len(set(firsts))


def test_the_child_and_the_work_machine() -> None:
    owner = build_world(4, "small")
    child = build_world(4, "small", member="child")
    kids = [p for p in owner.people if p.relation == "household"][1:]
    assert child.persona.person.name == kids[0].name
    assert {p.name for p in child.people if p.relation == "household"} >= {
        owner.persona.person.name,
        next(p for p in owner.people if p.relation == "household").name,
    }
    work = build_world(4, "small", member="work")
    assert work.persona == owner.persona and work.people == owner.people
    assert work.desktop != owner.desktop


def test_an_unknown_member_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown household member 'cousin'; members: partner, child, work"):
        build_world(1, "small", member="cousin")  # type: ignore[arg-type]


# --- the task spec -----------------------------------------------------------------------------
def test_members_are_validated_with_clear_messages() -> None:
    with pytest.raises(
        ValidationError, match=r"world\.members names devices the task does not have: android_7"
    ):
        _task(["android", "android"], {"persona_seed": 1, "members": {"android_7": "partner"}})
    both = {"persona_seed": 1, "devices": ["android_1"], "members": {"android_1": "partner"}}
    with pytest.raises(ValidationError, match="take the persona's own world too: android_1"):
        _task(["android", "android"], both)
    with pytest.raises(ValidationError) as caught:
        _task(["android", "android"], {"persona_seed": 1, "members": {"android_1": "cousin"}})
    assert "world.members.android_1" in describe_validation_error(caught.value)
    toy = _task(["android", "toy"], {"persona_seed": 1, "members": {"toy_0": "partner"}})
    assert semantic_problems(toy) == [("world.members.toy_0", "toy device toy_0 does not take worlds")]
    assert "members" in task_json_schema()["$defs"]["WorldSpec"]["properties"]


def test_a_world_without_members_serialises_as_before() -> None:
    plain = _task(["android"], {"persona_seed": 2, "reads": []})
    assert list(json.loads(plain.model_dump_json())["world"]) == ["persona_seed", "size", "devices", "reads"]
    with_members = _task(["android", "android"], {"persona_seed": 2, "members": {"android_1": "partner"}})
    dumped = json.loads(with_members.model_dump_json())["world"]
    assert dumped["members"] == {"android_1": "partner"}
    assert Task.model_validate_json(with_members.model_dump_json()) == with_members


# --- the env -----------------------------------------------------------------------------------
def test_the_second_phone_holds_the_partners_lived_world() -> None:
    owner = build_world(11, "lived")
    partner = build_world(11, "lived", member="partner")
    spec = {"persona_seed": 11, "size": "lived", "members": {"android_1": "partner"}}
    with CrossDeviceEnv(_task(["android", "android"], spec)) as env:
        env.reset()
        mine = {c["name"] for c in env.getter_for("android_0")("contacts", {})}
        theirs = env.getter_for("android_1")("contacts", {})
        assert len(theirs) >= 40
        names = {c["name"] for c in theirs}
        assert owner.persona.person.name in names and partner.persona.person.name not in names
        assert partner.persona.person.name in mine and owner.persona.person.name not in mine
        bodies = {m["body"] for m in env.getter_for("android_1")("sms", {})}
        assert bodies == {m.body for m in partner.phone.messages}
        assert len(env.getter_for("android_1")("events", {})) == len(partner.phone.events)


def test_by_default_a_member_device_is_not_counted_as_the_first_of_its_kind() -> None:
    spec = {"persona_seed": 12, "size": "small", "members": {"android_0": "partner"}}
    owner = build_world(12, "small")
    partner = build_world(12, "small", member="partner")
    with CrossDeviceEnv(_task(["android", "android"], spec)) as env:
        env.reset()
        first = {m["body"] for m in env.getter_for("android_0")("sms", {})}
        second = {m["body"] for m in env.getter_for("android_1")("sms", {})}
        assert first == {m.body for m in partner.phone.messages}
        assert second == {m.body for m in owner.phone.messages}


def test_the_second_desktop_holds_the_work_machines_files() -> None:
    work = build_world(13, "small", member="work")
    spec = {"persona_seed": 13, "size": "small", "members": {"linux_1": "work"}}
    with CrossDeviceEnv(_task(["linux", "linux"], spec)) as env:
        env.reset()
        listing = set(env.getter_for("linux_1")("listing", {"path": "~"}))
        assert {f.path for f in work.desktop.files} <= listing
        report = work.pick("file")
        docx = json.dumps(env.getter_for("linux_1")("docx", {"path": "~/" + str(report.target.value)}))
        assert report.target.fields["budget"] in docx


def test_the_census_counts_the_member_phone_as_lived() -> None:
    from devicesworld.tasks.census import census_task

    spec = {"persona_seed": 11, "size": "lived", "members": {"android_1": "partner"}}
    counts = {d.device: d.counts for d in census_task(_task(["android", "android"], spec)).devices}
    assert counts["android_1"]["contacts"] >= 40 and counts["android_1"]["messages"] >= 80
    alone = {"persona_seed": 11, "size": "lived"}
    assert {d.device: d.counts for d in census_task(_task(["android", "android"], alone)).devices}[
        "android_1"
    ]["contacts"] < 10
