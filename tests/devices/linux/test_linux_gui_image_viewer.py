"""The image viewer opens on its picture with no warning in front of it.

Ristretto asks the session bus for a thumbnailing service when it opens a picture; without one
(Tumbler) it stacks a modal "The thumbnailer-service can not be reached" warning over the image
for every file, which a careful player had to dismiss twice before seeing the picture (session
49). The desktop stack installs Tumbler, as a real Xfce desktop has it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.devices.desktop.desktop_harness import REQUIRE_SYSTEM, require_app
from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)

TUMBLER = Path("/usr/share/dbus-1/services/org.xfce.Tumbler.Thumbnailer1.service")
"""The session bus starts Tumbler's thumbnailer from this file when Ristretto asks for it."""


def _require_tumbler() -> None:
    require_app("ristretto")
    if TUMBLER.exists():
        return
    why = "Tumbler (the thumbnailing service) is not installed (scripts/system-deps.sh installs it)"
    if REQUIRE_SYSTEM:
        pytest.fail(f"a service of the GUI desktop is required (DEVICESWORLD_REQUIRE_SYSTEM=1): {why}")
    pytest.skip(why)


def test_an_image_opens_without_a_thumbnailer_warning(gui: GuiDesk) -> None:  # noqa: F811
    _require_tumbler()
    gui.setup(
        "write_image", path="~/Pictures/holiday.png", width=320, height=200, color="#2a7fbf", text="Beach"
    )
    opened = gui.ok("launch_app", app="image_viewer", path="~/Pictures/holiday.png")
    assert "holiday.png" in opened.data["window"], opened
    gui.ok("wait", seconds=2.0)  # the warning came up after the window, once the thumbnail was asked for
    obs = gui.device.observe()
    texts = [str(e.get("text") or "") + " " + str(e.get("name") or "") for e in obs["elements"]]
    assert not [t for t in texts if "thumbnail" in t.lower()], texts
    assert "holiday.png" in obs["focused_window"]["title"], obs["focused_window"]
