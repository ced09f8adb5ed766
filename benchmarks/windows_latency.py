"""Windows (Wine) latency benchmark: prefix copy, device start, reset, screenshot, element tree, actions.

Run: ``python benchmarks/windows_latency.py [--runs N] [--json]``. Needs wine, mingw, bwrap
and the GUI stack (Xvfb, openbox). Each figure is the median (and max) of N runs, wall
time, with the machine's 1-minute load average printed next to them: on a shared
2-core machine the wall times move with the load. "reset" is what the runner does
between episodes: close the device and create a fresh one (new prefix copy, new desktop),
without the desktop pool; "reset_pooled" is the same with a spare from the pool
(``devices/windows/pool.py``) that was ready, as after an episode of a few seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from devicesworld.devices.base import DeviceContext, VirtualClock, get_kind
from devicesworld.devices.desktop.pool import ENV_SIZE
from devicesworld.devices.safefs import sandbox_host_ids
from devicesworld.devices.windows import pool, prefix
from devicesworld.devices.windows.device import WindowsDevice

DOC = r"C:\Users\user\Documents\notes.txt"


def timed(fn: Callable[[], Any]) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


def summary(samples: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(samples), 1),
        "max_ms": round(max(samples), 1),
        "n": len(samples),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args()
    kind = get_kind("windows")
    assert kind is not None
    root = Path(
        tempfile.mkdtemp(prefix="dw-winbench-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None)
    )
    root.chmod(0o711)
    out: dict[str, Any] = {"load_avg_1m": os.getloadavg()[0]}
    t = time.perf_counter()
    tpl = prefix.template()
    out["template"] = {
        "ms": round((time.perf_counter() - t) * 1000, 1),
        "built_now_s": round(tpl.seconds, 1),
        "bytes": prefix.tree_bytes(tpl.prefix),
    }
    copies = []
    for i in range(opts.runs):
        dest = root / f"copy{i}" / "home"
        copies.append(timed(lambda d=dest: prefix.install(tpl, d, sandbox_host_ids())))  # type: ignore[misc]
        shutil.rmtree(dest.parent)
    out["prefix_copy"] = summary(copies)

    n = 0

    def new_device() -> WindowsDevice:
        nonlocal n
        n += 1
        ctx = DeviceContext(
            task_id="bench",
            clock=VirtualClock(datetime(2026, 3, 2, 9)),
            workdir=root / f"dev{n}" / "windows_0",
        )
        return WindowsDevice("windows_0", {}, ctx)

    def act(dev: WindowsDevice, action: str, **args: Any) -> None:
        result = dev.act(action, kind.actions[action].parse_args(args))
        if not result.ok:
            raise RuntimeError(f"{action} failed: {result.message}")

    starts, resets = [], []
    dev = None
    before = os.environ.get(ENV_SIZE)
    os.environ[ENV_SIZE] = "0"  # cold starts first; the pooled reset is measured below
    for i in range(opts.runs):
        t0 = time.perf_counter()
        dev = new_device()
        starts.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        dev.close()
        dev = new_device()
        resets.append((time.perf_counter() - t0) * 1000)
        if i != opts.runs - 1:
            dev.close()
    out["device_start"] = summary(starts)
    out["reset_close_and_new"] = summary(resets)
    key = pool.spare_key("windows-0", 1280, 800)
    if key is not None:
        # with the pool: the spare is started while "the episode" runs (here: waited for)
        os.environ[ENV_SIZE] = "1"
        assert dev is not None
        dev.close()
        dev = new_device()  # the first device of the pool starts it
        pooled = []
        for _ in range(opts.runs):
            pool.POOL.wait_ready(key, 300)
            t0 = time.perf_counter()
            dev.close()
            dev = new_device()
            pooled.append((time.perf_counter() - t0) * 1000)
        out["reset_pooled"] = summary(pooled)
        pool.POOL.close_all()
    if before is None:
        os.environ.pop(ENV_SIZE, None)
    else:
        os.environ[ENV_SIZE] = before
    assert dev is not None
    try:
        dev.setup(
            "write_text", kind.setup_ops["write_text"].parse_args({"path": DOC, "content": "one\ntwo\n"})
        )
        launches: dict[str, list[float]] = {}
        for app in ("notepad", "wordpad", "explorer", "cmd"):
            launches[app] = [timed(lambda a=app: act(dev, "launch_app", app=a))]  # type: ignore[misc]
        out["launch_first"] = {k: round(v[0], 1) for k, v in launches.items()}
        out["screenshot"] = summary([timed(dev.screenshot) for _ in range(opts.runs)])
        trees: list[float] = []
        for _ in range(opts.runs):
            trees.append(timed(dev.observe))
        out["observe_tree"] = summary(trees) | {"elements": len(dev.observe()["elements"])}
        act(dev, "launch_app", app="notepad", path=DOC)
        out["click_element"] = summary(
            [
                timed(lambda: act(dev, "click", element={"role": "Edit", "app": "notepad"}))
                for _ in range(opts.runs)
            ]
        )
        out["type_10_chars"] = summary(
            [timed(lambda: act(dev, "type_text", text="abcdefghij")) for _ in range(opts.runs)]
        )
        out["hotkey"] = summary(
            [timed(lambda: act(dev, "hotkey", keys=["ctrl", "end"])) for _ in range(opts.runs)]
        )
        out["run_command"] = summary(
            [timed(lambda: act(dev, "run_command", command="dir Documents")) for _ in range(opts.runs)]
        )
    finally:
        dev.close()
        shutil.rmtree(root, ignore_errors=True)
    if opts.json:
        print(json.dumps(out, indent=2))
        return
    for key, value in out.items():
        print(f"{key:22s} {value}")


if __name__ == "__main__":
    main()
