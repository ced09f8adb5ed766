"""Distractors by construction: every value kind has targets whose twins are really in the world."""

from __future__ import annotations

import pytest

from devicesworld.worlds import VALUE_KINDS, build_world
from devicesworld.worlds.model import Pick, World, omit


def _present(world: World, pick: Pick) -> None:
    """Each value of a pick (target and twins) is where its kind says it is."""
    for v in (pick.target, *pick.twins):
        kind, value = v.kind, str(v.value)
        if kind == "verification_code":
            assert any(m.address == v.fields["sender"] and value in m.body for m in world.phone.messages)
        elif kind == "contact_phone":
            assert any(value in (p.phone, p.phone2) for p in world.phone.contacts)
        elif kind == "contact_email":
            assert any(p.email == value for p in world.phone.contacts)
        elif kind == "contact_address":
            assert any(p.address == value for p in world.phone.contacts)
        elif kind in ("event_time", "event_date"):
            assert any(
                e.title == v.fields["title"]
                and e.start.strftime("%Y-%m-%d") == v.fields["date"]
                and e.start.strftime("%H:%M") == v.fields["time"]
                for e in world.phone.events
            )
        elif kind == "song":
            assert any(s.title == v.fields["title"] and s.artist == value for s in world.phone.songs)
        elif kind == "note":
            assert any(n.name == v.fields["name"] and value in n.text for n in world.phone.notes)
        elif kind == "file":
            files = world.desktop.files if v.surface == "desktop" else world.phone.files
            assert any(f.path == value for f in files)
        elif kind == "home_device":
            assert any(d.device_id == value and d.room == v.fields["room"] for d in world.home.devices)
        elif kind == "room_reading":
            assert any(r.name == v.fields["room"] and r.temperature == v.value for r in world.home.rooms)
        else:  # pragma: no cover - a new kind must be covered here
            raise AssertionError(f"no presence rule for {kind}")


@pytest.mark.parametrize("size", ["small", "lived"])
@pytest.mark.parametrize("kind", VALUE_KINDS)
def test_every_value_kind_has_targets_with_twins_in_the_world(size: str, kind: str) -> None:
    world = build_world(21, size)  # type: ignore[arg-type]
    picks = world.values(kind)  # type: ignore[arg-type]
    assert picks, f"no {kind} in a {size} world"
    for pick in picks:
        _present(world, pick)
        distractors = pick.distractors()
        assert distractors, f"{pick.target.key} has no twin with another value"
        assert pick.target.expected() not in distractors


def test_twins_are_near_misses_of_their_target() -> None:
    w = build_world(22, "lived")
    code = w.pick("verification_code")
    assert any(
        t.fields["sender"] == code.target.fields["sender"] for t in code.twins
    )  # an older one, same sender
    assert any(t.fields["sender"] != code.target.fields["sender"] for t in code.twins)  # another sender
    assert all(
        t.fields["at"] < code.target.fields["at"]
        for t in code.twins
        if t.fields["sender"] == code.target.fields["sender"]
    )
    phone = next(
        p
        for p in w.values("contact_phone")
        if any(t.fields["person"] != p.target.fields["person"] for t in p.twins)
    )
    assert any(
        t.fields["first"] == phone.target.fields["first"] and t.fields["last"] != phone.target.fields["last"]
        for t in phone.twins
    )
    event = w.pick("event_time")
    assert all(
        t.fields["title"] == event.target.fields["title"] and t.fields["date"] != event.target.fields["date"]
        for t in event.twins
    )
    song = w.pick("song")
    assert all(
        t.fields["title"] == song.target.fields["title"] and t.value != song.target.value for t in song.twins
    )
    report = w.pick("file")
    assert report.target.value.endswith("report_final2.docx")  # type: ignore[union-attr]
    assert {str(t.value).rsplit("/", 1)[-1] for t in report.twins} == {"report_v1.docx", "report_final.docx"}
    assert len({report.target.fields["budget"], *(t.fields["budget"] for t in report.twins)}) >= 2
    heater = next(p for p in w.values("home_device") if p.target.fields["category"] == "heater")
    assert all(
        t.fields["category"] == "heater" and t.fields["room"] != heater.target.fields["room"]
        for t in heater.twins
    )


def test_picks_are_found_by_key_and_wrap_around() -> None:
    w = build_world(23, "small")
    pick = w.pick("room_reading", 0)
    assert w.value(pick.target.key) == pick
    n = len(w.values("room_reading"))
    assert w.pick("room_reading", n) == pick
    with pytest.raises(KeyError, match="no world value 'nope/1'"):
        w.value("nope/1")


def test_omit_drops_only_the_flagged_keys() -> None:
    data: dict[str, object] = {"a": 1, "b": None, "c": []}
    assert omit(data, b=True, c=False, absent=True) == {"a": 1, "c": []}
