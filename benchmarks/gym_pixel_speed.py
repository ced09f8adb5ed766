"""Cost of a pixel observation in the Gymnasium phone env: the PNG round trip against the direct render.

A pixel observation used to go through the public ``screenshots()`` — render the
phone at full resolution, encode a PNG, decode it, downscale. The env now takes the
rendered image straight from the phone (``AndroidDevice.screenshot_image``) and only
downscales. This plays random discrete actions and times, on the same screens, the
old path (``png_roundtrip``), the new one (``direct``) and a whole ``env.step`` in pixel
mode, as wall-clock time and (``*_cpu``) as this process's CPU time, which a busy
machine disturbs less.

    python benchmarks/gym_pixel_speed.py --steps 200
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import time

import numpy as np
from PIL import Image

from devicesworld.gym.env import PhoneTaskEnv


def pct(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="bmoca-alarm-simple")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--preset", default="train_00")
    args = parser.parse_args()
    env = PhoneTaskEnv(task_id=args.task, obs_mode="pixel", max_steps=10_000)
    env.reset(seed=0, options={"profile": args.preset})
    assert env._env is not None
    h, w = env.pixel_shape
    rng = np.random.default_rng(0)
    png_ms: list[float] = []
    direct_ms: list[float] = []
    step_ms: list[float] = []
    png_cpu: list[float] = []
    direct_cpu: list[float] = []
    for _ in range(args.steps):
        t0 = time.perf_counter()
        env.step(int(rng.integers(env.action_space.n)))  # type: ignore[attr-defined]
        step_ms.append((time.perf_counter() - t0) * 1e3)
        t0, c0 = time.perf_counter(), time.process_time()
        png = env._env.screenshots()[env.phone]
        Image.open(io.BytesIO(png)).convert("RGB").resize((w, h), Image.Resampling.BILINEAR)
        png_ms.append((time.perf_counter() - t0) * 1e3)
        png_cpu.append((time.process_time() - c0) * 1e3)
        t0, c0 = time.perf_counter(), time.process_time()
        env._pixels()
        direct_ms.append((time.perf_counter() - t0) * 1e3)
        direct_cpu.append((time.process_time() - c0) * 1e3)
    env.close()
    rows = {
        "png_roundtrip": png_ms,
        "direct": direct_ms,
        "env_step_pixel": step_ms,
        "png_roundtrip_cpu": png_cpu,
        "direct_cpu": direct_cpu,
    }
    for name, vals in rows.items():
        print(
            f"{name:16s} p50 {statistics.median(vals):7.2f} ms   p95 {pct(vals, 0.95):7.2f} ms   (n={len(vals)})"
        )
    summary = {
        k: {"p50": round(statistics.median(v), 2), "p95": round(pct(v, 0.95), 2)} for k, v in rows.items()
    }
    print(json.dumps({"schema_version": 1, "task": args.task, "preset": args.preset, **summary}))


if __name__ == "__main__":
    main()
