"""A task's own home applied on top of the world's home (``devices/smarthome/world.py`` overlay).

The rule (docs/worlds.md): the task's rooms are the task's (the world's room of the same
name is emptied, its climate kept where the task sets none), one-per-home appliances
(washer and dryer, vacuum) are the task's, colliding world ids are renamed, and
``configure_home`` merges. Everything else of the world stays.
"""

from __future__ import annotations

from typing import Any

from devicesworld.devices.base import SetupCall
from devicesworld.devices.smarthome.world import apply, overlay
from devicesworld.worlds import build_world
from devicesworld.worlds.model import World
from tests.devices.smarthome.sh_harness import Harness

SEED = 5


def _world() -> World:
    return build_world(SEED, "lived")


def _home(world: World, ops: list[SetupCall], claims: list[SetupCall] | None = None) -> Harness:
    """A home with the world on it and then the task's ops, overlaid."""
    h = Harness()
    apply(h.device, world)  # type: ignore[arg-type]
    for op, args in overlay(world, ops, ops if claims is None else claims):
        h.setup(op, **args)
    return h


def _devices(h: Harness) -> dict[str, dict[str, Any]]:
    state: dict[str, Any] = h.get("state")
    return dict(state["devices"])


def test_a_task_room_the_world_has_holds_only_the_tasks_devices_and_keeps_the_world_climate() -> None:
    world = _world()
    bedroom = next(r for r in world.home.rooms if r.name == "bedroom")
    assert any(d.room == "bedroom" for d in world.home.devices)
    ops: list[SetupCall] = [
        ("add_room", {"name": "bedroom", "humidity": 33.0}),
        ("add_device", {"device_id": "bedroom_heater", "category": "heater", "room": "bedroom"}),
    ]
    h = _home(world, ops)
    devices = _devices(h)
    assert [d for d, v in devices.items() if v["room"] == "bedroom"] == ["bedroom_heater"]
    room = h.room("bedroom")
    assert room["temperature"] == bedroom.temperature
    assert room["humidity"] == 33.0
    # every world device outside the task's rooms is still there
    kept = {d.device_id for d in world.home.devices if d.room != "bedroom"}
    assert kept <= set(devices)
    assert len(h.get("state")["rooms"]) == len(world.home.rooms)


def test_a_variant_that_drops_its_heater_finds_no_world_heater_in_that_room() -> None:
    world = _world()
    heater_rooms = {d.room for d in world.home.devices if d.category == "heater"}
    room = sorted(heater_rooms)[0]
    feasible: list[SetupCall] = [
        ("add_room", {"name": room}),
        ("add_device", {"device_id": "task_heater", "category": "heater", "room": room}),
    ]
    variant: list[SetupCall] = [
        ("add_room", {"name": room}),
        ("add_device", {"device_id": "task_purifier", "category": "air_purifier", "room": room}),
    ]
    h = _home(world, variant, claims=feasible + variant)
    in_room = [v["category"] for v in _devices(h).values() if v["room"] == room]
    assert in_room == ["air_purifier"]
    assert any(v["category"] == "heater" for v in _devices(h).values()), "heaters elsewhere stay"


def test_a_task_washer_replaces_the_worlds_washer_and_dryer_but_not_its_vacuum() -> None:
    world = _world()
    ops: list[SetupCall] = [
        ("add_room", {"name": "utility_room"}),
        ("add_device", {"device_id": "washer", "category": "washing_machine", "room": "utility_room"}),
    ]
    devices = _devices(_home(world, ops))
    categories = [v["category"] for v in devices.values()]
    assert categories.count("washing_machine") == 1 and devices["washer"]["room"] == "utility_room"
    assert "dryer" not in categories  # "there is no dryer" stays true
    assert categories.count("robot_vacuum") == 1


def test_a_colliding_world_id_is_renamed_with_its_schedules() -> None:
    world = _world()
    scheduled = {s.device_id for s in world.home.schedules}
    victim = next(d for d in world.home.devices if d.device_id in scheduled)
    ops: list[SetupCall] = [
        ("add_room", {"name": "studio"}),
        ("add_device", {"device_id": victim.device_id, "category": "light", "room": "studio"}),
    ]
    h = _home(world, ops)
    devices = _devices(h)
    renamed = f"{victim.device_id}_2"
    assert devices[victim.device_id]["room"] == "studio"
    assert devices[renamed]["room"] == victim.room and devices[renamed]["category"] == victim.category
    schedules = h.get("schedules")
    assert {s["device_id"] for s in schedules} == (scheduled - {victim.device_id}) | {renamed}
    assert len({s["schedule_id"] for s in schedules}) == len(schedules)


def test_configure_home_merges_into_the_world() -> None:
    world = _world()
    h = _home(world, [("configure_home", {"name": "Home", "outdoor_pm25": 80.0})])
    state = h.get("state")
    assert state["home"] == world.home.name
    assert state["outdoor"]["pm25"] == 80.0
    assert state["outdoor"]["temperature"] == world.home.outdoor_temperature
    assert len(state["devices"]) == len(world.home.devices)


def test_no_task_ops_leave_the_world_as_it_is() -> None:
    world = _world()
    assert overlay(world, [], []) == []


def test_removing_a_room_takes_its_devices_and_their_schedules() -> None:
    h = Harness()
    h.setup("add_room", name="den")
    h.setup("add_room", name="hall")
    h.setup("add_device", device_id="lamp", category="light", room="den")
    h.setup("add_device", device_id="hall_light", category="light", room="hall")
    h.setup("add_schedule", device_id="lamp", command="turn_on", at="20:00")
    h.setup("add_schedule", device_id="hall_light", command="turn_on", at="21:00")
    h.setup("remove_room", room="den")
    assert set(h.get("state")["devices"]) == {"hall_light"}
    h.setup("add_schedule", device_id="hall_light", command="turn_off", at="22:00")
    ids = [s["schedule_id"] for s in h.get("schedules")]
    assert len(ids) == len(set(ids)) == 2
    assert not h.act("get_device_state", device_id="lamp").ok
