"""Camera: a viewfinder and a shutter; each shot writes a picture into ``/sdcard/DCIM/Camera``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from devicesworld.devices.android import providers as p
from devicesworld.devices.android.apps.base import App, Screen
from devicesworld.devices.android.media import write_picture
from devicesworld.devices.android.ui import view as v
from devicesworld.devices.android.ui.view import View

if TYPE_CHECKING:
    from devicesworld.devices.android.device import AndroidDevice
    from devicesworld.devices.android.setup import ImageArgs

PACKAGE = "com.android.camera2"


def setup_image(device: AndroidDevice, args: ImageArgs) -> None:
    """What the ``add_image`` setup op does (declared in :mod:`devicesworld.devices.android.setup`)."""
    path, label, color = args.path, args.label, args.color
    write_picture(device.resolve("sdcard", path), label, color)
    p.add_media(device.storage, "/sdcard/" + path.lstrip("/"), "image/png", device.context.clock.now, label)


class CameraApp(App):
    package = PACKAGE
    label_key = "app.camera"
    permission = "camera"

    def screen_main(self, screen: Screen) -> View:
        def shoot() -> None:
            now = self.phone.clock.now
            n = 0
            while True:
                rel = f"DCIM/Camera/IMG_{now:%Y%m%d_%H%M%S}{'' if n == 0 else f'_{n}'}.jpg"
                if not self.phone.locate("sdcard", rel).exists():
                    break
                n += 1
            write_picture(self.phone.locate("sdcard", rel), f"{now:%Y-%m-%d %H:%M:%S}", (90, 120, 150))
            p.add_media(self.storage, "/sdcard/" + rel, "image/jpeg", now, rel.rsplit("/", 1)[-1])
            self.phone.show_toast(self.t("cam.saved"))

        return self.page(
            View(
                v.FRAME,
                content_description="Viewfinder",
                resource_id=self.rid("preview"),
                fill=True,
                style="dim",
            ),
            v.row(v.icon_button(self.t("cam.shutter"), shoot, rid=self.rid("shutter_button")), height=96),
        )
