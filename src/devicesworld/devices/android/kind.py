"""The ``android`` device kind: actions, setup ops, getters and checks, declared as data."""

from __future__ import annotations

from devicesworld.devices.android.actions import ACTIONS
from devicesworld.devices.android.checks import CHECKS
from devicesworld.devices.android.device import factory
from devicesworld.devices.android.getters import GETTERS
from devicesworld.devices.android.profiles import AndroidProfile
from devicesworld.devices.android.setup import SETUP_OPS
from devicesworld.devices.android.state import STATE, with_writes
from devicesworld.devices.android.world import WORLD
from devicesworld.devices.base import DeviceKind, by_name

KIND = DeviceKind(
    name="android",
    doc="A simulated Android phone: system UI, apps with SQLite state, UI element list, screenshots.",
    factory=factory,
    actions=by_name(ACTIONS),
    setup_ops=by_name(SETUP_OPS),
    getters=by_name(GETTERS),
    checks=by_name(with_writes(CHECKS)),
    profile_model=AndroidProfile,
    state=STATE,
    world=WORLD,
)
