"""``tasks list`` with no option describes every suite in one line; a retired suite asked for by
name says what replaces it, wherever a suite is named (listing, running, the Python API)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from devicesworld import api
from devicesworld.cli import main
from devicesworld.tasks.suites import ABOUT, RETIRED, load_suite, suite_names


def test_tasks_list_without_options_names_each_suite_its_size_and_purpose() -> None:
    result = CliRunner().invoke(main, ["tasks", "list", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["suite"]: r for r in json.loads(result.output)}
    assert set(rows) == set(suite_names())
    assert rows["smoke-gui"]["tasks"] == len(load_suite("smoke-gui"))
    assert rows["test"]["frozen"] and not rows["full"]["frozen"]
    assert rows["test-v2.1"]["frozen"]
    assert all(r["about"] for r in rows.values())
    table = CliRunner().invoke(main, ["tasks", "list"], env={"COLUMNS": "200"})
    assert table.exit_code == 0 and "smoke-gui" in table.output and "tasks list --suite NAME" in table.output


def test_every_named_suite_is_described_and_no_retired_one_is_listed() -> None:
    assert {n for n in suite_names() if not n.startswith("test-v")} == set(ABOUT)
    assert not set(RETIRED) & set(suite_names())


@pytest.mark.parametrize(
    ("name", "replacement"), [("gui", "--suite full --filter 'id=dw-gui-lx-*'"), ("gui-smoke", "smoke-gui")]
)
def test_a_retired_suite_says_what_replaces_it(name: str, replacement: str) -> None:
    for args in (["tasks", "list", "--suite", name], ["run", "--suite", name, "--agent", "noop"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert "retired" in result.output and replacement in result.output
        assert "Traceback" not in result.output
    with pytest.raises(FileNotFoundError, match="retired"):
        api.load_tasks(name)
    with pytest.raises(KeyError, match="retired"):
        load_suite(name)


def test_the_replacement_filter_selects_the_retired_suites_families() -> None:
    result = CliRunner().invoke(
        main, ["tasks", "list", "--suite", "full", "--filter", "id=dw-gui-lx-*", "--json"]
    )
    assert result.exit_code == 0, result.output
    ids = [r["id"] for r in json.loads(result.output)]
    assert any(i.startswith("dw-gui-lx-editor-append-") for i in ids)
    assert any(i.startswith("dw-gui-lx-web-register-") for i in ids)
