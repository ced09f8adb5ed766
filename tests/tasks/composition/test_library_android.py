"""The phone atomic library: every task composes into a QC-passing task; phrasings vary; conflicts are refused."""

from __future__ import annotations

import random

import pytest
from library_harness import check_phrasings, compose_with, sample_inputs

from devicesworld.tasks.composition.atomic import AtomicTask, InstanceContext
from devicesworld.tasks.composition.compose import Composer, CompositionError
from devicesworld.tasks.composition.library import android, android_apps, android_multi
from devicesworld.tasks.composition.library import smarthome as sh

BY_NAME = {t.name: t for t in [*android.LIBRARY, *sh.LIBRARY]}

# (atomic task under test, its partners, category): reads feed a writer, writers are fed by reads,
# standalone writes sit next to a SmartHome task on a second device.
CASES = [
    ("an_read_alarm_time", ["an_set_alarm"], "s"),
    ("an_read_contact_email", ["an_send_sms"], "s"),
    ("an_read_contact_by_company", ["an_create_named_contact"], "s"),
    ("an_read_event_location", ["an_create_event_at_place"], "s"),
    ("an_read_event_date", ["an_write_note"], "s"),
    ("an_read_sms_phone", ["an_create_contact"], "s"),
    ("an_read_missed_call", ["an_send_sms"], "s"),
    ("an_read_note_code", ["an_reply_sms"], "s"),
    ("an_read_download_code", ["an_write_note"], "s"),
    ("an_read_brightness", ["an_send_sms"], "s"),
    ("an_read_place_address", ["an_send_sms"], "s"),
    ("an_read_web_amount", ["an_write_note"], "s"),
    ("an_read_song_artist", ["an_create_contact_with_email"], "s"),
    ("an_set_alarm", ["an_read_event_time"], "s"),
    ("an_start_timer", ["sh_read_washer_remaining"], "m"),
    ("an_add_contact_email", ["an_read_contact_email"], "s"),
    ("an_reply_sms", ["an_read_sms_code"], "s"),
    ("an_set_brightness", ["sh_read_lamp_brightness"], "m"),
    ("an_flip_setting", ["sh_switch_device"], "i"),
    ("an_create_event_at_place", ["an_read_place_address"], "s"),
    ("an_copy_file_to_folder", ["an_provide_file"], "s"),
    ("an_tidy_download", ["sh_switch_device"], "i"),
    ("an_save_place", ["sh_switch_device"], "i"),
    ("an_add_to_playlist", ["sh_switch_device"], "i"),
    ("an_take_photo", ["sh_switch_device"], "i"),
    ("an_record_memo", ["sh_switch_device"], "i"),
    ("an_calculate_sum", ["an_read_web_amount"], "m"),
    ("an_send_sms_two", ["an_read_sms_code", "an_read_contact_phone"], "s"),
    ("an_create_named_contact", ["an_read_contact_by_company", "an_read_sms_phone"], "s"),
    ("an_create_titled_event", ["an_read_note_code", "an_read_alarm_time"], "s"),
    ("an_create_event_time_place", ["an_read_event_time", "an_read_event_location"], "s"),
    ("an_write_note_two", ["an_read_web_amount", "an_read_missed_call"], "s"),
    ("an_create_contact_with_email", ["an_read_song_artist", "an_read_contact_email"], "s"),
]


def test_every_new_phone_task_has_a_case() -> None:
    new = {t.name for t in (*android_apps.LIBRARY, *android_multi.LIBRARY)}
    assert new == {c[0] for c in CASES}
    assert {t.name for t in android.LIBRARY} >= new


@pytest.mark.parametrize(("target", "partners", "category"), CASES, ids=[c[0] for c in CASES])
def test_composes_into_a_task_that_passes_qc(target: str, partners: list[str], category: str) -> None:
    """validate_task: setup alone fails, the recorded oracle solution passes."""
    task = compose_with([BY_NAME[target], *(BY_NAME[p] for p in partners)], target, category)
    for source in task.metadata.sources:
        assert str(source.value) not in task.instruction


def test_two_input_writers_check_both_values() -> None:
    for task in android_multi.LIBRARY:
        assert len(task.inputs) == 2
        ctx = InstanceContext("android_0", random.Random(3))
        fragment = task.instantiate(ctx, sample_inputs(task, random.Random(4)))
        (cond,) = fragment.conditions
        checked = repr(cond.args)
        for value in sample_inputs(task, random.Random(4)).values():
            assert str(value.value) in checked, (task.name, cond.args)


PHRASED = [t for t in android.LIBRARY if not t.name.endswith("provide_file")]  # a file's mention is its name


@pytest.mark.parametrize("task", PHRASED, ids=[t.name for t in PHRASED])
def test_clauses_and_mentions_use_three_or_more_phrasings(task: AtomicTask) -> None:
    """Every write clause and read mention comes from ``say`` (which refuses fewer than three)."""
    check_phrasings(task, "android_0", android, android_apps, android_multi)


def test_phrasings_vary_with_the_seed() -> None:
    task = BY_NAME["an_set_alarm"]
    seen = set()
    for seed in range(40):
        rng = random.Random(seed)
        inputs = sample_inputs(task, random.Random(0))
        text = task.instantiate(InstanceContext("android_0", rng), inputs).instruction
        seen.add(text.split(" ")[0])
    assert len(seen) >= 3, seen


def test_state_only_one_task_may_own_is_refused_twice() -> None:
    ctx = InstanceContext("android_0", random.Random(1))
    timer = BY_NAME["an_start_timer"]
    inputs = sample_inputs(timer, random.Random(2))
    timer.instantiate(ctx, inputs)
    with pytest.raises(CompositionError, match="countdown timer"):
        timer.instantiate(ctx, inputs)
    ctx = InstanceContext("android_0", random.Random(1))
    BY_NAME["an_set_brightness"].instantiate(
        ctx, sample_inputs(BY_NAME["an_set_brightness"], random.Random(2))
    )
    with pytest.raises(CompositionError, match="set before it is read"):
        BY_NAME["an_read_brightness"].instantiate(ctx, {})


def test_phone_library_rebuilds_byte_identical() -> None:
    composer = Composer(android.LIBRARY)
    built = []
    for seed in range(6):
        try:
            a = composer.compose(seed, "single_device_dependent", max_tasks=3)
        except CompositionError:
            continue
        b = composer.compose(seed, "single_device_dependent", max_tasks=3)
        assert a.model_dump_json() == b.model_dump_json()
        built.append(a)
    assert built


def test_a_target_past_the_matches_is_a_script_error_not_a_crash() -> None:
    from devicesworld.tasks.composition.record import _concrete
    from devicesworld.tasks.suites.android_script import On, ScriptError

    obs = {"ui_elements": [{"text": "7:00 AM"}, {"text": "8:00 AM"}, {"text": "7:00 AM"}]}
    assert _concrete(obs, On("a").tap(text="7:00 AM", nth=-1)).args["index"] == 2
    for nth in (-3, 2):
        with pytest.raises(ScriptError):
            _concrete(obs, On("a").tap(text="7:00 AM", nth=nth))
