"""The ``smarthome`` device kind: its declaration tables, profile, state and traits in one object.

Actions, setup ops and getters are declared on their handlers in :mod:`device`,
checks in :mod:`checks`; the environment, the spec validator and the prompt builders
read the tables; the simulator behind them lives in :mod:`home`.
"""

from __future__ import annotations

from devicesworld.devices.base import DeviceKind
from devicesworld.devices.smarthome import args as a
from devicesworld.devices.smarthome import hints  # noqa: F401  (registers the kind's prompt hint)
from devicesworld.devices.smarthome.checks import CHECKS, WRITES
from devicesworld.devices.smarthome.device import ACTIONS, GETTERS, SETUP_OPS, factory
from devicesworld.devices.smarthome.state import STATE
from devicesworld.devices.smarthome.traits import TRAITS
from devicesworld.devices.smarthome.world import WORLD

KIND = DeviceKind(
    name="smarthome",
    doc="A simulated home: 11 device categories, room climate, appliances, schedules, virtual clock.",
    factory=factory,
    actions=ACTIONS,
    setup_ops=SETUP_OPS,
    getters=GETTERS,
    checks=CHECKS.with_writes(WRITES),
    profile_model=a.HomeProfile,
    state=STATE,
    world=WORLD,
    traits=TRAITS,
)
