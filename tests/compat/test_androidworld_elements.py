"""The observation an AndroidWorld agent gets: its State and UIElement fields, its element filter."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
from PIL import Image

from devicesworld.compat.androidworld import AndroidWorldEnv, BoundingBox, UIElement
from tests.devices.android.android_helpers import phone_task

# representation_utils.UIElement in google-research/android_world, in its order
ANDROIDWORLD_FIELDS = [
    "text",
    "content_description",
    "class_name",
    "bbox",
    "bbox_pixels",
    "hint_text",
    "is_checked",
    "is_checkable",
    "is_clickable",
    "is_editable",
    "is_enabled",
    "is_focused",
    "is_focusable",
    "is_long_clickable",
    "is_scrollable",
    "is_selected",
    "is_visible",
    "package_name",
    "resource_name",
    "tooltip",
    "resource_id",
    "metadata",
]
ANN = ("add_contact", {"name": "Ann Lee", "phone": "+15550101"})


def _messages_new_chat(env: AndroidWorldEnv) -> list[UIElement]:
    env.reset()
    env.execute_action({"action_type": "open_app", "app_name": "Simple SMS Messenger"})
    fab = _index(env, resource_suffix="conversations_fab")
    env.execute_action({"action_type": "click", "index": fab})
    return env.get_state().ui_elements


def _index(env: AndroidWorldEnv, *, resource_suffix: str | None = None, text: str | None = None) -> int:
    for i, el in enumerate(env.get_state().ui_elements):
        if resource_suffix is not None and (el.resource_name or "").endswith("/" + resource_suffix):
            return i
        if text is not None and el.text == text:
            return i
    raise AssertionError(f"no element {resource_suffix or text!r}")


def test_ui_element_and_bounding_box_have_exactly_androidworlds_fields() -> None:
    assert [f.name for f in dataclasses.fields(UIElement)] == ANDROIDWORLD_FIELDS
    assert [f.name for f in dataclasses.fields(BoundingBox)] == ["x_min", "x_max", "y_min", "y_max"]
    box = BoundingBox(10, 30, 100, 140)
    assert box.center == (20.0, 120.0) and box.width == 20 and box.height == 40 and box.area == 800


def test_state_has_rgb_pixels_of_the_logical_screen_and_elements_with_boxes() -> None:
    env = AndroidWorldEnv(phone_task([ANN]))
    state = env.reset()
    width, height = env.logical_screen_size
    assert state.pixels is not None
    assert state.pixels.shape == (height, width, 3) and str(state.pixels.dtype) == "uint8"
    assert state.forest is None
    png = env.session.env.screenshots()[env.device_id]
    assert (np.asarray(Image.open(io.BytesIO(png)).convert("RGB")) == state.pixels).all()
    assert env.orientation == 0 and env.physical_frame_boundary == (0, 0, width, height)
    assert env.device_screen_size == (width, height) and env.ask_question("which?") is None
    assert state.auxiliaries["foreground_activity"] == env.foreground_activity_name
    assert state.ui_elements
    for el in state.ui_elements:
        assert el.bbox is not None and el.bbox_pixels is not None and el.is_visible
        assert abs(el.bbox.x_min - el.bbox_pixels.x_min / width) < 1e-9
        assert abs(el.bbox.y_max - el.bbox_pixels.y_max / height) < 1e-9
    env.close()


def test_resource_name_is_filled_and_resource_id_left_empty_as_in_androidworld() -> None:
    env = AndroidWorldEnv(phone_task([ANN]), pixels=False)
    elements = _messages_new_chat(env)
    named = [el for el in elements if el.resource_name]
    assert any(
        el.resource_name == "com.simplemobiletools.smsmessenger:id/new_conversation_address" for el in named
    )
    assert all(el.resource_id is None for el in elements)
    assert all(el.tooltip is None and el.metadata is None for el in elements)
    # every element our own list names by id is named here too (SeeAct keys on resource_name)
    native = env.session.observe()[env.device_id]["ui_elements"]
    native_ids = {el["resource_id"] for el in native if el["resource_id"] and not el.get("children")}
    assert {el.resource_name for el in named} <= native_ids
    env.close()


def test_clickable_rows_are_not_listed_but_their_children_are_and_a_tap_on_them_opens_the_row() -> None:
    env = AndroidWorldEnv(phone_task([ANN]), pixels=False)
    elements = _messages_new_chat(env)
    native = env.session.observe()[env.device_id]["ui_elements"]
    assert any(el["resource_id"] and el["resource_id"].endswith("id/contact") for el in native)
    assert not any((el.resource_name or "").endswith("id/contact") for el in elements)
    title = next(el for el in elements if el.text == "Ann Lee")
    assert title.is_clickable is False  # the row takes the touch, as on a device
    env.execute_action({"action_type": "click", "index": elements.index(title)})
    assert env.last_result is not None and env.last_result.ok
    assert env.foreground_activity_name.endswith(".thread")
    env.close()


def test_the_focused_field_says_so() -> None:
    env = AndroidWorldEnv(phone_task([ANN]), pixels=False)
    elements = _messages_new_chat(env)
    field = next(el for el in elements if el.is_editable)
    assert field.is_focusable and field.hint_text
    env.execute_action({"action_type": "click", "index": elements.index(field)})
    assert next(el for el in env.get_state().ui_elements if el.is_editable).is_focused
    env.close()


def test_a_landscape_tablet_reports_its_logical_size_and_matching_pixels() -> None:
    env = AndroidWorldEnv(phone_task([ANN], profile={"device": "wxga_tablet"}))
    state = env.reset()
    width, height = env.logical_screen_size
    assert width > height
    assert state.pixels is not None and state.pixels.shape == (height, width, 3)
    assert all(
        el.bbox_pixels is not None and 0 <= el.bbox_pixels.x_min <= el.bbox_pixels.x_max <= width
        for el in state.ui_elements
    )
    env.close()
