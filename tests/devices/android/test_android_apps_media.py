"""Music, Maps, Camera, Audio Recorder and Browser."""

from __future__ import annotations

from typing import Any

from devicesworld.env.controller import CrossDeviceEnv
from tests.devices.android.android_helpers import Driver, phone_task

SONGS = [("add_song", {"title": t, "artist": a}) for t, a in
         (("Blue Train", "Coltrane"), ("So What", "Davis"), ("Take Five", "Brubeck"))]  # fmt: skip


def _env(setup: list[tuple[str, dict[str, Any]]]) -> CrossDeviceEnv:
    env = CrossDeviceEnv(phone_task(setup))
    env.reset()
    return env


def test_music_play_pause_next_and_playlists() -> None:
    env = _env([*SONGS, ("add_playlist", {"name": "Jazz", "songs": ["So What"]})])
    d = Driver(env)
    d.do("open_app", app_name="Music")
    d.tap(text="Take Five")
    prefs = d.get("app_prefs")["code.name.monkey.retromusic"]
    assert prefs == {"now_playing": "Take Five", "playing": True}
    d.tap(rid="playPauseButton")
    assert d.get("app_prefs")["code.name.monkey.retromusic"]["playing"] is False
    d.tap(rid="nextButton")
    assert d.get("app_prefs")["code.name.monkey.retromusic"]["now_playing"] == "Blue Train"
    d.do("navigate_back")
    assert d.do("long_press", index=d.find(text="Blue Train")).ok
    d.tap(text="Jazz")
    assert d.get("playlists") == {"Jazz": ["So What", "Blue Train"]}
    d.tap(rid="tab_playlists")
    d.tap(rid="new_playlist")
    d.type("Road trip", rid="playlist_name")
    d.tap(text="OK")
    assert "Road trip" in d.get("playlists")
    env.close()


def test_maps_search_details_and_save() -> None:
    env = _env([("add_place", {"name": "Central Library", "address": "1 Main St", "lat": 40.1, "lon": -73.2,
                               "category": "library"}),
                ("add_place", {"name": "Corner Cafe", "address": "9 Elm St", "lat": 40.2, "lon": -73.3,
                               "category": "cafe"})])  # fmt: skip
    d = Driver(env)
    d.do("open_app", app_name="Maps")
    d.type("cafe", rid="searchEditText")
    d.do("keyboard_enter")
    assert d.has(text="Corner Cafe") and not d.has(text="Central Library")
    d.tap(text="Corner Cafe")
    assert d.has(text="40.20000, -73.30000")
    d.tap(rid="save_button")
    assert d.get("app_prefs")["net.osmand"]["saved_places"] == ["Corner Cafe"]
    env.close()


def test_camera_takes_photos_into_dcim() -> None:
    env = _env([])
    d = Driver(env)
    d.do("open_app", app_name="Camera")
    d.tap(rid="shutter_button")
    d.tap(rid="shutter_button")
    shots = [f for f in d.get("files") if f.startswith("DCIM/Camera/")]
    assert len(shots) == 2 and all(f.endswith(".jpg") for f in shots)
    env.close()


def test_recorder_records_virtual_time() -> None:
    env = _env([])
    d = Driver(env)
    d.do("open_app", app_name="Audio Recorder")
    d.tap(rid="btn_record_start")
    d.do("wait", seconds=12)
    assert "00:12" in d.screen()
    d.tap(rid="btn_stop")
    last = d.get("app_prefs")["com.dimowner.audiorecorder"]["last_recording"]
    assert last == {"path": "Recordings/Record-1.wav", "seconds": 12.0}
    assert "Recordings/Record-1.wav" in d.get("files")
    env.close()


def test_browser_pages_links_and_airplane() -> None:
    env = _env([("add_page", {"url": "http://intranet.local", "title": "Intranet", "text": "Welcome\n-> http://intranet.local/menu"}),
                ("add_page", {"url": "intranet.local/menu", "title": "Menu", "text": "Soup: lentil"})])  # fmt: skip
    d = Driver(env)
    d.do("open_app", app_name="Browser")
    d.type("intranet.local", rid="url_bar")
    d.do("keyboard_enter")
    assert d.has(text="Welcome")
    d.tap(rid="link")
    assert d.has(text="Soup: lentil")
    assert d.get("app_prefs")["com.android.chrome"]["current_url"] == "http://intranet.local/menu"
    d.type("nowhere.example", clear=True, rid="url_bar")
    d.do("keyboard_enter")
    assert d.has(text="This site can't be reached")
    env.close()
