"""The coherence gate reads a task as a person would: one story across instruction, devices and checks."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.spec.models import Task
from devicesworld.tasks.coherence import check_coherence, coherence_problems


def _task(
    instruction: str,
    setup: list[dict[str, Any]],
    conditions: list[dict[str, Any]] | None = None,
    start: str = "2026-03-02T09:00:00",
) -> Task:
    return Task.model_validate(
        {
            "id": "t-coherence",
            "instruction": instruction,
            "devices": [{"id": "android_0", "kind": "android"}],
            "start_time": start,
            "setup": [{"device": "android_0", **s} for s in setup],
            "evaluation": {
                "conditions": conditions
                or [{"id": "c", "device": "android_0", "check": "event_exists", "args": {"title": "Shift"}}]
            },
        }
    )


ERIC = {"op": "add_contact", "args": {"name": "Eric Murray", "phone": "+15552384309"}}
ASK = {
    "op": "add_sms",
    "args": {
        "address": "+15552384309",
        "body": "Could we swap? You take my Thursday and I do your Tuesday?",
        "minutes_ago": 70,
    },
}


def _rules(task: Task) -> list[str]:
    return sorted({p.rule for p in coherence_problems(task, with_world=False)})


def test_a_reply_sent_by_the_user_is_read_from_the_users_side() -> None:
    wrong = {
        "op": "add_sms",
        "args": {
            "address": "+15552384309",
            "body": "Deal, I'll do Tuesday, you do Thursday.",
            "sent": True,
            "minutes_ago": 55,
        },
    }
    right = {
        "op": "add_sms",
        "args": {
            "address": "+15552384309",
            "body": "Deal, I'll do Thursday, you do Tuesday.",
            "sent": True,
            "minutes_ago": 55,
        },
    }
    text = 'Put my "Shift" in the calendar; Eric and I swapped by text.'
    assert _rules(_task(text, [ERIC, ASK, wrong])) == ["perspective"]
    assert _rules(_task(text, [ERIC, ASK, right])) == []


def test_a_cited_message_must_arrive_on_the_users_phone() -> None:
    sent = {
        "op": "add_sms",
        "args": {"address": "+15552384309", "body": "hi", "sent": True, "minutes_ago": 5},
    }
    got = {"op": "add_sms", "args": {"address": "+15552384309", "body": "hi", "minutes_ago": 5}}
    text = 'Eric just messaged about the "Shift".'
    assert _rules(_task(text, [ERIC, sent])) == ["cited_source"]
    assert _rules(_task(text, [ERIC, got])) == []
    yesterday = {"op": "add_sms", "args": {"address": "+15552384309", "body": "hi", "minutes_ago": 900}}
    assert _rules(_task('Eric asked me this morning for the "Shift".', [ERIC, yesterday])) == ["cited_source"]


def test_an_email_of_another_person_and_a_shared_first_name_are_flagged() -> None:
    plumber = {
        "op": "add_contact",
        "args": {"name": "Amy Rojas", "phone": "+15550001", "email": "michael.estrada@example.org"},
    }
    assert _rules(_task('Add "Shift".', [plumber])) == ["identity"]
    other = {"op": "add_contact", "args": {"name": "Eric Stone", "phone": "+15550002"}}
    assert _rules(_task('Tell Eric about the "Shift".', [ERIC, other])) == ["ambiguous_referent"]
    assert _rules(_task('Tell Eric Stone about the "Shift".', [ERIC, other])) == []


def test_unnamed_titles_about_times_and_bedtime_at_nine_are_flagged() -> None:
    assert _rules(_task("Put my work rota in the calendar.", [])) == ["underspecified_output"]
    cond = [
        {
            "id": "c",
            "device": "android_0",
            "check": "event_exists",
            "args": {"title": "Shift", "start": "2026-03-02T17:45:00"},
        }
    ]
    assert _rules(_task('Add "Shift" about 90 minutes after landing.', [], cond)) == ["underspecified_output"]
    assert _rules(_task('I\'m off to bed, add "Shift".', [])) == ["clock"]
    assert _rules(_task('I\'m off to bed, add "Shift".', [], start="2026-03-02T22:30:00")) == []


def test_the_report_counts_tasks_per_rule_and_the_cli_gate_fails_on_a_problem(tmp_path: Any) -> None:
    task = _task("Put my work rota in the calendar.", [])
    report = check_coherence([task, _task('Add "Shift".', [])], with_world=False)
    assert (report.total, report.coherent, report.tasks_per_rule["underspecified_output"]) == (2, 1, 1)
    path = tmp_path / "t.json"
    path.write_text(task.model_dump_json())
    result = CliRunner().invoke(main, ["tasks", "validate", str(path), "--gate", "coherence"])
    assert result.exit_code == 1
    assert "0/1 tasks coherent" in result.output


def test_about_is_an_approximation_only_before_an_amount() -> None:
    cond = [
        {
            "id": "c",
            "device": "android_0",
            "check": "event_exists",
            "args": {"title": "Shift", "start": "2026-03-02T17:45:00"},
        }
    ]
    assert _rules(_task('The hall texted about tonight: add "Shift".', [], cond)) == []
    assert _rules(_task('Add "Shift" an hour or so after landing.', [], cond)) == ["underspecified_output"]
    assert _rules(_task('Let\'s call it a day: add "Shift".', [])) == ["clock"]


def _desktop_task(instruction: str, paths: list[str]) -> Task:
    return Task.model_validate(
        {
            "id": "t-files",
            "instruction": instruction,
            "devices": [{"id": "linux_0", "kind": "linux"}],
            "start_time": "2026-03-02T09:00:00",
            "setup": [
                {
                    "device": "linux_0",
                    "op": "write_pdf",
                    "args": {"path": p, "title": "x", "paragraphs": ["x"]},
                }
                for p in paths
            ],
            "evaluation": {
                "conditions": [
                    {
                        "id": "c",
                        "device": "linux_0",
                        "check": "file_exists",
                        "args": {"path": "~/Drive/x.pdf"},
                    }
                ]
            },
        }
    )


def test_two_files_fitting_the_named_file_are_ambiguous_unless_the_instruction_tells_them_apart() -> None:
    two = ["~/Downloads/tax-return-2024.pdf", "~/Downloads/tax-return-2025.pdf"]
    problems = coherence_problems(_desktop_task("Copy the tax return PDF to ~/Drive.", two), with_world=False)
    assert [p.rule for p in problems] == ["ambiguous_file"]
    assert "tax-return-2024.pdf" in problems[0].message and problems[0].device == "linux_0"
    assert (
        coherence_problems(_desktop_task("Copy the 2025 tax return PDF to ~/Drive.", two), with_world=False)
        == []
    )
    superseded = ["~/Downloads/booking-123.pdf", "~/Downloads/booking-old.pdf"]
    assert coherence_problems(_desktop_task("Read the booking PDF.", superseded), with_world=False) == []


def _two_phones(partner_setup: list[dict[str, Any]], mine_setup: list[dict[str, Any]]) -> Task:
    return Task.model_validate(
        {
            "id": "t-cross",
            "instruction": "Text Sam the code.",
            "devices": [{"id": "android_0", "kind": "android"}, {"id": "android_1", "kind": "android"}],
            "start_time": "2026-03-02T09:00:00",
            "setup": [{"device": "android_1", **s} for s in partner_setup]
            + [{"device": "android_0", **s} for s in mine_setup],
            "evaluation": {
                "conditions": [
                    {"id": "c", "device": "android_0", "check": "sms_sent", "args": {"to": "+15551001"}}
                ]
            },
        }
    )


def test_a_message_between_two_task_phones_exists_on_both_sides_at_the_same_time() -> None:
    sent = {
        "op": "add_sms",
        "args": {"address": "+15551000", "body": "Code?", "sent": True, "minutes_ago": 5},
    }
    problems = coherence_problems(_two_phones([sent], []), with_world=False)
    assert [p.rule for p in problems] == ["cross_device"]
    assert problems[0].device == "android_1" and "android_0" in problems[0].message
    received = {"op": "add_sms", "args": {"address": "+15551001", "body": "Code?", "minutes_ago": 5}}
    assert coherence_problems(_two_phones([sent], [received]), with_world=False) == []
    late = {"op": "add_sms", "args": {"address": "+15551001", "body": "Code?", "minutes_ago": 50}}
    assert [p.rule for p in coherence_problems(_two_phones([sent], [late]), with_world=False)] == [
        "cross_device",
        "cross_device",
    ]


def test_the_worlds_filler_is_in_the_past_and_on_waking_hours(monkeypatch: pytest.MonkeyPatch) -> None:
    import devicesworld.worlds.generate as generate
    from devicesworld.tasks.coherence import _world_dates

    task = Task.model_validate(
        {
            **_task("Add a Shift event.", []).model_dump(),
            "world": {"persona_seed": 25, "size": "lived", "devices": ["android_0"], "reads": []},
        }
    )
    assert list(_world_dates(task)) == []  # the generator keeps to it (issue #33)
    world = generate.build_world(25, "lived", task.start_time)
    night = world.desktop.files[0].model_copy(
        update={
            "path": "Mail/Inbox/night.eml",
            "format": "eml",
            "mtime": task.start_time.replace(day=1, hour=2),
        }
    )
    later = world.phone.messages[0].model_copy(update={"at": task.start_time.replace(hour=11)})
    odd = world.model_copy(
        update={
            "desktop": world.desktop.model_copy(update={"files": [night]}),
            "phone": world.phone.model_copy(update={"messages": [later]}),
        }
    )
    monkeypatch.setattr(generate, "build_world", lambda *a, **k: odd)
    found = [p.message for p in _world_dates(task)]
    assert len(found) == 2, found
    assert "small hours" in found[0] and "after the task starts" in found[1]


@pytest.mark.parametrize("seed", [12, 47, 177])
def test_the_household_and_family_have_one_first_name_each(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    # seeds whose stream drew a namesake at home (seed 47: the partner was the user's "Michael
    # Jordan"; seed 12: two "Amber Sandoval"); the generator draws another first name for them
    import devicesworld.worlds.generate as generate
    from devicesworld.tasks.coherence import _household_namesakes

    task = Task.model_validate(
        {
            **_task("Text my sister.", []).model_dump(),
            "world": {"persona_seed": seed, "size": "lived", "devices": ["android_0"], "reads": []},
        }
    )
    assert list(_household_namesakes(task)) == []
    world = generate.build_world(seed, "lived", task.start_time)
    close = [world.persona.person, *(p for p in world.people if p.relation in ("household", "family"))]
    assert len({p.first for p in close}) == len(close)
    partner = next(p for p in world.people if p.relation == "household")
    twin = partner.model_copy(update={"key": "p999", "relation": "family"})
    odd = world.model_copy(update={"people": [*world.people, twin]})
    monkeypatch.setattr(generate, "build_world", lambda *a, **k: odd)
    found = list(_household_namesakes(task))
    assert [(p.rule, p.item) for p in found] == [("household_namesakes", partner.first)], found
    assert "(family) shares a first name with" in found[0].message


def test_a_namesake_is_drawn_again_only_where_the_stream_clashed() -> None:
    # a world without a clash is the world it always was: the redraw uses a side stream
    from faker import Faker

    from devicesworld.worlds.generate import _first_name_unlike

    fake, again = Faker("en_US"), Faker("en_US")
    fake.seed_instance(3)
    again.seed_instance(3)
    taken: set[str] = set()
    names = [_first_name_unlike(fake, taken) for _ in range(40)]
    assert len(set(names)) == 40 and taken == set(names)
    drawn = [again.first_name() for _ in range(40)]
    assert fake.first_name() == again.first_name()  # the same stream position after 40 draws
    clashes = [i for i, n in enumerate(drawn) if n in drawn[:i]]
    assert clashes and all(names[i] == drawn[i] for i in range(40) if i not in clashes)


def _text(body: str, minutes_ago: float, sent: bool = False) -> dict[str, Any]:
    return {
        "op": "add_sms",
        "args": {"address": "+15552384309", "body": body, "minutes_ago": minutes_ago, "sent": sent},
    }


def test_a_seeded_text_or_call_in_the_night_is_flagged() -> None:
    # 240 minutes before a 09:00 start is 05:00: nobody texts "pay me back whenever" then
    assert _rules(_task('Add "Shift".', [ERIC, _text("Lunch was $7, pay me back whenever", 240)])) == [
        "seeded_times"
    ]
    assert _rules(_task('Add "Shift".', [ERIC, _text("Lunch was $7, pay me back whenever", 120)])) == []
    # nine days ago at 03:00 is night too, whichever day it is
    assert _rules(_task('Add "Shift".', [ERIC, _text("We've moved!", 9000)])) == ["seeded_times"]
    call = {"op": "add_call", "args": {"number": "+15552384309", "minutes_ago": 400, "kind": "missed"}}
    problems = coherence_problems(_task('Add "Shift".', [ERIC, call]), with_world=False)
    assert [p.rule for p in problems] == ["seeded_times"]
    assert "a call with +15552384309" in problems[0].line() and "02:20" in problems[0].message
    # a start late in the evening moves the night with it: 240 minutes before 23:00 is daytime
    late = _task('Add "Shift".', [ERIC, _text("Lunch was $7", 240)], start="2026-03-02T23:00:00")
    assert _rules(late) == []


def test_a_text_whose_words_name_another_time_than_its_own_is_flagged() -> None:
    # sent at 18:00 the day before, "today" is not the task's day
    assert _rules(_task('Add "Shift".', [ERIC, _text("The demo is today at 10:00.", 900)])) == [
        "seeded_times"
    ]
    assert _rules(_task('Add "Shift".', [ERIC, _text("The demo is tomorrow at 10:00.", 900)])) == []
    assert _rules(_task('Add "Shift".', [ERIC, _text("Your booking tonight starts at 19:00.", 3000)])) == [
        "seeded_times"
    ]
    assert _rules(_task('Add "Shift".', [ERIC, _text("Just landed, see you soon", 30)])) == []
    # "just landed" ten hours ago (at 23:00 the day before)
    assert _rules(_task('Add "Shift".', [ERIC, _text("Just landed, see you soon", 600)])) == ["seeded_times"]
    assert _rules(_task('Add "Shift".', [ERIC, _text("Good morning! Coffee?", 30)])) == []
    assert _rules(_task('Add "Shift".', [ERIC, _text("Good morning! Coffee?", 1000)])) == ["seeded_times"]


def test_someone_who_just_messaged_did_so_minutes_ago() -> None:
    text = 'Eric just messaged about the "Shift".'
    assert _rules(_task(text, [ERIC, _text("hi", 5)])) == []
    assert _rules(_task(text, [ERIC, _text("hi", 600)])) == ["seeded_times"]


def _mail(sender: str, to: str) -> dict[str, Any]:
    return {
        "device": "linux_0",
        "op": "write_eml",
        "args": {"path": "~/Mail/Inbox/a.eml", "sender": sender, "to": [to], "subject": "Hi", "body": "Hi"},
    }


def _desktop_mail_task(*mails: dict[str, Any], contacts: tuple[dict[str, Any], ...] = ()) -> Task:
    return Task.model_validate(
        {
            "id": "t-mail",
            "instruction": 'Add "Shift".',
            "devices": [{"id": "android_0", "kind": "android"}, {"id": "linux_0", "kind": "linux"}],
            "setup": [*mails, *contacts],
            "evaluation": {
                "conditions": [
                    {"id": "c", "device": "android_0", "check": "event_exists", "args": {"title": "Shift"}}
                ]
            },
        }
    )


def test_every_mail_address_belongs_to_someone_and_a_person_has_one() -> None:
    ok = _desktop_mail_task(_mail("noreply@airline.example", "ava.lind@gmail.com"))
    assert _rules(ok) == []
    for sender, to in (
        ("noreply@airline.example", "me@example.com"),
        ("user@example.com", "ava.lind@gmail.com"),
        ("partner@home.example", "ava.lind@gmail.com"),
    ):
        problems = coherence_problems(_desktop_mail_task(_mail(sender, to)), with_world=False)
        assert [p.rule for p in problems] == ["email_identity"], (sender, to)
        assert problems[0].device == "linux_0"
    on_phone: dict[str, Any] = {
        "device": "android_0",
        "op": "add_contact",
        "args": {"name": "Ava Lind", "phone": "+15550003", "email": "ava.lind@gmail.com"},
    }
    on_desktop = {**on_phone, "args": {**on_phone["args"], "email": "ava.lind@example.org"}}
    two = _desktop_mail_task(contacts=(on_phone, {**on_desktop, "device": "android_0"}))
    problems = coherence_problems(two, with_world=False)
    assert [p.rule for p in problems] == ["email_identity"]
    assert "2 different e-mail addresses" in problems[0].message


# ------------------------------------------------------------------ the names of the task's people
def _with_world(task: Task, seed: int = 4) -> Task:
    devices = [d.id for d in task.devices if d.id.endswith("_0")]
    return Task.model_validate(
        {
            **task.model_dump(),
            "world": {"persona_seed": seed, "size": "small", "devices": devices, "reads": []},
        }
    )


def _user(task: Task) -> Any:
    from devicesworld.tasks.coherence import _persona

    person = _persona(task)
    assert person is not None
    return person


def _owner_problems(task: Task) -> list[Any]:
    return [p for p in coherence_problems(task) if p.rule == "owner_name"]


def test_another_persons_phone_stores_the_user_under_the_users_own_name() -> None:
    def partner_stores(name: str) -> Task:
        contact = {"op": "add_contact", "args": {"name": name, "phone": "+15551000"}}
        return _with_world(_two_phones([contact], []))

    me = _user(partner_stores("x"))
    problems = _owner_problems(partner_stores("Me"))
    assert [(p.device, p.item) for p in problems] == [("android_1", "Me")]
    assert me.name in problems[0].message  # names whom the contact should carry
    wrong = _owner_problems(partner_stores("Jordan"))
    assert [(p.device, p.item) for p in wrong] == [("android_1", "Jordan")]
    assert "the user's own phone" in wrong[0].message
    for good in (me.name, me.first, f"{me.first} (work)"):
        assert _owner_problems(partner_stores(good)) == [], good


def test_a_placeholder_contact_is_flagged_on_any_device_without_a_world() -> None:
    for name in ("Me", "Contact 1", "Mom?", "", "+15551000"):
        task = _two_phones([{"op": "add_contact", "args": {"name": name, "phone": "+15559999"}}], [])
        assert [p.rule for p in coherence_problems(task, with_world=False)] == ["owner_name"], name
    for name in ("Mum", "Plumber", "Jordan"):  # what people store; no world says the user's name
        task = _two_phones([{"op": "add_contact", "args": {"name": name, "phone": "+15551000"}}], [])
        assert coherence_problems(task, with_world=False) == [], name


def test_a_child_the_instruction_names_carries_the_households_surname() -> None:
    def daughter(surname: str | None) -> Task:
        base = _with_world(_task("My daughter Maya wants her lamp dimmer. Add a Shift event.", []))
        name = f"Maya {surname or _user(base).last}"
        contact = {"device": "android_0", "op": "add_contact", "args": {"name": name, "phone": "+15552000"}}
        return Task.model_validate({**base.model_dump(), "setup": [contact]})

    problems = [p for p in coherence_problems(daughter("Brooks")) if p.rule == "household_name"]
    assert [(p.device, p.item) for p in problems] == [("android_0", "Maya Brooks")]
    assert "daughter" in problems[0].message
    assert [p for p in coherence_problems(daughter(None)) if p.rule == "household_name"] == []


# ------------------------------------------------------------------ dates in file names
def _pdf(path: str, *paragraphs: str) -> dict[str, Any]:
    return {"op": "write_pdf", "args": {"path": path, "title": "Bill", "paragraphs": list(paragraphs)}}


def test_a_seeded_file_agrees_with_the_year_or_month_its_name_carries() -> None:
    def problems(*files: dict[str, Any]) -> list[str]:
        return [p.message for p in coherence_problems(_desktop_task_with(files), with_world=False)]

    assert (
        problems(
            _pdf("~/Downloads/tax-return-2025.pdf", "Last year's summary."),
            _pdf("~/Documents/bill-2026-02.pdf", "Electricity used 1-28 February."),
            _pdf("~/Documents/bill-2026-03.pdf", "Issued 1 March."),
        )
        == []
    )
    found = problems(
        _pdf("~/Downloads/tax-return-2024.pdf", "Last year's summary."),
        _pdf("~/Documents/bill-2026-04.pdf", "Due in April."),
        _pdf("~/Documents/bill-2026-03.pdf", "Electricity used 1-31 March."),
    )
    assert len(found) == 3, found
    assert "says 'last year'" in found[0]
    assert "after the task starts" in found[1]
    assert "has not ended" in found[2]


def _desktop_task_with(files: tuple[dict[str, Any], ...]) -> Task:
    return Task.model_validate(
        {
            "id": "t-files",
            "instruction": 'Add "Shift".',
            "devices": [{"id": "android_0", "kind": "android"}, {"id": "linux_0", "kind": "linux"}],
            "start_time": "2026-03-02T09:00:00",
            "setup": [{"device": "linux_0", **f} for f in files],
            "evaluation": {
                "conditions": [
                    {"id": "c", "device": "android_0", "check": "event_exists", "args": {"title": "Shift"}}
                ]
            },
        }
    )


@pytest.mark.parametrize("start", ["2026-03-02T09:00:00", "2026-01-01T03:00:00", "2026-12-31T22:00:00"])
def test_the_worlds_files_agree_with_the_years_their_names_carry(start: str) -> None:
    from devicesworld.tasks.coherence import _world_file_dates

    task = Task.model_validate(
        {
            **_task("Add a Shift event.", [], start=start).model_dump(),
            "world": {"persona_seed": 7, "size": "lived"},
        }
    )
    assert list(_world_file_dates(task)) == []  # the generator keeps to it (issue #33)


def test_a_world_file_dated_outside_its_year_or_with_later_records_is_flagged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import devicesworld.worlds.generate as generate
    from devicesworld.tasks.coherence import _world_file_dates

    task = Task.model_validate(
        {**_task("Add a Shift event.", []).model_dump(), "world": {"persona_seed": 7, "size": "lived"}}
    )
    world = generate.build_world(7, "lived", task.start_time)
    expenses = next(f for f in world.desktop.files if f.path == "Documents/expenses_2026.csv")
    budget = next(f for f in world.desktop.files if f.path.endswith("budget_2026.xlsx"))
    header = expenses.rows[0]
    odd = [
        expenses.model_copy(update={"mtime": task.start_time.replace(year=2025, month=12, day=31)}),
        expenses.model_copy(
            update={"path": "Documents/ledger.csv", "rows": [header, ["2026-11-02", "x", "y", 1]]}
        ),
        expenses.model_copy(
            update={"path": "Documents/spend_2025.csv", "rows": [header, ["2026-01-02", "x", "y", 1]]}
        ),
        budget.model_copy(
            update={"rows": [header, ["2026-11-02", "x", "y", 1]]}
        ),  # a plan lists what is to come
    ]
    monkeypatch.setattr(
        generate,
        "build_world",
        lambda *a, **k: world.model_copy(update={"desktop": world.desktop.model_copy(update={"files": odd})}),
    )
    found = [(p.item, p.message) for p in _world_file_dates(task)]
    items = [item for item, _ in found]
    assert items.count("Documents/expenses_2026.csv") >= 1 and "dated 2025-12-31" in found[0][1]
    assert "Documents/ledger.csv" in items and "Documents/spend_2025.csv" in items
    assert not any("budget" in item for item in items)


# ------------------------------------------------------------------ the owners of the task's phones
def _household_phones(
    mine: list[dict[str, Any]], partner: list[dict[str, Any]], numbers: tuple[str, str] | None = None
) -> Task:
    """The user's phone (the persona's world) and the partner's (the partner's world), on the default
    numbers or on ``numbers`` (the profiles' owner numbers)."""
    base = _two_phones(partner, mine)
    devices = [d.model_dump() for d in base.devices]
    if numbers is not None:
        for device, number in zip(devices, numbers, strict=True):
            device["profile"] = {"owner_number": number}
    world = {
        "persona_seed": 4,
        "size": "small",
        "devices": ["android_0"],
        "members": {"android_1": "partner"},
    }
    return Task.model_validate({**base.model_dump(), "devices": devices, "world": world})


def _people_of_the_household() -> tuple[Any, Any]:
    from devicesworld.worlds.generate import build_world

    world = build_world(4, "small", _task("x", []).start_time)
    return world.persona.person, next(p for p in world.people if p.relation == "household")


def _owner_rule(task: Task) -> list[tuple[str | None, str, str]]:
    return [(p.device, p.item, p.message) for p in coherence_problems(task) if p.rule == "device_owner"]


def test_a_household_members_phone_known_under_another_name_and_number_is_flagged() -> None:
    me, partner = _people_of_the_household()
    contact = {"op": "add_contact", "args": {"name": "Jordan", "phone": "+15551001"}}
    user = {"op": "add_contact", "args": {"name": me.name, "phone": "+15551000"}}
    text = {"op": "add_sms", "args": {"address": "+15551001", "body": "Code?", "minutes_ago": 5}}
    problems = _owner_rule(_household_phones([contact, text], [user]))
    on_mine = [m for d, item, m in problems if d == "android_0" and item == partner.name]
    assert any("'Jordan'" in m for m in on_mine)  # the family's name beside the world's
    assert any(partner.phone.replace(" ", "") in m for m in on_mine)  # the world's number beside the phone's
    on_partners = [m for d, item, m in problems if d == "android_1" and item == me.name]
    assert on_partners and "one number" in on_partners[0]  # the user: +15551000 and their world number


def test_phones_on_their_owners_world_numbers_are_one_person_one_number() -> None:
    me, partner = _people_of_the_household()
    sent = {"op": "add_sms", "args": {"address": me.phone, "body": "Code?", "sent": True, "minutes_ago": 5}}
    got = {"op": "add_sms", "args": {"address": partner.phone, "body": "Code?", "minutes_ago": 5}}
    task = _household_phones([got], [sent], numbers=(me.phone, partner.phone))
    assert _owner_rule(task) == []
    assert [p.rule for p in coherence_problems(task) if p.rule == "cross_device"] == []
    # a member's phone nobody refers to is known only as the world has them: nothing to flag
    assert _owner_rule(_household_phones([], [])) == []
    # a second contact beside the world's, even under their own first name, is a second name
    first = {"op": "add_contact", "args": {"name": partner.first, "phone": partner.phone}}
    twice = _owner_rule(_household_phones([first], [], numbers=(me.phone, partner.phone)))
    assert [(d, item) for d, item, _ in twice] == [("android_0", partner.name)]
    assert "one name" in twice[0][2]


def test_two_phones_with_the_users_own_world_are_one_life_twice() -> None:
    base = _household_phones([], [])
    world = {"persona_seed": 4, "size": "small", "devices": ["android_0", "android_1"]}
    both = Task.model_validate({**base.model_dump(), "world": world})
    problems = _owner_rule(both)
    assert [(d, item) for d, item, _ in problems] == [("android_1", "world")]
    assert "android_0" in problems[0][2] and "world.members" in problems[0][2]
    assert _owner_rule(base) == []  # the second phone the partner's, with the partner's world


def _old_mail(
    subject: str, path: str = "~/Mail/Inbox/a.eml", minutes_ago: int | None = None
) -> dict[str, Any]:
    args: dict[str, Any] = {"path": path, "sender": "a.ruiz@gmail.com", "to": ["b.lee@gmail.com"]}
    args |= {"subject": subject, "body": "Hi"}
    if minutes_ago is not None:
        args["minutes_ago"] = minutes_ago
    return {"device": "linux_0", "op": "write_eml", "args": args}


def _mail_date_rules(mail: dict[str, Any]) -> list[str]:
    task = _desktop_mail_task(mail).model_copy(update={"start_time": datetime(2026, 3, 2, 9)})
    return _rules(task)


@pytest.mark.parametrize(
    ("subject", "path", "new", "old"),
    [
        ("Booking confirmed (last month)", "~/Mail/Inbox/a.eml", 9 * 60, 20 * 24 * 60),  # 1 Mar is this month
        ("Last term's gift for the teacher", "~/Mail/Inbox/a.eml", 20 * 24 * 60, 80 * 24 * 60),
        ("Boiler check", "~/Mail/Inbox/heating-last-winter.eml", None, 400 * 24 * 60),
        ("Quote (expired)", "~/Mail/Inbox/quote-2025.eml", 50 * 24 * 60, 62 * 24 * 60),  # 30 Dec 2025
        ("Last year's agenda", "~/Mail/Inbox/a.eml", 60, 100 * 24 * 60),
    ],
)
def test_a_mail_that_calls_itself_old_is_dated_that_old(
    subject: str, path: str, new: int | None, old: int
) -> None:
    """Issue #33: "last month's booking" listed as today's in the mail client."""
    assert _mail_date_rules(_old_mail(subject, path, new)) == ["mail_dates"]
    assert _mail_date_rules(_old_mail(subject, path, old)) == []


def test_a_mail_that_says_nothing_of_its_age_may_be_an_hour_old() -> None:
    assert _mail_date_rules(_old_mail("Your flight today", "~/Mail/Inbox/quote-2026.eml")) == []
    # the body may speak of last year in a mail sent today
    mail = _old_mail("Your quote")
    mail["args"]["body"] = "Last year's price was higher."
    assert _mail_date_rules(mail) == []


def _household_task(mirrored: bool, seeded: list[dict[str, Any]] | None = None) -> Task:
    """The user's phone and the partner's phone, each taking its owner's world (persona 5, whose
    worlds each drew their own thread with the other)."""
    return Task.model_validate(
        {
            "id": "t-household",
            "instruction": 'Add "Shift".',
            "devices": [{"id": "android_0", "kind": "android"}, {"id": "android_1", "kind": "android"}],
            "world": {"persona_seed": 5, "members": {"android_1": "partner"}, "mirrored": mirrored},
            "setup": seeded or [],
            "evaluation": {
                "conditions": [
                    {"id": "c", "device": "android_0", "check": "event_exists", "args": {"title": "Shift"}}
                ]
            },
        }
    )


def test_a_household_conversation_is_on_both_phones() -> None:
    """Issue #33 rule 2: the user's world and the partner's each held half of their own conversation."""
    one_sided = [p for p in coherence_problems(_household_task(False)) if p.rule == "mirrored_threads"]
    assert {p.device for p in one_sided} == {"android_0", "android_1"}
    assert "one conversation, both phones" in one_sided[0].message
    assert [p for p in coherence_problems(_household_task(True)) if p.rule == "mirrored_threads"] == []


def test_a_seeded_text_can_be_the_other_side_of_a_world_text() -> None:
    """Texts the task seeds count as the other side: seeding each phone with the mirror of the other
    world's texts makes the unmirrored worlds one conversation too."""
    from devicesworld.worlds import build_world

    start = datetime(2026, 3, 2, 9)
    seeded = []
    for world, device in (
        (build_world(5, "lived"), "android_1"),
        (build_world(5, "lived", member="partner"), "android_0"),
    ):
        other = build_world(5, "lived", member="partner" if device == "android_1" else None)
        for m in world.phone.messages:
            if m.address == other.persona.person.phone:
                args = {"address": world.persona.person.phone, "body": m.body, "sent": not m.sent}
                args["minutes_ago"] = (start - m.at).total_seconds() / 60
                seeded.append({"device": device, "op": "add_sms", "args": args})
    assert len(seeded) > 2
    task = _household_task(False, seeded)
    assert [p for p in coherence_problems(task) if p.rule == "mirrored_threads"] == []
    task = _household_task(False, seeded[1:])
    assert len([p for p in coherence_problems(task) if p.rule == "mirrored_threads"]) == 1


def test_a_household_call_is_in_both_call_logs() -> None:
    """The call log's twin of ``mirrored_threads``: unmirrored worlds each drew their own calls."""
    one_sided = [p for p in coherence_problems(_household_task(False)) if p.rule == "mirrored_calls"]
    assert {p.device for p in one_sided} == {"android_0"}  # seed 5: the user's world called the partner
    assert "one call, both phones" in one_sided[0].message
    assert [p for p in coherence_problems(_household_task(True)) if p.rule == "mirrored_calls"] == []
