"""A seeded monkey: thousands of random taps, typing, scrolls and navigation never crash the phone."""

from __future__ import annotations

import random

import pytest

from devicesworld.env.controller import CrossDeviceEnv
from tests.devices.android.android_helpers import Driver, phone_task

SETUP = [
    ("add_contact", {"name": "Ann Lee", "phone": "+15550101"}),
    ("add_sms", {"address": "+15550101", "body": "hi"}),
    ("add_event", {"title": "Dentist", "start": "2026-03-02T10:00:00"}),
    ("add_alarm", {"hour": 7, "minute": 0}),
    ("add_file", {"path": "Download/a.txt", "text": "A"}),
    ("add_note", {"name": "n.md", "text": "x"}),
    ("add_song", {"title": "Song"}),
    ("add_playlist", {"name": "Mix", "songs": ["Song"]}),
    ("add_place", {"name": "Cafe", "lat": 1.0, "lon": 2.0}),
    ("add_page", {"url": "http://a.local", "text": "-> http://a.local/b"}),
    ("add_file", {"path": "x/y.txt", "text": "drive", "location": "drive"}),
]
APPS = ["Messages", "Contacts", "Phone", "Clock", "Calendar", "Files", "Markor", "Calculator", "Music", "Maps",
        "Camera", "Audio Recorder", "Browser", "Settings"]  # fmt: skip


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_walk_never_crashes(seed: int) -> None:
    rng = random.Random(seed)
    task = phone_task(SETUP, profile={"language": ["en", "ko", "ar"][seed % 3]})
    task = task.model_copy(update={"limits": task.limits.model_copy(update={"max_steps": 5000})})
    with CrossDeviceEnv(task) as env:
        env.reset()
        d = Driver(env)
        seen: set[str] = set()
        for _ in range(1500):
            n = len(d.elements())
            roll = rng.random()
            if roll < 0.55:
                result = d.do(
                    rng.choice(["click", "click", "long_press", "double_tap"]), index=rng.randrange(n + 2)
                )
            elif roll < 0.7:
                result = d.do(
                    "input_text", text=rng.choice(["7", "Ann", "12:30", "x.md", ""]), clear=rng.random() < 0.5
                )
            elif roll < 0.78:
                result = d.do("scroll", direction=rng.choice(["up", "down"]))
            elif roll < 0.84:
                result = d.do(
                    rng.choice(["navigate_back", "navigate_home", "keyboard_enter", "navigate_recents"])
                )
            elif roll < 0.9:
                result = d.do("open_app", app_name=rng.choice(APPS))
            elif roll < 0.95:
                pts = [rng.random() for _ in range(4)]
                result = d.do("gesture", touch_point=pts[:2], lift_point=pts[2:])
            else:
                result = d.do("wait", seconds=rng.choice([1, 30, 600]))
            assert result.error_code != "INTERNAL_ERROR", result.message
            obs = d.obs()
            assert "error" not in obs, obs
            seen.add(obs["foreground_activity"])
        assert len(seen) >= 15, seen  # the walk really went through many screens
        assert env.screenshots()["android_0"][:4] == b"\x89PNG"
