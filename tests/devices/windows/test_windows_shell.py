"""The first screen of a Windows PC is a desktop a person recognises (issue #34): a taskbar with a
Start menu, a button for each open window and a clock on the task's time, desktop icons for the home
folders; apps opened from the menu or an icon come up above the desktop; a maximised window leaves
the taskbar's strip free; a GUI-only PC publishes no shell action."""

from __future__ import annotations

import re
import time
from datetime import datetime
from io import BytesIO
from pathlib import Path
from typing import Any

from PIL import Image

from devicesworld.devices.base import SupportsScreenshot, VirtualClock, get_kind
from devicesworld.devices.windows import shell
from devicesworld.devices.windows.device import WindowsDevice
from tests.devices.desktop.desktop_harness import maximise
from tests.devices.desktop.test_desktop_clock import require_faketime
from tests.devices.windows.windows_harness import require_windows_stack, windows_pc

TASK_TIME = datetime(2026, 3, 2, 21, 41)


def _clock_time(text: str) -> datetime:
    m = re.fullmatch(r"(\d{1,2}):(\d{2}) ([AP]M)  (\d{1,2})/(\d{1,2})/(\d{4})", text)
    assert m is not None, text
    hour = int(m.group(1)) % 12 + (12 if m.group(3) == "PM" else 0)
    return datetime(int(m.group(6)), int(m.group(4)), int(m.group(5)), hour, int(m.group(2)))


def _wait_for(dev: Any, what: Any, tries: int = 30) -> dict[str, Any]:
    """The observation once ``what(observation)`` holds (apps start at the machine's pace)."""
    obs: dict[str, Any] = dev.observe()
    for _ in range(tries):
        if what(obs):
            return obs
        time.sleep(0.5)
        obs = dev.observe()
    raise AssertionError(f"never held: {obs.get('windows')}")


def test_the_first_screen_has_a_taskbar_clock_on_the_task_time_icons_and_a_working_start_menu(
    tmp_path: Path,
) -> None:
    require_windows_stack()
    require_faketime()
    kind, dev = windows_pc(tmp_path, clock=VirtualClock(TASK_TIME))

    def act(action: str, **args: Any) -> Any:
        return dev.act(action, kind.actions_for({})[action].parse_args(args))

    assert isinstance(dev, SupportsScreenshot)
    try:
        obs = dev.observe()
        els = obs["elements"]
        named = {(e["role"], e["name"]) for e in els}
        assert ("Button", "Start") in named
        clock = next(e for e in els if e["role"] == "Static" and "/" in e["name"])
        seconds = (_clock_time(clock["name"]) - TASK_TIME).total_seconds()
        assert 0 <= seconds <= 600, clock["name"]  # the task's time (ticking on from it), not the host's
        icons = {e["name"] for e in els if e["role"] == "DesktopIcon"}
        assert icons == {"user", "Documents", "Downloads", "Pictures", "Desktop"}
        # the screenshot shows them: a dark taskbar along the bottom over a blue desktop, not black
        shot = Image.open(BytesIO(dev.screenshot() or b"")).convert("RGB")
        w, h = shot.size
        assert shot.getpixel((w // 2, h - 10)) == (0x20, 0x24, 0x2A)
        assert shot.getpixel((w // 2, h // 2)) == (0x1E, 0x5A, 0x96)
        assert obs["windows"] == []  # the shell's windows are not app windows

        start = next(e for e in els if e["name"] == "Start")
        assert act("click", element=start["index"]).ok
        menu = {e["name"]: e for e in dev.observe()["elements"] if e["role"] == "Button"}
        assert {"Notepad", "WordPad", "File Explorer", "Command Prompt"} <= set(menu)
        assert act("click", element=menu["Notepad"]["index"]).ok
        obs = _wait_for(dev, lambda o: any("Notepad" in w["title"] for w in o["windows"]))
        assert "Notepad" not in {e["name"] for e in obs["elements"] if e["role"] == "Button"}  # menu closed
        # Notepad is above the desktop: its text area is listed (not covered) and shows on screen
        edit = next(e for e in obs["elements"] if e["role"] == "Edit")
        x, y, bw, bh = edit["box"]
        shot = Image.open(BytesIO(dev.screenshot() or b"")).convert("RGB")
        assert shot.getpixel((x + bw // 2, y + bh // 2)) == (255, 255, 255)
    finally:
        dev.close()


def test_a_desktop_icon_opens_its_folder_in_explorer(tmp_path: Path) -> None:
    require_windows_stack()
    kind, dev = windows_pc(tmp_path, clock=VirtualClock(TASK_TIME))
    try:
        icon = next(e for e in dev.observe()["elements"] if e["name"] == "Documents")
        args = kind.actions_for({})["click"].parse_args({"element": icon["index"], "clicks": 2})
        assert dev.act("click", args).ok
        obs = _wait_for(dev, lambda o: any(w["title"] == "Documents" for w in o["windows"]))
        assert next(w for w in obs["windows"] if w["title"] == "Documents")["app"] == "explorer.exe"
    finally:
        dev.close()


def test_a_gui_only_windows_pc_publishes_no_shell_action() -> None:
    kind = get_kind("windows")
    assert kind is not None
    gui = {a["name"] for a in kind.action_space({})}
    assert "run_command" not in gui and {"click", "type_text", "launch_app"} <= gui
    assert "run_command" in {a["name"] for a in kind.action_space({"desktop": "hybrid"})}


def _task_buttons(obs: dict[str, Any], screen_h: int) -> dict[str, dict[str, Any]]:
    """The taskbar's window buttons by name: Buttons on the bottom strip other than Start."""
    return {
        e["name"]: e
        for e in obs["elements"]
        if e["role"] == "Button" and e["name"] != "Start" and e["box"][1] >= screen_h - shell.TASKBAR_HEIGHT
    }


def test_the_taskbar_lists_open_windows_switches_between_them_and_maximised_windows_leave_it_free(
    tmp_path: Path,
) -> None:
    require_windows_stack()
    kind, dev = windows_pc(tmp_path, clock=VirtualClock(TASK_TIME))

    def act(action: str, **args: Any) -> Any:
        return dev.act(action, kind.actions_for({})[action].parse_args(args))

    def focused(obs: dict[str, Any]) -> str:
        return next((w["title"] for w in obs["windows"] if w["focused"]), "")

    assert isinstance(dev, SupportsScreenshot)
    try:
        w, h = Image.open(BytesIO(dev.screenshot() or b"")).size
        assert _task_buttons(dev.observe(), h) == {}  # no app open: no window buttons
        assert act("launch_app", app="notepad").ok
        obs = _wait_for(dev, lambda o: any("Notepad" in name for name in _task_buttons(o, h)))
        assert act("launch_app", app="wordpad").ok
        obs = _wait_for(dev, lambda o: len(_task_buttons(o, h)) == 2 and "wordpad" in focused(o).lower())
        buttons = _task_buttons(obs, h)
        titles = {win["title"] for win in obs["windows"]}
        assert set(buttons) <= titles, (buttons, titles)  # each button is named by its window's title
        first, second = sorted(buttons.values(), key=lambda e: e["box"][0])
        assert "Notepad" in first["name"] and "wordpad" in second["name"].lower()  # in the order they opened
        assert act("click", element=first["index"]).ok  # the taskbar brings Notepad to the front
        obs = _wait_for(dev, lambda o: "Notepad" in focused(o))
        for expect_focused in (False, True):  # the active window's button minimises it, then restores it
            button = next(e for name, e in _task_buttons(obs, h).items() if "Notepad" in name)
            assert act("click", element=button["index"]).ok
            obs = _wait_for(dev, lambda o, f=expect_focused: ("Notepad" in focused(o)) == f)

        assert isinstance(dev, WindowsDevice)
        maximise(dev.desktop, next(win.id for win in dev.desktop.windows() if "Notepad" in win.title))
        obs = _wait_for(
            dev, lambda o: any("Notepad" in x["title"] and x["box"][2] >= w - 20 for x in o["windows"])
        )
        x, y, bw, bh = next(win["box"] for win in obs["windows"] if "Notepad" in win["title"])
        assert y + bh <= h - shell.TASKBAR_HEIGHT, (x, y, bw, bh)  # the strut keeps the strip free
        shot = Image.open(BytesIO(dev.screenshot() or b"")).convert("RGB")
        assert shot.getpixel((w // 2, h - 2)) == (0x20, 0x24, 0x2A)  # the taskbar still shows
        assert "Start" in {e["name"] for e in obs["elements"] if e["role"] == "Button"}
        assert all(win.app != "dwstrut" for win in dev.desktop.windows())  # the strut is not an app window

        assert act("hotkey", keys=["alt", "F4"]).ok  # Notepad closes: its button goes
        obs = _wait_for(dev, lambda o: not any("Notepad" in name for name in _task_buttons(o, h)))
        assert len(_task_buttons(obs, h)) == 1
    finally:
        dev.close()
