"""A persona world's phone databases from the disk cache give the phone a fresh fill gives."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from devicesworld import diskcache
from devicesworld.devices.android import world as android_world
from devicesworld.devices.android.device import AndroidDevice
from devicesworld.devices.android.state import snapshot
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task
from devicesworld.worlds.generate import clear_cache as forget_worlds


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(diskcache.SWITCH_ENV, raising=False)
    forget_worlds()
    android_world._DATABASES.clear()
    yield tmp_path / "cache"
    forget_worlds()
    android_world._DATABASES.clear()


def _phone_state(seed: int) -> tuple[dict[str, str], list[object], list[object]]:
    task = Task.model_validate(
        {
            "id": "world.cache",
            "instruction": "x",
            "devices": [{"id": "android_0", "kind": "android"}],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
            "world": {"persona_seed": seed, "size": "small"},
        }
    )
    with CrossDeviceEnv(task) as env:
        env.reset()
        device = env.device("android_0")
        assert isinstance(device, AndroidDevice)
        get = env.getter_for("android_0")
        return dict(snapshot(device)), get("contacts", {}), get("sms", {})


def test_a_cache_hit_and_a_miss_give_the_same_phone(cache_dir: Path) -> None:
    miss = _phone_state(44)
    assert any((cache_dir / "phone-databases").rglob("*")), "the miss stored the databases"
    forget_worlds()
    android_world._DATABASES.clear()
    hit = _phone_state(44)
    assert hit == miss
    assert len(miss[0]) > 100 and miss[1] and miss[2]


def test_a_damaged_entry_is_filled_again(cache_dir: Path) -> None:
    miss = _phone_state(45)
    for entry in (cache_dir / "phone-databases").rglob("*"):
        if entry.is_file():
            entry.write_bytes(entry.read_bytes()[:100])
    android_world._DATABASES.clear()
    assert _phone_state(45) == miss
