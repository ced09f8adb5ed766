"""What LLM agents are told about the smart home (registered in :mod:`devicesworld.prompthints`)."""

from __future__ import annotations

from devicesworld import prompthints

prompthints.register(
    "smarthome",
    act="The SmartHome's observation shows no state: query it (list_devices, get_device_state, ...).",
    plan="The SmartHome state is not shown: plan queries for it.",
)
