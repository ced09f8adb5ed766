"""The Linux desktop in GUI mode: real LibreOffice driven by GUI actions only, the per-profile action space."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import ActionResult, DeviceContext, DeviceError, VirtualClock
from devicesworld.devices.linux import KIND
from devicesworld.devices.linux.device import HYBRID_ACTIONS, LinuxDevice
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task
from tests.devices.desktop.desktop_harness import require_gui_stack


class GuiDesk:
    def __init__(self, root: Path) -> None:
        ctx = DeviceContext("test", VirtualClock(datetime(2026, 3, 2, 9)), root / "linux_0")
        ctx.workdir.mkdir(parents=True)
        device = KIND.factory("linux_0", {"desktop": "hybrid", "screen": {"width": 1280, "height": 800}}, ctx)
        assert isinstance(device, LinuxDevice)
        self.device = device

    def setup(self, op: str, **args: Any) -> None:
        self.device.setup(op, KIND.setup_ops[op].parse_args(args))

    def act(self, action: str, **args: Any) -> ActionResult:
        return self.device.act(action, HYBRID_ACTIONS[action].parse_args(args))

    def ok(self, action: str, **args: Any) -> ActionResult:
        result = self.act(action, **args)
        assert result.ok, result.message
        return result

    def get(self, getter: str, **args: Any) -> Any:
        return self.device.get(getter, KIND.getters[getter].parse_args(args))

    def check(self, name: str, **args: Any) -> Any:
        spec = KIND.checks[name]
        return spec.fn(lambda g, a: self.get(g, **a), spec.parse_args(args))


@pytest.fixture
def gui(tmp_path: Path) -> Iterator[GuiDesk]:
    require_gui_stack()
    desk = GuiDesk(tmp_path)
    yield desk
    desk.device.close()


def test_writer_typed_formatted_and_saved_as_docx_by_gui_actions_only(gui: GuiDesk) -> None:
    gui.setup("make_dir", path="~/Documents")
    gui.ok("launch_app", app="writer")
    gui.ok("type_text", text="Quarterly report ✓ Zürich\n")
    gui.ok("hotkey", keys=["ctrl", "b"])
    gui.ok("type_text", text="Bold tail")
    gui.ok("hotkey", keys=["ctrl", "shift", "s"])
    gui.ok("wait", seconds=1.5)
    gui.ok("type_text", text="/home/user/Documents/report.docx")
    gui.ok("wait", seconds=0.5)
    gui.ok("click", element={"role": "push button", "name": "Save", "window": "Save"})
    gui.ok("wait", seconds=1)
    assert gui.get("docx", path="~/Documents/report.docx") == ["Quarterly report ✓ Zürich", "Bold tail"]
    bold = gui.check("docx_text_format", path="~/Documents/report.docx", text="Bold tail", bold=True)
    assert bold.passed, bold.detail
    plain = gui.check("docx_text_format", path="~/Documents/report.docx", text="Quarterly", bold=True)
    assert not plain.passed
    titled = gui.check("window_title", contains="report.docx - LibreOffice Writer")
    assert titled.passed, titled.detail


def test_observation_has_elements_and_the_screenshot_is_the_screen(gui: GuiDesk) -> None:
    gui.setup("write_text", path="~/notes.txt", content="first line\n")
    gui.setup("open_app", app="text_editor", path="~/notes.txt")
    obs = gui.device.observe()
    assert obs["desktop"] == "hybrid" and "home" not in obs
    assert "notes.txt - Mousepad" in obs["focused_window"]["title"]
    assert any(e.get("text") == "first line\n" for e in obs["elements"])
    png = gui.device.screenshot()
    assert png is not None and png.startswith(b"\x89PNG")
    stale = gui.act("click", element=len(obs["elements"]) + 5)
    assert not stale.ok and stale.error_code == "STALE_ELEMENT"


def test_open_app_refuses_an_unknown_app(gui: GuiDesk) -> None:
    with pytest.raises(DeviceError, match="no app 'paint'"):
        gui.setup("open_app", app="paint")


def _task(profile: dict[str, Any], version: int = 1) -> Task:
    return Task.model_validate(
        {
            "schema_version": version,
            "id": "t",
            "instruction": "x",
            "devices": [{"id": "linux_0", "kind": "linux", "profile": profile}],
            "evaluation": {
                "conditions": [
                    {"id": "c", "device": "linux_0", "check": "file_exists", "args": {"path": "~/x"}}
                ]
            },
        }
    )


def test_the_published_space_follows_the_profile() -> None:
    gui_space = {a["name"] for a in CrossDeviceEnv(_task({"desktop": "gui"})).action_spaces()["linux_0"]}
    api_space = {a["name"] for a in CrossDeviceEnv(_task({})).action_spaces()["linux_0"]}
    assert {"click", "type_text", "hotkey", "drag_to", "launch_app", "run_command"} <= gui_space
    assert "read_document" not in gui_space and "write_file" not in gui_space
    assert "read_document" in api_space and "click" not in api_space
    only = {a["name"] for a in CrossDeviceEnv(_task({"desktop": "gui"}, 2)).action_spaces()["linux_0"]}
    assert only == gui_space - {"run_command"}  # schema 2: gui is GUI-only, the terminal is an app
    hybrid = {a["name"] for a in CrossDeviceEnv(_task({"desktop": "hybrid"}, 2)).action_spaces()["linux_0"]}
    assert hybrid == gui_space


def test_a_tool_action_on_a_gui_desktop_is_a_failed_step_not_a_crash() -> None:
    require_gui_stack()
    with CrossDeviceEnv(_task({"desktop": "gui"})) as env:
        env.reset()
        out = env.step({"device": "linux_0", "action": "write_file", "args": {"path": "~/x", "content": "y"}})
        assert not out.result.ok and out.result.error_code == "UNKNOWN_ACTION"
        assert "click" in out.result.message
        bad = env.step({"device": "linux_0", "action": "click", "args": {"x": 5}})
        assert not bad.result.ok and bad.result.error_code == "INVALID_ARGS"
        assert not env.evaluate().success
