"""What each command does to a device, once :meth:`Home.execute` has validated it.

Handlers are small functions ``(home, device, params) -> message``, indexed by command
name. They enforce the state machines (INVALID_IN_STATE) and emit device events;
ranges, types and power were already checked from the catalog declarations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from devicesworld.devices.smarthome.appliances import RVC_MIN_START_BATTERY, Cycle, Rvc
from devicesworld.devices.smarthome.errors import ErrorCode, SmartHomeError

if TYPE_CHECKING:
    from devicesworld.devices.smarthome.home import Home, HomeDevice

Handler = Callable[["Home", "HomeDevice", dict[str, Any]], str]


def _bad_state(dev: HomeDevice, command: str, state: str, hint: str) -> SmartHomeError:
    return SmartHomeError(
        ErrorCode.INVALID_IN_STATE, f"cannot {command} {dev.id} while it is {state}; {hint}"
    )


def _turn(home: Home, dev: HomeDevice, on: bool) -> str:
    if dev.attrs["power"] == on:
        return f"{dev.id} is already {'on' if on else 'off'}"
    dev.attrs["power"] = on
    message = f"{dev.id} turned {'on' if on else 'off'}"
    if not on and dev.cycle is not None and dev.cycle.state in ("running", "paused"):
        dev.cycle.stop()
        home.emit(dev.id, "stopped")
        message += "; the running cycle was cancelled"
    home.emit(dev.id, "turned_on" if on else "turned_off")
    return message


def turn_on(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    return _turn(home, dev, True)


def turn_off(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    return _turn(home, dev, False)


def toggle(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    return _turn(home, dev, not dev.attrs["power"])


def _setter(attr: str, param: str, unit: str = "") -> Handler:
    def handler(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
        dev.attrs[attr] = p[param]
        return f"{dev.id}.{attr} set to {p[param]}{unit}"

    return handler


def open_cover(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    dev.attrs["position"] = 100
    return f"{dev.id} opened (position 100%)"


def close_cover(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    dev.attrs["position"] = 0
    return f"{dev.id} closed (position 0%)"


def _not_while(
    dev: HomeDevice, machine: Cycle | Rvc | None, busy: tuple[str, ...], change: str, hint: str
) -> None:
    """A setting the appliance reads when it starts may not ``change`` while its cycle or run is ``busy``."""
    if machine is not None and machine.state in busy:
        raise _bad_state(dev, change, machine.state, hint)


def set_program(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    _not_while(dev, dev.cycle, ("running", "paused"), "change the program of", "stop the cycle first")
    dev.attrs["program"] = p["program"]
    minutes = dev.category.programs[p["program"]]
    return f"{dev.id} program set to {p['program']} ({minutes} min)"


def set_clean_mode(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    busy = ("cleaning", "returning")
    _not_while(dev, dev.rvc, busy, "change the clean mode of", "pause it or wait until it is docked")
    dev.attrs["clean_mode"] = p["mode"]
    return f"{dev.id} clean mode set to {p['mode']}"


def start(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    if dev.rvc is not None:
        rvc = dev.rvc
        if rvc.state != "docked":
            raise _bad_state(dev, "start", rvc.state, "use resume for a paused robot")
        battery = rvc.battery(home.now)
        if battery < RVC_MIN_START_BATTERY:
            raise SmartHomeError(
                ErrorCode.INVALID_IN_STATE,
                f"{dev.id} battery is {battery:.0f}%, below the {RVC_MIN_START_BATTERY:.0f}% "
                "needed to start; let it charge on the dock",
            )
        due = rvc.start(home.now, len(home.rooms), dev.attrs["clean_mode"])
        home.queue.push(due, "cycle", dev.id, rvc.gen)
        home.emit(dev.id, "started")
        return (
            f"{dev.id} started cleaning ({dev.attrs['clean_mode']}, {round(rvc.clean_left / 60)} min planned)"
        )
    cycle = dev.cycle
    assert cycle is not None
    if cycle.state in ("running", "paused"):
        raise _bad_state(dev, "start", cycle.state, "use resume, or stop it first")
    program = dev.attrs["program"]
    minutes = dev.category.programs[program]
    due = cycle.start(home.now, minutes, dev.category.phases)
    home.queue.push(due, "cycle", dev.id, cycle.gen)
    home.emit(dev.id, "started")
    return f"{dev.id} started program {program} ({minutes} min)"


def pause(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    if dev.rvc is not None:
        if dev.rvc.state not in ("cleaning", "returning"):
            raise _bad_state(dev, "pause", dev.rvc.state, "only a cleaning or returning robot can pause")
        dev.rvc.pause(home.now)
    else:
        assert dev.cycle is not None
        if dev.cycle.state != "running":
            raise _bad_state(dev, "pause", dev.cycle.state, "only a running cycle can pause")
        dev.cycle.pause(home.now)
    home.emit(dev.id, "paused")
    return f"{dev.id} paused"


def resume(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    if dev.rvc is not None:
        if dev.rvc.state != "paused":
            raise _bad_state(dev, "resume", dev.rvc.state, "only a paused robot can resume")
        due = dev.rvc.resume(home.now, dev.attrs["clean_mode"])
        home.queue.push(due, "cycle", dev.id, dev.rvc.gen)
    else:
        assert dev.cycle is not None
        if dev.cycle.state != "paused":
            raise _bad_state(dev, "resume", dev.cycle.state, "only a paused cycle can resume")
        due = dev.cycle.resume(home.now)
        home.queue.push(due, "cycle", dev.id, dev.cycle.gen)
    home.emit(dev.id, "resumed")
    return f"{dev.id} resumed"


def stop(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    cycle = dev.cycle
    assert cycle is not None
    if cycle.state not in ("running", "paused"):
        raise _bad_state(dev, "stop", cycle.state, "there is no cycle to stop")
    cycle.stop()
    home.emit(dev.id, "stopped")
    return f"{dev.id} stopped; it is idle"


def return_to_dock(home: Home, dev: HomeDevice, p: dict[str, Any]) -> str:
    rvc = dev.rvc
    assert rvc is not None
    if rvc.state in ("docked", "returning"):
        raise _bad_state(dev, "send home", rvc.state, "it is already docked or on its way")
    due = rvc.go_home(home.now)
    home.queue.push(due, "cycle", dev.id, rvc.gen)
    home.emit(dev.id, "returning")
    return f"{dev.id} is returning to its dock"


HANDLERS: dict[str, Handler] = {
    "turn_on": turn_on,
    "turn_off": turn_off,
    "toggle": toggle,
    "set_brightness": _setter("brightness", "brightness", "%"),
    "open": open_cover,
    "close": close_cover,
    "set_position": _setter("position", "position", "% open"),
    "set_mode": _setter("mode", "mode"),
    "set_target_temperature": _setter("target_temperature", "temperature", " °C"),
    "set_fan_speed": _setter("fan_speed", "speed"),
    "set_target_humidity": _setter("target_humidity", "humidity", "%"),
    "set_program": set_program,
    "set_clean_mode": set_clean_mode,
    "start": start,
    "pause": pause,
    "resume": resume,
    "stop": stop,
    "return_to_dock": return_to_dock,
}
