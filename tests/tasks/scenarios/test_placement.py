"""Where a task's values sit is measured on its devices, and look-alikes ahead of them are counted."""

from __future__ import annotations

from devicesworld.spec.models import SourceValue
from devicesworld.tasks.scenarios.build import choice_for
from devicesworld.tasks.scenarios.compile import compile_task
from devicesworld.tasks.scenarios.loader import shipped_families, shipped_macros
from devicesworld.tasks.scenarios.placement import first_screens, place


def _src(value: str | int | float, device: str = "android_0") -> SourceValue:
    return SourceValue(device=device, value=value)


def test_a_value_on_the_first_screen_first_of_its_shape_has_nothing_ahead() -> None:
    (p,) = place(
        [_src("482913")], ["document"], "Enter the code.", {"android_0": "Bank: 482913 is your code"}
    )
    assert (p.where, p.ahead) == ("first_screen", 0)


def test_look_alikes_read_before_the_value_are_counted_in_reading_order() -> None:
    screens = {"android_0": "Shop: 111222\nBank: 482913\nBank: 999000"}
    (p,) = place([_src("482913")], ["first_screen"], "Use the code, not 333444.", screens)
    assert (p.where, p.ahead) == ("first_screen", 2)  # 333444 in the instruction, then 111222


def test_the_tasks_other_needed_values_are_not_look_alikes() -> None:
    screens = {"android_0": "Pickup 18:30, drop-off 19:15"}
    a, b = place([_src("18:30"), _src("19:15")], ["first_screen"] * 2, "Note both times.", screens)
    assert (a.ahead, b.ahead) == (0, 0)


def test_a_value_off_the_first_screen_keeps_the_declared_place_or_becomes_scroll() -> None:
    screens = {"android_0": "Inbox: 3 new messages from 12:05"}
    a, b = place([_src("482913"), _src("17:40")], ["first_screen", "document"], "Do it.", screens)
    assert a.where == "scroll"  # declared on the first screen, measured further down
    assert b.where == "document"
    assert b.ahead == 1  # 12:05 is the only time a reader meets


def test_a_newer_twin_above_the_target_is_measured_on_the_real_phone() -> None:
    family = next(f for f in shipped_families() if f.family == "bank_two_factor_portal")
    task = compile_task(family, shipped_macros(), choice_for(family, 2, 0), "dw-t-0300")
    screens = first_screens(task)
    phone = task.metadata.sources[0].device
    assert str(task.metadata.sources[0].value) in screens[phone]
    assert task.metadata.composition is not None
    placed = task.metadata.composition.placement["code"]
    assert placed.where == "first_screen"
    assert placed.ahead >= 1  # the shop's newer code sits above the bank's
