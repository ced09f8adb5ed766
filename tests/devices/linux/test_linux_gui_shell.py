"""The desktop a person sees (#34 item 2): the first observation of a GUI-only Linux desktop shows a
panel with the application menu, a Home menu and a clock on the task's date, and desktop icons; the
menu opens; the agent gets no shell. Asserted on the element list and pixel regions, never on time."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest

from devicesworld.devices.linux.device import LinuxDevice
from devicesworld.devices.linux.gui import shell
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Evaluation, Task
from tests.devices.desktop.desktop_harness import REQUIRE_SYSTEM, maximise, require_app, require_gui_stack
from tests.devices.desktop.test_desktop_clock import require_faketime


def require_shell() -> None:
    why = shell.missing()
    if why is None:
        return
    if REQUIRE_SYSTEM:
        pytest.fail(f"the desktop's panel is required (DEVICESWORLD_REQUIRE_SYSTEM=1): {why}")
    pytest.skip(f"no desktop panel: {why}")


def _task() -> Task:
    return Task.model_validate(
        {
            "schema_version": 2,
            "id": "shell-probe",
            "instruction": "Look at the desktop.",
            "start_time": "2026-03-02T09:00:00",
            "devices": [{"id": "linux_0", "kind": "linux", "profile": {"desktop": "gui"}}],
            "setup": [
                {
                    "device": "linux_0",
                    "op": "write_text",
                    "args": {"path": "~/Desktop/notes.txt", "content": "hi\n"},
                }
            ],
            "evaluation": {
                "conditions": [
                    {"id": "c", "device": "linux_0", "check": "file_exists", "args": {"path": "~/x"}}
                ]
            },
        }
    )


@pytest.fixture(scope="module")
def first() -> Iterator[tuple[CrossDeviceEnv, dict[str, Any]]]:
    require_gui_stack()
    require_shell()
    env = CrossDeviceEnv(_task())
    try:
        yield env, env.reset()["linux_0"]
    finally:
        env.close()


def _element(
    obs: dict[str, Any], role: str, name: str | None = None, app: str | None = None
) -> dict[str, Any]:
    found = [
        e
        for e in obs["elements"]
        if e["role"] == role and (name is None or e["name"] == name) and (app is None or e.get("app") == app)
    ]
    assert found, [(e["role"], e["name"], e.get("app")) for e in obs["elements"]]
    element: dict[str, Any] = found[0]
    return element


def test_the_first_observation_shows_a_panel_with_a_menu_a_home_menu_and_a_clock(
    first: tuple[CrossDeviceEnv, dict[str, Any]],
) -> None:
    _, obs = first
    menu = _element(obs, "toggle button", "Applications", app="xfce4-panel")
    assert menu["box"][1] == 0 and menu["box"][3] >= 20  # along the top edge
    _element(obs, "toggle button", "Directory Menu", app="xfce4-panel")
    _element(obs, "frame", "Desktop", app="xfdesktop")
    assert obs["windows"] == []  # the panel and the desktop are not app windows


def test_the_clock_shows_the_task_date_not_the_host_date(
    first: tuple[CrossDeviceEnv, dict[str, Any]],
) -> None:
    require_faketime()
    _, obs = first
    _element(obs, "toggle button", "2026-03-02", app="xfce4-panel")  # the clock is named by its date


def test_the_first_screenshot_shows_the_panel_and_desktop_icons(
    first: tuple[CrossDeviceEnv, dict[str, Any]],
) -> None:
    from PIL import Image, ImageChops

    env, _ = first
    device = env._devices["linux_0"]
    assert isinstance(device, LinuxDevice)
    png = device.screenshot()
    assert png is not None
    img = Image.open(io.BytesIO(png)).convert("RGB")
    background = img.getpixel((900, 600))
    assert background != (0, 0, 0)  # not the black screen of a bare X server

    def differs(box: tuple[int, int, int, int]) -> int:
        region = img.crop(box)
        diff = ImageChops.difference(region, Image.new("RGB", region.size, background)).convert("L")
        return region.size[0] * region.size[1] - diff.histogram()[0]

    assert differs((0, 0, 1280, 28)) > 1280 * 20  # the panel is a bar of its own colour
    assert differs((0, 40, 140, 340)) > 2000  # icons (Home, File System, notes.txt) at the left
    assert differs((400, 300, 900, 700)) == 0  # the rest is plain background


def test_a_gui_only_desktop_publishes_no_shell_and_its_menu_opens(
    first: tuple[CrossDeviceEnv, dict[str, Any]],
) -> None:
    env, obs = first
    names = {a["name"] for a in env.action_spaces()["linux_0"]}
    assert "run_command" not in names and {"click", "type_text", "launch_app"} <= names
    refused = env.step({"device": "linux_0", "action": "run_command", "args": {"command": "ls"}})
    assert not refused.result.ok and refused.result.error_code == "UNKNOWN_ACTION"
    index = _element(obs, "toggle button", "Applications")["index"]
    assert env.step({"device": "linux_0", "action": "click", "args": {"element": index}}).result.ok
    after = env._devices["linux_0"].observe()
    _element(after, "menu", "Office", app="xfce4-panel")
    _element(after, "menu", "Accessories", app="xfce4-panel")
    env.step({"device": "linux_0", "action": "hotkey", "args": {"keys": ["Escape"]}})


def test_an_app_opened_from_the_menu_counts_as_launched_for_the_checks() -> None:
    require_gui_stack()
    require_shell()
    require_app("mousepad")
    task = _task().model_copy(
        update={
            "evaluation": Evaluation.model_validate(
                {
                    "conditions": [
                        {
                            "id": "editor-open",
                            "device": "linux_0",
                            "check": "window_title",
                            "args": {"contains": "Mousepad"},
                        }
                    ]
                }
            )
        }
    )
    with CrossDeviceEnv(task) as env:
        env.reset()

        def click(element: dict[str, Any]) -> None:
            out = env.step({"device": "linux_0", "action": "click", "args": {"element": element}})
            assert out.result.ok, out.result.message

        click({"role": "toggle button", "name": "Applications"})
        click({"role": "menu", "name": "Accessories"})
        click({"role": "menu item", "name": "Mousepad"})
        device = env._devices["linux_0"]
        assert isinstance(device, LinuxDevice) and device.gui is not None
        window = device.gui.session.desktop.wait_window(lambda w: "Mousepad" in w.title, timeout_s=120)
        assert window is not None and window.launched
        assert env.evaluate().success


def test_the_panel_lists_open_windows_and_a_maximised_window_stays_below_it() -> None:
    """The panel's window list (xfce4-panel's tasklist) has a button per app window, named by its
    title; the panel reserves its strip (a strut), so a maximised window starts below it."""
    require_gui_stack()
    require_shell()
    require_app("mousepad")
    with CrossDeviceEnv(_task()) as env:
        env.reset()
        out = env.step({"device": "linux_0", "action": "launch_app", "args": {"app": "text_editor"}})
        assert out.result.ok, out.result.message
        device = env._devices["linux_0"]
        assert isinstance(device, LinuxDevice) and device.gui is not None
        desk = device.gui.session.desktop
        window = desk.wait_window(lambda w: "Mousepad" in w.title, timeout_s=120)
        assert window is not None
        panel = _element(device.observe(), "frame", "", app="xfce4-panel")
        button = _element(device.observe(), "toggle button", window.title, app="xfce4-panel")
        assert button["box"][1] + button["box"][3] <= panel["box"][3]  # in the panel's strip
        maximise(desk, window.id)
        wide = desk.wait_window(lambda w: w.id == window.id and w.box[2] >= 1200, timeout_s=60)
        assert wide is not None and wide.box[1] >= panel["box"][3], wide  # below the panel, not under it
