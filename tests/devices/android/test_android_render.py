"""Screenshots: PNGs of the view tree at the device's resolution, themed, and the profile-shots command."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageStat

from devicesworld.devices.android.profile_shots import save_profile_shots
from devicesworld.env.controller import CrossDeviceEnv
from tests.devices.android.android_helpers import Driver, phone_task


def _shot(profile: dict[str, object], app: str | None = None) -> Image.Image:
    with CrossDeviceEnv(phone_task(profile=profile)) as env:
        env.reset()
        if app:
            Driver(env).do("open_app", app_name=app)
        png = env.screenshots()["android_0"]
    return Image.open(io.BytesIO(png))


def test_screenshot_has_the_device_resolution() -> None:
    assert _shot({"device": "pixel_4_xl"}).size == (1440, 3040)
    assert _shot({"device": "wxga_tablet"}).size == (1280, 800)


def test_dark_mode_is_darker() -> None:
    light = ImageStat.Stat(_shot({}, "Settings").convert("L")).mean[0]
    dark = ImageStat.Stat(_shot({"dark_mode": True}, "Settings").convert("L")).mean[0]
    assert dark < light - 80


def test_dialog_dims_the_screen_behind_it() -> None:
    with CrossDeviceEnv(phone_task()) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Clock")
        before = ImageStat.Stat(Image.open(io.BytesIO(env.screenshots()["android_0"])).convert("L")).mean[0]
        d.tap(rid="fab")
        after = ImageStat.Stat(Image.open(io.BytesIO(env.screenshots()["android_0"])).convert("L")).mean[0]
    assert after < before


def test_profile_shots_command_writes_three_profiles(tmp_path: Path) -> None:
    written = save_profile_shots(tmp_path)
    names = {p.name for p in written}
    assert {"light_en_phone_thread.png", "dark_ko_phone_thread.png", "ar_tablet_thread.png"} <= names
    assert "보내기" in (tmp_path / "dark_ko_phone_thread.txt").read_text("utf-8")
    assert Image.open(tmp_path / "ar_tablet_thread.png").size == (1280, 800)


def test_png_writer_round_trips_pixels() -> None:
    import numpy as np

    from devicesworld.devices.android.png import encode_png

    img = Image.new("RGB", (37, 11), (10, 200, 30))
    img.putpixel((5, 5), (255, 0, 0))
    back = Image.open(io.BytesIO(encode_png(img)))
    assert back.size == (37, 11) and np.array_equal(np.asarray(back.convert("RGB")), np.asarray(img))


def test_every_labelled_element_is_drawn_inside_its_box() -> None:
    """The screenshot shows what the element list says: each labelled box has ink in it."""
    setup = [("add_contact", {"name": "Ann Lee", "phone": "+15550101"}),
             ("add_sms", {"address": "+15550101", "body": "hello there"})]  # fmt: skip
    for profile in ({}, {"dark_mode": True, "language": "ar", "device": "wxga_tablet"}):
        with CrossDeviceEnv(phone_task(setup, profile=profile)) as env:
            env.reset()
            d = Driver(env)
            d.do("open_app", app_name="Messages")
            d.tap(rid="conversation")
            img = Image.open(io.BytesIO(env.screenshots()["android_0"])).convert("L")
            for el in d.elements():
                if not (el["text"] or el["content_description"]):
                    continue
                b = el["bbox_pixels"]
                crop = img.crop((b["x_min"], b["y_min"], b["x_max"], b["y_max"]))
                lo, hi = crop.getextrema()
                assert isinstance(lo, int) and isinstance(hi, int)  # one band ("L"): two numbers
                assert hi - lo > 40, (profile, el)
