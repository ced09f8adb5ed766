"""Numbers carry their meaning in the composition: the glue issue #15 found is refused."""

from __future__ import annotations

import pytest

from devicesworld.tasks.build import default_composer
from devicesworld.tasks.composition.types import DEFAULT_TYPES

GLUE = [
    ("sh_read_pm25", "sh_schedule_after_delay"),  # PM2.5 as minutes of delay
    ("sh_read_vacuum_battery", "sh_set_humidifier_target"),  # a battery level as a humidity target
    ("sh_read_washer_remaining", "lx_set_project_constant"),  # MAX_RETRIES = the washer's minutes left
    ("lx_read_project_constant", "sh_set_lamp_brightness"),  # a lamp's brightness from BATCH_SIZE
    ("sh_read_room_temperature", "an_calculate_sum"),  # two temperatures added on a calculator
]


def _slots() -> dict[str, tuple[list[str], list[str]]]:
    return {
        t.name: ([s.type for s in t.outputs], [s.type for s in t.inputs]) for t in default_composer().library
    }


@pytest.mark.parametrize(("reader", "writer"), GLUE)
def test_a_value_of_one_meaning_cannot_feed_a_slot_of_another(reader: str, writer: str) -> None:
    slots = _slots()
    (outputs, _), (_, inputs) = slots[reader], slots[writer]
    assert outputs and inputs
    assert not any(DEFAULT_TYPES.is_subtype(o, i) for o in outputs for i in inputs), (outputs, inputs)


def test_meaningful_values_still_flow_where_they_belong() -> None:
    slots = _slots()
    assert DEFAULT_TYPES.is_subtype(
        slots["sh_read_washer_remaining"][0][0], slots["sh_schedule_after_delay"][1][0]
    )
    assert DEFAULT_TYPES.is_subtype(
        slots["sh_read_room_humidity"][0][0], slots["sh_set_humidifier_target"][1][0]
    )
    # any value may still be written down as text (a message, a JSON field)
    assert DEFAULT_TYPES.is_subtype(slots["sh_read_pm25"][0][0], slots["an_send_sms"][1][0])
