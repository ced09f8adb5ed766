"""What LLM agents are told about the smart home (registered in :mod:`devicesworld.prompthints`)."""

from __future__ import annotations

from devicesworld import prompthints

prompthints.register(
    "smarthome",
    act="The SmartHome state is not shown in its observation: query it "
    "(list_rooms, list_devices, get_device_state, ...).",
    plan="The SmartHome state is not shown: plan queries for it.",
)
