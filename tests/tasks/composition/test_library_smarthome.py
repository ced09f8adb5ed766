"""The SmartHome atomic library: every task composes into a QC-passing task; phrasings vary."""

from __future__ import annotations

import random

import pytest
from library_harness import check_phrasings, compose_with, sample_inputs

from devicesworld.tasks.composition.atomic import AtomicTask, InstanceContext
from devicesworld.tasks.composition.library import android, smarthome_devices
from devicesworld.tasks.composition.library import smarthome as sh

BY_NAME = {t.name: t for t in [*android.LIBRARY, *sh.LIBRARY]}

CASES = [
    ("sh_read_heater_target", ["sh_set_ac_target"], "s"),
    ("sh_read_ac_target", ["sh_set_heater_target"], "s"),
    ("sh_read_lamp_brightness", ["sh_set_curtain_position"], "s"),
    ("sh_read_curtain_position", ["sh_set_lamp_brightness"], "s"),
    ("sh_read_humidifier_target", ["sh_set_dehumidifier_target"], "s"),
    ("sh_read_pm25", ["an_send_sms"], "m"),
    ("sh_read_washer_remaining", ["sh_schedule_after_delay"], "s"),
    ("sh_read_vacuum_battery", ["an_send_sms"], "m"),
    ("sh_read_lights_off_time", ["sh_schedule_device_at"], "s"),
    ("sh_set_heater_target", ["an_read_sms_code", "sh_read_room_temperature"], "s"),
    ("sh_set_curtain_position", ["an_read_brightness"], "m"),
    ("sh_set_dehumidifier_target", ["sh_read_room_humidity"], "s"),
    ("sh_schedule_device_at", ["an_read_alarm_time"], "m"),
    ("sh_schedule_after_delay", ["sh_read_washer_remaining"], "s"),
    ("sh_set_fan_speed", ["an_take_photo"], "i"),
    ("sh_switch_device", ["an_take_photo"], "i"),
    ("sh_start_appliance", ["an_take_photo"], "i"),
    ("sh_dryer_after_washer", ["an_take_photo"], "i"),
    ("sh_start_vacuum", ["an_record_memo"], "i"),
    ("sh_schedule_heater_target", ["sh_read_lights_off_time", "sh_read_heater_target"], "s"),
    ("sh_schedule_lamp_brightness", ["an_read_event_time", "sh_read_curtain_position"], "m"),
]


def test_every_new_smarthome_task_has_a_case() -> None:
    new = {t.name for t in smarthome_devices.LIBRARY}
    assert new == {c[0] for c in CASES}
    assert {t.name for t in sh.LIBRARY} >= new


@pytest.mark.parametrize(("target", "partners", "category"), CASES, ids=[c[0] for c in CASES])
def test_composes_into_a_task_that_passes_qc(target: str, partners: list[str], category: str) -> None:
    task = compose_with([BY_NAME[target], *(BY_NAME[p] for p in partners)], target, category, seeds=20)
    for source in task.metadata.sources:
        assert str(source.value) not in task.instruction


@pytest.mark.parametrize("task", sh.LIBRARY, ids=[t.name for t in sh.LIBRARY])
def test_clauses_and_mentions_use_three_or_more_phrasings(task: AtomicTask) -> None:
    check_phrasings(task, "smarthome_0", sh, smarthome_devices)


def test_two_input_schedules_check_time_and_value() -> None:
    for name in ("sh_schedule_heater_target", "sh_schedule_lamp_brightness"):
        task = BY_NAME[name]
        inputs = sample_inputs(task, random.Random(8))
        (cond,) = task.instantiate(InstanceContext("smarthome_0", random.Random(1)), inputs).conditions
        value = next(v.value for k, v in inputs.items() if k != "time")
        assert list(cond.args["params"].values()) == [value]
        hour, minute = str(inputs["time"].value).split(":")
        assert f"T{hour}:{minute}" in cond.args["due_at"]


def test_a_schedule_before_the_start_time_is_due_the_next_day() -> None:
    from devicesworld.tasks.composition.library.smarthome_common import next_due

    assert next_due("07:30").isoformat() == "2026-03-03T07:30:00"
    assert next_due("21:15").isoformat() == "2026-03-02T21:15:00"
    with pytest.raises(ValueError, match="HH:MM"):
        next_due("soon")
