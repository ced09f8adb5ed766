"""GUI desktop latency: start, reset, screenshot, element tree and action latencies on the Linux desktop.

Measured through the environment and the device exactly as an episode uses them:

* ``start``: a new GUI device (sandbox, sized home, template copy) until its desktop is
  ready (first observation); ``reset``: ``CrossDeviceEnv.reset()`` of a one-desktop task
  — a fresh home and a fresh desktop, with the first observation — without the desktop
  pool, with it (the spare ready, as after an episode of a few seconds) and back to back
  (each reset waits for the spare being started), and with Writer or Calc opened by the
  task's setup (LibreOffice idle-wait included): cold, and on a pooled desktop that keeps
  the office warm (the task's file swapped into its empty document, or — the task replayed —
  its document pre-opened by the spare, :mod:`.warm_office`);
* ``screenshot`` and ``tree`` (the element list of ``observe()``) with mousepad, Writer
  and Calc on screen: unchanged (the controller's cache, nothing to refresh), right after
  an edit (a typed character in Writer, a cursor move in Calc: what the events dropped is
  read again) and as a fresh walk of every node (what every read cost before the cache);
* actions (``move_to``, ``click``, ``type_text`` of 20 characters, ``hotkey``), each
  including the settle wait that follows an input;
* for each, the median of every phase the device timed (``take_phases``, the figures
  ``steps.jsonl`` records per step: input, settle, tree, screenshot, encode).

Run ``python benchmarks/gui_latency.py [--n 5]``; figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from devicesworld.devices.desktop.client import missing_stack
from devicesworld.devices.linux.device import GUI_ACTIONS, LinuxDevice
from devicesworld.devices.linux.gui import pool, warm_office
from devicesworld.devices.linux.gui.template import template_home
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task


def _task(setup: list[dict[str, Any]]) -> Task:
    return Task.model_validate(
        {
            "id": "bench-gui",
            "instruction": "benchmark",
            "devices": [{"id": "linux_0", "kind": "linux", "profile": {"desktop": "gui"}}],
            "setup": setup,
            "evaluation": {
                "conditions": [
                    {"id": "c", "device": "linux_0", "check": "file_exists", "args": {"path": "~/x"}}
                ]
            },
        }
    )


def _p50(xs: list[float]) -> str:
    return f"{statistics.median(xs) * 1000:8.0f} ms (min {min(xs) * 1000:.0f}, max {max(xs) * 1000:.0f}, n={len(xs)})"


_PHASES: list[dict[str, float]] = []
"""The phases of each call of the last :func:`_time` (when its device times them)."""


def _time(fn: Callable[[], Any], n: int, device: Any = None) -> list[float]:
    out = []
    _PHASES.clear()
    if device is not None:
        device.take_phases()
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
        if device is not None:
            _PHASES.append(device.take_phases())
    return out


def _after(edit: Callable[[], Any], observe: Callable[[], Any], n: int) -> list[float]:
    """Seconds of ``observe`` right after ``edit`` (not timed), ``n`` times."""
    out = []
    for _ in range(n):
        edit()
        t0 = time.perf_counter()
        observe()
        out.append(time.perf_counter() - t0)
    return out


def _fresh(device: LinuxDevice) -> Callable[[], Any]:
    """A walk of every node (no cache), with the budget of ``observe()``."""
    assert device.gui is not None
    session = device.gui.session
    b = session.budget
    return lambda: session.desktop.tree(
        budget_s=b.budget_s,
        max_nodes=b.max_nodes,
        max_children=b.max_children,
        max_cells=b.max_cells,
        fresh=True,
    )


def _phases() -> str:
    """The median of each phase over the last :func:`_time`'s calls, e.g. ``input 1, settle 52``."""
    names = sorted({k for p in _PHASES for k in p})
    if not names:
        return ""
    meds = {k: statistics.median(p.get(k, 0.0) for p in _PHASES) * 1000 for k in names}
    return "   [" + ", ".join(f"{k} {v:.0f}" for k, v in meds.items()) + " ms]"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=5)
    parser.add_argument(
        "--resets-only", action="store_true", help="only the resets (plain, with Writer, with Calc)"
    )
    parsed = parser.parse_args()
    n = parsed.n
    why = missing_stack()
    if why:
        print(f"no GUI stack: {why}")
        return 1
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    t0 = time.perf_counter()
    template_home()
    print(f"template home ready (built once per machine) {time.perf_counter() - t0:.1f} s")

    bare = _task(
        [{"device": "linux_0", "op": "write_text", "args": {"path": "~/notes.txt", "content": "a\n"}}]
    )
    env = CrossDeviceEnv(bare)
    env.reset()
    env.close()  # warm caches (etc folders, registry)
    key = pool.spare_key("linux-0", 1280, 800)

    def resets_with(
        size: str, episode: Callable[[], Any], target: CrossDeviceEnv | None = None
    ) -> list[float]:
        os.environ[pool_env] = size
        out = []
        for _ in range(n):
            episode()  # the episode before: while it runs, the pool starts the next desktop
            t0 = time.perf_counter()
            (target or env).reset()
            out.append(time.perf_counter() - t0)
        return out

    pool_env = "DEVICESWORLD_DESKTOP_POOL"
    before = os.environ.get(pool_env)
    cold = resets_with("0", lambda: None)
    device = env.device("linux_0")
    assert isinstance(device, LinuxDevice) and device.gui is not None
    ready = device.gui.session.desktop.ready
    print(f"desktop parts (last start, s since spawn): {ready.seconds if ready else '?'}")
    print(f"reset, no pool: fresh home + desktop + first observation: {_p50(cold)}")
    if key is not None:
        env.reset()  # the first GUI device starts the pool
        pooled = resets_with("1", lambda: pool.POOL.wait_ready(key, 120))
        print(f"reset, pooled desktop (spare ready: the episode before ran long enough): {_p50(pooled)}")
        rushed = resets_with("1", lambda: None)
        print(f"reset, pooled, back to back (waits for the spare being started): {_p50(rushed)}")
    else:
        print("no desktop pool here (it needs a root harness with a sized home)")
    env.close()

    writer = _task(
        [
            {
                "device": "linux_0",
                "op": "write_docx",
                "args": {"path": "~/memo.docx", "paragraphs": ["Hello"]},
            },
            {"device": "linux_0", "op": "open_app", "args": {"app": "writer", "path": "~/memo.docx"}},
        ]
    )
    calc = _task(
        [
            {
                "device": "linux_0",
                "op": "write_xlsx",
                "args": {"path": "~/b.xlsx", "sheets": {"S": [["a", 1], ["b", 2]]}},
            },
            {"device": "linux_0", "op": "open_app", "args": {"app": "calc", "path": "~/b.xlsx"}},
        ]
    )
    for name, task in (("Writer", writer), ("Calc", calc)):
        with CrossDeviceEnv(task) as oenv:
            os.environ[pool_env] = "0"
            cold_office = _time(oenv.reset, max(2, n // 2))
            print(f"reset with {name} open and idle, no pool (cold start): {_p50(cold_office)}")
            if key is not None:
                os.environ[pool_env] = "1"
                preload_after = warm_office.PRELOAD_AFTER
                for how, after in (
                    ("the task's file swapped in", 10**9),  # never pre-opened: the empty document's swap
                    ("the task's document pre-opened: a replay", preload_after),
                ):
                    warm_office.PRELOAD_AFTER = after
                    oenv.reset()  # the pool learns which office (and document) the task opens
                    pool.POOL.close_all()
                    oenv.reset()  # (the spare started before it learnt is not warm: this one starts one that is)
                    warm_office_resets = resets_with("1", lambda: pool.POOL.wait_ready(key, 300), oenv)
                    print(
                        f"reset with {name} open and idle, pooled desktop with {name} warm ({how}): {_p50(warm_office_resets)}"
                    )
                warm_office.PRELOAD_AFTER = preload_after
    if before is None:
        os.environ.pop(pool_env, None)
    else:
        os.environ[pool_env] = before
    if parsed.resets_only:
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")
        return 0
    wenv = CrossDeviceEnv(writer)
    wenv.reset()
    wdev = wenv.device("linux_0")
    assert isinstance(wdev, LinuxDevice)
    print(f"screenshot (Writer): {_p50(_time(wdev.screenshot, n * 2, wdev))}{_phases()}")
    obs = wdev.observe()
    print(f"tree (Writer, {len(obs['elements'])} elements): {_p50(_time(wdev.observe, n, wdev))}{_phases()}")
    one_char = GUI_ACTIONS["type_text"].parse_args({"text": "x"})
    after = _after(lambda: wdev.act("type_text", one_char), wdev.observe, n)
    print(f"tree (Writer) right after typing a character: {_p50(after)}")
    print(f"tree (Writer), fresh walk of every node: {_p50(_time(_fresh(wdev), n))}")
    wenv.close()

    with CrossDeviceEnv(calc) as cenv:
        cenv.reset()
        cdev = cenv.device("linux_0")
        assert isinstance(cdev, LinuxDevice)
        obs = cdev.observe()
        print(
            f"tree (Calc, {len(obs['elements'])} elements, {obs.get('tree_incomplete') or 'complete'}): "
            f"{_p50(_time(cdev.observe, n, cdev))}{_phases()}"
        )
        down = GUI_ACTIONS["hotkey"].parse_args({"keys": ["down"]})
        after = _after(lambda: cdev.act("hotkey", down), cdev.observe, n)
        print(f"tree (Calc) right after a cursor move: {_p50(after)}")
        print(f"tree (Calc), fresh walk of every node: {_p50(_time(_fresh(cdev), n))}")

    editor = _task([{"device": "linux_0", "op": "open_app", "args": {"app": "text_editor"}}])
    with CrossDeviceEnv(editor) as eenv:
        eenv.reset()
        edev = eenv.device("linux_0")
        assert isinstance(edev, LinuxDevice)
        obs = edev.observe()
        print(f"screenshot (mousepad): {_p50(_time(edev.screenshot, n * 2, edev))}{_phases()}")
        print(
            f"tree (mousepad, {len(obs['elements'])} elements): {_p50(_time(edev.observe, n, edev))}{_phases()}"
        )

        def act(name: str, **args: Any) -> Callable[[], Any]:
            parsed = GUI_ACTIONS[name].parse_args(args)
            return lambda: edev.act(name, parsed)

        print(f"move_to: {_p50(_time(act('move_to', x=600, y=400), n * 2, edev))}{_phases()}")
        print(f"click (+settle): {_p50(_time(act('click', x=600, y=400), n * 2, edev))}{_phases()}")
        typed = _time(act("type_text", text="Zürich café ✓ naïve "), n, edev)
        print(f"type_text 20 chars incl. é✓ (+settle): {_p50(typed)}{_phases()}")
        print(
            f"hotkey ctrl+a (+settle): {_p50(_time(act('hotkey', keys=['ctrl', 'a']), n * 2, edev))}{_phases()}"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
