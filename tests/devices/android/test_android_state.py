"""Storage layout, setup ops, getters, checks' details, profiles and cleanup."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.android.checks import CHECKS
from devicesworld.devices.android.i18n import _T, LANGUAGES, tr
from devicesworld.devices.android.profiles import preset_names, presets, resolve_profile
from devicesworld.devices.base import DeviceError
from devicesworld.env.controller import CrossDeviceEnv, EnvError
from tests.devices.android.android_helpers import Driver, phone_task


def test_databases_are_laid_out_like_android_providers(tmp_path: Path) -> None:
    task = phone_task([("add_sms", {"address": "+1555", "body": "hi"})])
    with CrossDeviceEnv(task, workdir=tmp_path) as env:
        env.reset()
        get = env.getter_for("android_0")
        for getter in ("contacts", "calls", "events", "alarms", "media"):  # providers open on first use
            get(getter, {})
        root = tmp_path / "android_0"
        for rel in (
            "data/data/com.android.providers.telephony/databases/mmssms.db",
            "data/data/com.android.providers.contacts/databases/contacts2.db",
            "data/data/com.android.providers.calendar/databases/calendar.db",
            "data/data/com.android.providers.settings/databases/settings.db",
            "data/data/com.google.android.deskclock/databases/alarms.db",
            "sdcard/DCIM/Camera",
            "sdcard/Documents/Markor",
        ):
            assert (root / rel).exists(), rel
    assert not (tmp_path / "android_0").exists()  # cleanup removes the phone's storage


def test_setup_ops_and_getters() -> None:
    setup = [
        ("add_contact", {"name": "Ann", "phone": "+15550101", "company": "Acme"}),
        ("add_sms", {"address": "+15550101", "body": "yo", "sent": True}),
        ("add_call", {"number": "+15550101", "kind": "missed"}),
        ("add_event", {"title": "Dentist", "start": "2026-03-03T10:00:00"}),
        ("add_alarm", {"hour": 6, "minute": 5, "days": ["sat"]}),
        ("add_file", {"path": "Download/a.txt", "text": "A"}),
        ("add_file", {"path": "shared/b.txt", "text": "B", "location": "drive"}),
        ("add_note", {"name": "todo.md", "text": "- milk"}),
    ]
    with CrossDeviceEnv(phone_task(setup)) as env:
        env.reset()
        d = Driver(env)
        assert d.get("contacts")[0]["company"] == "Acme"
        assert d.get("sms")[0]["box"] == "sent"
        assert d.get("calls")[0]["kind"] == "missed"
        assert d.get("events")[0]["dtend"] == "2026-03-03T11:00"
        assert d.get("alarms")[0]["days"] == ["sat"]
        assert d.get("file", path="Download/a.txt") == "A"
        assert d.get("file", path="shared/b.txt", location="drive") == "B"
        assert "Documents/Markor/todo.md" in d.get("files")


def test_bad_setup_is_a_clear_error() -> None:
    task = phone_task([("add_file", {"path": "../../etc/passwd", "text": "x"})])
    env = CrossDeviceEnv(task)
    with pytest.raises(EnvError, match="outside /sdcard"):
        env.reset()
    env.close()


def test_check_details_are_readable() -> None:
    checks = dict(CHECKS)

    def get(name: str, args: Mapping[str, Any]) -> Any:
        return {"sms": [{"box": "sent", "address": "+15550101", "body": "hello"}],
                "alarms": [{"hour": 7, "minute": 0, "enabled": False, "days": [], "label": ""}]}.get(name, {})  # fmt: skip

    sms = checks["sms_sent"]
    out = sms.fn(get, sms.args_model.model_validate({"to": "5550101", "body": "bye"}))
    assert not out.passed and "'hello'" in out.detail
    assert sms.fn(get, sms.args_model.model_validate({"to": "555-0101", "body": " HELLO "})).passed
    alarm = checks["alarm_exists"]
    out = alarm.fn(get, alarm.args_model.model_validate({"hour": 7, "minute": 0}))
    assert not out.passed and "enabled=False" in out.detail


def test_profiles_shipped_and_resolved() -> None:
    assert len(preset_names("train")) == 35 and len(preset_names("test")) == 10
    train = [presets()[n] for n in preset_names("train")]
    assert {p["device"] for p in train} == {"pixel_3"}
    train_keys = {tuple(sorted(p.items())) for p in train}
    assert all(tuple(sorted(presets()[n].items())) not in train_keys for n in preset_names("test"))
    tablet = resolve_profile({"preset": "ar_tablet"})
    assert tablet.device == "wxga_tablet" and tablet.language == "ar"
    assert resolve_profile({"preset": "ar_tablet", "language": "fr"}).language == "fr"
    with pytest.raises(DeviceError):
        resolve_profile({"device": "nokia_3310"})


def test_every_string_is_translated() -> None:
    for key, entry in _T.items():
        assert len(entry) == len(LANGUAGES) and all(entry), key
    assert tr("ko", "msg.send") == "보내기"
    assert tr("xx", "msg.send") == "Send"


def test_korean_and_arabic_profiles_show_translated_mirrored_ui() -> None:
    with CrossDeviceEnv(phone_task(profile={"language": "ar"})) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="Settings")  # English names work in every language
        assert d.has(text="الإعدادات")
        d.tap(rid="network")
        up = d.elements()[d.find(rid="toolbar_up")]["bbox_pixels"]
        title = d.elements()[d.find(rid="toolbar_title")]["bbox_pixels"]
        assert up["x_min"] > title["x_min"]  # right to left: "up" is on the right
    with CrossDeviceEnv(phone_task(profile={"language": "ko"})) as env:
        env.reset()
        d = Driver(env)
        d.do("open_app", app_name="메시지")
        assert d.has(text="채팅 시작")
