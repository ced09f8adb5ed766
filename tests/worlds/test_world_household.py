"""One household, one conversation: a mirrored member world holds its texts with the owner (and a
child's with the partner) as the other side's world has them (issue #33, worlds/household.py)."""

from __future__ import annotations

import json
from datetime import datetime

from devicesworld.worlds import build_world
from devicesworld.worlds.model import Sms, World


def _with(world: World, number: str) -> list[tuple[str, bool, datetime]]:
    """A world's texts with one number: (text, sent, time)."""
    return [(m.body, m.sent, m.at) for m in world.phone.messages if m.address == number]


def _swapped(texts: list[tuple[str, bool, datetime]]) -> list[tuple[str, bool, datetime]]:
    return sorted((body, not sent, at) for body, sent, at in texts)


def test_the_partners_texts_with_the_user_are_the_users_mirrored() -> None:
    owner = build_world(5, "lived")
    plain = build_world(5, "lived", member="partner")
    partner = build_world(5, "lived", member="partner", mirrored=True)
    me, them = owner.persona.person.phone, partner.persona.person.phone
    # seed 5: both worlds drew a thread of their own with the other, neither the other's
    assert (
        _with(owner, them) and _with(plain, me) and _swapped(_with(owner, them)) != sorted(_with(plain, me))
    )
    assert sorted(_with(partner, me)) == _swapped(_with(owner, them))
    # the rest of the partner's world is as drawn
    others = [m for m in partner.phone.messages if m.address != me]
    assert others == [m for m in plain.phone.messages if m.address != me]
    assert partner.persona == plain.persona and partner.desktop == plain.desktop
    assert partner.phone.messages == sorted(partner.phone.messages, key=lambda m: (m.at, m.address, m.body))


def test_a_childs_texts_mirror_the_user_and_the_partner() -> None:
    owner = build_world(5, "lived")
    partner = build_world(5, "lived", member="partner", mirrored=True)
    child = build_world(5, "lived", member="child", mirrored=True)
    kid = child.persona.person.phone
    assert _with(owner, kid) and _with(partner, kid)  # seed 5: both parents text the child
    assert sorted(_with(child, owner.persona.person.phone)) == _swapped(_with(owner, kid))
    assert sorted(_with(child, partner.persona.person.phone)) == _swapped(_with(partner, kid))


def test_a_world_is_mirrored_only_when_asked() -> None:
    plain = build_world(5, "small", member="partner")
    assert "mirrored" not in json.loads(plain.to_json())  # serialises as before
    mirrored = build_world(5, "small", member="partner", mirrored=True)
    assert json.loads(mirrored.to_json())["mirrored"] is True
    assert mirrored.identity != plain.identity  # the kinds' per-world caches keep them apart
    # the owner's and the work machine's worlds draw every conversation they hold
    assert build_world(5, "small", mirrored=True) == build_world(5, "small")
    assert build_world(5, "small", member="work", mirrored=True) == build_world(5, "small", member="work")


def test_a_mirrored_text_swaps_sent_and_received() -> None:
    from devicesworld.worlds.household import mirrored_messages

    owner = build_world(0, "small")
    partner = build_world(0, "small", member="partner")
    me, them = owner.persona.person.phone, partner.persona.person.phone
    out = mirrored_messages(partner, [owner])
    sent = [m for m in owner.phone.messages if m.address == them]
    assert sent
    for m in sent:
        assert Sms(address=me, body=m.body, at=m.at, sent=not m.sent) in out


def test_both_phones_of_a_mirrored_task_hold_one_conversation() -> None:
    """The environment puts the mirrored partner world on the partner's phone: each text the user's
    world holds with the partner is on the partner's phone, the other way round."""
    from devicesworld.env.controller import CrossDeviceEnv
    from tests.worlds.test_world_apply import _task

    owner = build_world(0, "small")
    partner = build_world(0, "small", member="partner", mirrored=True)
    me, them = owner.persona.person.phone, partner.persona.person.phone
    spec = {"persona_seed": 0, "size": "small", "members": {"android_1": "partner"}, "mirrored": True}
    with CrossDeviceEnv(_task(["android", "android"], spec)) as env:
        env.reset()
        texts = env.getter_for("android_1")("sms", {})
    digits = "".join(c for c in me if c.isdigit())
    held = {m["body"] for m in texts if "".join(c for c in str(m["address"]) if c.isdigit()) == digits}
    told = {m.body for m in owner.phone.messages if m.address == them}
    assert told and held == told


def _calls(world: World, numbers: set[str]) -> list[tuple[datetime, str, int]]:
    return sorted((c.at, c.kind, c.duration) for c in world.phone.calls if c.number in numbers)


def _numbers(world: World) -> set[str]:
    person = world.persona.person
    return {person.phone, *([person.phone2] if person.phone2 else [])}


def test_a_call_between_the_user_and_the_partner_is_in_both_logs() -> None:
    """An outgoing call on one phone is an incoming call on the other at the same time, for as long;
    a call nobody picked up is missed by whoever received it."""
    owner = build_world(5, "lived")
    plain = build_world(5, "lived", member="partner")
    partner = build_world(5, "lived", member="partner", mirrored=True)
    user_side = _calls(owner, _numbers(partner))
    assert user_side  # seed 5: the user's world called the partner
    assert _calls(partner, {owner.persona.person.phone}) == sorted(
        (
            at,
            {"incoming": "outgoing", "missed": "outgoing", "outgoing": "incoming"}[kind],
            0 if kind == "missed" else d,
        )
        for at, kind, d in user_side
    )
    assert _calls(plain, _numbers(owner)) != _calls(partner, _numbers(owner))  # the drawn log differed
    others = [c for c in partner.phone.calls if c.number not in _numbers(owner)]
    assert others == [c for c in plain.phone.calls if c.number not in _numbers(owner)]


def test_a_mirrored_call_swaps_who_placed_it_and_keeps_missed_consistent() -> None:
    from devicesworld.worlds.household import mirrored_call
    from devicesworld.worlds.model import Call

    at = datetime(2026, 3, 1, 18, 5)
    cases = {
        ("outgoing", 120): ("incoming", 120),
        ("outgoing", 0): ("missed", 0),  # placed, never picked up
        ("incoming", 95): ("outgoing", 95),
        ("missed", 0): ("outgoing", 0),  # the other side placed it and got no answer
    }
    for (kind, duration), (back, length) in cases.items():
        other = mirrored_call(Call(number="+15550001", at=at, kind=kind, duration=duration), "+15550002")
        assert (other.kind, other.duration, other.at, other.number) == (back, length, at, "+15550002")
        again = mirrored_call(other, "+15550001")
        assert (again.kind, again.duration) == (kind, duration)  # both logs tell one call
