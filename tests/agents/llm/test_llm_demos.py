"""The ``llm`` agent with few-shot demonstrations (``--agent-opt demos=FILE``), against the scripted server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from devicesworld.agents.llm.demos import few_shot, load
from devicesworld.agents.llm.testserver import ScriptedServer
from devicesworld.demos import write_demos
from devicesworld.demos.oracle import oracle_demo
from devicesworld.llmclient import LLMError
from devicesworld.tasks.suites import load_suite
from tests.agents.llm.llm_helpers import run


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tasks = {t.id: t for t in load_suite("bmoca")}
    path = tmp_path_factory.mktemp("demos") / "demos.jsonl"
    write_demos(path, [oracle_demo(tasks["bmoca-alarm-simple"]), oracle_demo(tasks["bmoca-call911"])])
    return path


def test_the_prompt_contains_the_demonstration(
    server: ScriptedServer, tmp_path: Path, demo_file: Path
) -> None:
    result, _ = run("llm", server.base_url, "scripted", tmp_path, demos=str(demo_file))
    assert result.error is None
    prompt = json.dumps(
        next(r.body["messages"] for r in server.requests if r.role == "actor"), ensure_ascii=False
    )
    assert (
        "# Demonstrations" in prompt
        and "Task: Set an alarm for 6:30 AM." in prompt
        and "Task: Call 911." in prompt
    )
    assert (
        "open_app" in prompt and "'Add alarm'" in prompt
    )  # the touched element is named, not just its index


def test_demonstrations_stay_within_the_budget(demo_file: Path) -> None:
    demos = load(str(demo_file))
    full = few_shot(demos, "bmoca-call911", 100_000)
    assert full.index("Call 911") < full.index("6:30")  # the task's own demonstration first
    one = few_shot(demos, "bmoca-call911", len(full) - 50)
    assert "Call 911" in one and "6:30" not in one and len(one) <= len(full) - 50
    assert "[cut: 1 of 2 demonstrations not shown" in one  # what was left out is said (issue #34)
    assert few_shot(demos, "x", 10).startswith("[cut: 2 of 2 demonstrations not shown")


def test_a_missing_demo_file_is_a_clear_error(server: ScriptedServer, tmp_path: Path) -> None:
    from devicesworld.agents import AgentOptions, get_agent

    with pytest.raises(LLMError, match="no demonstration file"):
        get_agent("llm").factory(
            AgentOptions(model="m", base_url=server.base_url, extra={"demos": str(tmp_path / "x")})
        )
