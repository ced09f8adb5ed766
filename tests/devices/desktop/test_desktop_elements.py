"""The element list and selectors: what an agent sees and how solutions name elements."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from devicesworld.devices.base import ActionResult, Args
from devicesworld.devices.desktop.actions import (
    GUI_ACTION_NAMES,
    HYBRID_ACTION_NAMES,
    ClickArgs,
    DragArgs,
    HotkeyArgs,
    ScrollArgs,
    Selector,
    gui_action_table,
)
from devicesworld.devices.desktop.elements import element_list, resolve, resolve_step_selectors
from devicesworld.devices.desktop.messages import Node


def _nodes() -> list[Node]:
    return [
        Node(role="frame", name="notes.txt - Mousepad", states=["active", "showing"], box=(0, 0, 640, 480)),
        Node(role="filler", box=(0, 0, 640, 480), states=["showing"]),
        Node(role="push button", name="Save", states=["sensitive", "showing"], box=(10, 10, 20, 20)),
        Node(role="push button", name="Save", states=["showing"], box=(40, 10, 20, 20)),
        Node(role="text", text="hello", states=["editable", "focused", "sensitive"], box=(0, 40, 640, 400)),
    ]


def test_layout_containers_are_dropped_and_indices_are_positions() -> None:
    els = element_list(_nodes())
    assert [e["role"] for e in els] == ["frame", "push button", "push button", "text"]
    assert [e["index"] for e in els] == [0, 1, 2, 3]
    assert els[3]["text"] == "hello" and "focused" in els[3]["states"]
    assert "disabled" in els[2]["states"] and "disabled" not in els[1]["states"]


def test_selector_resolves_the_nth_match_and_none_when_absent() -> None:
    els = element_list(_nodes())
    assert resolve(Selector(role="push button", name="Save"), els) == 1
    assert resolve(Selector(role="push button", name="Save", nth=1), els) == 2
    assert resolve({"role": "text", "text_contains": "hell"}, els) == 3
    assert resolve(Selector(name="Open"), els) is None


def test_step_selectors_become_indices_and_unknown_ones_stay() -> None:
    els = element_list(_nodes())
    out = resolve_step_selectors({"element": {"role": "text"}, "clicks": 2}, els)
    assert out == {"element": 3, "clicks": 2}
    kept = resolve_step_selectors({"element": {"name": "Nope"}}, els)
    assert kept == {"element": {"name": "Nope"}}


def test_target_models_refuse_half_or_double_targets() -> None:
    with pytest.raises(ValidationError):
        ClickArgs.model_validate({"x": 3})
    with pytest.raises(ValidationError):
        ClickArgs.model_validate({"x": 3, "y": 4, "element": 1})
    with pytest.raises(ValidationError):
        ClickArgs.model_validate({})
    with pytest.raises(ValidationError):
        ScrollArgs.model_validate({"x": 1, "y": 1})
    with pytest.raises(ValidationError):
        DragArgs.model_validate({"x": 1, "y": 1, "from_x": 3})
    assert ClickArgs.model_validate({"element": {"role": "text"}}).element == Selector(role="text")


def test_the_published_space_is_jarvisgui_unified_with_the_apps_as_enum() -> None:
    specs = gui_action_table("toy", ["editor", "files"])
    assert set(specs) >= {"click", "type_text", "hotkey", "drag_to", "launch_app", "wait"}
    assert "run_command" not in specs  # GUI-only: the terminal is an app
    schema = specs["launch_app"].args_schema
    assert schema["properties"]["app"]["enum"] == ["editor", "files"]
    hybrid = gui_action_table("toy", ["editor"], shell_doc="a shell")
    assert tuple(hybrid) == HYBRID_ACTION_NAMES and hybrid["run_command"].doc == "a shell"


class _Recorder:
    """A GuiActor that records what the GUI table's handlers forward to it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Args]] = []

    def gui_act(self, action: str, args: Args) -> ActionResult:
        self.calls.append((action, args))
        return ActionResult.success(action)


def test_the_gui_table_forwards_each_action_by_name_and_refuses_bad_arguments() -> None:
    table = gui_action_table("toy", ["editor"])
    assert tuple(table) == GUI_ACTION_NAMES
    device = _Recorder()
    assert table.act(device, "hotkey", {"keys": ["ctrl", "s"]}).message == "hotkey"
    assert table.act(device, "launch_app", {"app": "editor"}).ok
    assert [name for name, _ in device.calls] == ["hotkey", "launch_app"]
    assert isinstance(device.calls[0][1], HotkeyArgs) and device.calls[0][1].keys == ["ctrl", "s"]
    bad = table.act(device, "click", {"x": 3})
    assert not bad.ok and bad.error_code == "INVALID_ARGS" and "x and y" in bad.message
    unknown = table.act(device, "paint", {})
    assert not unknown.ok and unknown.error_code == "UNSUPPORTED"
    assert len(device.calls) == 2


def test_libreoffice_root_pane_gap_is_the_distance_to_the_gtk_panel_that_holds_it() -> None:
    """The controller's rule (inside_ctl._lo_gap): a root pane reported above its same-sized GTK
    parent is drawn at the parent's place; anything else is not shifted."""
    from devicesworld.devices.desktop.inside_ctl import _lo_gap

    pane = {"role": "root pane", "box": [0, 48, 1280, 727]}
    assert _lo_gap(pane, [0, 73, 1280, 727]) == 25
    assert _lo_gap(pane, [0, 48, 1280, 727]) == 0  # moved down already: nothing to shift
    assert _lo_gap(pane, [0, 73, 1280, 700]) == 0  # not the same pane's holder
    assert _lo_gap({"role": "panel", "box": [0, 48, 1280, 727]}, [0, 73, 1280, 727]) == 0
    assert _lo_gap(pane, None) == 0
