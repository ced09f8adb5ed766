"""The persona generator: deterministic, sized as issue #13 asks, coherent across surfaces."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

import pytest

from devicesworld.devices.smarthome.catalog import CATEGORY_NAMES
from devicesworld.spec.models import DEFAULT_START_TIME
from devicesworld.worlds import DEFAULT_START, build_world
from devicesworld.worlds.generate import SIZING, clear_cache
from devicesworld.worlds.home import CATEGORIES
from devicesworld.worlds.model import World

SEEDS = (0, 1, 2, 3)


def test_the_default_start_is_the_task_format_default() -> None:
    assert DEFAULT_START == DEFAULT_START_TIME


def test_the_home_categories_are_the_catalog_categories() -> None:
    assert set(CATEGORIES) == set(CATEGORY_NAMES)


@pytest.mark.parametrize("size", ["small", "lived"])
def test_the_same_seed_gives_byte_identical_json(size: str) -> None:
    first = build_world(11, size).to_json()  # type: ignore[arg-type]
    clear_cache()
    again = build_world(11, size).to_json()  # type: ignore[arg-type]
    assert first == again
    assert build_world(12, size).to_json() != first  # type: ignore[arg-type]


def test_a_world_is_cached_per_seed_size_and_start() -> None:
    assert build_world(3, "small") is build_world(3, "small")
    later = build_world(3, "small", DEFAULT_START + timedelta(days=1))
    assert later is not build_world(3, "small")
    assert later.start == DEFAULT_START + timedelta(days=1)


@pytest.mark.parametrize("bad", [-1, True, "3"])
def test_a_bad_seed_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ValueError, match="persona_seed must be an integer"):
        build_world(bad, "small")  # type: ignore[arg-type]


def test_an_unknown_size_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown world size 'huge'; sizes: small, lived"):
        build_world(1, "huge")  # type: ignore[arg-type]


def _within(n: int, lo: int, hi: int) -> bool:
    return lo <= n <= hi


@pytest.mark.parametrize("seed", SEEDS)
def test_a_lived_phone_is_in_the_issue_ranges(seed: int) -> None:
    w = build_world(seed, "lived")
    p = w.phone
    assert _within(len(p.contacts), 40, 150)
    threads = {m.address for m in p.messages}
    assert _within(len(threads), 15, 40)
    assert len(p.messages) >= 80
    assert max(m.at for m in p.messages) - min(m.at for m in p.messages) >= timedelta(days=14)
    assert _within(len(p.events), 60, 200)
    assert all(abs(e.start - w.start) <= timedelta(days=62) for e in p.events)
    assert any(e.series for e in p.events)
    assert _within(len(p.songs), 30, 200)
    assert _within(len(p.notes), 10, 30)
    folders = {f.path.split("/")[0] for f in p.files}
    assert {"Download", "Documents", "Pictures", "Recordings"} <= folders
    assert p.alarms and p.places and any(pl.saved for pl in p.places) and any(pg.bookmarked for pg in p.pages)
    assert len(p.calls) >= 20


@pytest.mark.parametrize("seed", SEEDS)
def test_a_lived_desktop_is_in_the_issue_ranges(seed: int) -> None:
    d = build_world(seed, "lived").desktop
    assert _within(len(d.files), 30, 150)
    paths = [f.path for f in d.files]
    assert {p.split("/")[0] for p in paths} >= {
        "Documents",
        "Downloads",
        "Desktop",
        "Pictures",
        "Music",
        "Projects",
        "Mail",
    }
    sheets = [f for f in d.files if f.format == "xlsx"]
    assert sheets and all(_within(len(f.rows) - 1, 50, 500) for f in sheets)
    reports = [f for f in d.files if f.format == "docx"]
    assert all(len([h for h, _ in f.sections if h]) >= 2 and len(f.rows) >= 2 for f in reports)
    assert any(p.endswith("report_v1.docx") for p in paths) and any(
        p.endswith("report_final2.docx") for p in paths
    )
    assert any(p.startswith("Mail/Inbox/") for p in paths) and any(
        p.startswith("Mail/Drafts/") for p in paths
    )
    assert any(p.endswith("tests/test_core.py") for p in paths)
    assert d.shell_history and d.bookmarks


@pytest.mark.parametrize("seed", SEEDS)
def test_a_lived_home_is_in_the_issue_ranges(seed: int) -> None:
    h = build_world(seed, "lived").home
    assert _within(len(h.rooms), 5, 12)
    assert _within(len(h.devices), 12, 40)
    assert {d.category for d in h.devices} == set(CATEGORIES)
    assert len({d.device_id for d in h.devices}) == len(h.devices)
    assert {d.room for d in h.devices} <= {r.name for r in h.rooms}
    assert h.schedules


def test_a_small_world_is_smaller_but_complete() -> None:
    small, lived = build_world(5, "small"), build_world(5, "lived")
    assert len(small.phone.contacts) < len(lived.phone.contacts)
    assert len(small.desktop.files) < len(lived.desktop.files)
    assert len(small.home.devices) == SIZING["small"].devices[0]
    assert {d.category for d in small.home.devices} == set(CATEGORIES)


def test_the_surfaces_share_one_life() -> None:
    w = build_world(4, "lived")
    numbers = {p.phone for p in w.people} | {p.phone2 for p in w.people if p.phone2}
    texted = {m.address for m in w.phone.messages if m.address.startswith("+")}
    assert texted <= numbers
    mail_from = {f.headers["From"] for f in w.desktop.files if f.path.startswith("Mail/Inbox/")}
    assert all(any(p.email in sender for p in w.people) for sender in mail_from)
    for project in w.persona.projects:
        assert any(f.path.startswith(f"Documents/{project}/") for f in w.desktop.files)
    assert w.home.name.startswith(w.persona.person.last)


@pytest.mark.parametrize(("month", "season"), [(1, "winter"), (4, "spring"), (7, "summer"), (10, "autumn")])
def test_the_home_climate_follows_the_season(month: int, season: str) -> None:
    h = build_world(2, "lived", datetime(2026, month, 10, 9, 0)).home
    assert h.season == season
    if season == "winter":
        assert h.outdoor_temperature <= 5
        assert all(r.temperature > h.outdoor_temperature for r in h.rooms)
        on = [d for d in h.devices if d.category == "heater" and d.state.get("power")]
        for heater in on:
            room = next(r for r in h.rooms if r.name == heater.room)
            assert abs(room.temperature - heater.state["target_temperature"]) <= 1.0
    if season == "summer":
        assert h.outdoor_temperature >= 23
        assert not any(d.state.get("power") for d in h.devices if d.category == "heater")
    assert len({r.temperature for r in h.rooms}) == len(h.rooms)


def test_world_json_round_trips() -> None:
    w = build_world(6, "small")
    again = World.model_validate(json.loads(w.to_json()))
    assert again == w


def test_verification_codes_come_from_several_senders_with_older_ones() -> None:
    w = build_world(8, "lived")
    codes: dict[str, list[str]] = {}
    for m in w.phone.messages:
        found = re.search(r"(?<!\d)(\d{6})(?!\d)", m.body)
        if found and not m.address.startswith("+"):
            codes.setdefault(m.address, []).append(found.group(1))
    senders = [a for a, c in codes.items() if len(c) >= 2]
    assert len(senders) >= 3


def test_another_process_with_another_hash_seed_builds_the_same_bytes() -> None:
    import hashlib
    import os
    import subprocess
    import sys

    code = (
        "import hashlib; from devicesworld.worlds import build_world; "
        "print(hashlib.sha256(build_world(13, 'small').to_json().encode()).hexdigest())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == hashlib.sha256(build_world(13, "small").to_json().encode()).hexdigest()
