"""A home with all 11 device categories, served in a background thread for the HA client tests."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from devicesworld.serve.homeassistant.app import create_app, start_site
from devicesworld.serve.homeassistant.hub import HomeHub
from devicesworld.serve.host import SessionHost
from devicesworld.spec.models import Task
from tests.serve.serve_harness import free_ports

TOKEN = "test-token-123"
SH = "smarthome_0"

DEVICES: list[tuple[str, str, str, dict[str, Any]]] = [
    ("hall_light", "light", "hallway", {}),
    ("desk_lamp", "dimmable_light", "study", {"brightness": 80}),
    ("study_curtain", "curtain", "study", {"position": 0}),
    ("ac_study", "air_conditioner", "study", {"mode": "heat", "target_temperature": 26.0}),
    ("bath_heater", "heater", "bathroom", {"target_temperature": 20.0}),
    ("purifier", "air_purifier", "study", {"fan_speed": "low"}),
    ("nursery_humidifier", "humidifier", "nursery", {"target_humidity": 40}),
    ("cellar_dehumidifier", "dehumidifier", "cellar", {"target_humidity": 60}),
    ("washer", "washing_machine", "utility", {"power": True}),
    ("dryer", "dryer", "utility", {}),
    ("robovac", "robot_vacuum", "hallway", {}),
]


def _op(op: str, **args: Any) -> dict[str, Any]:
    return {"device": SH, "op": op, "args": args}


def _cond(cid: str, check: str, **args: Any) -> dict[str, Any]:
    return {"id": cid, "device": SH, "check": check, "args": args}


def all_categories_task() -> Task:
    """Every category once; the conditions hold only after the calls the client tests make."""
    rooms = ["hallway", "study", "bathroom", "nursery", "cellar", "utility"]
    setup = [
        _op(
            "configure_home",
            name="Test House",
            outdoor_temperature=12.0,
            outdoor_humidity=60.0,
            outdoor_pm25=20.0,
        )
    ]
    setup += [_op("add_room", name=r, temperature=21.0, humidity=50.0, pm25=15.0) for r in rooms]
    setup += [_op("add_device", device_id=d, category=c, room=r, name=d.replace("_", " ").title(), state=s)
              for d, c, r, s in DEVICES]  # fmt: skip
    conditions = [
        _cond("light", "device_power", device_id="hall_light", on=True),
        _cond("lamp", "device_attribute", device_id="desk_lamp", attribute="brightness", equals=50),
        _cond("curtain", "device_attribute", device_id="study_curtain", attribute="position", equals=40),
        _cond("ac", "device_attribute", device_id="ac_study", attribute="mode", equals="cool"),
        _cond("ac_t", "device_attribute", device_id="ac_study", attribute="target_temperature", equals=22),
        _cond("heater", "device_attribute", device_id="bath_heater", attribute="mode", equals="eco"),
        _cond("purifier", "device_attribute", device_id="purifier", attribute="fan_speed", equals="high"),
        _cond(
            "hum", "device_attribute", device_id="nursery_humidifier", attribute="target_humidity", equals=55
        ),
        _cond("dehum", "device_power", device_id="cellar_dehumidifier", on=True),
        _cond("washer", "appliance_phase", device_id="washer", operational_state="running"),
        _cond("washer_p", "device_attribute", device_id="washer", attribute="program", equals="quick"),
        _cond("dryer", "device_power", device_id="dryer", on=True),
        _cond("vacuum", "appliance_phase", device_id="robovac", operational_state="cleaning"),
        _cond("vacuum_mode", "device_attribute", device_id="robovac", attribute="clean_mode", equals="mop"),
    ]
    return Task.model_validate(
        {
            "id": "ha-all-categories",
            "instruction": "Exercise every device of the house.",
            "devices": [{"id": SH, "kind": "smarthome"}],
            "setup": setup,
            "evaluation": {"conditions": conditions},
            "solution": [{"action": "finish"}],
            "metadata": {"pattern": "device_state_control", "difficulty": "easy", "split": "test"},
        }
    )


class ServedHome:
    """The facade over ``task`` on a free loopback port, its event loop on a background thread."""

    def __init__(self, task: Task, run_dir: Path | None, *, debug_evaluate: bool = False) -> None:
        self.host = SessionHost(task, run_dir, agent="homeassistant")
        self.host.start()
        self.hub = HomeHub(self.host, SH, debug_evaluate=debug_evaluate)
        self.host.call(lambda _s: self.hub.start_now())
        self.port = free_ports(1)
        self.url = f"http://127.0.0.1:{self.port}/api"
        self.ws_url = f"ws://127.0.0.1:{self.port}/api/websocket"
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._runner = asyncio.run_coroutine_threadsafe(
            start_site(create_app(self.hub, TOKEN), self.port), self._loop
        ).result(timeout=60)

    def attribute(self, device_id: str, attribute: str) -> Any:
        """A device attribute read straight from the simulator (what the verifiers see)."""
        view = self.host.call(lambda s: s.getter_for(SH)("device", {"device_id": device_id}))
        return view["attributes"][attribute]

    def close(self) -> Any:
        """Stop serving and close the session (idempotent); the episode's result."""
        if not self._thread.is_alive():
            return self.host.close()
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(timeout=60)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=60)
        return self.host.close()
