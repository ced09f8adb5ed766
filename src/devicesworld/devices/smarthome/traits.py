"""What other layers need to know about the home: one per task, live state, appliance surfaces."""

from __future__ import annotations

from devicesworld.devices.traits import KindTraits, KindUse


def surfaces(use: KindUse) -> set[str]:
    """A category counts when setup adds a device of it and a condition or a step touches that device."""
    categories = {
        str(args.get("device_id")): str(args.get("category")) for op, args in use.setup if op == "add_device"
    }
    touched = {str(args.get("device_id")) for args in use.conditions if "device_id" in args}
    touched |= {str(args["device_id"]) for _, args in use.steps if args.get("device_id") is not None}
    out = {f"smarthome:{categories[d]}" for d in touched if d in categories}
    return out or {"smarthome:home"}


TRAITS = KindTraits(
    noun="smart home",
    noun_pattern=r"\bsmart[- ]home(?:['\u2019]s|s)?\b",
    place="in the smart home",
    single_instance=True,
    live_state=True,
    surfaces=surfaces,
    prompt_hint=(
        "The SmartHome state is not shown in its observation: query it "
        "(list_rooms, list_devices, get_device_state, ...)."
    ),
    planner_hint="The SmartHome state is not shown: plan queries for it.",
)
