"""Capacity: the distinct tasks a family's parameters allow, counted as the full build dedupes them."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.tasks.full import without_duplicates
from devicesworld.tasks.scenarios.build import choice_for
from devicesworld.tasks.scenarios.capacity import family_capacity
from devicesworld.tasks.scenarios.compile import compile_task
from devicesworld.tasks.scenarios.loader import shipped_macros
from devicesworld.tasks.scenarios.model import Family
from tests.tasks.scenarios.test_compile import MINI


def _family(**changes: Any) -> Family:
    """MINI on its own small home (no persona world), so the counts are exact."""
    return Family.model_validate({**MINI, "world": {"without": ["home"]}, **changes})


def test_a_home_without_a_world_block_still_counts_the_persona_worlds() -> None:
    alone = family_capacity(_family(), quota=40)
    lived = family_capacity(Family.model_validate(MINI), quota=40)  # the home takes the default world
    assert not lived.exact
    assert lived.distinct == alone.distinct * 40


def test_a_small_family_is_counted_exactly_per_phrasing() -> None:
    # level: 30..80 in 5s (11 values), room: 2 -> 22 per phrasing, 4 phrasings
    cap = family_capacity(_family(), quota=40)
    assert cap.exact and cap.distinct == 88
    assert [s.distinct for s in cap.slots] == [22, 22, 22, 22]
    assert cap.slots[0].varies == ["level", "room"]
    assert 30 < cap.expected < 40  # 10 draws of 22 per phrasing repeat some


def test_a_value_that_shows_nowhere_adds_nothing_and_twins_are_not_counted_twice() -> None:
    params = {
        **MINI["params"],
        "unused": {"type": "count", "range": [10, 90, 1]},
        "level": {"type": "percentage", "range": [30, 40, 5]},
        "other": {"type": "name", "pool": ["study", "den"], "differs_from": ["room"]},
    }
    setup = [*MINI["setup"], {"role": "home", "op": "add_room", "args": {"name": "{other}"}}]
    cap = family_capacity(_family(params=params, setup=setup), quota=8)
    # unused never renders; other is fixed by room (two rooms, they differ): 3 levels x 2 rooms
    assert [s.distinct for s in cap.slots] == [6, 6, 6, 6]
    assert "unused" not in cap.slots[0].varies


def test_the_count_agrees_with_the_builds_own_duplicate_filter() -> None:
    params = {
        "level": {"type": "percentage", "range": [30, 40, 5]},
        "room": {"type": "name", "pool": ["study", "den"]},
    }
    family = _family(params=params)
    cap = family_capacity(family, quota=80)
    tasks = [
        compile_task(family, shipped_macros(), choice_for(family, 0, i), f"dw-mini-{i:04d}")
        for i in range(80)
    ]
    kept, _ = without_duplicates(tasks)
    assert len(kept) == cap.distinct == 24  # 80 draws over 24 possible tasks find them all
    assert cap.expected > 20


def test_generated_values_make_a_lower_estimate() -> None:
    params = {**MINI["params"], "who": {"type": "person", "gen": "person"}}
    phrasings = [{**p, "text": p["text"] + " Thanks, {who}."} for p in MINI["phrasings"]]
    cap = family_capacity(_family(params=params, phrasings=phrasings), quota=60)
    assert not cap.exact and cap.distinct > 10_000
    assert cap.expected > 59.9


def test_the_command_reports_shipped_families_and_flags_the_narrow_ones(tmp_path: Any) -> None:
    path = tmp_path / "narrow.yaml"
    doc = {
        **MINI,
        "world": {"without": ["home"]},
        "family": "narrow",
        "params": {
            "level": {"type": "percentage", "range": [30, 35, 5]},
            "room": {"type": "name", "pool": ["study"]},
        },
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(main, ["tasks", "scenarios", "capacity", "--family", str(path), "--quota", "20"])
    assert out.exit_code == 0, out.output
    assert "narrow" in out.output and "distinct=8 " in out.output and "LOW" in out.output
    out = runner.invoke(main, ["tasks", "scenarios", "capacity", "--family", "lock_the_door", "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["family"] == "lock_the_door" and doc["distinct"] >= 80
    bad = runner.invoke(main, ["tasks", "scenarios", "capacity", "--family", "no_such_family"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


def test_the_families_that_repeated_themselves_now_fill_a_share_of_6200() -> None:
    # lock_the_door kept 7 of 15 and dry_without_dryer 9 in the 1,380-task build: their draws repeated
    from devicesworld.tasks.scenarios.loader import family_by_name

    for name in ("lock_the_door", "dry_without_dryer", "wool_wash_then_dryer", "curtains_still_open",
                 "cool_the_study", "vacuum_mode_by_battery"):  # fmt: skip
        cap = family_capacity(family_by_name(name), quota=60)
        assert cap.distinct >= 80 and cap.expected >= 0.97 * 60, (name, cap.distinct, cap.expected)
