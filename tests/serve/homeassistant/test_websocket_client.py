"""The real ``hass-client`` over the facade's WebSocket API: auth, states, services, state_changed events."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from hass_client import HomeAssistantClient
from hass_client.exceptions import AuthenticationFailed, FailedCommand

from tests.serve.homeassistant.ha_home import TOKEN, ServedHome, all_categories_task


@pytest.fixture
def home(tmp_path: Path) -> Iterator[ServedHome]:
    served = ServedHome(all_categories_task(), tmp_path, debug_evaluate=True)  # the evaluate path too
    yield served
    served.close()


async def _until(predicate: Any, timeout: float = 30.0) -> None:
    """Wait (generously, never a fixed sleep) until ``predicate()`` holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting for events")
        await asyncio.sleep(0.01)


def test_hass_client_reads_states_calls_services_and_sees_state_changes(home: ServedHome) -> None:
    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            client = HomeAssistantClient(home.ws_url, TOKEN, http)
            await client.connect()
            listener = asyncio.create_task(client.start_listening())
            events: list[dict[str, Any]] = []
            await client.subscribe_events(events.append, "state_changed")
            states = {s["entity_id"]: s for s in await client.get_states()}
            assert states["light.hall_light"]["state"] == "off"
            assert (await client.get_config())["version"] == client.version
            assert "set_hvac_mode" in (await client.get_services())["climate"]
            result = await client.call_service(
                "light", "turn_on", {"brightness_pct": 25}, {"entity_id": "light.desk_lamp"}
            )
            assert "context" in result
            await _until(lambda: any(e["data"]["entity_id"] == "light.desk_lamp" for e in events))
            lamp = next(e for e in events if e["data"]["entity_id"] == "light.desk_lamp")
            assert lamp["event_type"] == "state_changed"
            assert lamp["data"]["old_state"]["state"] == "off" and lamp["data"]["new_state"]["state"] == "on"
            assert lamp["data"]["new_state"]["attributes"]["brightness"] == 64  # 25 % of 255
            assert lamp["context"]["id"] == result["context"]["id"]
            assert home.attribute("desk_lamp", "brightness") == 25

            await client.call_service(
                "climate", "set_hvac_mode", {"hvac_mode": "cool"}, {"entity_id": "climate.ac_study"}
            )
            await _until(lambda: any(e["data"]["entity_id"] == "climate.ac_study" for e in events))
            with pytest.raises(FailedCommand):
                await client.call_service("vacuum", "pause", target={"entity_id": "vacuum.robovac"})
            await client.disconnect()
            await listener

    asyncio.run(main())


def test_schedules_and_virtual_time_through_custom_services(home: ServedHome) -> None:
    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            client = HomeAssistantClient(home.ws_url, TOKEN, http)
            await client.connect()
            listener = asyncio.create_task(client.start_listening())
            events: list[dict[str, Any]] = []
            await client.subscribe_events(events.append)  # every event type
            await client.call_service("light", "turn_on", target={"entity_id": "light.hall_light"})
            made = await client.send_command(
                "call_service",
                domain="devicesworld",
                service="schedule",
                service_data={
                    "entity_id": "light.hall_light",
                    "service": "light.turn_off",
                    "delay_minutes": 30,
                },
                return_response=True,
            )
            assert made["response"]["schedule_id"] == "sched_1"
            await _until(
                lambda: any(e["data"]["entity_id"] == "sensor.devicesworld_schedules" for e in events)
            )
            events.clear()
            advanced = await client.send_command(
                "call_service", domain="devicesworld", service="advance_time",
                service_data={"minutes": 45}, return_response=True,
            )  # fmt: skip
            assert [c["command"] for c in advanced["response"]["scheduled_commands_run"]] == ["turn_off"]
            await _until(
                lambda: (
                    {"light.hall_light", "sensor.devicesworld_time"}
                    <= {e["data"]["entity_id"] for e in events}
                )
            )
            changed = {e["data"]["entity_id"]: e["data"]["new_state"] for e in events}
            assert changed["light.hall_light"]["state"] == "off"
            assert changed["sensor.devicesworld_time"]["state"].startswith("2026-03-02T09:45:00")
            assert changed["light.hall_light"]["last_changed"] == changed["sensor.devicesworld_time"]["state"]
            with pytest.raises(FailedCommand, match="one device command"):
                await client.call_service(
                    "devicesworld", "schedule",
                    {"entity_id": "climate.ac_study", "service": "climate.set_temperature",
                     "data": {"temperature": 21, "hvac_mode": "cool"}, "at": "18:00"},
                )  # fmt: skip
            await client.disconnect()
            await listener

    asyncio.run(main())
    result = home.close()
    assert result.steps == 3  # turn_on, create_schedule, advance_time; the refused schedule ran nothing


def test_bad_tokens_are_refused_and_the_protocol_answers_every_id(home: ServedHome) -> None:
    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            with pytest.raises(AuthenticationFailed):
                await HomeAssistantClient(home.ws_url, "wrong", http).connect()
            async with http.ws_connect(home.ws_url) as ws:
                assert (await ws.receive_json())["type"] == "auth_required"
                await ws.send_json({"type": "auth", "access_token": TOKEN})
                assert (await ws.receive_json())["type"] == "auth_ok"
                await ws.send_json({"id": 5, "type": "ping"})
                assert await ws.receive_json() == {"id": 5, "type": "pong"}
                await ws.send_json({"id": 5, "type": "get_states"})
                reuse = await ws.receive_json()
                assert reuse["id"] == 5 and reuse["success"] is False and reuse["error"]["code"] == "id_reuse"
                await ws.send_json({"id": 6, "type": "fly"})
                unknown = await ws.receive_json()
                assert unknown["id"] == 6 and unknown["error"]["code"] == "unknown_command"
                await ws.send_str("{not json")
                assert (await ws.receive_json())["error"]["code"] == "invalid_format"
                await ws.send_str('{"id": 9, "type": "ping", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
                assert (await ws.receive_json())["error"]["code"] == "invalid_format"
                await ws.send_json({"id": 7, "type": "call_service", "domain": "light", "service": "turn_on",
                                    "target": {"entity_id": "light.nope"}})  # fmt: skip
                missing = await ws.receive_json()
                assert missing["id"] == 7 and missing["error"]["code"] == "service_validation_error"
                await ws.send_json({"id": 8, "type": "unsubscribe_events", "subscription": 99})
                assert (await ws.receive_json())["error"]["code"] == "not_found"

    asyncio.run(main())


def test_subscribe_entities_sends_compressed_states_then_diffs(home: ServedHome) -> None:
    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            client = HomeAssistantClient(home.ws_url, TOKEN, http)
            await client.connect()
            listener = asyncio.create_task(client.start_listening())
            updates: list[dict[str, Any]] = []
            await client.subscribe_entities(updates.append, ["cover.study_curtain"])
            await _until(lambda: len(updates) >= 1)
            first = updates[0]["a"]
            assert set(first) == {"cover.study_curtain"}
            assert first["cover.study_curtain"]["s"] == "closed" and "lc" in first["cover.study_curtain"]
            await client.call_service(
                "light", "turn_on", target={"entity_id": "light.hall_light"}
            )  # not watched
            await client.call_service(
                "cover", "set_cover_position", {"position": 30}, {"entity_id": "cover.study_curtain"}
            )
            await _until(lambda: len(updates) >= 2)
            plus = updates[1]["c"]["cover.study_curtain"]["+"]
            assert plus["s"] == "open" and plus["a"] == {"current_position": 30}
            assert len(updates) == 2
            await client.disconnect()
            await listener

    asyncio.run(main())


def test_after_finish_states_stay_readable_and_actions_are_refused(home: ServedHome) -> None:
    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            client = HomeAssistantClient(home.ws_url, TOKEN, http)
            await client.connect()
            listener = asyncio.create_task(client.start_listening())
            await client.call_service("light", "turn_on", target={"entity_id": "light.hall_light"})
            await client.call_service("devicesworld", "finish")
            states = {s["entity_id"]: s["state"] for s in await client.get_states()}
            assert states["light.hall_light"] == "on"
            with pytest.raises(FailedCommand, match="episode has ended"):
                await client.call_service("light", "turn_off", target={"entity_id": "light.hall_light"})
            verdict = await client.send_command(
                "call_service", domain="devicesworld", service="evaluate", return_response=True
            )
            assert verdict["response"]["episode_over"] is True and verdict["response"]["steps"] == 2
            await client.disconnect()
            await listener

    asyncio.run(main())
    assert home.host.result is not None and home.host.result.termination == "finished"


def test_homeassistant_api_websocket_client(home: ServedHome) -> None:
    from homeassistant_api import WebsocketClient
    from homeassistant_api.models.websocket import FiredEvent

    with WebsocketClient(home.ws_url, TOKEN) as ws:  # auth, then supported_features
        states = {s.entity_id: s for s in ws.get_states()}
        assert states["vacuum.robovac"].state == "docked"
        assert "climate" in ws.get_domains()
        with ws.listen_events("state_changed") as events:
            ws.trigger_service("vacuum", "start", entity_id="vacuum.robovac")
            first = next(events)
        assert isinstance(first, FiredEvent)
        assert first.event_type == "state_changed" and first.data["entity_id"] == "vacuum.robovac"
        assert first.data["new_state"]["state"] == "cleaning"
        verdict = ws.trigger_service_with_response("devicesworld", "evaluate")
        assert verdict["success"] is False and verdict["steps"] == 1
        assert ws.ping_latency() >= 0


def test_rooms_are_areas_and_area_targets_reach_their_devices(home: ServedHome) -> None:
    async def main() -> None:
        async with aiohttp.ClientSession() as http:
            client = HomeAssistantClient(home.ws_url, TOKEN, http)
            await client.connect()
            listener = asyncio.create_task(client.start_listening())
            areas = {a["area_id"] for a in await client.get_area_registry()}
            assert areas == {"hallway", "study", "bathroom", "nursery", "cellar", "utility"}
            devices = {d["id"]: d for d in await client.get_device_registry()}
            assert (
                devices["ac_study"]["area_id"] == "study"
                and devices["ac_study"]["model"] == "air_conditioner"
            )
            entities = {e["entity_id"]: e for e in await client.get_entity_registry()}
            assert entities["climate.ac_study"]["device_id"] == "ac_study"
            assert entities["sensor.study_temperature"]["area_id"] == "study"
            assert (await client.get_entity_registry_entry("switch.dryer"))["device_id"] == "dryer"
            # every light of the hallway, and nothing else
            await client.call_service("light", "turn_on", target={"area_id": "hallway"})
            states = {s["entity_id"]: s["state"] for s in await client.get_states()}
            assert states["light.hall_light"] == "on" and states["light.desk_lamp"] == "off"
            await client.call_service("homeassistant", "turn_on", target={"device_id": "ac_study"})
            assert home.attribute("ac_study", "power") is True
            with pytest.raises(FailedCommand, match="no area 'attic'"):
                await client.call_service("light", "turn_on", target={"area_id": "attic"})
            await client.disconnect()
            await listener

    asyncio.run(main())
    assert home.host.call(lambda s: s.steps) == 2
