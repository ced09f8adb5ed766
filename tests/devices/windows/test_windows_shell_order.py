"""An app window is never hidden beneath the desktop (issue #34, found by careful players in session
49): after Alt+F4 closed the last app, Wine activated the desktop ("Program Manager") and raised its
X window above everything, so the next app was listed as focused but the screenshot showed only the
blue desktop and clicks on the app's elements landed on the desktop. These tests check what an agent
sees -- the screenshot inside the app's window and the element list after a click -- along the
sequences that reach the desktop: Alt+F4, a click on an empty desktop spot or an icon, the Start
menu."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Any

from PIL import Image

from devicesworld.devices.base import Device, DeviceKind, SupportsScreenshot, VirtualClock
from devicesworld.devices.windows import shell
from tests.devices.windows.test_windows_shell import TASK_TIME, _wait_for
from tests.devices.windows.windows_harness import require_windows_stack, windows_pc

BLUE = ((shell.DESKTOP_PIXEL >> 16) & 0xFF, (shell.DESKTOP_PIXEL >> 8) & 0xFF, shell.DESKTOP_PIXEL & 0xFF)


def _desktop_share(dev: Device, box: list[int]) -> float:
    """The share of the screenshot's pixels inside ``box`` (x, y, width, height) that are the
    desktop's blue: about 0 where an app window shows, 1 where the desktop covers it."""
    assert isinstance(dev, SupportsScreenshot)
    shot = Image.open(BytesIO(dev.screenshot() or b"")).convert("RGB")
    x, y, w, h = box
    pixels = [shot.getpixel((px, py)) for px in range(x, x + w, 4) for py in range(y, y + h, 4)]
    return sum(p == BLUE for p in pixels) / max(1, len(pixels))


def _window(obs: dict[str, Any], part: str) -> dict[str, Any] | None:
    return next((w for w in obs["windows"] if part.lower() in w["title"].lower()), None)


def _shows(dev: Device, obs: dict[str, Any], part: str, role: str) -> bool:
    """The app window titled with ``part`` is focused, its ``role`` element is listed, and the
    screenshot shows the window, not the desktop."""
    win = _window(obs, part)
    if win is None or not win["focused"] or not any(e["role"] == role for e in obs["elements"]):
        return False
    return _desktop_share(dev, win["box"]) < 0.02


def _act(kind: DeviceKind, dev: Device, action: str, **args: Any) -> None:
    result = dev.act(action, kind.actions_for({})[action].parse_args(args))
    assert result.ok, result


def _element(obs: dict[str, Any], role: str, name: str | None = None) -> dict[str, Any]:
    return next(e for e in obs["elements"] if e["role"] == role and (name is None or e["name"] == name))


def _states(obs: dict[str, Any], role: str, name: str | None = None) -> list[str]:
    """The states of the first ``role`` element (named ``name``), none if it is not listed (a tree
    read can fail once under load: the waits look again)."""
    found = [e for e in obs["elements"] if e["role"] == role and (name is None or e["name"] == name)]
    return list(found[0]["states"]) if found else []


def _text(obs: dict[str, Any], role: str) -> str:
    return next((e.get("text") or "" for e in obs["elements"] if e["role"] == role), "")


def test_an_app_opened_after_alt_f4_closed_the_last_one_shows_and_takes_clicks(tmp_path: Path) -> None:
    require_windows_stack()
    kind, dev = windows_pc(tmp_path, clock=VirtualClock(TASK_TIME))
    try:
        _act(kind, dev, "launch_app", app="notepad")
        _wait_for(dev, lambda o: _shows(dev, o, "Notepad", "Edit"))
        _act(kind, dev, "hotkey", keys=["alt", "F4"])
        _wait_for(dev, lambda o: _window(o, "Notepad") is None)  # Wine activates the desktop and raises it
        _act(kind, dev, "launch_app", app="wordpad")
        obs = _wait_for(dev, lambda o: _shows(dev, o, "Wordpad", "RichEdit20W"))

        _act(kind, dev, "click", element=_element(obs, "RichEdit20W")["index"])  # reaches WordPad
        _wait_for(
            dev, lambda o: _shows(dev, o, "Wordpad", "RichEdit20W") and "focused" in _states(o, "RichEdit20W")
        )

        # the same through the Start menu, with the desktop active again
        _act(kind, dev, "hotkey", keys=["alt", "F4"])
        obs = _wait_for(dev, lambda o: _window(o, "Wordpad") is None and bool(_states(o, "Button", "Start")))
        _act(kind, dev, "click", element=_element(obs, "Button", "Start")["index"])
        menu = _wait_for(dev, lambda o: bool(_states(o, "Button", "File Explorer")))
        _act(kind, dev, "click", element=_element(menu, "Button", "File Explorer")["index"])
        obs = _wait_for(dev, lambda o: _shows(dev, o, "", "ListItem") and bool(o["windows"]))
        item = _element(obs, "ListItem")
        _act(kind, dev, "click", element=item["index"])
        _wait_for(
            dev,
            lambda o: "selected" in _states(o, "ListItem", item["name"]) and _shows(dev, o, "", "ListItem"),
        )

        # and through a desktop icon, with the desktop active once more
        _act(kind, dev, "hotkey", keys=["alt", "F4"])
        obs = _wait_for(dev, lambda o: not o["windows"] and bool(_states(o, "DesktopIcon", "Downloads")))
        _act(kind, dev, "double_click", element=_element(obs, "DesktopIcon", "Downloads")["index"])
        _wait_for(dev, lambda o: _shows(dev, o, "Downloads", "SysListView32"))
    finally:
        dev.close()


def test_an_app_opened_after_a_click_on_the_desktop_or_an_icon_shows_and_takes_keys(tmp_path: Path) -> None:
    require_windows_stack()
    kind, dev = windows_pc(tmp_path, clock=VirtualClock(TASK_TIME))
    try:
        obs = _wait_for(dev, lambda o: bool(_states(o, "DesktopIcon", "Documents")))
        _act(kind, dev, "click", element=_element(obs, "DesktopIcon", "Documents")["index"])
        _act(kind, dev, "launch_app", app="explorer", path=r"C:\Users\user")
        _wait_for(dev, lambda o: _shows(dev, o, "user", "ListItem"))

        _act(kind, dev, "click", x=1000, y=500)  # an empty desktop spot: the desktop stays below
        _wait_for(dev, lambda o: _shows(dev, o, "user", "ListItem"))  # Explorer still shows, items listed

        _act(kind, dev, "launch_app", app="notepad")
        obs = _wait_for(dev, lambda o: _shows(dev, o, "Notepad", "Edit"))
        _act(kind, dev, "click", element=_element(obs, "Edit")["index"])
        _act(kind, dev, "type_text", text="reached")
        _wait_for(dev, lambda o: _shows(dev, o, "Notepad", "Edit") and "reached" in _text(o, "Edit"))
    finally:
        dev.close()
