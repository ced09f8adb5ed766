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
