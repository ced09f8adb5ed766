"""The ``android`` device kind: its declaration tables, profile, state and traits in one object.

Actions are declared on their handlers in :mod:`.device`, setup ops in :mod:`.setup`,
getters in :mod:`.getters`, checks in :mod:`.checks`.
"""

from __future__ import annotations

from devicesworld.devices.android.checks import CHECKS
from devicesworld.devices.android.device import ACTIONS, factory
from devicesworld.devices.android.getters import GETTERS
from devicesworld.devices.android.profiles import AndroidProfile
from devicesworld.devices.android.setup import SETUP_OPS
from devicesworld.devices.android.state import STATE, WRITES
from devicesworld.devices.android.traits import TRAITS
from devicesworld.devices.android.world import WORLD
from devicesworld.devices.base import DeviceKind

KIND = DeviceKind(
    name="android",
    doc="A simulated Android phone: system UI, apps with SQLite state, UI element list, screenshots.",
    factory=factory,
    actions=ACTIONS,
    setup_ops=SETUP_OPS,
    getters=GETTERS,
    checks=CHECKS.with_writes(WRITES),
    profile_model=AndroidProfile,
    state=STATE,
    world=WORLD,
    traits=TRAITS,
)
