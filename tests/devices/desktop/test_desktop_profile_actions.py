"""A desktop kind publishes the action table its profile's ``desktop`` names."""

from __future__ import annotations

from devicesworld.devices.base import ActionSpec
from devicesworld.devices.desktop.actions import actions_by_desktop

API: dict[str, ActionSpec] = {}
GUI: dict[str, ActionSpec] = {}
HYBRID: dict[str, ActionSpec] = {}


def test_the_profile_names_the_table_and_anything_else_gets_the_default() -> None:
    pick = actions_by_desktop(API, gui=GUI, hybrid=HYBRID)
    assert pick({"desktop": "gui"}) is GUI
    assert pick({"desktop": "hybrid"}) is HYBRID
    assert pick({}) is API
    assert pick({"desktop": "api"}) is API
    assert pick({"desktop": None}) is API
