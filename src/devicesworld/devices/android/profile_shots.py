"""Screenshots of the same screens under several device profiles (B-MoCA's randomization, visible).

    python -m devicesworld.devices.android.profile_shots --out shots/

plays one short scenario — the launcher, a Messages thread while typing a reply, the
alarm time picker — on each profile (by default: a light English Pixel 3, a dark
Korean Pixel 6, an Arabic WXGA tablet) and saves ``<profile>_<screen>.png`` next to
``<profile>_<screen>.txt``, the element list the agent gets for the same frame, so
one can check that the picture shows what the UI tree says.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from devicesworld.devices.android.device import AndroidDevice
from devicesworld.devices.android.kind import KIND
from devicesworld.devices.base import DeviceContext, VirtualClock
from devicesworld.spec.models import DEFAULT_START_TIME

DEFAULT_PROFILES = ("light_en_phone", "dark_ko_phone", "ar_tablet")
PHONE = "android_0"
SETUP: list[tuple[str, dict[str, Any]]] = [
    ("add_contact", {"name": "Ann Lee", "phone": "+15550101"}),
    ("add_sms", {"address": "+15550101", "body": "Dinner at 7?", "minutes_ago": 12}),
    ("incoming_sms", {"address": "+15550101", "body": "Bring the salad, please"}),
]
"""The setup ops every profile starts from (a contact, an old message, a new one)."""


def _phone(preset: str, workdir: Path) -> AndroidDevice:
    """A phone on ``preset`` after :data:`SETUP`, made from the kind's own parts (no environment).

    The kind sits below the environment, so this command builds its device the way the
    controller does: the kind's factory, then each setup op's arguments parsed by its model.
    """
    context = DeviceContext(
        task_id=f"shots-{preset}", clock=VirtualClock(DEFAULT_START_TIME), workdir=workdir
    )
    phone = AndroidDevice(PHONE, {"preset": preset}, context)
    for op, args in SETUP:
        phone.setup(op, KIND.setup_ops[op].parse_args(args))
    return phone


def _index(phone: AndroidDevice, rid: str) -> int:
    elements = phone.observe()["ui_elements"]
    return next(i for i, e in enumerate(elements) if (e["resource_id"] or "").endswith("/" + rid))


def _step(phone: AndroidDevice, action: str, **args: Any) -> None:
    result = phone.act(action, KIND.actions[action].parse_args(args))
    if not result.ok:
        raise RuntimeError(f"{action} {args}: {result.message}")


def _scenario() -> list[tuple[str, Callable[[AndroidDevice], None]]]:
    def launcher(phone: AndroidDevice) -> None:
        pass

    def thread(phone: AndroidDevice) -> None:
        _step(phone, "open_app", app_name="com.simplemobiletools.smsmessenger")
        _step(phone, "click", index=_index(phone, "conversation"))
        _step(phone, "input_text", index=_index(phone, "thread_type_message"), text="Sure! See you at 7")

    def picker(phone: AndroidDevice) -> None:
        _step(phone, "open_app", app_name="com.google.android.deskclock")
        _step(phone, "click", index=_index(phone, "fab"))

    return [("launcher", launcher), ("thread", thread), ("time_picker", picker)]


def save_profile_shots(out: Path, presets: tuple[str, ...] = DEFAULT_PROFILES) -> list[Path]:
    """Render every scenario screen under every preset; returns the PNG paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for preset in presets:
        for name, play in _scenario():
            with tempfile.TemporaryDirectory(prefix="dw-shots-") as workdir:
                phone = _phone(preset, Path(workdir))
                try:
                    play(phone)
                    png = phone.screenshot()
                    if png is None:
                        raise RuntimeError(f"{preset}: the phone rendered no screenshot")
                    path = out / f"{preset}_{name}.png"
                    path.write_bytes(png)
                    (out / f"{preset}_{name}.txt").write_text(phone.observe()["screen_text"] + "\n", "utf-8")
                    written.append(path)
                finally:
                    phone.close()
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("profile_shots"), help="folder for the PNG files")
    parser.add_argument("--profiles", nargs="+", default=list(DEFAULT_PROFILES), help="profile presets")
    ns = parser.parse_args(argv)
    for path in save_profile_shots(ns.out, tuple(ns.profiles)):
        print(path)


if __name__ == "__main__":
    main()
