"""``devicesworld tasks refine``: off by default, clear errors, files and report."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.agents.llm.testserver import ScriptedServer
from devicesworld.cli import main
from devicesworld.spec.models import Task
from devicesworld.tasks.loading import dump_tasks_jsonl, load_tasks


@pytest.fixture
def tasks_file(composed: Task, tmp_path: Path) -> Path:
    path = tmp_path / "in.jsonl"
    dump_tasks_jsonl([composed.model_copy(update={"id": f"t{i}"}) for i in range(3)], path)
    return path


def _verdict(score: int) -> dict[str, str]:
    body = {"realism": score, "coherence": 5, "evaluability": 5, "rationale": "ok"}
    return {"role": "assistant", "content": json.dumps(body)}


def test_off_by_default(tasks_file: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["tasks", "refine", "--tasks", str(tasks_file), "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2
    assert "off by default" in result.output and "--rewrite" in result.output
    assert not (tmp_path / "o").exists()


def test_refine_writes_tasks_and_report(server: ScriptedServer, tasks_file: Path, tmp_path: Path) -> None:
    composed = load_tasks(tasks_file)[0]
    rewrite = "Hi! Could you help me out: " + composed.instruction[0].lower() + composed.instruction[1:]
    server.push(
        {"role": "assistant", "content": json.dumps({"instruction": rewrite})},
        _verdict(5),
        {"role": "assistant", "content": json.dumps({"instruction": "Just do it."})},
        _verdict(1),
    )
    out = tmp_path / "out"
    args = ["tasks", "refine", "--tasks", str(tasks_file), "--out", str(out), "--rewrite", "--judge"]
    args += ["--model", "scripted", "--base-url", server.base_url, "--limit", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "1/2 tasks kept" in result.output and "filtered 1" in result.output
    (kept,) = load_tasks(out / "tasks.jsonl")
    assert kept.id == "t0" and kept.instruction == rewrite
    report = json.loads((out / "_refine_report.json").read_text())
    assert report["schema_version"] == 1 and report["stages"] == ["rewrite", "judge"]
    assert (report["tasks_in"], report["tasks_out"], report["rewritten"]) == (2, 1, 1)
    assert (report["judged"], report["filtered"], report["errors"]) == (2, 1, 0)
    assert report["kept"] == {"length": 1}
    assert report["records"][1]["rewrite"]["proposal"] == "Just do it."


def test_api_key_env_names_the_variable(
    server: ScriptedServer, tasks_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["tasks", "refine", "--tasks", str(tasks_file), "--out", str(tmp_path / "o"), "--judge"]
    args += ["--model", "scripted", "--api-key-env", "MY_KEY"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "MY_KEY" in result.output
    monkeypatch.setenv("MY_KEY", "secret")
    server.push(_verdict(4), _verdict(4), _verdict(4))
    result = CliRunner().invoke(main, [*args, "--base-url", server.base_url])
    assert result.exit_code == 0, result.output


def test_an_unreachable_endpoint_is_one_line(tasks_file: Path, tmp_path: Path) -> None:
    args = ["tasks", "refine", "--tasks", str(tasks_file), "--out", str(tmp_path / "o"), "--judge"]
    args += ["--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--max-retries", "0"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "Connection" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_missing_openai_package_is_one_line(
    tasks_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)  # import openai now raises ImportError
    args = ["tasks", "refine", "--tasks", str(tasks_file), "--out", str(tmp_path / "o"), "--rewrite"]
    result = CliRunner().invoke(main, [*args, "--model", "m", "--base-url", "http://127.0.0.1:9/v1"])
    assert result.exit_code == 2
    assert "pip install 'devicesworld[llm]'" in result.output and "Traceback" not in result.output
