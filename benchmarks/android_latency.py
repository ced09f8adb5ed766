"""Android latency benchmark: step latency (UI tree only), screenshot time, and setup of a full phone.

Targets (checked here, not in timed tests): step p50 < 2 ms with the element list
and the text screen built, screenshot (render + PNG) < 30 ms, setting up a phone
with 200 messages, 100 contacts and 100 events < 30 ms (device creation included).
Steps go through ``parse_args`` exactly as the environment does.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from devicesworld.devices.android import KIND
from devicesworld.devices.android.device import AndroidDevice
from devicesworld.devices.android.render import render
from devicesworld.devices.base import DeviceContext, VirtualClock

START = datetime(2026, 3, 2, 9, 0)


def full_setup() -> list[tuple[str, dict[str, Any]]]:
    ops: list[tuple[str, dict[str, Any]]] = []
    for i in range(100):
        ops.append(
            ("add_contact", {"name": f"Person {i:03d}", "phone": f"+1555{i:07d}", "email": f"p{i}@x.org"})
        )
    for i in range(200):
        ops.append(("add_sms", {"address": f"+1555{i % 40:07d}", "body": f"message number {i}",
                                "sent": i % 3 == 0, "minutes_ago": 200 - i}))  # fmt: skip
    for i in range(100):
        start = START + timedelta(days=i % 30, hours=i % 9)
        ops.append(("add_event", {"title": f"Event {i}", "start": start.isoformat(), "duration_minutes": 45}))
    return ops


def make_device(root: Path, n: int, profile: dict[str, Any] | None = None) -> AndroidDevice:
    ctx = DeviceContext(task_id="bench", clock=VirtualClock(START), workdir=root / f"a{n}")
    ctx.workdir.mkdir(parents=True)
    device = KIND.factory("android_0", profile or {}, ctx)
    assert isinstance(device, AndroidDevice)
    return device


def run_ops(device: AndroidDevice, ops: list[tuple[str, dict[str, Any]]]) -> None:
    for name, args in ops:
        device.setup(name, KIND.setup_ops[name].parse_args(args))


def bench_setup(root: Path, repeats: int = 15) -> list[float]:
    ops = full_setup()
    times = []
    for r in range(repeats):
        t0 = time.perf_counter()
        device = make_device(root, 1000 + r)
        run_ops(device, ops)
        device.observe()
        times.append((time.perf_counter() - t0) * 1000)
        device.close()
    return times


def step(device: AndroidDevice, action: str, **args: Any) -> None:
    result = device.act(action, KIND.actions[action].parse_args(args))
    assert result.ok, result.message
    device.observe()


def find(device: AndroidDevice, rid: str) -> int:
    elements = device.observe()["ui_elements"]
    return next(i for i, e in enumerate(elements) if (e["resource_id"] or "").endswith("/" + rid))


def bench_steps(device: AndroidDevice, rounds: int = 60) -> list[float]:
    times: list[float] = []

    def timed(action: str, **args: Any) -> None:
        t0 = time.perf_counter()
        step(device, action, **args)
        times.append((time.perf_counter() - t0) * 1000)

    for _ in range(rounds):
        timed("open_app", app_name="Messages")
        timed("click", index=find(device, "conversation"))
        timed("input_text", index=find(device, "thread_type_message"), text="hello")
        timed("navigate_back")
        timed("navigate_back")
        timed("scroll", direction="down")
        timed("open_app", app_name="Contacts")
        timed("scroll", direction="down")
        timed("navigate_home")
    return times


def bench_screenshots(device: AndroidDevice, rounds: int = 20) -> tuple[list[float], list[float]]:
    total, draw = [], []
    step(device, "open_app", app_name="Messages")
    step(device, "click", index=find(device, "conversation"))
    step(device, "input_text", index=find(device, "thread_type_message"), text="hello")
    for _ in range(rounds):
        t0 = time.perf_counter()
        render(device.phone)
        t1 = time.perf_counter()
        device.screenshot()
        t2 = time.perf_counter()
        draw.append((t1 - t0) * 1000)
        total.append((t2 - t1) * 1000)
    return total, draw


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        setup_ms = bench_setup(root)
        device = make_device(root, 0)
        run_ops(device, full_setup())
        steps = bench_steps(device)
        shots, draws = bench_screenshots(device)
        device.close()
    print("android latency (ms)")
    print(f"  step, UI tree + text screen:  p50 {statistics.median(steps):6.3f}  p95 {pct(steps, 0.95):6.3f}"
          f"  min {min(steps):6.3f}  (n={len(steps)}, target p50 < 2)")  # fmt: skip
    print(f"  screenshot, render + PNG:     p50 {statistics.median(shots):6.2f}  p95 {pct(shots, 0.95):6.2f}"
          f"  min {min(shots):6.2f}  (draw only p50 {statistics.median(draws):.2f}; Pixel 3 1080x2160; target < 30)")  # fmt: skip
    print(f"  setup 200 sms/100 contacts/100 events: p50 {statistics.median(setup_ms):6.2f}"
          f"  min {min(setup_ms):6.2f}  (device creation included; target < 30)")  # fmt: skip


if __name__ == "__main__":
    main()
