"""Suites shipped outside the task index (an archived `test` version) can be narrowed like indexed ones."""

from __future__ import annotations

import json

from click.testing import CliRunner

from devicesworld.cli import load_source, main
from devicesworld.tasks.shipped import index_rows
from devicesworld.tasks.suites import load_suite

SUITE = "test-v2.1"


def test_an_archived_test_version_is_outside_the_index() -> None:
    assert index_rows(SUITE) == []
    assert len(load_suite(SUITE)) > 3


def test_task_ids_pick_tasks_of_an_unindexed_suite_in_the_given_order() -> None:
    ids = [t.id for t in load_suite(SUITE)]
    wanted = (f"{ids[2]},{ids[0]}",)
    assert [t.id for t in load_source(SUITE, None, task_ids=wanted)] == [ids[2], ids[0]]


def test_tasks_list_with_task_ids_on_an_unindexed_suite() -> None:
    first = load_suite(SUITE)[1].id
    result = CliRunner().invoke(main, ["tasks", "list", "--suite", SUITE, "--task-ids", first, "--json"])
    assert result.exit_code == 0, result.output
    assert [row["id"] for row in json.loads(result.output)] == [first]


def test_an_unknown_id_in_an_unindexed_suite_is_a_clear_error() -> None:
    result = CliRunner().invoke(main, ["tasks", "validate", "--suite", SUITE, "--task-ids", "no-such-task"])
    assert result.exit_code != 0
    assert "no-such-task" in result.output
    assert "Traceback" not in result.output
