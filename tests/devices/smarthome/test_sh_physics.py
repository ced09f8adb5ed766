"""Room climate: direction of every device's effect, drift, illuminance, closed-form exactness."""

from __future__ import annotations

from datetime import datetime

import pytest

from devicesworld.devices.smarthome.physics import Pull, Trajectory, solve
from tests.devices.smarthome.sh_harness import Harness


def home(outdoor: dict[str, float] | None = None, start: datetime | None = None, **room: float) -> Harness:
    h = Harness(start=start or datetime(2026, 3, 2, 9, 0))
    o = outdoor or {}
    h.setup(
        "configure_home",
        name="Test",
        outdoor_temperature=o.get("temperature", 20.0),
        outdoor_humidity=o.get("humidity", 50.0),
        outdoor_pm25=o.get("pm25", 20.0),
    )
    h.setup("add_room", name="room", **room)
    return h


def run(h: Harness, device_id: str, category: str, state: dict[str, object]) -> None:
    h.setup("add_device", device_id=device_id, category=category, room="room", state={"power": True, **state})


def test_without_devices_rooms_drift_to_outdoor() -> None:
    h = home({"temperature": 10, "humidity": 80, "pm25": 60}, temperature=22, humidity=40, pm25=10)
    h.ok("advance_time", minutes=600)
    r = h.room("room")
    assert 10 < r["temperature"] < 22 and 40 < r["humidity"] < 80 and 10 < r["pm25"] < 60
    h.ok("advance_time", minutes=7 * 24 * 60)
    r = h.room("room")
    assert r["temperature"] == pytest.approx(10, abs=0.1)
    assert r["humidity"] == pytest.approx(80, abs=0.1)


def test_ac_cool_cools_and_dries_towards_target() -> None:
    h = home({"temperature": 30, "humidity": 50}, temperature=30, humidity=70)
    run(h, "ac", "air_conditioner", {"mode": "cool", "target_temperature": 22})
    h.ok("advance_time", minutes=180)
    r = h.room("room")
    assert 22 <= r["temperature"] < 24
    assert r["humidity"] < 70


def test_ac_cool_never_warms_a_cold_room() -> None:
    h = home({"temperature": 10}, temperature=18)
    run(h, "ac", "air_conditioner", {"mode": "cool", "target_temperature": 24})
    h.ok("advance_time", minutes=120)
    assert h.room("room")["temperature"] < 18


def test_ac_holds_target_when_outdoors_is_colder_than_target() -> None:
    h = home({"temperature": 35}, temperature=20)
    run(h, "ac", "air_conditioner", {"mode": "cool", "target_temperature": 24, "fan_speed": "high"})
    h.ok("advance_time", minutes=24 * 60)
    assert h.room("room")["temperature"] == pytest.approx(24.6, abs=0.4)


def test_ac_dry_mode_dries_without_cooling() -> None:
    h = home({"temperature": 22, "humidity": 70}, temperature=22, humidity=75)
    run(h, "ac", "air_conditioner", {"mode": "dry"})
    h.ok("advance_time", minutes=240)
    r = h.room("room")
    assert r["humidity"] < 55
    assert r["temperature"] == pytest.approx(22, abs=0.01)


def test_heater_warms_to_target_only() -> None:
    h = home({"temperature": 5}, temperature=12)
    run(h, "heater", "heater", {"target_temperature": 21})
    h.ok("advance_time", minutes=600)
    t = h.room("room")["temperature"]
    assert 18 < t < 21
    warm = home({"temperature": 28}, temperature=27)
    run(warm, "heater", "heater", {"target_temperature": 21})
    warm.ok("advance_time", minutes=60)
    assert warm.room("room")["temperature"] > 27


def test_humidifier_and_dehumidifier() -> None:
    h = home({"humidity": 30}, humidity=30)
    run(h, "hum", "humidifier", {"target_humidity": 55})
    h.ok("advance_time", minutes=300)
    assert 45 < h.room("room")["humidity"] <= 55
    d = home({"humidity": 80}, humidity=80)
    run(d, "dehum", "dehumidifier", {"target_humidity": 45})
    d.ok("advance_time", minutes=300)
    assert 45 <= d.room("room")["humidity"] < 60


def test_purifier_speed_matters() -> None:
    results = {}
    for speed in ("low", "high"):
        h = home({"pm25": 80}, pm25=80)
        run(h, "pur", "air_purifier", {"fan_speed": speed})
        h.ok("advance_time", minutes=60)
        results[speed] = h.room("room")["pm25"]
    assert results["high"] < results["low"] < 80
    assert results["high"] < 25


def test_switching_a_device_off_reanchors() -> None:
    h = home({"temperature": 30}, temperature=30)
    run(h, "ac", "air_conditioner", {"mode": "cool", "target_temperature": 20})
    h.ok("advance_time", minutes=60)
    cooled = h.room("room")["temperature"]
    h.ok("control_device", device_id="ac", command="turn_off")
    assert h.room("room")["temperature"] == cooled
    h.ok("advance_time", minutes=120)
    assert h.room("room")["temperature"] > cooled


def test_illuminance_daylight_curtains_and_lamps() -> None:
    h = home(start=datetime(2026, 3, 2, 12, 0))
    h.setup("add_device", device_id="curtain", category="curtain", room="room", state={"position": 0})
    h.setup("add_device", device_id="lamp", category="light", room="room")
    h.setup("add_device", device_id="dim", category="dimmable_light", room="room", state={"brightness": 50})
    assert h.room("room")["illuminance"] == 0
    h.ok("control_device", device_id="curtain", command="open")
    assert h.room("room")["illuminance"] == 800
    h.ok("control_device", device_id="curtain", command="set_position", params={"position": 50})
    assert h.room("room")["illuminance"] == 400
    h.ok("control_device", device_id="lamp", command="turn_on")
    h.ok("control_device", device_id="dim", command="turn_on")
    assert h.room("room")["illuminance"] == 400 + 300 + 200
    h.ok("advance_time", minutes=10 * 60)  # 22:00, night
    assert h.room("room")["illuminance"] == 500


def test_one_call_equals_many_small_calls() -> None:
    def build() -> Harness:
        h = home({"temperature": 32, "humidity": 70, "pm25": 90}, temperature=31, humidity=72, pm25=85)
        run(h, "ac", "air_conditioner", {"mode": "cool", "target_temperature": 29})
        run(h, "pur", "air_purifier", {"fan_speed": "medium"})
        run(h, "dehum", "dehumidifier", {"target_humidity": 60})
        return h

    one, many = build(), build()
    one.ok("advance_time", minutes=60)
    for _ in range(60):
        many.ok("advance_time", minutes=1)
    for var in ("temperature", "humidity", "pm25"):
        a = one.device.home.climate(one.device.home.rooms["room"], var)  # type: ignore[attr-defined]
        b = many.device.home.climate(many.device.home.rooms["room"], var)  # type: ignore[attr-defined]
        assert a == pytest.approx(b, abs=1e-6)


def test_crossing_time_is_exact() -> None:
    traj = Trajectory(x0=18.0, t0=0.0)
    dt = solve(traj, [Pull(1.0, 30.0), Pull(5.0, 24.0, -1)])
    assert dt is not None
    assert traj.at(dt) == pytest.approx(24.0, abs=1e-9)
    assert solve(Trajectory(x0=26.0, t0=0.0), [Pull(1.0, 30.0), Pull(5.0, 24.0, -1)]) is None
