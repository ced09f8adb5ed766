"""Every LLM agent, end to end through the runner's loop, the real SDK and real HTTP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from devicesworld.agents.llm.testserver import ScriptedServer
from tests.agents.llm.llm_helpers import CLIENT_TIMEOUT_S, run

AGENTS = ["llm", "hierarchical", "planner-grounder", "tracked"]
FED_BACK = "your reply could not be used"


def _prompt_text(body: dict[str, object]) -> str:
    return json.dumps(body.get("messages"))


@pytest.mark.parametrize("agent", AGENTS)
def test_each_agent_finishes_a_normal_episode(server: ScriptedServer, tmp_path: Path, agent: str) -> None:
    result, steps = run(agent, server.base_url, "scripted", tmp_path)
    assert result.termination == "finished" and result.error is None
    assert steps[0]["ok"] and steps[-1]["action"]["action"] == "finish"
    assert result.tokens_in == sum(s["tokens_in"] for s in steps) > 0
    assert result.tokens_out == sum(s["tokens_out"] for s in steps) > 0
    first_calls = steps[0]["agent_notes"]["calls"]
    assert first_calls and all(c["model"] == "scripted" for c in first_calls)
    assert steps[0]["model_latency_s"] > 0 and steps[0]["agent_latency_s"] >= steps[0]["model_latency_s"]
    assert all(r.body["temperature"] == 0.0 for r in server.requests)


@pytest.mark.parametrize("agent", AGENTS)
def test_a_malformed_reply_is_fed_back_and_the_episode_goes_on(
    server: ScriptedServer, tmp_path: Path, agent: str
) -> None:
    result, steps = run(agent, server.base_url, "scripted+malformed", tmp_path)
    assert result.termination == "finished" and result.error is None
    bad = steps[0]
    assert not bad["ok"] and bad["action"]["action"] == "invalid_reply"
    assert "no action found" in bad["agent_notes"]["reply_error"]
    assert bad["tokens_in"] > 0  # the bad reply still cost tokens and a step
    later = [r for r in server.requests if r.role in ("actor", "device", "grounder", "planner")][1:]
    assert any(FED_BACK in _prompt_text(r.body) or "unusable" in _prompt_text(r.body) for r in later)
    assert len(steps) >= 2


@pytest.mark.parametrize("agent", AGENTS)
def test_each_agent_works_without_function_calling(
    server: ScriptedServer, tmp_path: Path, agent: str
) -> None:
    result, _ = run(agent, server.base_url, "scripted", tmp_path, tools="off")
    assert result.termination == "finished" and result.error is None
    assert all("tools" not in r.body for r in server.requests)
    assert any("Actions by device" in _prompt_text(r.body) for r in server.requests)


def test_json_in_text_is_accepted_even_when_tools_are_offered(server: ScriptedServer, tmp_path: Path) -> None:
    result, steps = run("llm", server.base_url, "scripted+json", tmp_path)
    assert result.termination == "finished"
    assert steps[0]["ok"] and steps[0]["action"]["action"] == "list_rooms"


def test_a_refusal_is_fed_back(server: ScriptedServer, tmp_path: Path) -> None:
    result, steps = run("llm", server.base_url, "scripted+refusal", tmp_path)
    assert result.termination == "finished"
    assert "refused" in steps[0]["agent_notes"]["reply_error"]
    assert "the model refused" in _prompt_text(server.requests[1].body)


def test_rate_limits_and_timeouts_are_retried_within_a_step(server: ScriptedServer, tmp_path: Path) -> None:
    result, steps = run(
        "llm", server.base_url, "scripted+ratelimit+timeout", tmp_path, timeout_s=CLIENT_TIMEOUT_S
    )
    assert result.termination == "finished"
    assert steps[0]["agent_notes"]["calls"][0]["retries"] >= 1


def test_an_endpoint_that_stays_down_ends_the_episode_as_error(tmp_path: Path) -> None:
    result, _ = run("llm", "http://127.0.0.1:9/v1", "scripted", tmp_path, max_retries=0, timeout_s=1)
    assert result.termination == "error"
    assert result.error is not None and "model endpoint error" in result.error


@pytest.mark.parametrize("mode", ["full", "hash", "none"])
def test_prompts_and_replies_in_steps_follow_the_log_mode(
    server: ScriptedServer, tmp_path: Path, mode: str
) -> None:
    _, steps = run("llm", server.base_url, "scripted", tmp_path, log_prompts=mode)
    call = steps[0]["agent_notes"]["calls"][0]
    assert ("prompt" in call) == (mode == "full")
    assert ("prompt_sha256" in call) == (mode != "none")
    assert ("reply" in call) == (mode != "none")
    if mode == "full":
        assert "Turn on the hallway light." in json.dumps(call["prompt"])
        tool_call = call["reply"]["tool_calls"][0]
        assert (
            tool_call["name"] == "smarthome" and json.loads(tool_call["arguments"])["action"] == "list_rooms"
        )


def test_vision_models_get_each_device_screenshot(server: ScriptedServer, tmp_path: Path) -> None:
    from devicesworld.spec import Task
    from tests.toykind import toy_task

    task = Task.model_validate(toy_task())
    result, steps = run(
        "llm", server.base_url, "scripted", tmp_path, task=task, vision=True, log_prompts="full"
    )
    assert result.termination == "finished"
    content = server.requests[0].body["messages"][1]["content"]
    kinds = [part["type"] for part in content]
    assert kinds == ["text", "text", "image_url"] and "Screenshot of toy_0" in content[1]["text"]
    assert content[2]["image_url"]["url"].startswith("data:image/png;base64,")
    assert "_screenshot_png" not in json.dumps(content[0])  # the image is not repeated as text
    logged = steps[0]["agent_notes"]["calls"][0]["prompt"][1]["content"][2]
    assert logged["type"] == "image" and len(logged["sha256"]) == 64  # not inline in steps.jsonl


def test_with_vision_false_no_screenshots_are_taken(server: ScriptedServer, tmp_path: Path) -> None:
    from devicesworld.spec import Task
    from tests.toykind import toy_task

    task = Task.model_validate(toy_task())
    _, steps = run("llm", server.base_url, "scripted", tmp_path, task=task, vision=False)
    assert isinstance(server.requests[0].body["messages"][1]["content"], str)
    assert steps[0]["agent_notes"]["text_only"] is True
    assert not (tmp_path / task.id / "images").exists()


def test_vision_is_on_by_default_and_the_run_keeps_each_image_once(
    server: ScriptedServer, tmp_path: Path
) -> None:
    import hashlib

    from devicesworld.spec import Task
    from tests.toykind import toy_task

    task = Task.model_validate(toy_task())
    _, steps = run("llm", server.base_url, "scripted", tmp_path, task=task, log_prompts="full")
    content = server.requests[0].body["messages"][1]["content"]
    assert [part["type"] for part in content] == ["text", "text", "image_url"]
    rel = steps[0]["agent_notes"]["images"]["toy_0"]
    saved = tmp_path / task.id / rel
    assert rel.startswith("images/") and saved.is_file()
    assert rel == f"images/{hashlib.sha256(saved.read_bytes()).hexdigest()}.png"  # content-addressed
    logged = steps[0]["agent_notes"]["calls"][0]["prompt"][1]["content"][2]
    assert logged["path"] == rel  # the log names the file, the image is not inline
    files = list((tmp_path / task.id / "images").iterdir())
    assert len(files) == len(
        {s["agent_notes"]["images"]["toy_0"] for s in steps if "images" in s["agent_notes"]}
    )


def test_an_endpoint_that_refuses_images_gets_text_only(server: ScriptedServer, tmp_path: Path) -> None:
    from devicesworld.agents.llm.testserver import Reply
    from devicesworld.spec import Task
    from tests.toykind import toy_task

    server.push(Reply(status=400, body={"error": {"message": "this model does not support image input"}}))
    task = Task.model_validate(toy_task())
    result, steps = run("llm", server.base_url, "scripted", tmp_path, task=task)
    assert result.termination == "finished"
    assert isinstance(server.requests[1].body["messages"][1]["content"], str)  # the same step, text only
    assert all(s["agent_notes"].get("text_only") for s in steps)


def test_an_endpoint_that_rejects_tools_gets_text_prompts(server: ScriptedServer, tmp_path: Path) -> None:
    from devicesworld.agents.llm.testserver import Reply

    server.push(Reply(status=400, body={"error": {"message": "'tools' is not supported by this model"}}))
    result, steps = run("llm", server.base_url, "scripted", tmp_path)
    assert result.termination == "finished" and steps[0]["ok"]
    assert "tools" in server.requests[0].body
    assert all("tools" not in r.body for r in server.requests[1:])
    assert "Actions by device" in _prompt_text(server.requests[1].body)
