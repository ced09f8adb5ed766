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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task

DEFAULT_PROFILES = ("light_en_phone", "dark_ko_phone", "ar_tablet")
PHONE = "android_0"


def _task(preset: str) -> Task:
    return Task.model_validate(
        {
            "id": f"shots-{preset}",
            "instruction": "profile screenshots",
            "devices": [{"id": PHONE, "kind": "android", "profile": {"preset": preset}}],
            "setup": [
                {"device": PHONE, "op": "add_contact", "args": {"name": "Ann Lee", "phone": "+15550101"}},
                {
                    "device": PHONE,
                    "op": "add_sms",
                    "args": {"address": "+15550101", "body": "Dinner at 7?", "minutes_ago": 12},
                },
                {
                    "device": PHONE,
                    "op": "incoming_sms",
                    "args": {"address": "+15550101", "body": "Bring the salad, please"},
                },
            ],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
        }
    )


def _index(env: CrossDeviceEnv, rid: str) -> int:
    elements = env.observe()[PHONE]["ui_elements"]
    return next(i for i, e in enumerate(elements) if (e["resource_id"] or "").endswith("/" + rid))


def _step(env: CrossDeviceEnv, action: str, **args: Any) -> None:
    result = env.step({"device": PHONE, "action": action, "args": args}).result
    if not result.ok:
        raise RuntimeError(f"{action} {args}: {result.message}")


def _scenario() -> list[tuple[str, Callable[[CrossDeviceEnv], None]]]:
    def launcher(env: CrossDeviceEnv) -> None:
        pass

    def thread(env: CrossDeviceEnv) -> None:
        _step(env, "open_app", app_name="com.simplemobiletools.smsmessenger")
        _step(env, "click", index=_index(env, "conversation"))
        _step(env, "input_text", index=_index(env, "thread_type_message"), text="Sure! See you at 7")

    def picker(env: CrossDeviceEnv) -> None:
        _step(env, "open_app", app_name="com.google.android.deskclock")
        _step(env, "click", index=_index(env, "fab"))

    return [("launcher", launcher), ("thread", thread), ("time_picker", picker)]


def save_profile_shots(out: Path, presets: tuple[str, ...] = DEFAULT_PROFILES) -> list[Path]:
    """Render every scenario screen under every preset; returns the PNG paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for preset in presets:
        for name, play in _scenario():
            with CrossDeviceEnv(_task(preset)) as env:
                env.reset()
                play(env)
                png = env.screenshots()[PHONE]
                path = out / f"{preset}_{name}.png"
                path.write_bytes(png)
                (out / f"{preset}_{name}.txt").write_text(env.observe()[PHONE]["screen_text"] + "\n", "utf-8")
                written.append(path)
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
