"""Linux device latency: sandbox start, per-command overhead over bare bwrap, file actions, browser steps.

Figures printed (median of N runs):

* ``device start`` — creating a Linux device (folders, shared drive, no process yet);
* ``env reset`` — a whole one-desktop task reset with three files written by setup;
* ``bare bwrap true`` — ``bwrap`` with the same mounts running ``/bin/true``, the floor;
* ``run_command true`` — the same through the device's action (bash, cwd tracking,
  output capture, validation); the *overhead* is the difference (target < 10 ms);
* ``read_file``/``write_file`` — host-side file actions;
* ``browser step`` — one ``browser_read`` and one open+type+submit round on a local
  site, for the built-in engine and for Chromium (when installed), plus Chromium's
  start-up;
* ``chromium warm`` — a new device's first page on the process's already running
  Chromium (context creation + first load, as every episode after the first pays),
  and closing that device (its context).

Run: ``python benchmarks/linux_latency.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from devicesworld.devices.base import DeviceContext, VirtualClock
from devicesworld.devices.linux import KIND
from devicesworld.devices.linux.browser.chromium import chromium_path
from devicesworld.devices.linux.device import LinuxDevice
from devicesworld.devices.linux.sandbox import bwrap_path
from devicesworld.devices.linux.sites import presets
from devicesworld.devices.linux.sites.model import Site
from devicesworld.env import CrossDeviceEnv
from devicesworld.spec import Condition, DeviceOp, DeviceSpec, Evaluation, Task
from devicesworld.tasks.authoring.forms import idx


def median_ms(fn: Callable[[], object], runs: int) -> float:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return statistics.median(samples)


def new_device(root: Path, browser: str = "builtin", shared: dict[str, object] | None = None) -> LinuxDevice:
    ctx = DeviceContext(
        "bench", VirtualClock(datetime(2026, 3, 2, 9)), root, shared=shared if shared is not None else {}
    )
    root.mkdir(parents=True, exist_ok=True)
    dev = KIND.factory("linux_0", {"browser": browser}, ctx)
    assert isinstance(dev, LinuxDevice)
    return dev


def act(dev: LinuxDevice, action: str, **args: object) -> None:
    result = dev.act(action, KIND.actions[action].parse_args(args))
    assert result.ok, result.message


def task() -> Task:
    return Task(
        id="bench-linux",
        instruction="bench",
        devices=[DeviceSpec(id="linux_0", kind="linux")],
        setup=[
            DeviceOp(device="linux_0", op="write_text", args={"path": "~/notes.txt", "content": "hello\n"}),
            DeviceOp(
                device="linux_0", op="write_csv", args={"path": "~/data.csv", "rows": [["a", "b"], [1, 2]]}
            ),
            DeviceOp(device="linux_0", op="write_json", args={"path": "~/cfg.json", "data": {"port": 80}}),
        ],
        evaluation=Evaluation(
            conditions=[Condition(id="c", device="linux_0", check="file_exists", args={"path": "~/x"})]
        ),
    )


def browser_figures(root: Path, backend: str, runs: int) -> None:
    site = presets.site("shop.test", "Shop", [presets.feedback_page()])
    t0 = time.perf_counter()
    dev = new_device(root / backend, backend)
    dev.setup("add_site", KIND.setup_ops["add_site"].parse_args({"site": site.model_dump()}))
    act(dev, "browser_open", url="http://shop.test/feedback")
    start = (time.perf_counter() - t0) * 1000
    read = median_ms(lambda: act(dev, "browser_read"), runs)

    def form_round() -> None:
        act(dev, "browser_open", url="http://shop.test/feedback")
        act(dev, "browser_type", index=message, text="Great service")
        act(dev, "browser_submit")

    message = idx(site, "/feedback", "Message")
    rnd = median_ms(form_round, max(3, runs // 4))
    dev.close()
    print(
        f"  {backend:9s} first page (incl. start) {start:8.1f} ms | browser_read {read:6.2f} ms | open+type+submit {rnd:7.1f} ms"
    )
    if backend == "chromium":
        warm_figures(root, site, max(5, runs // 4))


def warm_figures(root: Path, site: Site, runs: int) -> None:
    """Episodes after the first: a fresh device (own context) on the running shared browser."""
    counter = iter(range(10**6))
    firsts: list[float] = []
    closes: list[float] = []
    for _ in range(runs):
        dev = new_device(root / f"warm{next(counter)}", "chromium")
        dev.setup("add_site", KIND.setup_ops["add_site"].parse_args({"site": site.model_dump()}))
        t0 = time.perf_counter()
        act(dev, "browser_open", url="http://shop.test/feedback")
        firsts.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        dev.close()
        closes.append((time.perf_counter() - t0) * 1000)
    print(
        f"  chromium  warm browser: first page incl. new context {statistics.median(firsts):7.1f} ms "
        f"(p95 {sorted(firsts)[int(0.95 * (len(firsts) - 1))]:.1f}) | device close (context) "
        f"{statistics.median(closes):6.1f} ms  [n={runs}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    runs = parser.parse_args().runs
    root = Path(tempfile.mkdtemp(prefix="dw-bench-"))
    bwrap = bwrap_path()
    print(f"Linux device latency (median of {runs}); bubblewrap: {bwrap or 'MISSING (fallback sandbox)'}")
    try:
        counter = iter(range(10**6))

        def start_close() -> None:
            new_device(root / f"s{next(counter)}").close()

        print(f"device start+close           {median_ms(start_close, runs):8.2f} ms")

        def reset_close() -> None:
            with CrossDeviceEnv(task()) as env:
                env.reset()

        print(f"env reset+close (3 files)    {median_ms(reset_close, runs):8.2f} ms")

        dev = new_device(root / "cmd")
        if bwrap:
            argv = [*dev.sandbox._prefix, "/bin/true"]
            bare = median_ms(lambda: subprocess.run(argv, check=True, env={}), runs)
            print(f"bare `bwrap ... true`        {bare:8.2f} ms")
        else:
            bare = 0.0
        full = median_ms(lambda: act(dev, "run_command", command="true"), runs)
        print(
            f"run_command 'true'           {full:8.2f} ms   overhead {full - bare:6.2f} ms (target < 10 ms)"
        )
        act(dev, "write_file", path="~/f.txt", content="x" * 1000)
        print(
            f"read_file (1 kB)             {median_ms(lambda: act(dev, 'read_file', path='~/f.txt'), runs):8.3f} ms"
        )
        print(
            f"write_file (1 kB)            {median_ms(lambda: act(dev, 'write_file', path='~/g.txt', content='y' * 1000), runs):8.3f} ms"
        )
        dev.close()

        print("browser steps:")
        browser_figures(root, "builtin", runs)
        if chromium_path():
            browser_figures(root, "chromium", runs)
        else:
            print("  chromium  not installed (apt-get install chromium; pip install playwright)")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
