"""Measure ``type_text`` of non-Latin-1 text into Wine's Notepad: typed, saved as UTF-8, read back.

Why: Wine apps miss most X keymap changes made after they start, so XTest typing with
rebound keysyms lost characters such as ✓, Ω and € (docs/windows.md). The Windows
device now types such text through its helper (``wintree.exe --type``: SendInput with
KEYEVENTF_UNICODE). This script checks that it is exact, ``--runs`` times on one
device: clear Notepad, type the string, save (the first save picks UTF-8 in the Save As
dialog's encoding box), read the file back with the device's ``text`` getter.

    python benchmarks/wine_unicode_typing.py --runs 20 [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from devicesworld.devices.base import DeviceContext, VirtualClock, get_kind

TEXT = "✓ Ω € 中文 ß"
PATH = r"C:\Users\user\Documents\unicode.txt"


def _pick(obs: dict[str, Any], role: str, name: str | None = None) -> int:
    for e in obs["elements"]:
        if e["role"] == role and (name is None or e["name"] == name):
            return int(e["index"])
    raise SystemExit(f"no {role} {name or ''} in the Save As dialog")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args(argv)
    kind = get_kind("windows")
    if kind is None:
        print("no windows kind", file=sys.stderr)
        return 2
    root = Path(tempfile.mkdtemp(dir="/dev/shm" if Path("/dev/shm").is_dir() else None, prefix="dw-wuni-"))
    root.chmod(0o711)
    ctx = DeviceContext(task_id="bench", clock=VirtualClock(datetime(2026, 3, 2, 9)), workdir=root / "w")
    dev = kind.factory("windows_0", {}, ctx)

    def act(action: str, **args: Any) -> None:
        r = dev.act(action, kind.actions[action].parse_args(args))
        if not r.ok:
            raise SystemExit(f"{action} failed: {r.message}")

    exact, typing_s, results = 0, [], []
    try:
        act("launch_app", app="notepad")
        for i in range(opts.runs):
            text = f"{TEXT} #{i}\nzweite Zeile ✓ Ω"
            act("hotkey", keys=["ctrl", "a"])
            act("hotkey", keys=["Delete"])
            t0 = time.perf_counter()
            act("type_text", text=text)
            typing_s.append(time.perf_counter() - t0)
            act("hotkey", keys=["ctrl", "s"])
            if i == 0:  # Save As: choose UTF-8 in the encoding box, type the path, Save
                act("wait", seconds=1.0)
                obs = dev.observe()
                act("click", element=_pick(obs, "ComboBox", "ANSI Latin 1"))
                act("hotkey", keys=["End"])
                act("hotkey", keys=["Return"])
                obs = dev.observe()
                act("click", element=_pick(obs, "Edit"))
                act("hotkey", keys=["ctrl", "a"])
                act("type_text", text=PATH)
                act("click", element=_pick(dev.observe(), "Button", "&Save"))
            got = dev.get("text", kind.getters["text"].parse_args({"path": PATH}))
            ok = got == text
            exact += ok
            results.append({"run": i, "exact": ok, "got": got})
    finally:
        dev.close()
    report = {
        "text": TEXT,
        "runs": opts.runs,
        "exact": exact,
        "type_text_p50_s": round(statistics.median(typing_s), 3),
        "type_text_max_s": round(max(typing_s), 3),
        "misses": [r for r in results if not r["exact"]],
    }
    print(json.dumps(report, ensure_ascii=False, indent=None if opts.json else 2))
    return 0 if exact == opts.runs else 1


if __name__ == "__main__":
    raise SystemExit(main())
