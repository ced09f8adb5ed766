"""``devicesworld serve homeassistant`` as a user runs it: a smoke task solved through HA's REST API."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from homeassistant_api import Client

from devicesworld.tasks.loading import dump_tasks_jsonl
from devicesworld.tasks.suites import load_suite
from tests.serve.serve_harness import free_ports, wait_listening


def test_a_smoke_task_through_the_rest_api_is_recorded_and_succeeds(tmp_path: Path) -> None:
    task = next(t for t in load_suite("smoke") if t.id == "smoke-sh-014")
    dump_tasks_jsonl([task], tmp_path / "task.jsonl")
    port = free_ports(1)
    cmd = [sys.executable, "-m", "devicesworld", "serve", "homeassistant", "--tasks", str(tmp_path / "task.jsonl"),
           "--task-id", task.id, "--port", str(port), "--token", "s3cret", "--out", str(tmp_path / "run"), "--debug-evaluate"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_listening(port)
        with Client(f"http://127.0.0.1:{port}/api", "s3cret") as client:
            client.trigger_service("cover", "close_cover", entity_id="cover.bedroom_curtain")
            client.trigger_service(
                "climate", "set_temperature", entity_id="climate.ac_bedroom", hvac_mode="auto", temperature=25
            )
            client.trigger_service("climate", "set_fan_mode", entity_id="climate.ac_bedroom", fan_mode="low")
            client.trigger_service("fan", "turn_off", entity_id="fan.living_purifier")
            _, verdict = client.trigger_service_with_response("devicesworld", "evaluate")
            assert verdict["success"] is True and verdict["failed"] == [] and "conditions" not in verdict
            client.trigger_service("devicesworld", "finish")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    [result] = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert (result["success"], result["termination"], result["agent"]) == (True, "finished", "homeassistant")
    # close, (turn_on, set_mode, set_target_temperature), set_fan_speed, turn_off, finish
    assert result["steps"] == 7
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["comparable"] is False and "--debug-evaluate" in run["not_comparable_reason"]


def test_bad_options_are_clear_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from devicesworld.cli import main

    monkeypatch.delenv("DEVICESWORLD_HA_TOKEN", raising=False)
    task = next(t for t in load_suite("smoke") if t.id == "smoke-lx-001")
    dump_tasks_jsonl([task], tmp_path / "task.jsonl")
    base = ["serve", "homeassistant", "--tasks", str(tmp_path / "task.jsonl"), "--task", task.id]
    runner = CliRunner()
    run = runner.invoke(main, [*base, "--token", "t"])
    assert run.exit_code == 2 and "has no smarthome device" in run.output
    run = runner.invoke(main, base)
    assert run.exit_code == 2 and "--token" in run.output
    run = runner.invoke(main, [*base, "--token", "  "])
    assert run.exit_code == 2 and "must not be empty" in run.output
    run = runner.invoke(
        main, ["serve", "mcp", "--tasks", str(tmp_path / "task.jsonl"), "--task", task.id, "--per-device"]
    )
    assert run.exit_code == 2 and "--transport http" in run.output
    run = runner.invoke(main, ["serve", "mcp", "--tasks", str(tmp_path / "task.jsonl"), "--task", "nope"])
    assert run.exit_code == 2 and "nope" in run.output


def test_a_used_out_folder_is_one_clear_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from devicesworld.cli import main
    from devicesworld.serve.host import SessionHost

    task = next(t for t in load_suite("smoke") if t.id == "smoke-sh-014")
    dump_tasks_jsonl([task], tmp_path / "task.jsonl")
    host = SessionHost(task, tmp_path / "run", agent="homeassistant")
    host.start()
    host.close()  # the folder now holds this task's result
    args = ["--tasks", str(tmp_path / "task.jsonl"), "--task", task.id, "--out", str(tmp_path / "run")]
    for kind in (["homeassistant", "--token", "t", "--port", str(free_ports(1))], ["mcp"]):
        run = CliRunner().invoke(main, ["serve", *kind, *args])
        assert run.exit_code == 2, run.output
        lines = [line for line in run.output.splitlines() if line.strip()]
        assert len(lines) == 1 and "already holds a result" in lines[0], run.output
        assert run.exception is None or isinstance(run.exception, SystemExit)
