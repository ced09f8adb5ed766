"""Transfer tasks: move a file from one device to another through the shared drive.

The composer inserts one wherever a file produced on one device is consumed on
another (JarvisGUI's transfer insertion). A transfer runs on the *target* device
(its clause and condition are there) but its reference steps start on the source:
copy the file onto the drive there, then from the drive into the target's
download folder. Desktops reach the drive at ``~/Drive``; phones through the Files
app's Drive root. The condition checks the file arrived with its code inside.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from devicesworld.spec.models import Condition, Step
from devicesworld.tasks.authoring.android_script import On, ScriptItem
from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library.files import located


def _to_drive(ref: dict[str, Any], device: str) -> list[ScriptItem]:
    """Steps on the source device that put the file onto the shared drive."""
    if device.startswith("linux"):
        return [Step(device=device, action="run_command", args={"command": f"cp {ref['path']} ~/Drive/"})]
    ph = On(device)
    folder, name = ref["path"].rsplit("/", 1)
    return [
        ph.open("Files"),
        ph.tap(rid="root_sdcard"),
        ph.tap(text=folder),
        ph.hold(text=name),
        ph.tap(rid="action_copy"),
        ph.back(),
        ph.back(),
        ph.tap(rid="root_drive"),
        ph.tap(rid="clip_paste"),
        ph.back(),
        ph.back(),
    ]


@dataclass(frozen=True)
class Transfer:
    """One transfer task per (source kind, target kind); the kinds pick the steps and the check."""

    source_kind: str
    target_kind: str

    @property
    def name(self) -> str:
        return f"transfer_{self.source_kind}_to_{self.target_kind}"

    @property
    def platform(self) -> str:
        return self.target_kind

    @property
    def inputs(self) -> tuple[Slot, ...]:
        return (Slot("file", "file"),)

    @property
    def outputs(self) -> tuple[Slot, ...]:
        return (Slot("file", "file"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        source = inputs["file"]
        ref = source.value
        name = ref["name"]
        assert source.device is not None
        steps = _to_drive(ref, source.device)
        if self.target_kind == "linux":
            path = f"~/Downloads/{name}"
            steps.append(
                Step(
                    device=ctx.device_id,
                    action="run_command",
                    args={"command": f"mkdir -p ~/Downloads && cp ~/Drive/{name} ~/Downloads/"},
                )
            )
            where = "~/Downloads"
            condition = Condition(
                id="arrived",
                device=ctx.device_id,
                check="file_contains",
                args={"path": path, "contains": [ref["code"]]},
            )
            out = located(ref, path=path, location="home")
        else:
            ph = On(ctx.device_id)
            path = f"Download/{name}"
            steps += [
                ph.open("Files"),
                ph.tap(rid="root_drive"),
                ph.hold(text=name),
                ph.tap(rid="action_copy"),
                ph.back(),
                ph.tap(rid="root_sdcard"),
                ph.tap(text="Download"),
                ph.tap(rid="clip_paste"),
                ph.back(),
                ph.back(),
            ]
            where = "the Download folder"
            condition = Condition(
                id="arrived",
                device=ctx.device_id,
                check="file_exists",
                args={"path": path, "contains": [ref["code"]]},
            )
            out = located(ref, path=path, location="sdcard")
        return Fragment(
            instruction=f"bring {source.mention} here into {where} through the shared drive",
            conditions=[condition],
            solution=steps,
            outputs={"file": SlotValue(source.type, out, f"the file {name}", False, ctx.device_id)},
        )


TRANSFERS = {(src, dst): Transfer(src, dst) for src in ("linux", "android") for dst in ("linux", "android")}
"""Every ordered pair of file-holding kinds (the SmartHome holds no files)."""
