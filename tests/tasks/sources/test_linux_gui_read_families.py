"""The Linux GUI families whose values are read from documents among twins (issue #15), and the
phone families' lived persona world (issue #13).

Built offline (no desktop): the draws are deterministic and distinct, every value the
solution writes that the instruction does not give is declared as read from a document with
a look-alike ahead, the measured grade is medium or harder, and the checks — read through a
fake getter holding the desktop's end state — pass on the reference outcome and fail on the
near miss that takes the twin.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest

from devicesworld import jsonl
from devicesworld.devices.base import CheckOutcome
from devicesworld.devices.linux.checks import CHECKS
from devicesworld.spec.models import Condition, Task
from devicesworld.tasks.kind_sources import TaskDraw, finish_document, source_by_name
from devicesworld.tasks.semantic import semantic_problems
from devicesworld.tasks.source_difficulty import reads, source_grade

FAMILIES = ["calc-rent-letter", "editor-code-notice", "editor-tracking", "files-rename-receipt", "image-plan"]
PHONE_FAMILIES = [
    "phone-code-editor",
    "phone-contact-editor",
    "phone-contact-writer",
    "phone-contact-form",
    "desktop-file-sms",
]
DRAWS = 12


def _doc(name: str, i: int, tid: str) -> dict[str, Any]:
    """Draw ``i`` of a family from a seed of its own (a string seeds the family's generator as an int does)."""
    seed: Any = f"test:{name}:{i}"
    return source_by_name(f"gui-lx-{name}").build(TaskDraw(seed, i, tid))


def draws(name: str, n: int = DRAWS) -> list[Task]:
    return [finish_document(_doc(name, i, f"t-{name}-{i}")) for i in range(n)]


def run(cond: Condition, state: Mapping[str, Any]) -> CheckOutcome:
    """``cond`` on a desktop whose files, spreadsheets and windows are ``state``."""
    spec = dict(CHECKS)[cond.check]

    def get(name: str, args: Mapping[str, Any]) -> Any:
        if name == "windows":
            return [{"title": t} for t in state.get("windows", [])]
        if name == "file_info":
            return {"exists": args["path"] in state.get("paths", set())}
        if name == "text":
            return state.get("text", {}).get(args["path"])
        if name == "xlsx":
            return state.get("xlsx", {}).get(args["path"])
        raise AssertionError(f"unexpected getter {name}")

    return spec.fn(get, spec.args_model.model_validate(cond.args))


def passes(task: Task, state: Mapping[str, Any]) -> bool:
    return all(run(c, state).passed for c in task.evaluation.conditions)


def op_args(task: Task, op: str) -> list[dict[str, Any]]:
    return [o.args for o in task.setup if o.op == op]


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_draws_are_deterministic_distinct_and_valid(name: str) -> None:
    a, b = draws(name), draws(name)
    assert [jsonl.model_line(t) for t in a] == [jsonl.model_line(t) for t in b]
    assert len({t.instruction for t in a}) == len(a)
    for t in a:
        assert semantic_problems(t) == [], t.id


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_each_value_is_read_from_a_document_behind_a_twin_and_graded_medium_or_harder(name: str) -> None:
    for t in draws(name):
        found = reads(t)
        assert found and all(r.where == "document" and r.ahead >= 1 for r in found), (t.id, found)
        assert all(r.value not in t.instruction for r in found)
        assert source_grade(t) in ("medium", "hard", "expert"), t.id
        # a lived-in home folder: the task's own files and others beside them
        written = [o.args["path"] for o in t.setup if "path" in o.args]
        assert len(written) >= 5, t.id


def test_the_rent_check_forbids_last_years_and_the_old_rent() -> None:
    for t in draws("calc-rent-letter"):
        path = op_args(t, "write_xlsx")[0]["path"]
        rows = [list(r) for r in op_args(t, "write_xlsx")[0]["sheets"]["Costs"]]
        letter = op_args(t, "write_text")[1]["content"]
        old, new = (int(x) for x in re.findall(r"(\d+) EUR", letter))
        rent = next(r for r in rows if r[0] == "Rent")
        assert rent[1] == old
        rent[1] = new
        assert passes(t, {"xlsx": {path: rows}})
        rent[1] = old  # the first amount in the letter
        assert not passes(t, {"xlsx": {path: rows}})
        rent[1] = new
        next(r for r in rows if r[0] != "Rent")[1] = new  # the right amount in the wrong row
        assert not passes(t, {"xlsx": {path: rows}})


def test_the_code_check_forbids_the_old_code() -> None:
    for t in draws("editor-code-notice"):
        notes = op_args(t, "write_text")[0]["path"]
        before = op_args(t, "write_text")[0]["content"]
        old, new = re.findall(r"\d{4}", " ".join(op_args(t, "write_docx")[0]["paragraphs"]))
        assert old in before and new not in before
        assert passes(t, {"text": {notes: before.replace(old, new)}})
        assert not passes(t, {"text": {notes: before}})
        assert not passes(t, {"text": {notes: before.replace(old, f"{new} (was {old})")}})


def test_the_tracking_check_forbids_a_delivered_parcel() -> None:
    for t in draws("editor-tracking"):
        orders = op_args(t, "write_text")[0]["content"].splitlines()
        numbers = [re.search(r"PP\d+", line).group(0) for line in orders]  # type: ignore[union-attr]
        assert "on its way" in orders[-1] and all("delivered" in line for line in orders[:-1])
        path = next(c.args["path"] for c in t.evaluation.conditions)
        assert passes(t, {"text": {path: numbers[-1] + "\n"}})
        assert not passes(t, {"text": {path: numbers[0] + "\n"}})
        assert not passes(t, {"text": {path: f"{numbers[0]}\n{numbers[-1]}\n"}})


def test_the_rename_check_forbids_last_years_claim_and_the_wrong_photo() -> None:
    for t in draws("files-rename-receipt"):
        note = next(o["content"] for o in op_args(t, "write_text") if "expenses-" in o["path"])
        twin, _, claim = re.findall(r"Claim (\d+)", note)
        photo = re.search(r"photo (IMG_\d+\.png)", note).group(1)  # type: ignore[union-attr]
        photos = {o["path"] for o in op_args(t, "write_image")}
        done = (photos - {f"~/Pictures/{photo}"}) | {f"~/Pictures/claim-{claim}.png"}
        assert passes(t, {"paths": done})
        assert not passes(t, {"paths": photos})
        as_twin = (photos - {f"~/Pictures/{photo}"}) | {f"~/Pictures/claim-{twin}.png"}
        assert not passes(t, {"paths": as_twin})
        other = sorted(p for p in photos if "IMG_" in p and photo not in p)[0]
        wrong = (photos - {other}) | {f"~/Pictures/claim-{claim}.png"}
        assert not passes(t, {"paths": wrong})


def test_the_plan_check_forbids_the_superseded_plan() -> None:
    for t in draws("image-plan"):
        checklist = next(o["content"] for o in op_args(t, "write_text") if "move-checklist" in o["path"])
        old, new = re.findall(r"(\S+-plan-\d{4}\.png)", checklist)
        assert passes(t, {"windows": [f"{new} - Image Viewer", "mousepad"]})
        assert not passes(t, {"windows": [f"{old} - Image Viewer"]})
        assert not passes(t, {"windows": [f"{new} - Image Viewer", f"{old} - Image Viewer"]})


def test_each_family_has_enough_tasks_in_full() -> None:
    from devicesworld.tasks.kind_sources import sources

    full = {s.name: s.full for s in sources()}
    for name in FAMILIES:
        assert full[f"gui-lx-{name}"] >= 8


@pytest.mark.parametrize("name", PHONE_FAMILIES)
def test_the_phone_families_phone_takes_a_lived_persona_world(name: str) -> None:
    from devicesworld.worlds import build_world

    phone = "android_0"
    seeds = set()
    for i in range(6):
        doc = _doc(name, i, f"t-{i}")
        world = doc["world"]  # the phone's world, the desktop sharing it
        assert world["size"] == "lived" and world["devices"] == ["linux_0", phone]
        assert 0 <= world["persona_seed"] < 40
        seeds.add(world["persona_seed"])
        # the family's own contacts never share a name with the world's
        names = {o["args"]["name"] for o in doc["setup"] if o["op"] == "add_contact"}
        lived = {c.name for c in build_world(persona_seed=world["persona_seed"], size="lived").phone.contacts}
        assert len(lived) >= 40 and not names & lived
        # a contact is found by search on the lived phone, not by its place in the list
        if any(s.get("macro") == "tap" and s["args"] != "" for s in doc["solution"]):
            assert not any(s.get("macro") == "open_contact" for s in doc["solution"])
    assert len(seeds) > 1
