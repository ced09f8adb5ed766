"""What other layers need to know about the home: one per task, live state, appliance surfaces."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from devicesworld.devices.traits import KindTraits, KindUse, Splice, StepTuple


def surfaces(use: KindUse) -> set[str]:
    """A category counts when setup adds a device of it and a condition or a step touches that device."""
    categories = {
        str(args.get("device_id")): str(args.get("category")) for op, args in use.setup if op == "add_device"
    }
    touched = {str(args.get("device_id")) for args in use.conditions if "device_id" in args}
    touched |= {str(args["device_id"]) for _, args in use.steps if args.get("device_id") is not None}
    out = {f"smarthome:{categories[d]}" for d in touched if d in categories}
    return out or {"smarthome:home"}


def paraphrases(steps: Sequence[StepTuple], start: datetime) -> list[Splice]:
    """Correct variants of the home's reference steps (issue 32's paraphrase gate): a harmless read
    first; each schedule at a clock time given as the delay that falls on it, and each delay as the
    clock time it falls on (reckoned from the task's start, so only before any ``advance_time``)."""
    out = [Splice("a harmless extra read (list_schedules)", 0, 0, (("list_schedules", {}),))]
    for i, (action, args) in enumerate(steps):
        if action == "advance_time":
            break
        if action != "create_schedule":
            continue
        base = {k: v for k, v in args.items() if k not in ("at", "delay_minutes", "after_event")}
        at = args.get("at")
        if isinstance(at, str) and len(at) == 5 and at[2] == ":":
            due = start.replace(hour=int(at[:2]), minute=int(at[3:]), second=0, microsecond=0)
            if due <= start:
                due += timedelta(days=1)
            minutes = (due - start).total_seconds() / 60.0
            out.append(
                Splice(
                    f"{at} as a {minutes:g}-minute delay",
                    i,
                    1,
                    (("create_schedule", {**base, "delay_minutes": minutes}),),
                )
            )
        delay = args.get("delay_minutes")
        if isinstance(delay, int | float):
            due = start + timedelta(minutes=float(delay))
            if due.second == 0:
                when = due.isoformat(timespec="minutes")
                out.append(
                    Splice(
                        f"a {delay:g}-minute delay as {when}",
                        i,
                        1,
                        (("create_schedule", {**base, "at": when}),),
                    )
                )
    return out


TRAITS = KindTraits(
    services=frozenset(),
    paraphrases=paraphrases,
    noun="smart home",
    noun_pattern=r"\bsmart[- ]home(?:['\u2019]s|s)?\b",
    place="in the smart home",
    surfaces=surfaces,
)
