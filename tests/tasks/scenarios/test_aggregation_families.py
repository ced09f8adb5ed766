"""The aggregation families of issue #34 (session 48): each expected value is what a careful reader
gets by reading *every* item the task seeds, recomputed here from the task document alone, and the
"exactly those" of a story holds (a reminder to a household that already replied fails).

The build's gates prove the reference solution passes and each declared distractor fails; these
tests prove the reference itself is right: a family whose setup and check drifted apart (an event
that no longer blocks the slot, a sheet row left out of the sum) would still pass the gates.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest

from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.spec.models import Step, Task
from devicesworld.tasks.scenarios.compile import Choice, compile_task
from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros

SEEDS = [0, 1, 2, 3]


def _twin(family_id: str, seed: int) -> Task:
    """A draw of the family with its desktop steps as tool steps (the same setup and checks)."""
    family = next(f for f in shipped_families() if f.family == family_id)
    return compile_task(family.model_copy(update={"gui": []}), shipped_macros(), Choice(seed=seed), "dw-t")


def _condition(task: Task, cid: str) -> dict[str, Any]:
    return next(c.args for c in task.evaluation.conditions if c.id == cid)


def _ops(task: Task, op: str, device: str | None = None) -> list[dict[str, Any]]:
    return [dict(s.args) for s in task.setup if s.op == op and (device is None or s.device == device)]


def _busy(task: Task, device: str) -> list[tuple[datetime, datetime]]:
    out = []
    for e in _ops(task, "add_event", device):
        start = datetime.fromisoformat(str(e["start"]))
        end = (
            datetime.fromisoformat(str(e["end"]))
            if e.get("end")
            else start + timedelta(minutes=int(e.get("duration_minutes", 60)))
        )
        out.append((start, end))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_the_visit_is_the_first_two_hours_both_calendars_leave_free_under_the_mails_rules(seed: int) -> None:
    task = _twin("long_visit_common_slot", seed)
    mail = next(m for m in _ops(task, "write_eml") if "this-week" in str(m["path"]))
    assert "except Wednesday" in mail["body"] and "not before 10" in mail["body"]
    assert "home by 6" in mail["body"]
    busy = _busy(task, "android_0") + _busy(task, "android_1")
    start = task.start_time
    found = None
    for day in range(7):  # Monday 2 March (today) to Sunday
        date = (start + timedelta(days=day)).date()
        if date.weekday() == 2:
            continue  # her choir
        for half_hours in range(10 * 2, 16 * 2 + 1):  # from 10:00; two hours end by 18:00
            at = datetime.combine(date, datetime.min.time()) + timedelta(minutes=30 * half_hours)
            if at >= start and all(not (s < at + timedelta(hours=2) and at < e) for s, e in busy):
                found = at
                break
        if found:
            break
    assert found is not None
    for cid in ("mine", "partner"):
        assert datetime.fromisoformat(str(_condition(task, cid)["start"])) == found
    lead = int(re.search(r"come on (\d+) minutes before", mail["body"]).group(1))  # type: ignore[union-attr]
    due = datetime.fromisoformat(str(_condition(task, "heater")["due_at"]))
    assert due == found - timedelta(minutes=lead)


def _money(text: str) -> float:
    return float(re.search(r"\$([0-9]+(?:\.[0-9]+)?)", text).group(1))  # type: ignore[union-attr]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_trip_share_sums_this_trips_corrected_rows_the_invoice_and_the_boat(seed: int) -> None:
    task = _twin("long_trip_expenses_settle", seed)
    sheet = next(c for c in _ops(task, "write_csv") if str(c["path"]).endswith("expenses.csv"))
    header, *rows = sheet["rows"]
    trip = [dict(zip(header, r, strict=True)) for r in rows if r[0] == "Lake cabin"]
    assert len(trip) == 3 and len(rows) == 6  # another trip's rows beside them
    texts = [str(m["body"]) for m in _ops(task, "add_sms", "android_0")]
    fuel = _money(next(t for t in texts if "fuel" in t))
    amounts = [fuel if r["Item"] == "Fuel" else float(r["Amount"]) for r in trip]
    invoice = next(p for p in _ops(task, "write_pdf") if "2026" in str(p["path"]))
    amounts.append(_money(" ".join(invoice["paragraphs"])))
    boat = [str(m["body"]) for m in _ops(task, "add_sms", "android_1")]
    amounts.append(_money(next(b for b in boat if "February" in b)))
    total = sum(amounts)
    share = _condition(task, "amy")["contains"][0]
    assert share == pytest.approx(round(total / 3, 2))
    row = _condition(task, "settle")["row"]
    assert float(row["Total"]) == pytest.approx(total)


def _household_numbers(task: Task) -> dict[str, str]:
    return {str(c["name"]): str(c["phone"]) for c in _ops(task, "add_contact", "android_0")}


@pytest.mark.parametrize("seed", SEEDS)
def test_the_head_count_is_every_households_latest_reply_wherever_it_came(seed: int) -> None:
    task = _twin("long_party_rsvp_tally", seed)
    sheet = _ops(task, "write_csv")[0]["rows"]
    invited = [r[0] for r in sheet[1:] if r[0] != "Coming so far"]
    numbers = _household_numbers(task)
    latest: dict[str, int] = {}
    for device in ("android_0", "android_1"):
        sms = sorted(_ops(task, "add_sms", device), key=lambda m: -float(m["minutes_ago"]))
        for m in sms:
            said = re.search(r"(\d+) of us", str(m["body"]))
            if said:  # a later text overrides an earlier one
                latest[next(n for n, p in numbers.items() if p == m["address"])] = int(said.group(1))
    for name, reply, people in sheet[1:]:
        if name in invited and reply == "yes" and name not in latest:
            latest[name] = int(people)
    for mail in _ops(task, "write_eml"):
        if "can't come" in str(mail["body"]):
            first = str(mail["sender"]).split(".")[0].capitalize()
            latest[next(n for n in invited if n.startswith(first + " "))] = 0  # withdrawn by mail
    count = _condition(task, "caterer")["contains"][0]
    assert count == sum(latest[n] for n in invited if n in latest)
    assert count != int(sheet[-1][2])  # the sheet's own tally is stale
    silent = {numbers[n] for n in invited if n not in latest}
    reminded = {str(c.args["to"]) for c in task.evaluation.conditions if c.check == "sms_sent"}
    assert silent == reminded - {_condition(task, "caterer")["to"]}


def test_reminding_a_household_that_replied_only_to_my_partner_fails() -> None:
    """The reference plus one more reminder, to the household whose reply is on my partner's phone."""
    task = _twin("long_party_rsvp_tally", 0)
    partner_contact = _ops(task, "add_contact", "android_1")[0]
    steps = [s for s in task.solution if s.action != "finish"]
    last_name = max(i for i, s in enumerate(steps) if s.action == "input_text" and s.device == "android_0")
    name_at = last_name - 2  # back, back, new chat, [name], suggestion, [body], send
    block = steps[name_at - 3 : name_at + 4]
    assert block[3].action == "input_text" and block[-1].action == "click"
    extra = [
        Step.model_validate({**b.model_dump(), "args": {**b.args, "text": partner_contact["name"]}})
        if i == 3
        else b
        for i, b in enumerate(block)
    ]
    at = name_at + 4
    env = CrossDeviceEnv(task)
    try:
        env.reset()
        for step in [*steps[:at], *extra, *steps[at:]]:
            assert env.step(step).result.ok
        verdict = env.evaluate()
    finally:
        env.close()
    failed = {c.id for c in verdict.conditions if not c.passed}
    assert not verdict.success and "not_e" in failed
    assert not failed & {"caterer", "sheet", "remind_f", "remind_g", "not_d", "not_c"}
