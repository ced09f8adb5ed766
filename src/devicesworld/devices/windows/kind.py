"""The ``windows`` device kind: its declaration tables, profile, state and traits in one object.

The actions (the shared GUI table), setup ops and getters are declared on their handlers
in :mod:`.device`, the checks in :mod:`.checks`, the persona world's slice in :mod:`.world`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from devicesworld.devices.base import DeviceKind
from devicesworld.devices.desktop.actions import actions_by_desktop
from devicesworld.devices.windows import args as a
from devicesworld.devices.windows.checks import CHECKS
from devicesworld.devices.windows.device import (
    ACTIONS,
    GETTERS,
    HYBRID_ACTIONS,
    LAUNCH_MODEL,
    SETUP_OPS,
    factory,
)
from devicesworld.devices.windows.state import STATE, WRITES
from devicesworld.devices.windows.traits import TRAITS
from devicesworld.devices.windows.world import WORLD

__all__ = ["KIND", "LAUNCH_MODEL"]


def legacy_profile(profile: Mapping[str, Any]) -> dict[str, Any]:
    """A ``schema_version: 1`` task was written when every Windows device had ``run_command``."""
    return {"desktop": "hybrid", **profile}


KIND = DeviceKind(
    name="windows",
    doc=r"A Windows desktop on Wine (Notepad, WordPad, Explorer, cmd) with C:\Users\user\Desktop|Documents|Downloads|Pictures and the network drive N:.",
    factory=factory,
    actions=ACTIONS,
    setup_ops=SETUP_OPS,
    getters=GETTERS,
    checks=CHECKS.with_writes(WRITES),
    profile_model=a.WindowsProfile,
    state=STATE,
    world=WORLD,
    traits=TRAITS,
    # ``hybrid`` adds cmd's ``run_command``; the default ``gui`` publishes no shell action
    profile_actions=actions_by_desktop(ACTIONS, hybrid=HYBRID_ACTIONS),
    legacy_profile=legacy_profile,
)
