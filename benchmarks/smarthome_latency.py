"""SmartHome latency benchmark: step latency, home setup time, and a 24-hour time jump.

Targets (checked here, not in timed tests): step p50 < 0.2 ms, 10-device home setup
< 5 ms, advancing 24 simulated hours with every device running < 5 ms. Steps go
through ``parse_args`` exactly as the environment does, so validation is included.
"""

from __future__ import annotations

import statistics
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from devicesworld.devices.base import Device, DeviceContext, VirtualClock
from devicesworld.devices.smarthome import KIND
from devicesworld.env import CrossDeviceEnv
from devicesworld.spec import Condition, DeviceOp, DeviceSpec, Evaluation, Limits, Task

SETUP: list[tuple[str, dict[str, Any]]] = [
    (
        "configure_home",
        {"name": "Bench", "outdoor_temperature": 30, "outdoor_humidity": 70, "outdoor_pm25": 60},
    ),
    ("add_room", {"name": "living_room", "temperature": 27, "humidity": 60, "pm25": 50}),
    ("add_room", {"name": "bedroom", "temperature": 26, "humidity": 55, "pm25": 40}),
    ("add_room", {"name": "utility", "temperature": 20, "humidity": 65, "pm25": 20}),
    ("add_device", {"device_id": "lamp", "category": "light", "room": "living_room"}),
    ("add_device", {"device_id": "dimmer", "category": "dimmable_light", "room": "living_room"}),
    ("add_device", {"device_id": "curtain", "category": "curtain", "room": "living_room"}),
    ("add_device", {"device_id": "ac", "category": "air_conditioner", "room": "bedroom"}),
    ("add_device", {"device_id": "heater", "category": "heater", "room": "living_room"}),
    ("add_device", {"device_id": "purifier", "category": "air_purifier", "room": "living_room"}),
    ("add_device", {"device_id": "humidifier", "category": "humidifier", "room": "bedroom"}),
    ("add_device", {"device_id": "washer", "category": "washing_machine", "room": "utility"}),
    ("add_device", {"device_id": "dryer", "category": "dryer", "room": "utility"}),
    ("add_device", {"device_id": "vacuum", "category": "robot_vacuum", "room": "living_room"}),
]

STEPS: list[tuple[str, dict[str, Any]]] = [
    ("list_devices", {}),
    ("get_device_state", {"device_id": "ac"}),
    ("get_room_status", {"room": "bedroom"}),
    ("control_device", {"device_id": "ac", "command": "turn_on", "params": {}}),
    (
        "control_device",
        {"device_id": "ac", "command": "set_target_temperature", "params": {"temperature": 22}},
    ),
    ("set_device_attribute", {"device_id": "curtain", "attribute": "position", "value": 40}),
    ("control_device", {"device_id": "dimmer", "command": "toggle", "params": {}}),
    ("get_capabilities", {"device_id": "washer"}),
    ("list_schedules", {}),
    ("advance_time", {"minutes": 1}),
]


def new_device() -> tuple[Device, VirtualClock]:
    clock = VirtualClock(datetime(2026, 3, 2, 9, 0))
    return KIND.factory("smarthome_0", {}, DeviceContext("bench", clock, Path("."))), clock


def build(device: Device) -> None:
    for op, args in SETUP:
        device.setup(op, KIND.setup_ops[op].parse_args(args))


def act(device: Device, action: str, args: dict[str, Any]) -> None:
    result = device.act(action, KIND.actions[action].parse_args(args))
    if not result.ok:
        raise RuntimeError(result.message)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_steps(n: int = 20_000) -> list[float]:
    device, _ = new_device()
    build(device)
    out: list[float] = []
    for i in range(n):
        action, args = STEPS[i % len(STEPS)]
        t0 = time.perf_counter()
        act(device, action, args)
        out.append(time.perf_counter() - t0)
    return out


def bench_setup(n: int = 300) -> list[float]:
    out: list[float] = []
    for _ in range(n):
        t0 = time.perf_counter()
        device, _ = new_device()
        build(device)
        out.append(time.perf_counter() - t0)
        device.close()
    return out


def bench_day(n: int = 100) -> list[float]:
    out: list[float] = []
    for _ in range(n):
        device, _ = new_device()
        build(device)
        for dev in ("ac", "heater", "purifier", "humidifier", "washer", "dryer", "lamp", "dimmer"):
            act(device, "control_device", {"device_id": dev, "command": "turn_on", "params": {}})
        act(
            device,
            "control_device",
            {"device_id": "heater", "command": "set_target_temperature", "params": {"temperature": 28}},
        )
        for dev in ("washer", "dryer", "vacuum"):
            act(device, "control_device", {"device_id": dev, "command": "start", "params": {}})
        act(
            device,
            "create_schedule",
            {
                "device_id": "dryer",
                "command": "start",
                "after_event": {"device_id": "washer", "event": "completed"},
            },
        )
        act(device, "create_schedule", {"device_id": "vacuum", "command": "start", "at": "20:00"})
        args = KIND.actions["advance_time"].parse_args({"minutes": 24 * 60})
        t0 = time.perf_counter()
        result = device.act("advance_time", args)
        out.append(time.perf_counter() - t0)
        assert result.ok
        device.close()
    return out


def bench_env(n_steps: int = 9_000, n_resets: int = 300) -> tuple[list[float], list[float]]:
    """The same home and steps through ``CrossDeviceEnv``: step-shape checks, routing, cleanup."""
    task = Task(
        id="bench",
        instruction="benchmark",
        devices=[DeviceSpec(id="smarthome_0", kind="smarthome")],
        setup=[DeviceOp(device="smarthome_0", op=op, args=args) for op, args in SETUP],
        evaluation=Evaluation(
            conditions=[Condition(id="c", device="env", check="finished")],
        ),
        limits=Limits(max_steps=n_steps + 1, max_seconds=None),
    )
    resets: list[float] = []
    env = CrossDeviceEnv(task)
    for _ in range(n_resets):
        t0 = time.perf_counter()
        env.reset()
        resets.append(time.perf_counter() - t0)
    steps: list[float] = []
    for i in range(n_steps):
        action, args = STEPS[i % len(STEPS)]
        raw = {"device": "smarthome_0", "action": action, "args": args}
        t0 = time.perf_counter()
        outcome = env.step(raw)
        steps.append(time.perf_counter() - t0)
        if not outcome.result.ok:
            raise RuntimeError(outcome.result.message)
    env.close()
    return steps, resets


def main() -> None:
    ms = 1000.0
    steps = bench_steps()
    setup = bench_setup()
    day = bench_day()
    env_steps, env_resets = bench_env()
    print(
        f"step latency      p50 {statistics.median(steps) * ms:.4f} ms   p95 {pct(steps, 0.95) * ms:.4f} ms"
        f"   (n={len(steps)}, query/control mix incl. parse_args; target p50 < 0.2 ms)"
    )
    print(
        f"10-device setup   p50 {statistics.median(setup) * ms:.3f} ms   p95 {pct(setup, 0.95) * ms:.3f} ms"
        f"   (n={len(setup)}; target < 5 ms)"
    )
    print(
        f"advance 24 h      p50 {statistics.median(day) * ms:.3f} ms   p95 {pct(day, 0.95) * ms:.3f} ms"
        f"   (all devices running; target < 5 ms)"
    )
    print(
        f"env.step          p50 {statistics.median(env_steps) * ms:.4f} ms   p95 {pct(env_steps, 0.95) * ms:.4f} ms"
        f"   (same mix through CrossDeviceEnv, raw dict steps)"
    )
    print(
        f"env.reset         p50 {statistics.median(env_resets) * ms:.3f} ms   p95 {pct(env_resets, 0.95) * ms:.3f} ms"
        f"   (10-device home: close previous, create, setup)"
    )


if __name__ == "__main__":
    main()
