"""AndroidWorld compatibility: agents written for AndroidWorld drive our phones unchanged.

``AndroidWorldEnv`` has AndroidWorld's environment interface (``reset``,
``get_state``, ``execute_action``), ``UIElement``/``BoundingBox`` its element
fields, and :func:`parse_action` its ``JSONAction`` rules. See docs/android.md.
"""

from devicesworld.compat.androidworld.actions import ACTION_TYPES, AWAction, InvalidAction, parse_action
from devicesworld.compat.androidworld.elements import BoundingBox, UIElement
from devicesworld.compat.androidworld.env import AndroidWorldEnv, State

__all__ = [
    "ACTION_TYPES",
    "AWAction",
    "AndroidWorldEnv",
    "BoundingBox",
    "InvalidAction",
    "State",
    "UIElement",
    "parse_action",
]
