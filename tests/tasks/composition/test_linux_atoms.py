"""Every Linux atomic task composes into tasks that pass QC: setup alone fails, the oracle passes."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from devicesworld.env import CrossDeviceEnv
from devicesworld.spec.models import Task
from devicesworld.tasks.composition.atomic import AtomicTask
from devicesworld.tasks.composition.compose import Composer, CompositionError
from devicesworld.tasks.composition.library import linux, linux_docs, linux_media, linux_multi
from devicesworld.tasks.validate import validate_task

BY_NAME = {t.name: t for t in linux.LIBRARY}

# Each new atomic task with the partners it needs: a writer for a read, a read (or a file) for a writer.
PAIRS: dict[str, Sequence[str]] = {
    "lx_read_xlsx_by_label": ["lx_write_json_field"],
    "lx_read_docx_table": ["lx_append_csv_row"],
    "lx_read_date_pdf": ["lx_email_draft"],
    "lx_read_image_size": ["lx_write_json_field"],
    "lx_read_code_image_caption": ["lx_verify_web_code"],
    "lx_read_audio_duration": ["lx_write_xlsx_cell"],
    "lx_read_audio_sample_rate": ["lx_write_json_field"],
    "lx_read_code_archive": ["lx_verify_web_code"],
    "lx_read_project_constant": ["lx_write_docx_paragraph"],
    "lx_write_xlsx_cell": ["lx_read_time_json"],
    "lx_write_docx_paragraph": ["lx_read_code_text"],
    "lx_set_project_constant": ["lx_read_project_constant"],
    "lx_write_json_record": ["lx_read_phone_csv", "lx_read_date_pdf"],
    "lx_append_csv_row_pair": ["lx_read_code_archive", "lx_read_amount_xlsx"],
    "lx_email_draft_pair": ["lx_read_time_json", "lx_read_docx_table"],
    "lx_web_form_pair": ["lx_read_code_text", "lx_read_audio_duration"],
    "lx_move_file_into_folder": ["lx_read_code_from_file"],
    "lx_create_archive": ["lx_provide_file"],
}


def _subtasks(task: Task) -> list[str]:
    return [s["atomic"] for s in task.metadata.model_extra["composition"]["subtasks"]]  # type: ignore[index]


def _compose_with(name: str, partners: Sequence[str], size: int) -> Task:
    library: list[AtomicTask] = [BY_NAME[name], *(BY_NAME[p] for p in partners)]
    composer = Composer(library)
    for seed in range(40):
        try:
            task = composer.compose(seed, "single_device_dependent", max_tasks=size)
        except CompositionError:
            continue
        used = _subtasks(task)
        if name in used and all(p in used for p in partners):
            return task
    raise AssertionError(f"no seed composed {name} with {partners}")


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_new_linux_atomic_tasks_pass_quality_control(name: str) -> None:
    partners = PAIRS[name]
    task = _compose_with(name, partners, 1 + len(partners))
    report = validate_task(task)
    assert report.ok, (task.instruction, report.problems)
    for source in task.metadata.sources:
        assert str(source.value) not in task.instruction, (source.value, task.instruction)
    with CrossDeviceEnv(task) as env:  # every document the setup wrote opens with its reader
        env.reset()
        for device in env._devices.values():
            assert device.check_resources() == []  # type: ignore[attr-defined]


def test_two_input_writers_check_both_values() -> None:
    for name in ("lx_write_json_record", "lx_append_csv_row_pair", "lx_email_draft_pair", "lx_web_form_pair"):
        task = _compose_with(name, PAIRS[name], 3)
        hidden = {str(s.value) for s in task.metadata.sources}
        assert len(hidden) == 2, (name, hidden)
        cond_text = "".join(c.model_dump_json() for c in task.evaluation.conditions)
        for value in hidden:
            assert value in cond_text, (name, value)


def test_fix_failing_test_runs_alone() -> None:
    composer = Composer([BY_NAME["lx_fix_failing_test"], BY_NAME["lx_write_xlsx_cell"]])
    for seed in range(10):
        try:
            task = composer.compose(seed, "multi_device_independent", max_tasks=2)
        except CompositionError:
            continue
        if "lx_fix_failing_test" in _subtasks(task):
            report = validate_task(task)
            assert report.ok, report.problems
            kept = [c for c in task.evaluation.conditions if c.check == "file_unchanged"]
            assert kept and not kept[0].scored
            return
    raise AssertionError("no seed used lx_fix_failing_test")


def test_library_modules_are_all_wired() -> None:
    names = [t.name for t in linux.LIBRARY]
    assert len(names) == len(set(names))
    for module in (linux_docs, linux_media, linux_multi):
        assert all(t in linux.LIBRARY for t in module.LIBRARY)


def test_same_seed_same_bytes_for_the_linux_library() -> None:
    for seed in range(20):
        try:
            a = Composer(list(linux.LIBRARY)).compose(seed, "single_device_dependent", max_tasks=4)
        except CompositionError:
            continue
        b = Composer(list(linux.LIBRARY)).compose(seed, "single_device_dependent", max_tasks=4)
        assert a.model_dump_json() == b.model_dump_json()
        return
    raise AssertionError("no seed composed a Linux task")


def test_a_moved_file_can_be_read_at_its_new_place() -> None:
    library = [
        BY_NAME[n] for n in ("lx_move_file_into_folder", "lx_read_code_from_file", "lx_write_json_field")
    ]
    for seed in range(60):
        try:
            task = Composer(library).compose(seed, "single_device_dependent", max_tasks=3)
        except CompositionError:
            continue
        comp = task.metadata.model_extra["composition"]  # type: ignore[index]
        atomic = {s["id"]: s["atomic"] for s in comp["subtasks"]}
        edges = {(atomic[e["src"]], atomic[e["dst"]]) for e in comp["edges"]}
        if ("lx_move_file_into_folder", "lx_read_code_from_file") in edges:
            report = validate_task(task)
            assert report.ok, (task.instruction, report.problems)
            assert "~/Archive/" in task.instruction
            return
    raise AssertionError("no seed read a moved file")


def test_file_writers_take_files_from_another_device() -> None:
    """A phone's file brought over the drive can be archived on the desktop; a filed file can go to a phone."""
    from devicesworld.tasks.composition.library import android
    from devicesworld.tasks.composition.library.transfers import TRANSFERS

    producer = next(t for t in android.LIBRARY if t.name == "an_provide_file")
    reader = next(t for t in android.LIBRARY if t.name == "an_read_code_from_file")
    cases = (
        ([producer, BY_NAME["lx_create_archive"]], "transfer_android_to_linux"),
        ([BY_NAME["lx_move_file_into_folder"], reader], "transfer_linux_to_android"),
    )
    for library, hop in cases:
        composer = Composer(library, transfers=TRANSFERS)
        for seed in range(40):
            try:
                task = composer.compose(seed, "multi_device_dependent", max_tasks=2)
            except CompositionError:
                continue
            if hop in _subtasks(task):
                report = validate_task(task)
                assert report.ok, (hop, task.instruction, report.problems)
                break
        else:
            raise AssertionError(f"no seed used {hop}")
