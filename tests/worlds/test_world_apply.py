"""Tasks name a world; each kind puts its slice on its device before the task's own setup."""

from __future__ import annotations

import gzip
import json
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from devicesworld import jsonl
from devicesworld.devices.base import describe_validation_error
from devicesworld.env.controller import CrossDeviceEnv, EnvError
from devicesworld.spec.models import Task, task_json_schema
from devicesworld.tasks.shipped import read_suite
from devicesworld.worlds import build_world
from tests.devices.android.android_helpers import Driver

FINISHED = {"conditions": [{"id": "c", "device": "env", "check": "finished"}]}


def _task(kinds: list[str], world: dict[str, Any] | None, **extra: Any) -> Task:
    ids = [f"{k}_{kinds[:i].count(k)}" for i, k in enumerate(kinds)]
    doc: dict[str, Any] = {
        "id": "world.test",
        "instruction": "x",
        "devices": [{"id": d, "kind": k} for d, k in zip(ids, kinds, strict=True)],
        "evaluation": FINISHED,
        **extra,
    }
    if world is not None:
        doc["world"] = world
    return Task.model_validate(doc)


def test_the_phone_holds_the_world_phone() -> None:
    world = build_world(31, "small")
    with CrossDeviceEnv(_task(["android"], {"persona_seed": 31, "size": "small"})) as env:
        env.reset()
        get = env.getter_for("android_0")
        contacts = get("contacts", {})
        work = sum(1 for p in world.phone.contacts if p.phone2)
        assert len(contacts) == len(world.phone.contacts) + work
        assert {c["name"] for c in contacts} >= {p.name for p in world.phone.contacts}
        assert len(get("sms", {})) == len(world.phone.messages)
        threads = get("threads", {})
        assert len(threads) == len({m.address for m in world.phone.messages})
        assert sum(t["message_count"] for t in threads) == len(world.phone.messages)
        assert len(get("events", {})) == len(world.phone.events)
        assert len(get("alarms", {})) == len(world.phone.alarms)
        songs = [m for m in get("media", {}) if m["_data"].startswith("/sdcard/Music/")]
        assert sorted((s["title"], s["artist"]) for s in songs) == sorted(
            (s.title, s.artist) for s in world.phone.songs
        )
        files = set(get("files", {}))
        assert {f"Documents/Markor/{n.name}" for n in world.phone.notes} <= files
        assert {f.path for f in world.phone.files} <= files
        note = world.phone.notes[0]
        assert get("file", {"path": f"Documents/Markor/{note.name}"}) == note.text
        prefs = get("app_prefs", {})
        assert prefs["net.osmand"]["saved_places"] == [p.name for p in world.phone.places if p.saved]
        # the Messages app sees the world's threads through the same providers
        code = world.pick("verification_code")
        assert any(code.target.value in m["body"] for m in get("sms", {}))


def test_the_desktop_holds_the_world_home_folder() -> None:
    world = build_world(32, "small")
    with CrossDeviceEnv(_task(["linux"], {"persona_seed": 32, "size": "small"})) as env:
        env.reset()
        get = env.getter_for("linux_0")
        listing = set(get("listing", {"path": "~"}))
        assert {f.path for f in world.desktop.files} <= listing
        report = world.pick("file")
        docx = get("docx", {"path": "~/" + str(report.target.value)})
        text = json.dumps(docx)
        assert report.target.fields["budget"] in text and "Summary" in text
        sheet = next(f for f in world.desktop.files if f.format == "xlsx")
        assert len(get("xlsx", {"path": "~/" + sheet.path})) == len(sheet.rows)
        drafts = get("email_drafts", {"folder": "~/Mail/Drafts"})
        assert drafts and all("error" not in d for d in drafts)
        assert get("text", {"path": "~/.bash_history"}).splitlines() == world.desktop.shell_history
        assert env.resource_problems() == []


def test_the_home_holds_the_world_home_and_setup_overrides_it() -> None:
    world = build_world(33, "small")
    heater = next(d for d in world.home.devices if d.category == "heater")
    override = [
        {
            "device": "smarthome_0",
            "op": "set_state",
            "args": {"device_id": heater.device_id, "attributes": {"power": True}},
        }
    ]
    with CrossDeviceEnv(_task(["smarthome"], {"persona_seed": 33, "size": "small"}, setup=override)) as env:
        env.reset()
        state = env.getter_for("smarthome_0")("state", {})
        assert set(state["rooms"]) == {r.name for r in world.home.rooms}
        assert set(state["devices"]) == {d.device_id for d in world.home.devices}
        assert len(state["schedules"]) == len(world.home.schedules)
        assert state["devices"][heater.device_id]["attributes"]["power"] is True
        room = world.home.rooms[0]
        assert state["rooms"][room.name]["temperature"] == pytest.approx(room.temperature, abs=0.05)


def test_only_the_first_device_of_a_kind_takes_the_world_unless_named() -> None:
    with CrossDeviceEnv(_task(["smarthome", "smarthome"], {"persona_seed": 34, "size": "small"})) as env:
        env.reset()
        assert env.getter_for("smarthome_0")("state", {})["rooms"]
        assert not env.getter_for("smarthome_1")("state", {})["rooms"]
    named = {"persona_seed": 34, "size": "small", "devices": ["smarthome_1"]}
    with CrossDeviceEnv(_task(["smarthome", "smarthome"], named)) as env:
        env.reset()
        assert not env.getter_for("smarthome_0")("state", {})["rooms"]
        assert env.getter_for("smarthome_1")("state", {})["rooms"]


def test_a_kind_without_worlds_is_skipped_or_refused_when_named() -> None:
    with CrossDeviceEnv(_task(["toy"], {"persona_seed": 1, "size": "small"})) as env:
        env.reset()  # nothing to apply, no error
    with pytest.raises(EnvError, match="world: toy device toy_0 does not take worlds"):
        CrossDeviceEnv(_task(["toy"], {"persona_seed": 1, "size": "small", "devices": ["toy_0"]})).reset()


def test_without_a_world_the_devices_start_empty() -> None:
    with CrossDeviceEnv(_task(["android", "smarthome"], None)) as env:
        env.reset()
        assert env.getter_for("android_0")("contacts", {}) == []
        assert env.getter_for("smarthome_0")("state", {})["rooms"] == {}


def test_setup_and_cleanup_leave_no_work_folder() -> None:
    env = CrossDeviceEnv(_task(["android", "linux", "smarthome"], {"persona_seed": 35, "size": "small"}))
    env.reset()
    folder = env._workdir
    assert folder is not None and folder.is_dir()
    env.close()
    assert env.cleanup_errors == []
    assert not Path(folder).exists()


def test_the_world_field_is_validated_with_clear_messages() -> None:
    with pytest.raises(
        ValidationError, match=r"world\.devices names devices the task does not have: linux_9"
    ):
        _task(["android"], {"persona_seed": 1, "devices": ["linux_9"]})
    with pytest.raises(ValidationError, match="persona_seed"):
        _task(["android"], {"persona_seed": "1"})
    with pytest.raises(ValidationError, match="size"):
        _task(["android"], {"persona_seed": 1, "size": "huge"})
    with pytest.raises(ValidationError) as caught:
        _task(["android"], {"persona_seed": 1, "sead": 2})
    assert "world.sead: unknown field" in describe_validation_error(caught.value)


def test_the_schema_describes_the_world_field() -> None:
    schema = task_json_schema()
    assert "world" in schema["properties"]
    world = schema["$defs"]["WorldSpec"]["properties"]
    assert {"persona_seed", "size", "devices", "reads"} <= set(world)


def test_a_task_without_a_world_serialises_as_before() -> None:
    task = _task(["android"], None)
    assert "world" not in json.loads(task.model_dump_json())
    with_world = _task(["android"], {"persona_seed": 2})
    assert json.loads(with_world.model_dump_json())["world"]["persona_seed"] == 2


def test_the_shipped_smoke_suite_is_unchanged_byte_for_byte() -> None:
    path = Path(__file__).resolve().parents[2] / "src/devicesworld/tasks/data/smoke-v1.jsonl.gz"
    lines = gzip.decompress(path.read_bytes()).decode("utf-8").splitlines(keepends=True)
    tasks = read_suite("smoke")  # the handwritten file (smoke also takes smoke-gui)
    assert all(t.world is None for t in tasks)
    assert [jsonl.model_line(t, exclude_defaults=False) for t in tasks] == lines


def test_loading_refuses_a_world_on_a_kind_without_worlds() -> None:
    from devicesworld.tasks.semantic import semantic_problems

    task = _task(["toy"], {"persona_seed": 1, "devices": ["toy_0"]})
    assert semantic_problems(task) == [("world.devices.0", "toy device toy_0 does not take worlds")]
    assert semantic_problems(_task(["smarthome"], {"persona_seed": 1, "devices": ["smarthome_0"]})) == []


def test_the_desktops_world_folders_are_dated_by_their_newest_file_not_the_host_clock() -> None:
    world = build_world(32, "small")
    with CrossDeviceEnv(_task(["linux"], {"persona_seed": 32, "size": "small"})) as env:
        env.reset()
        home = env.device("linux_0").sandbox.paths.home  # type: ignore[attr-defined]
        project = next(f.path.split("/")[1] for f in world.desktop.files if f.path.endswith(".docx"))
        newest = max(f.mtime for f in world.desktop.files if f.path.startswith(f"Documents/{project}/"))
        shown = (home / "Documents" / project).stat().st_mtime
        assert shown == newest.replace(tzinfo=UTC).timestamp()  # March 2026, not the host's day


def _about(env: CrossDeviceEnv, device: str) -> str:
    d = Driver(env, device)
    d.do("open_app", app_name="Settings")
    d.tap(text="About phone")
    return d.screen()


def test_each_phone_of_a_household_names_its_owner_in_settings() -> None:
    """Two phones of one household were both "Me": which is whose is now in Settings > About."""
    spec = {"persona_seed": 2, "size": "small", "members": {"android_1": "partner"}}
    mine = build_world(2, "small").persona.person.name
    with CrossDeviceEnv(_task(["android", "android"], spec)) as env:
        env.reset()
        first, second = _about(env, "android_0"), _about(env, "android_1")
    assert f"{mine}'s Pixel 3" in first
    assert "'s Pixel 3" in second and mine not in second and "Me" not in second.split()


def test_a_task_that_names_the_owner_keeps_it_and_a_phone_without_a_world_is_me() -> None:
    doc = _task(["android", "android"], {"persona_seed": 2, "size": "small", "devices": ["android_0"]})
    named = doc.model_copy(
        update={
            "devices": [doc.devices[0].model_copy(update={"profile": {"owner_name": "Kim"}}), doc.devices[1]]
        }
    )
    with CrossDeviceEnv(named) as env:
        env.reset()
        named_screen, bare_screen = _about(env, "android_0"), _about(env, "android_1")
    assert "Kim" in named_screen and "'s Pixel 3" not in named_screen
    assert "Me" in bare_screen and "'s Pixel 3" not in bare_screen
