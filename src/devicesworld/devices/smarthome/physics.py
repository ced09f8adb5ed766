"""Room climate in closed form: no per-minute ticking, exact at any instant.

Each room variable (temperature °C, humidity %, PM2.5 µg/m³) obeys a sum of
first-order pulls ``dx/dt = Σ k_i (target_i - x)``, whose solution between two
events is ``x(t) = x_eq + (x0 - x_eq)·e^{-k t}`` with ``k = Σ k_i`` and
``x_eq = Σ k_i·target_i / k``. Appliances act one way only (an AC in cool mode
never warms a cold room), so a one-sided pull is active only on its side of its
target; when the trajectory would cross such a target we compute the crossing time
in closed form and the home re-anchors the room there. Illuminance needs no state:
it is computed on read from the time of day, curtains and lamps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

HOUR = 3600.0
VARIABLES = ("temperature", "humidity", "pm25")

OUTDOOR_RATE_PER_H = {"temperature": 0.1, "humidity": 0.2, "pm25": 0.15}
FAN_FACTOR = {"low": 0.7, "medium": 1.0, "high": 1.4, "auto": 1.2}
PURIFIER_RATE_PER_H = {"low": 1.0, "medium": 2.0, "high": 3.5, "auto": 2.5}
CLEAN_AIR_PM25 = 5.0
AC_DRY_TARGET = 40.0
AC_COOL_HUMIDITY_TARGET = 45.0
WINDOW_PEAK_LUX = 800.0
LIGHT_LUX = 300.0
DIMMABLE_MAX_LUX = 400.0
_TIE = 1e-6


@dataclass(frozen=True, slots=True)
class Pull:
    """``k`` per second toward ``target``; ``side`` -1 acts only above target, +1 only below, 0 both."""

    k: float
    target: float
    side: int = 0


@dataclass(slots=True)
class Trajectory:
    """One variable between events: anchored value ``x0`` at ``t0``, rate ``k``, equilibrium ``eq``."""

    x0: float
    t0: float
    k: float = 0.0
    eq: float = 0.0

    def at(self, t: float) -> float:
        if self.k == 0.0:
            return self.x0
        return self.eq + (self.x0 - self.eq) * math.exp(-self.k * (t - self.t0))


def _active(x0: float, pulls: list[Pull]) -> list[Pull]:
    two_sided = [p for p in pulls if p.side == 0]
    clear = [p for p in pulls if p.side != 0 and p.side * (p.target - x0) > _TIE]
    base = two_sided + clear
    k_base = sum(p.k for p in base)
    eq_base = sum(p.k * p.target for p in base) / k_base if k_base else x0
    out = list(base)
    for p in pulls:
        if p.side != 0 and abs(p.target - x0) <= _TIE and p.side * (p.target - eq_base) > 0:
            out.append(p)  # sitting on its target while the rest of the room pushes past it
    return out


def solve(traj: Trajectory, pulls: list[Pull]) -> float | None:
    """Set ``traj``'s rate and equilibrium from ``pulls``; return seconds to the next crossing, if any."""
    active = _active(traj.x0, pulls)
    k = sum(p.k for p in active)
    traj.k = k
    traj.eq = sum(p.k * p.target for p in active) / k if k else traj.x0
    if k == 0.0:
        return None
    lo, hi = sorted((traj.x0, traj.eq))
    best: float | None = None
    for p in pulls:
        if p.side != 0 and lo + _TIE < p.target < hi - _TIE:
            dt = math.log((traj.x0 - traj.eq) / (p.target - traj.eq)) / k
            if best is None or dt < best:
                best = dt
    return best


def device_pulls(category: str, attrs: dict[str, Any]) -> Iterable[tuple[str, Pull]]:
    """The pulls a switched-on device exerts on its room, per variable."""
    if not attrs.get("power"):
        return ()
    if category == "air_conditioner":
        fan = FAN_FACTOR[attrs["fan_speed"]] / HOUR
        mode, target = attrs["mode"], float(attrs["target_temperature"])
        if mode == "cool":
            return (
                ("temperature", Pull(1.2 * fan, target, -1)),
                ("humidity", Pull(0.15 * fan, AC_COOL_HUMIDITY_TARGET, -1)),
            )
        if mode == "heat":
            return (("temperature", Pull(1.2 * fan, target, +1)),)
        if mode == "dry":
            return (("humidity", Pull(0.6 * fan, AC_DRY_TARGET, -1)),)
        if mode == "auto":
            return (("temperature", Pull(1.0 * fan, target, 0)),)
        return ()
    if category == "heater":
        rate = 1.0 if attrs["mode"] == "heat" else 0.5
        return (("temperature", Pull(rate / HOUR, float(attrs["target_temperature"]), +1)),)
    if category == "humidifier":
        return (("humidity", Pull(0.8 / HOUR, float(attrs["target_humidity"]), +1)),)
    if category == "dehumidifier":
        return (("humidity", Pull(0.8 / HOUR, float(attrs["target_humidity"]), -1)),)
    if category == "air_purifier":
        return (("pm25", Pull(PURIFIER_RATE_PER_H[attrs["fan_speed"]] / HOUR, CLEAN_AIR_PM25, -1)),)
    return ()


def outdoor_pulls(outdoor: dict[str, float]) -> list[tuple[str, Pull]]:
    return [(v, Pull(OUTDOOR_RATE_PER_H[v] / HOUR, outdoor[v], 0)) for v in VARIABLES]


def sun_factor(hour_of_day: float) -> float:
    """0 at night, rising from 06:00 to a peak of 1 at noon, back to 0 at 18:00."""
    if hour_of_day <= 6.0 or hour_of_day >= 18.0:
        return 0.0
    return math.sin(math.pi * (hour_of_day - 6.0) / 12.0)


def lamp_lux(category: str, attrs: dict[str, Any]) -> float:
    if not attrs.get("power"):
        return 0.0
    if category == "light":
        return LIGHT_LUX
    if category == "dimmable_light":
        return DIMMABLE_MAX_LUX * float(attrs["brightness"]) / 100.0
    return 0.0
