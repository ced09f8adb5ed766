"""A persona world's desktop from the disk cache is the rendered one, byte for byte; its persona is the user."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from devicesworld import diskcache
from devicesworld.devices.linux import world as linux_world
from devicesworld.devices.linux.device import LinuxDevice
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Task
from devicesworld.worlds import build_world
from devicesworld.worlds.generate import clear_cache as forget_worlds
from tests.devices.linux.linux_harness import require_bwrap


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(diskcache.SWITCH_ENV, raising=False)
    forget_worlds()
    linux_world.clear_cache()
    yield tmp_path / "cache"
    forget_worlds()
    linux_world.clear_cache()


def _home_state(seed: int) -> dict[str, tuple[bytes, int, int]]:
    task = Task.model_validate(
        {
            "id": "world.cache",
            "instruction": "x",
            "devices": [{"id": "linux_0", "kind": "linux"}],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
            "world": {"persona_seed": seed, "size": "small"},
        }
    )
    with CrossDeviceEnv(task) as env:
        env.reset()
        device = env.device("linux_0")
        assert isinstance(device, LinuxDevice)
        home = device.sandbox.paths.home
        out: dict[str, tuple[bytes, int, int]] = {}
        for folder, _, files in os.walk(home):
            for name in files:
                path = Path(folder) / name
                st = path.stat()
                out[str(path.relative_to(home))] = (path.read_bytes(), st.st_mtime_ns, st.st_mode)
        return out


def test_template_from_disk_equals_a_fresh_render(cache_dir: Path) -> None:
    world = build_world(41, "small")
    first = linux_world.template(world)  # rendered and stored
    assert any((cache_dir / "desktop-templates").rglob("*"))
    linux_world.clear_cache()
    again = linux_world.template(world)  # read back
    assert again is not first
    assert again == first == linux_world.render_template(world)


def test_a_damaged_template_entry_is_rendered_again(cache_dir: Path) -> None:
    world = build_world(42, "small")
    first = linux_world.template(world)
    for entry in (cache_dir / "desktop-templates").rglob("*"):
        if entry.is_file():
            entry.write_bytes(entry.read_bytes()[:-10])
    linux_world.clear_cache()
    assert linux_world.template(world) == first


def test_a_cache_hit_and_a_miss_give_the_same_home(cache_dir: Path) -> None:
    require_bwrap()
    miss = _home_state(43)
    assert any((cache_dir / "desktop-templates").rglob("*")), "the miss stored the template"
    forget_worlds()
    linux_world.clear_cache()
    hit = _home_state(43)
    assert hit == miss
    assert len(miss) > 20


def test_the_worlds_persona_is_the_desktops_user_and_their_mail_is_from_them() -> None:
    require_bwrap()
    task = Task.model_validate(
        {
            "id": "world.owner",
            "instruction": "x",
            "devices": [{"id": "linux_0", "kind": "linux"}],
            "setup": [
                {
                    "device": "linux_0",
                    "op": "write_eml",
                    "args": {"to": ["ann.lee@example.org"], "subject": "Plan", "body": "Hi"},
                }
            ],
            "evaluation": {"conditions": [{"id": "c", "device": "env", "check": "finished"}]},
            "world": {"persona_seed": 44, "size": "small"},
        }
    )
    with CrossDeviceEnv(task) as env:
        env.reset()
        device = env.device("linux_0")
        assert isinstance(device, LinuxDevice)
        own = build_world(44, "small", task.start_time).persona.person.email
        assert device.owner_address == own
        assert f"From: {own}" in (device.sandbox.paths.home / "Mail/Drafts/Plan.eml").read_text()
