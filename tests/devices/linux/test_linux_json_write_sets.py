"""A JSON file's write set is the asked key (issue 32): other keys wiped or changed are damage,
reformatting is not, and creating the file with the asked key is licensed."""

from __future__ import annotations

import json

from devicesworld.verify.collateral import diff
from tests.devices.linux.linux_harness import require_bwrap
from tests.verify.test_collateral import L0, _env, _guard, _step, _task

CARPOOL = {"day": "Saturday", "drivers": ["Ana", "Ben"], "pickup": "08:00"}
SETUP = [
    {
        "device": L0,
        "op": "write_text",
        "args": {"path": "~/Documents/carpool.json", "content": json.dumps(CARPOOL)},
    }
]
PICKUP = {
    "id": "pickup",
    "device": L0,
    "check": "json_field_equals",
    "args": {"path": "~/Documents/carpool.json", "field": "pickup", "equals": "08:30"},
}


def _write(env: object, data: dict[str, object], indent: int | None = None) -> None:
    _step(env, L0, "write_file", path="~/Documents/carpool.json", content=json.dumps(data, indent=indent))  # type: ignore[arg-type]


def test_the_asked_key_changed_and_the_file_reformatted_passes() -> None:
    require_bwrap()
    with _env(_task([L0], SETUP, [PICKUP])) as env:
        _write(env, {**CARPOOL, "pickup": "08:30"}, indent=2)
        verdict = env.evaluate()
    assert verdict.success, _guard(verdict, L0)[1]


def test_other_keys_wiped_or_changed_fail() -> None:
    require_bwrap()
    with _env(_task([L0], SETUP, [PICKUP])) as env:
        _write(env, {"day": "Saturday", "pickup": "08:30"})  # drivers deleted
        ok, detail = _guard(env.evaluate(), L0)
        assert not ok and "#drivers removed" in detail
        _write(env, {**CARPOOL, "day": "Sunday", "pickup": "08:30"})
        verdict = env.evaluate()
    ok, detail = _guard(verdict, L0)
    assert not ok and "#day changed" in detail and verdict.score == 0.0


def test_creating_a_json_file_is_one_change_of_the_file() -> None:
    before = {"files/a.txt": "1"}
    after = {"files/a.txt": "1", "files/new.json/#x": "2", "files/new.json/#y": "3"}
    assert [str(c) for c in diff(before, after)] == ["files/new.json added"]
    kept = {"files/old.json/#x": "1", "files/old.json/#y": "2"}
    assert [str(c) for c in diff(kept, {"files/old.json/#x": "1"})] == ["files/old.json/#y removed"]


def test_a_json_files_bookkeeping_stamp_is_harmless() -> None:
    from devicesworld.devices.linux.state import STATE
    from devicesworld.verify.collateral import Change, harmless

    assert harmless(STATE, Change("files/Documents/home/heating.json/#updated", "changed"))
    assert harmless(STATE, Change("files/a.json/#meta.last_updated", "changed"))
    assert not harmless(STATE, Change("files/Documents/carpool.json/#drivers", "removed"))


def test_the_guard_sees_a_new_key_of_a_created_file_as_the_file() -> None:
    """The one rule quality control and the guard share (issue 32): a new part of a file the
    baseline holds no part of is a change of the whole file; of a file it holds, a new part."""
    from devicesworld.verify.collateral import seen_by_guard

    kept = {"files/old.json/#x": "1"}
    assert str(seen_by_guard("files/new.json/#added_by_mistake", kept)) == "files/new.json added"
    assert (
        str(seen_by_guard("files/old.json/#added_by_mistake", kept))
        == "files/old.json/#added_by_mistake added"
    )
    assert str(seen_by_guard("files/old.json/#x", kept)) == "files/old.json/#x changed"
    plain = {"files/new.json": "0"}  # there, but not yet readable as JSON
    assert str(seen_by_guard("files/new.json/#x", plain)) == "files/new.json changed"


def test_extra_beside_adds_a_key_to_an_output_json_the_guard_catches() -> None:
    require_bwrap()
    with _env(_task([L0], SETUP, [PICKUP])) as env:
        _write(env, {**CARPOOL, "pickup": "08:30"})
        assert env.evaluate().success
        done = env.output_change(L0, "beside")
        assert done is not None and "extra key" in done and "carpool.json" in done
        ok, detail = _guard(env.evaluate(), L0)
    assert not ok and "#added_by_mistake added" in detail


def test_extra_beside_leaves_a_json_file_the_task_creates_alone() -> None:
    """A new key in a file the task creates is part of creating it (the guard licenses the file):
    quality control asks the guard and plays nothing there."""
    require_bwrap()
    create = {
        "id": "made",
        "device": L0,
        "check": "json_field_equals",
        "args": {"path": "~/Documents/plan.json", "field": "pickup", "equals": "08:30"},
    }
    with _env(_task([L0], [], [create])) as env:
        _step(env, L0, "write_file", path="~/Documents/plan.json", content=json.dumps({"pickup": "08:30"}))
        assert env.evaluate().success
        assert env.output_change(L0, "beside") is None
        assert env.evaluate().success
