"""The "instruction reveals the value" gate matches whole values by meaning, not substrings."""

from __future__ import annotations

from typing import Any

import pytest

from devicesworld.tasks.scenarios.compile import Choice, FamilyError, _revealed, compile_task
from devicesworld.tasks.scenarios.loader import shipped_macros
from devicesworld.tasks.scenarios.model import Family
from devicesworld.tasks.scenarios.reveal import reveals
from tests.tasks.scenarios.test_compile import MINI

# (text, value, slot meaning): a substring test fires on each, but none states the value
NOT_REVEALED = [
    ("I've lived here since 2012.", 12, "count"),
    ("Meet me at 12:30 by the gate.", 12, "count"),
    ("The lamp is at 45%.", 5, "percentage"),
    ("It costs $120.00 a month.", 20, "money"),
    ("Wait 15 minutes, then call.", 5, "duration"),
    ("The meeting is at 15:30.", 15, "duration"),
    ("The train leaves at 19:30.", "9:30", "clock_time"),
    ("Use the code 721660 from the first message.", "72166", "code"),
    ("Room B12 is free.", "12", "code"),
    ("It's 22.5 °C in the study.", 22, "temperature"),
    ("Ask Kevin Reeds about it.", "Kevin Reed", "person"),
]

# (text, value, meaning): the value is said another way, which a substring test misses
REVEALED = [
    ("Meet me at 9:30 by the gate.", "09:30", "clock_time"),
    ("Meet me at 9:30 am by the gate.", "09:30", "clock_time"),
    ("The dentist is on Saturday 14 March.", "2026-03-14", "date"),
    ("Call 415-555-0100 when you land.", "+14155550100", "phone_number"),
    ("Set it to $1,234.50.", 1234.5, "money"),
    ("An hour from now, remind me.", 60, "duration"),
    ("Ask KEVIN REED about it.", "Kevin Reed", "person"),
]


@pytest.mark.parametrize(("text", "value", "meaning"), NOT_REVEALED)
def test_a_value_inside_another_value_is_not_revealed(text: str, value: Any, meaning: str) -> None:
    assert _revealed(value, text)  # the old substring gate fired here
    assert not reveals(text, value, meaning)


@pytest.mark.parametrize(("text", "value", "meaning"), REVEALED)
def test_a_value_said_another_way_is_revealed(text: str, value: Any, meaning: str) -> None:
    assert not _revealed(value, text)  # the old substring gate missed it
    assert reveals(text, value, meaning)


@pytest.mark.parametrize(
    ("text", "value", "meaning"),
    [("Heat the study to 21 °C.", 21.0, "temperature"), ("Type the code 72166.", "72166", "code")],
)
def test_a_value_said_as_stored_is_still_revealed(text: str, value: Any, meaning: str) -> None:
    assert reveals(text, value, meaning)


def test_the_same_value_said_plainly_is_revealed_for_every_meaning() -> None:
    for _, value, meaning in NOT_REVEALED:
        if meaning == "person":
            continue
        plain = f"The answer is {value}."
        assert reveals(plain, value, meaning), (plain, meaning)


def _family(text: str, level: list[int]) -> Family:
    phrasings = [
        {"style": style, "text": text.replace("STYLE", style)}
        for style in ("polite", "terse", "indirect", "context")
    ]
    return Family.model_validate(
        {
            **MINI,
            "params": {**MINI["params"], "level": {"type": "percentage", "pool": level}},
            "phrasings": phrasings,
            "sources": [{"param": "level", "role": "home", "description": "the level"}],
        }
    )


def test_compile_keeps_a_task_whose_instruction_only_contains_the_digits() -> None:
    family = _family("Since 2012 the {room} lamp keeps the level I like (STYLE); set it to that level.", [12])
    task = compile_task(family, shipped_macros(), Choice(seed=1), "dw-mini-0100")
    assert "2012" in task.instruction


def test_compile_refuses_a_task_whose_instruction_states_the_value_with_its_unit() -> None:
    family = _family("Set the {room} lamp to 12 percent, or rather 12%, please (STYLE).", [12])
    with pytest.raises(FamilyError, match="reveals the level"):
        compile_task(family, shipped_macros(), Choice(seed=1), "dw-mini-0101")
