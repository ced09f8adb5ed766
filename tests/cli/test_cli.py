from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from devicesworld.cli import main
from tests.toykind import toy_task


def _file(tmp_path: Path, docs: list[dict[str, object]]) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return path


def test_schema_prints_json_schema() -> None:
    result = CliRunner().invoke(main, ["tasks", "schema"])
    assert result.exit_code == 0
    assert json.loads(result.output)["title"] == "DevicesWorld task"


def test_list_and_show_roundtrip(tmp_path: Path) -> None:
    path = _file(tmp_path, [toy_task(id="a"), toy_task(id="b")])
    runner = CliRunner()
    listed = json.loads(runner.invoke(main, ["tasks", "list", "--tasks", str(path), "--json"]).output)
    assert [t["id"] for t in listed] == ["a", "b"]
    assert listed[0]["device_kinds"] == ["toy"] and listed[0]["pattern"] == "device_state_control"
    assert {"difficulty", "split"} <= listed[0].keys()
    shown = runner.invoke(main, ["tasks", "show", "b", "--tasks", str(path), "--json"])
    assert shown.exit_code == 0
    again = tmp_path / "b.json"
    again.write_text(shown.output)
    rerun = runner.invoke(
        main, ["run", "--tasks", str(again), "--agent", "oracle", "--out", str(tmp_path / "r")]
    )
    assert rerun.exit_code == 0, rerun.output
    assert json.loads((tmp_path / "r" / "results.jsonl").read_text())["task_id"] == "b"


def test_malformed_file_lists_problems_without_traceback(tmp_path: Path) -> None:
    bad = toy_task(id="bad")
    bad["devices"] = [{"id": "fridge_0", "kind": "fridge"}]
    del bad["instruction"]
    path = _file(tmp_path, [bad])
    result = CliRunner().invoke(
        main, ["run", "--tasks", str(path), "--agent", "oracle", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "[bad] instruction: Field required" in result.output
    assert not (tmp_path / "r").exists()


def test_validate_passes_good_and_flags_trivial_tasks(tmp_path: Path) -> None:
    good = toy_task(id="good")
    trivial = toy_task(id="trivial")
    trivial["evaluation"] = {
        "conditions": [{"id": "c", "device": "toy_0", "check": "value_is", "args": {"equals": 1}}]
    }
    wrong = toy_task(id="wrong")
    wrong["solution"] = [{"device": "toy_0", "action": "press"}, {"action": "finish"}]
    result = CliRunner().invoke(main, ["tasks", "validate", str(_file(tmp_path, [good, trivial, wrong]))])
    assert result.exit_code == 1
    assert "FAIL trivial" in result.output and "setup alone already satisfies" in result.output
    assert "FAIL wrong" in result.output and "reference solution fails condition is3" in result.output
    assert "FAIL good" not in result.output
    assert "1/3 tasks valid" in result.output


def test_run_then_report_json(tmp_path: Path) -> None:
    path = _file(tmp_path, [toy_task(id=f"t{i}") for i in range(4)])
    out = tmp_path / "run"
    runner = CliRunner()
    ran = runner.invoke(main, ["run", "--tasks", str(path), "--agent", "noop", "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    assert "success" in ran.output.lower()
    doc = json.loads(runner.invoke(main, ["report", str(out), "--json"]).output)
    for key in (
        "n",
        "success_rate",
        "success_ci95",
        "mean_score",
        "avg_steps",
        "avg_duration_s",
        "budget_exhaustion_rate",
        "avg_tokens",
        "partial_progress_rate",
        "by_device_combo",
        "by_pattern",
        "by_difficulty",
    ):
        assert key in doc
    assert doc["n"] == 4 and doc["success_rate"] == 0.0 and doc["avg_steps"] == 1.0


def test_report_on_missing_dir_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["report", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_unknown_agent_and_suite_are_clear_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    r1 = runner.invoke(main, ["run", "--suite", "smoke", "--agent", "gpt-ultra"])
    assert r1.exit_code == 2 and "unknown agent 'gpt-ultra'" in r1.output
    r2 = runner.invoke(main, ["tasks", "list", "--suite", "nope"])
    assert r2.exit_code == 2 and "unknown suite 'nope'" in r2.output


def test_play_reads_steps_from_input(tmp_path: Path) -> None:
    path = _file(tmp_path, [toy_task(id="p")])
    script = "help\ntoy_0 press\nnot json {\n" + '{"device": "toy_0", "action": "press"}\nfinish\n'
    result = CliRunner().invoke(main, ["play", "p", "--tasks", str(path)], input=script)
    assert result.exit_code == 0, result.output
    assert "value is now 2" in result.output and "value is now 3" in result.output
    assert "success: True" in result.output


def test_validate_reports_near_misses_per_mutation(tmp_path: Path) -> None:
    sh = "smarthome_0"
    task: dict[str, Any] = {
        "id": "lamp",
        "instruction": "Switch the hall lamp on.",
        "devices": [{"id": sh, "kind": "smarthome"}],
        "setup": [
            {"device": sh, "op": "add_room", "args": {"name": "hall"}},
            {
                "device": sh,
                "op": "add_device",
                "args": {"device_id": "lamp", "category": "light", "room": "hall"},
            },
            {
                "device": sh,
                "op": "add_device",
                "args": {"device_id": "heater", "category": "heater", "room": "hall"},
            },
        ],
        "evaluation": {
            "conditions": [
                {"id": "on", "device": sh, "check": "device_power", "args": {"device_id": "lamp", "on": True}}
            ]
        },
        "solution": [
            {"device": sh, "action": "control_device", "args": {"device_id": "lamp", "command": "turn_on"}},
            {"action": "finish"},
        ],
    }
    path = _file(tmp_path, [task])
    result = CliRunner().invoke(main, ["tasks", "validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "1/1 tasks valid (2 near misses failed as they must)" in result.output
    lines = [line.split()[:4] for line in result.output.splitlines()]
    assert ["collateral", "1", "on", "1"] in lines  # the heater switched too
    assert ["set_then_undo", "1", "on", "1"] in lines  # the lamp on, then scheduled off
    as_json = CliRunner().invoke(main, ["tasks", "validate", str(path), "--json"])
    assert json.loads(as_json.stdout)[0]["mutations"] == {"collateral": 1, "set_then_undo": 1}
