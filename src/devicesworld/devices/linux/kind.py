"""The ``linux`` device kind: its declaration tables, profile, state and traits in one object.

Actions are declared on their handlers in :mod:`.device`, setup ops in :mod:`.setup`,
getters in :mod:`.getters`, checks in :mod:`.checks` and :mod:`.gui.checks`; a
``desktop: gui`` device publishes and accepts the GUI table instead (:data:`.device.GUI_ACTIONS`),
a ``hybrid`` one the GUI table plus ``run_command`` (:data:`.device.HYBRID_ACTIONS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import devicesworld.devices.linux.gui.checks  # noqa: F401  (declares the GUI checks on CHECKS)
from devicesworld.devices.base import DeviceKind
from devicesworld.devices.desktop.actions import actions_by_desktop
from devicesworld.devices.linux import args as a
from devicesworld.devices.linux.checks import CHECKS
from devicesworld.devices.linux.device import ACTIONS, GUI_ACTIONS, HYBRID_ACTIONS, factory
from devicesworld.devices.linux.getters import GETTERS
from devicesworld.devices.linux.setup import SETUP_OPS
from devicesworld.devices.linux.state import STATE, WRITES
from devicesworld.devices.linux.traits import TRAITS
from devicesworld.devices.linux.world import WORLD


def legacy_profile(profile: Mapping[str, Any]) -> dict[str, Any]:
    """In a ``schema_version: 1`` task a ``gui`` desktop had a shell: it reads as ``hybrid``."""
    out = dict(profile)
    if out.get("desktop") == "gui":
        out["desktop"] = "hybrid"
    return out


KIND = DeviceKind(
    name="linux",
    doc="A Linux desktop in a bubblewrap sandbox: shell, files, office documents, mail drafts, a browser on local sites, ~/Drive.",
    factory=factory,
    actions=ACTIONS,
    setup_ops=SETUP_OPS,
    getters=GETTERS,
    checks=CHECKS.with_writes(WRITES),
    profile_model=a.LinuxProfile,
    state=STATE,
    world=WORLD,
    traits=TRAITS,
    # ``gui`` publishes the GUI table alone, ``hybrid`` adds ``run_command``; ``api`` the tool-style actions
    profile_actions=actions_by_desktop(ACTIONS, gui=GUI_ACTIONS, hybrid=HYBRID_ACTIONS),
    legacy_profile=legacy_profile,
)
