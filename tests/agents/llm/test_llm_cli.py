"""``devicesworld run --agent <llm agent> --model scripted --base-url ...`` against the local server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.agents.llm.testserver import ScriptedServer
from devicesworld.cli import main

AGENTS = ["llm", "hierarchical", "planner-grounder", "tracked"]


def _results(out: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("agent", AGENTS)
def test_run_and_report_show_tokens(server: ScriptedServer, tmp_path: Path, agent: str) -> None:
    out = tmp_path / "run"
    args = ["run", "--suite", "smoke", "--limit", "3", "--agent", agent, "--model", "scripted+malformed"]
    args += ["--base-url", server.base_url, "--out", str(out), "--log-prompts", "full"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    rows = _results(out)
    assert len(rows) == 3
    for row in rows:
        assert row["termination"] == "finished" and row["error"] is None
        assert isinstance(row["tokens_in"], int) and row["tokens_in"] > 0
        assert isinstance(row["tokens_out"], int) and row["tokens_out"] > 0
    assert "Avg tokens / task" in result.output
    report = CliRunner().invoke(main, ["report", str(out), "--json"])
    metrics = json.loads(report.output)
    expected = sum(int(r["tokens_in"]) + int(r["tokens_out"]) for r in rows) / 3  # type: ignore[call-overload]
    assert metrics["avg_tokens"] == pytest.approx(expected)
    manifest = json.loads((out / "run.json").read_text())
    # vision=auto became what the preflight found the endpoint takes (the scripted one takes images)
    assert manifest["config"]["agent_extra"] == {"log_prompts": "full", "vision": True}
    steps = [
        json.loads(x) for x in (out / "episodes" / "smoke-sh-001" / "steps.jsonl").read_text().splitlines()
    ]
    assert steps[0]["agent_notes"]["reply_error"] and "prompt" in steps[0]["agent_notes"]["calls"][-1]


def test_agent_options_reach_the_agent(server: ScriptedServer, tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--suite", "smoke", "--limit", "1", "--agent", "llm", "--model", "scripted"]
    args += ["--base-url", server.base_url, "--out", str(out), "--agent-opt", "tools=off"]
    args += ["--agent-opt", "max_tokens=64"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    episode = [r for r in server.requests if r.role != "preflight"]
    assert episode and all("tools" not in r.body and r.body["max_tokens"] == 64 for r in episode)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--agent-opt", "temprature=1"], "unknown LLM option(s) temprature"),
        (["--agent-opt", "novalue"], "expected KEY=VALUE"),
        (["--agent-opt", "tools=maybe"], "invalid LLM option: tools"),
    ],
)
def test_bad_agent_options_are_clear_errors(tmp_path: Path, extra: list[str], message: str) -> None:
    args = [
        "run",
        "--suite",
        "smoke",
        "--agent",
        "llm",
        "--model",
        "m",
        "--base-url",
        "http://127.0.0.1:9/v1",
    ]
    result = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "r"), *extra])
    assert result.exit_code == 2 and message in " ".join(result.output.split())
    assert "Traceback" not in result.output and not (tmp_path / "r").exists()


def test_a_missing_model_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEVICESWORLD_MODEL", raising=False)
    result = CliRunner().invoke(
        main, ["run", "--suite", "smoke", "--agent", "llm", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 2 and "--model or set DEVICESWORLD_MODEL" in " ".join(result.output.split())


def test_the_console_script_with_parallel_workers(server: ScriptedServer, tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [
        str(Path(sys.executable).parent / "devicesworld"),
        "run",
        "--suite",
        "smoke",
        "--limit",
        "4",
        "--workers",
        "2",
    ]
    cmd += ["--agent", "llm", "--model", "scripted", "--base-url", server.base_url, "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    rows = _results(out)
    assert len(rows) == 4 and all(r["termination"] == "finished" and r["tokens_in"] for r in rows)
