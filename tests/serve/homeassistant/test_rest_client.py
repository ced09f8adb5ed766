"""The real ``homeassistant-api`` client against the facade: states, services on all 11 categories, auth."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from homeassistant_api import Client, State
from homeassistant_api.errors import UnauthorizedError

from devicesworld.spec.models import Task
from tests.serve.homeassistant.ha_home import SH, TOKEN, ServedHome, _cond, _op, all_categories_task


@pytest.fixture
def home(tmp_path: Path) -> Iterator[ServedHome]:
    served = ServedHome(all_categories_task(), tmp_path, debug_evaluate=True)  # the evaluate path too
    yield served
    served.close()


# (domain, service, data, commands it takes) - one or more calls per category
CALLS: list[tuple[str, str, dict[str, object], int]] = [
    ("light", "turn_on", {"entity_id": "light.hall_light"}, 1),
    ("light", "turn_on", {"entity_id": "light.desk_lamp", "brightness": 128}, 2),
    ("cover", "set_cover_position", {"entity_id": "cover.study_curtain", "position": 40}, 1),
    (
        "climate",
        "set_temperature",
        {"entity_id": "climate.ac_study", "hvac_mode": "cool", "temperature": 22},
        3,
    ),
    ("climate", "set_preset_mode", {"entity_id": "climate.bath_heater", "preset_mode": "eco"}, 2),
    ("fan", "set_percentage", {"entity_id": "fan.purifier", "percentage": 100}, 2),
    ("humidifier", "set_humidity", {"entity_id": "humidifier.nursery_humidifier", "humidity": 55}, 2),
    ("humidifier", "turn_on", {"entity_id": "humidifier.cellar_dehumidifier"}, 1),
    ("select", "select_option", {"entity_id": "select.washer_program", "option": "quick"}, 1),
    ("button", "press", {"entity_id": "button.washer_start"}, 1),
    ("switch", "turn_on", {"entity_id": "switch.dryer"}, 1),
    ("select", "select_option", {"entity_id": "select.robovac_clean_mode", "option": "mop"}, 1),
    ("vacuum", "start", {"entity_id": "vacuum.robovac"}, 1),
]


def test_states_config_and_services_read_with_the_real_client(home: ServedHome) -> None:
    with Client(home.url, TOKEN) as client:  # __enter__ checks GET /api/
        assert client.get_config()["location_name"] == "Test House"
        assert client.get_config()["unit_system"]["temperature"] == "°C"
        states = {s.entity_id: s for s in client.get_states()}
        domains = {e.split(".")[0] for e in states}
        assert {
            "light",
            "cover",
            "climate",
            "fan",
            "humidifier",
            "switch",
            "select",
            "button",
            "vacuum",
            "sensor",
        } <= domains
        assert (
            states["light.desk_lamp"].state == "off"
            and states["cover.study_curtain"].attributes["current_position"] == 0
        )
        ac = client.get_state(entity_id="climate.ac_study")
        assert ac.state == "off" and ac.attributes["temperature"] == 26.0 and ac.attributes["min_temp"] == 16
        assert client.get_state(entity_id="vacuum.robovac").state == "docked"
        assert (
            client.get_state(entity_id="sensor.study_temperature").attributes["unit_of_measurement"] == "°C"
        )
        entities = client.get_entities()
        assert "hall_light" in entities["light"].entities
        services = client.get_domains()
        assert {"light", "climate", "devicesworld"} <= set(services)
        assert "set_temperature" in services["climate"].services


def test_services_on_all_eleven_categories_run_as_steps_the_verifiers_see(
    home: ServedHome, tmp_path: Path
) -> None:
    with Client(home.url, TOKEN) as client:
        for domain, service, data, _ in CALLS:
            changed = client.trigger_service(domain, service, **data)
            assert changed, (domain, service)
            assert str(data["entity_id"]) in {s.entity_id for s in changed} or domain in ("button", "select")

        def get(entity_id: str) -> State:
            return client.get_state(entity_id=entity_id)

        assert get("light.hall_light").state == "on"
        lamp = get("light.desk_lamp")
        assert lamp.state == "on" and lamp.attributes["brightness"] == 128
        curtain = get("cover.study_curtain")
        assert curtain.state == "open" and curtain.attributes["current_position"] == 40
        ac = get("climate.ac_study")
        assert ac.state == "cool" and ac.attributes["temperature"] == 22
        heater = get("climate.bath_heater")
        assert heater.state == "heat" and heater.attributes["preset_mode"] == "eco"
        fan = get("fan.purifier")
        assert fan.state == "on" and fan.attributes["percentage"] == 100
        assert get("humidifier.nursery_humidifier").attributes["humidity"] == 55
        assert get("humidifier.cellar_dehumidifier").state == "on"
        assert get("sensor.washer_operational_state").state == "running"
        assert get("select.washer_program").state == "quick"
        assert get("switch.dryer").state == "on"
        assert get("vacuum.robovac").state == "cleaning" and get("select.robovac_clean_mode").state == "mop"
        _, verdict = client.trigger_service_with_response("devicesworld", "evaluate")
        assert verdict["success"] is True and verdict["score"] == 1.0
        assert home.attribute("desk_lamp", "brightness") == 50  # HA's 128/255 is our 50 %
        client.trigger_service("devicesworld", "finish")
    result = home.close()
    assert result.success and result.termination == "finished"
    records = [
        json.loads(line)
        for line in (tmp_path / "episodes" / result.task_id / "steps.jsonl").read_text().splitlines()
    ]
    assert len(records) == sum(n for *_, n in CALLS) + 1 == result.steps
    assert records[0]["action"]["args"] == {"device_id": "hall_light", "command": "turn_on", "params": {}}
    assert records[0]["agent_notes"] == {
        "via": "homeassistant",
        "service": "light.turn_on",
        "entity_id": "light.hall_light",
    }


def test_bad_calls_are_clear_http_errors_and_bad_tokens_are_refused(home: ServedHome) -> None:
    import niquests

    with pytest.raises(UnauthorizedError):
        Client(home.url, "wrong").get_states()
    assert niquests.get(f"{home.url}/states", timeout=30).status_code == 401
    headers = {"Authorization": f"Bearer {TOKEN}"}

    def post(path: str, body: object) -> tuple[int, str]:
        r = niquests.post(f"{home.url}/services/{path}", data=json.dumps(body), headers=headers, timeout=30)
        body = r.json()
        return int(r.status_code or 0), str(body["message"] if isinstance(body, dict) else body)

    assert post("light/explode", {"entity_id": "light.hall_light"}) == (
        404,
        "Service light.explode not found.",
    )
    status, message = post("light/turn_on", {"entity_id": "light.nope"})
    assert status == 400 and "light.nope" in message
    status, message = post(
        "light/turn_on", {"entity_id": "light.hall_light", "brightness": 100, "brightness_pct": 5}
    )
    assert status == 400 and "exclusion" in message
    status, message = post("climate/set_temperature", {"entity_id": "climate.ac_study", "temperature": 40})
    assert status == 400 and "Accepted range is 16 to 30" in message  # checked before anything runs
    status, message = post("cover/set_cover_position", {"entity_id": "cover.study_curtain", "speed": 3})
    assert status == 400 and "extra keys not allowed" in message
    status, message = post("devicesworld/evaluate", {})
    assert status == 400 and "requires responses" in message
    r = niquests.post(f"{home.url}/services/light/turn_on", data="{nope", headers=headers, timeout=30)
    assert r.status_code == 400 and r.json()["message"] == "Data should be valid JSON."
    deep = "[" * 100_000 + "]" * 100_000
    for body in (deep, '{"entity_id": ' + deep + "}", '{"a": ' * 100 + "1" + "}" * 100):
        r = niquests.post(f"{home.url}/services/light/turn_on", data=body, headers=headers, timeout=30)
        assert r.status_code == 400 and r.json()["message"] == "Data should be valid JSON."
    r = niquests.get(f"{home.url}/states/light.nope", headers=headers, timeout=30)
    assert r.status_code == 404 and r.json()["message"] == "Entity not found."
    assert r.text is not None and "Traceback" not in r.text
    assert home.host.call(lambda s: s.steps) == 0  # refused before any step, as HA's schemas refuse
    status, message = post("select/select_option", {"entity_id": "select.washer_program", "option": "cotton"})
    assert status == 200
    status, message = post("button/press", {"entity_id": "button.washer_resume"})
    assert status == 400 and "INVALID_IN_STATE" in message  # refused by the simulator: a counted step
    assert home.host.call(lambda s: s.steps) == 2


def test_without_the_debug_flag_there_is_no_evaluate_service(tmp_path: Path) -> None:
    import niquests

    served = ServedHome(all_categories_task(), tmp_path)
    try:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        r = niquests.post(
            f"{served.url}/services/devicesworld/evaluate?return_response",
            data="{}",
            headers=headers,
            timeout=30,
        )
        assert r.status_code == 404 and "not found" in str(r.json()["message"])
        with Client(served.url, TOKEN) as client:
            domains = {d.domain_id: d for d in client.get_domains().values()}
            assert "evaluate" not in domains["devicesworld"].services
            assert "finish" in domains["devicesworld"].services
    finally:
        served.close()
    run = json.loads((tmp_path / "run.json").read_text())
    assert run.get("comparable", True) is not False


def test_the_debug_evaluate_service_names_conditions_and_never_their_expected_values(
    home: ServedHome, tmp_path: Path
) -> None:
    with Client(home.url, TOKEN) as client:
        client.trigger_service("light", "turn_on", entity_id="light.hall_light")
        _, verdict = client.trigger_service_with_response("devicesworld", "evaluate")
    assert verdict["success"] is False and verdict["failed"] and "conditions" not in verdict
    text = json.dumps(verdict)
    assert "expected" not in text and "detail" not in text and "cool" not in text  # no expected value
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["comparable"] is False and "homeassistant --debug-evaluate" in run["not_comparable_reason"]


def _living_room_task() -> Task:
    """A room with a dimmable lamp and an on/off ceiling light (it has no brightness)."""
    setup = [
        _op("add_room", name="living", temperature=21.0, humidity=50.0, pm25=15.0),
        _op("add_device", device_id="lamp", category="dimmable_light", room="living", name="Lamp", state={}),
        _op("add_device", device_id="ceiling", category="light", room="living", name="Ceiling", state={}),
    ]
    conditions = [
        _cond("lamp", "device_attribute", device_id="lamp", attribute="brightness", equals=60),
        _cond("ceiling", "device_power", device_id="ceiling", on=True),
    ]
    return Task.model_validate(
        {
            "id": "ha-living-room",
            "instruction": "Turn on the living room lights at 60 %.",
            "devices": [{"id": SH, "kind": "smarthome"}],
            "setup": setup,
            "evaluation": {"conditions": conditions},
            "solution": [{"action": "finish"}],
            "metadata": {"pattern": "device_state_control", "difficulty": "easy", "split": "test"},
        }
    )


def test_an_area_call_with_brightness_turns_on_a_light_that_has_none(tmp_path: Path) -> None:
    served = ServedHome(_living_room_task(), tmp_path)
    try:
        with Client(served.url, TOKEN) as client:
            client.trigger_service("light", "turn_on", area_id="living", brightness_pct=60, transition=2)
            assert client.get_state(entity_id="light.ceiling").state == "on"
            lamp = client.get_state(entity_id="light.lamp")
            assert lamp.state == "on" and lamp.attributes["brightness"] == 153
            client.trigger_service("light", "turn_on", entity_id="light.lamp", brightness_step_pct=-10)
        assert served.attribute("lamp", "brightness") == 50
        assert served.host.call(lambda s: s.evaluate()).success is False  # 50, not 60 any more
    finally:
        served.close()


def test_a_button_state_is_the_time_of_its_last_press(home: ServedHome) -> None:
    with Client(home.url, TOKEN) as client:
        assert client.get_state(entity_id="button.washer_start").state == "unknown"
        client.trigger_service("select", "select_option", entity_id="select.washer_program", option="quick")
        client.trigger_service("button", "press", entity_id="button.washer_start")
        pressed = client.get_state(entity_id="button.washer_start").state
        clock = client.get_state(entity_id="sensor.devicesworld_time").state
    assert pressed == clock and datetime.fromisoformat(pressed).tzinfo is not None
