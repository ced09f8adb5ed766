"""``devicesworld androidworld state|run|oracle`` on a small phone task file."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.spec.models import Step
from tests.devices.android.android_helpers import phone_task

ANN = ("add_contact", {"name": "Ann Lee", "phone": "+15550101"})
REPORTED = {"id": "r", "device": "env", "check": "infeasible_reported", "args": {"keywords": ["zelda"]}}


def _tasks(tmp_path: Path) -> Path:
    task = phone_task([ANN], [REPORTED]).model_copy(
        update={"solution": [Step(action="report_infeasible", args={"reason": "Zelda is not a contact"})]}
    )
    path = tmp_path / "tasks.jsonl"
    path.write_text(task.model_dump_json() + "\n", encoding="utf-8")
    return path


def test_state_prints_androidworlds_elements(tmp_path: Path) -> None:
    path = _tasks(tmp_path)
    shot = tmp_path / "screen.png"
    out = CliRunner().invoke(
        main,
        ["androidworld", "state", "t-android", "--tasks", str(path), "--json", "--screenshot", str(shot)],
    )
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["foreground_activity"].endswith("NexusLauncherActivity")
    assert any(el["text"] == "Messages" and el["resource_name"] for el in doc["ui_elements"])
    assert set(doc["ui_elements"][0]) >= {"bbox", "bbox_pixels", "resource_name", "resource_id", "tooltip"}
    assert shot.read_bytes().startswith(b"\x89PNG")


def test_run_executes_jsonaction_lines_and_records_them(tmp_path: Path) -> None:
    path = _tasks(tmp_path)
    lines = [
        {"action_type": "open_app", "app_name": "Simple SMS Messenger"},
        {"action_type": "answer", "text": "There is no contact called Zelda"},
        {"action_type": "status", "goal_status": "infeasible"},
    ]
    stdin = "".join(json.dumps(a) + "\n" for a in lines)
    run_dir = tmp_path / "run"
    args = ["androidworld", "run", "t-android", "--tasks", str(path), "--out", str(run_dir)]
    out = CliRunner().invoke(main, args, input=stdin)
    assert out.exit_code == 0, out.output
    assert "t-android: success" in out.output and "3 steps" in out.output
    assert len((run_dir / "episodes" / "t-android" / "steps.jsonl").read_text().splitlines()) == 3
    again = CliRunner().invoke(main, args, input=stdin)
    assert again.exit_code == 2 and "already holds a result" in " ".join(again.output.split())


def test_run_rejects_a_bad_action_line_clearly(tmp_path: Path) -> None:
    path = _tasks(tmp_path)
    args = ["androidworld", "run", "t-android", "--tasks", str(path)]
    out = CliRunner().invoke(main, args, input='{"action_type": "fly"}\n')
    assert out.exit_code == 2 and "action line 1" in out.output and "Traceback" not in out.output
    out = CliRunner().invoke(main, args, input="click 3\n")
    assert out.exit_code == 2 and "is not JSON" in out.output


def test_oracle_reports_the_success_rate(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["androidworld", "oracle", "--tasks", str(_tasks(tmp_path))])
    assert out.exit_code == 0, out.output
    assert "1/1 single-phone tasks solved" in out.output


def test_oracle_can_run_shaped_like_m3a(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    args = ["androidworld", "oracle", "--tasks", str(_tasks(tmp_path)), "--m3a-shaped", "--out", str(run_dir)]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    assert "1/1 single-phone tasks solved" in out.output
    assert json.loads((run_dir / "results.jsonl").read_text())["termination"] == "infeasible_reported"
