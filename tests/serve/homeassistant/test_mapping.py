"""HA's conventions for our devices: entity ids and domains, value scales, and service translation."""

from __future__ import annotations

from typing import Any

import pytest

from devicesworld.serve.homeassistant.entities import (
    Entity,
    brightness_to_pct,
    build_entities,
    entity_state,
    ha_time,
    pct_to_brightness,
    percentage_to_speed,
)
from devicesworld.serve.homeassistant.services import (
    SERVICES,
    ServiceError,
    schedule_command,
    services_catalog,
    translate,
)


def _view(category: str, **attributes: Any) -> dict[str, Any]:
    return {
        "time": "2026-03-02T09:00:00",
        "rooms": {"den": {"temperature": 21.5, "humidity": 40.0, "pm25": 9.0, "illuminance": 300}},
        "schedules": [],
        "devices": {"dev": {"name": "Dev", "category": category, "room": "den", "attributes": attributes}},
    }


def _main(category: str, **attributes: Any) -> tuple[str, dict[str, Any]]:
    view = _view(category, **attributes)
    entities = build_entities(view)
    main = next(e for e in entities.values() if e.device_id == "dev" and e.part == "main")
    return entity_state(main, view)


def test_each_category_maps_to_its_ha_domain() -> None:
    domains = {
        "light": "light", "dimmable_light": "light", "curtain": "cover", "air_conditioner": "climate",
        "heater": "climate", "air_purifier": "fan", "humidifier": "humidifier", "dehumidifier": "humidifier",
        "washing_machine": "switch", "dryer": "switch", "robot_vacuum": "vacuum",
    }  # fmt: skip
    for category, domain in domains.items():
        entities = build_entities(_view(category))
        assert f"{domain}.dev" in entities, category
    assert {
        "sensor.den_temperature",
        "sensor.den_humidity",
        "sensor.den_pm25",
        "sensor.den_illuminance",
    } <= set(build_entities(_view("light")))
    washer = set(build_entities(_view("washing_machine")))
    assert {
        "select.dev_program",
        "sensor.dev_operational_state",
        "button.dev_start",
        "button.dev_stop",
    } <= washer


def test_values_follow_ha_conventions() -> None:
    assert _main("dimmable_light", power=True, brightness=100)[1]["brightness"] == 255
    assert _main("dimmable_light", power=False, brightness=100)[1]["brightness"] is None
    assert _main("curtain", position=0)[0] == "closed" and _main("curtain", position=1)[0] == "open"
    assert _main("curtain", position=70)[1]["current_position"] == 70
    state, attrs = _main(
        "air_conditioner",
        power=True,
        mode="fan",
        target_temperature=24.0,
        current_temperature=26.0,
        fan_speed="low",
    )
    assert state == "fan_only" and attrs["fan_mode"] == "low" and attrs["hvac_action"] == "fan"
    state, attrs = _main("heater", power=True, mode="eco", target_temperature=22.0, current_temperature=19.0)
    assert (state, attrs["preset_mode"], attrs["hvac_action"]) == ("heat", "eco", "heating")
    assert (
        _main("heater", power=False, mode="heat", target_temperature=22.0, current_temperature=19.0)[0]
        == "off"
    )
    assert _main("air_purifier", power=True, fan_speed="medium", pm25=3.0)[1]["percentage"] == 66
    assert _main("air_purifier", power=True, fan_speed="auto", pm25=3.0)[1]["preset_mode"] == "auto"
    _, hum = _main("dehumidifier", power=True, target_humidity=45, current_humidity=60.0)
    assert hum["action"] == "drying" and hum["device_class"] == "dehumidifier"
    vac = _main("robot_vacuum", operational_state="returning", battery=55, remaining_minutes=0, charging=False,
                clean_mode="mop")  # fmt: skip
    assert vac[0] == "returning" and vac[1]["battery_level"] == 55
    assert ha_time("2026-03-02T09:00:00") == "2026-03-02T09:00:00+00:00"


@pytest.mark.parametrize("pct", [1, 25, 30, 50, 99, 100])
def test_brightness_round_trips_through_0_255(pct: int) -> None:
    assert brightness_to_pct(pct_to_brightness(pct)) == pct
    assert 0 < pct_to_brightness(pct) <= 255


def test_fan_percentages_pick_the_nearest_speed() -> None:
    speeds = [percentage_to_speed(p) for p in (1, 33, 34, 66, 67, 100)]
    assert speeds == ["low", "low", "medium", "medium", "high", "high"]
    assert [percentage_to_speed(_main("air_purifier", power=True, fan_speed=s, pm25=1.0)[1]["percentage"])
            for s in ("low", "medium", "high")] == ["low", "medium", "high"]  # fmt: skip


LAMP = Entity("light.lamp", "light", "lamp", "dimmable_light")
BULB = Entity("light.bulb", "light", "bulb", "light")
AC = Entity("climate.ac", "climate", "ac", "air_conditioner")
HEATER = Entity("climate.heater", "climate", "heater", "heater")
VAC = Entity("vacuum.vac", "vacuum", "vac", "robot_vacuum")
SENSOR = Entity("sensor.vac_battery", "sensor", "vac", "robot_vacuum", "sensor:battery")


def test_translation_adds_power_only_when_needed() -> None:
    off, on = {"power": False}, {"power": True}
    assert translate("light", "turn_on", LAMP, {"brightness": 128}, off) == [
        ("turn_on", {}),
        ("set_brightness", {"brightness": 50}),
    ]
    assert translate("light", "turn_on", LAMP, {"brightness_pct": 30}, on) == [
        ("set_brightness", {"brightness": 30})
    ]
    assert translate("light", "turn_on", LAMP, {"brightness": 0}, on) == [("turn_off", {})]
    assert translate("homeassistant", "toggle", BULB, {}, off) == [("toggle", {})]
    assert translate("climate", "set_hvac_mode", AC, {"hvac_mode": "off"}, on) == [("turn_off", {})]
    assert translate("climate", "set_hvac_mode", AC, {"hvac_mode": "fan_only"}, off) == [
        ("turn_on", {}),
        ("set_mode", {"mode": "fan"}),
    ]
    assert (
        translate("climate", "set_hvac_mode", AC, {"hvac_mode": "cool"}, {"power": True, "mode": "cool"})
        == []
    )
    assert translate("climate", "set_temperature", AC, {"temperature": 21.5}, on) == [
        ("set_target_temperature", {"temperature": 21.5})
    ]
    assert translate("climate", "set_preset_mode", HEATER, {"preset_mode": "none"}, on) == [
        ("set_mode", {"mode": "heat"})
    ]
    assert translate("vacuum", "start", VAC, {}, {"operational_state": "paused"}) == [("resume", {})]
    assert translate("vacuum", "return_to_base", VAC, {}, {}) == [("return_to_dock", {})]


@pytest.mark.parametrize(
    ("domain", "service", "entity", "data", "match"),
    [
        ("light", "turn_on", LAMP, {"brightness": 10, "brightness_pct": 5}, "exclusion 'brightness'"),
        ("climate", "set_temperature", AC, {"temperature": 31}, "Accepted range is 16 to 30"),
        ("climate", "set_temperature", AC, {"target_temp_low": 18}, "does not support it"),
        ("light", "turn_on", LAMP, {"brightness": 300}, "0-255"),
        ("cover", "open_cover", LAMP, {}, "acts on cover entities"),
        ("climate", "set_fan_mode", HEATER, {"fan_mode": "low"}, "does not support fan modes"),
        ("climate", "set_hvac_mode", HEATER, {"hvac_mode": "cool"}, "off, heat"),
        ("vacuum", "start", SENSOR, {}, "acts on vacuum"),
        ("light", "blink", LAMP, {}, "not found"),
    ],
)
def test_bad_calls_are_refused_with_a_reason(
    domain: str, service: str, entity: Entity, data: dict[str, Any], match: str
) -> None:
    with pytest.raises(ServiceError, match=match):
        translate(domain, service, entity, data, {"power": True})


def test_fields_a_light_lacks_are_dropped_per_entity_as_in_ha() -> None:
    off, on = {"power": False}, {"power": True, "brightness": 40}
    # an on/off light drops brightness (HA's filter_turn_on_params) and turns on
    assert translate("light", "turn_on", BULB, {"brightness": 10}, off) == [("turn_on", {})]
    assert translate("light", "turn_on", BULB, {"brightness_pct": 50, "transition": 2}, off) == [
        ("turn_on", {})
    ]
    # brightness 0 turns any light off, before anything is dropped
    assert translate("light", "turn_on", BULB, {"brightness_pct": 0}, on) == [("turn_off", {})]
    # transition, flash, colours: accepted, dropped
    extras = {"transition": 1.5, "flash": "short", "color_temp_kelvin": 3000, "rgb_color": [255, 0, 0]}
    assert translate("light", "turn_on", LAMP, {**extras, "brightness_pct": 30}, on) == [
        ("set_brightness", {"brightness": 30})
    ]
    assert translate("light", "turn_off", LAMP, {"transition": 3}, on) == [("turn_off", {})]
    assert translate("light", "toggle", LAMP, {"brightness_pct": 30}, off) == [
        ("turn_on", {}),
        ("set_brightness", {"brightness": 30}),
    ]
    assert translate("light", "toggle", LAMP, {"brightness_pct": 30}, on) == [("turn_off", {})]
    assert translate("light", "toggle", LAMP, {}, on) == [("toggle", {})]
    # brightness steps from the current brightness (off counts as 0), within 0-255
    assert translate("light", "turn_on", LAMP, {"brightness_step_pct": 10}, on) == [
        ("set_brightness", {"brightness": 50})
    ]
    assert translate("light", "turn_on", LAMP, {"brightness_step_pct": 20}, off) == [
        ("turn_on", {}),
        ("set_brightness", {"brightness": 20}),
    ]
    assert translate("light", "turn_on", LAMP, {"brightness_step": -255}, on) == [("turn_off", {})]
    assert translate("light", "turn_on", BULB, {"brightness_step_pct": 10}, off) == [("turn_on", {})]
    with pytest.raises(ServiceError, match="depends on the light's state"):
        schedule_command("light", "turn_on", LAMP, {"brightness_step_pct": 10})


def test_set_temperature_is_only_range_checked_as_in_ha() -> None:
    on = {"power": True}
    assert translate("climate", "set_temperature", AC, {"temperature": 22.3}, on) == [
        ("set_target_temperature", {"temperature": 22.5})
    ]
    assert translate("climate", "set_temperature", AC, {"temperature": "21.1"}, on) == [
        ("set_target_temperature", {"temperature": 21.0})
    ]


def test_a_schedule_runs_exactly_one_command() -> None:
    assert schedule_command("light", "turn_off", LAMP, {}) == ("turn_off", {})
    # as a native schedule: the command alone (it fails with POWER_OFF if the device is off then)
    assert schedule_command("light", "turn_on", LAMP, {"brightness_pct": 20}) == (
        "set_brightness",
        {"brightness": 20},
    )
    assert schedule_command("climate", "set_temperature", AC, {"temperature": 20}) == (
        "set_target_temperature",
        {"temperature": 20.0},
    )
    with pytest.raises(ServiceError, match="one device command"):
        schedule_command("climate", "set_temperature", AC, {"temperature": 20, "hvac_mode": "cool"})
    with pytest.raises(ServiceError, match="depends on the cover's state"):
        schedule_command("cover", "toggle", Entity("cover.c", "cover", "c", "curtain"), {})


def test_the_catalog_describes_every_service_with_its_fields() -> None:
    assert "evaluate" not in services_catalog()["devicesworld"]  # debugging only
    catalog = services_catalog(debug_evaluate=True)
    assert set(catalog) == set(SERVICES)
    temp = catalog["climate"]["set_temperature"]
    assert "temperature" in temp["fields"] and temp["target"] == {"entity": [{"domain": ["climate"]}]}
    assert catalog["devicesworld"]["evaluate"]["response"] == {"optional": False}
