"""The kind registry is complete for every thread, also while another thread is loading it."""

from __future__ import annotations

import subprocess
import sys


def test_concurrent_first_lookups_all_see_the_builtin_kinds() -> None:
    # A fresh interpreter, so the registry really loads for the first time here.
    code = (
        "import threading\n"
        "from devicesworld.devices.base import get_kind\n"
        "seen = []\n"
        "def look():\n"
        "    seen.append(get_kind('smarthome') is not None and get_kind('linux') is not None)\n"
        "threads = [threading.Thread(target=look) for _ in range(8)]\n"
        "[t.start() for t in threads]\n"
        "[t.join() for t in threads]\n"
        "print(all(seen), len(seen))\n"
    )
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
        )
        assert out.stdout.split() == ["True", "8"], out.stderr
