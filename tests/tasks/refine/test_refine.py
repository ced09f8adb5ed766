"""Rewriting and judging through the real ``openai`` SDK against the local scripted server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from devicesworld.agents.llm.testserver import ScriptedServer
from devicesworld.spec.models import Task
from devicesworld.tasks.loading import dump_tasks_jsonl, load_tasks
from devicesworld.tasks.refine import RefineOptions, open_endpoint, refine_tasks
from devicesworld.tasks.refine.endpoint import Chat, EndpointError
from devicesworld.tasks.refine.guards import literals
from devicesworld.tasks.refine.judge import judge_task, parse_verdict
from devicesworld.tasks.refine.rewrite import rewrite_task
from devicesworld.tasks.validate import validate_task


def _chat(server: ScriptedServer) -> Chat:
    return open_endpoint("scripted", server.base_url, max_retries=0)


def _say(server: ScriptedServer, *texts: str) -> None:
    server.push(*({"role": "assistant", "content": t} for t in texts))


def _rewrite_reply(text: str) -> str:
    return "Here it is:\n```json\n" + json.dumps({"instruction": text}) + "\n```"


def _natural(task: Task) -> str:
    """A faithful rewrite of any instruction: same literals, same places, friendlier wording."""
    body = task.instruction[0].lower() + task.instruction[1:]
    return f"Hi! When you get a moment, could you help me out: {body}"


def test_a_good_rewrite_is_accepted_and_the_task_still_validates(
    server: ScriptedServer, composed: Task, tmp_path: Path
) -> None:
    assert composed.metadata.sources, "the fixture task must have a hidden value"
    _say(server, _rewrite_reply(_natural(composed)))
    task, outcome, _ = rewrite_task(composed, _chat(server))
    assert outcome.status == "rewritten", outcome
    assert task.instruction == _natural(composed)
    assert task.metadata.original_instruction == composed.instruction
    assert task.metadata.rewrite_model == "scripted"
    prompt = server.requests[0].body["messages"][1]["content"]
    assert composed.instruction in prompt
    assert all(str(s.value) not in prompt for s in composed.metadata.sources)  # the model never sees them
    dump_tasks_jsonl([task], tmp_path / "t.jsonl")
    (loaded,) = load_tasks(tmp_path / "t.jsonl")
    assert loaded.instruction == task.instruction
    report = validate_task(loaded)
    assert report.ok, report.problems


def test_a_plain_text_reply_is_read_too(server: ScriptedServer, composed: Task) -> None:
    _say(server, f'<think>Keep memo.md {{"x": 1}}</think>\nRewritten instruction: "{_natural(composed)}"')
    task, outcome, _ = rewrite_task(composed, _chat(server))
    assert outcome.status == "rewritten" and task.instruction == _natural(composed)


def test_a_second_rewrite_keeps_the_first_original(server: ScriptedServer, composed: Task) -> None:
    _say(server, _rewrite_reply(_natural(composed)))
    once, _, _ = rewrite_task(composed, _chat(server))
    _say(server, _rewrite_reply("Oh, and " + once.instruction[0].lower() + once.instruction[1:]))
    twice, outcome, _ = rewrite_task(once, _chat(server))
    assert outcome.status == "rewritten"
    assert twice.metadata.original_instruction == composed.instruction


def test_a_rewrite_that_leaks_a_hidden_value_is_refused(server: ScriptedServer, composed: Task) -> None:
    value = composed.metadata.sources[0].value
    shown = f"{value:g}" if isinstance(value, float) else str(value)
    _say(server, _rewrite_reply(f"{_natural(composed)} It should say {shown}."))
    task, outcome, _ = rewrite_task(composed, _chat(server))
    assert task == composed
    assert outcome.status == "kept" and outcome.reason == "hidden_value"
    assert outcome.detail and "reveals" in outcome.detail and outcome.proposal


def test_a_rewrite_that_drops_a_literal_is_refused(server: ScriptedServer, composed: Task) -> None:
    literal = literals(composed.instruction)[0]
    _say(server, _rewrite_reply(_natural(composed).replace(literal, "the right one")))
    task, outcome, _ = rewrite_task(composed, _chat(server))
    assert task == composed
    assert outcome.reason == "literal_dropped" and repr(literal) in (outcome.detail or "")


def test_a_rewrite_that_drops_a_device_is_refused(server: ScriptedServer, composed: Task) -> None:
    dropped = re.sub(r"\s*\(?\bin the smart home\)?", "", _natural(composed), flags=re.IGNORECASE)
    assert dropped != _natural(composed)
    _say(server, _rewrite_reply(dropped))
    task, outcome, _ = rewrite_task(composed, _chat(server))
    assert task == composed
    assert outcome.reason == "device_dropped" and "smart home" in (outcome.detail or "")


def test_an_unusable_rewrite_reply_keeps_the_original(server: ScriptedServer, composed: Task) -> None:
    server.push({"role": "assistant", "content": None, "refusal": "I can't help with that."})
    task, outcome, _ = rewrite_task(composed, _chat(server))
    assert task == composed and outcome.reason == "no_rewrite"


def _verdict(r: int, c: int, e: int) -> str:
    return json.dumps({"realism": r, "coherence": c, "evaluability": e, "rationale": "fine"})


def test_judge_scores_are_parsed(server: ScriptedServer, composed: Task) -> None:
    _say(server, "Scores:\n```json\n" + _verdict(4, 5, 3) + "\n```")
    verdict, answers = judge_task(composed, _chat(server))
    assert verdict.status == "judged" and verdict.passed
    assert verdict.scores() == {"realism": 4, "coherence": 5, "evaluability": 3}
    assert len(answers) == 1
    checks = server.requests[0].body["messages"][1]["content"]
    assert composed.evaluation.conditions[0].check in checks


@pytest.mark.parametrize(
    ("text", "scores"),
    [
        ('{"Realism": "4", "COHERENCE": 5.0, "evaluability": "3/5"}', (4, 5, 3)),
        ('{"scores": {"realism": 2, "coherence": 2, "evaluability": 2}, "reason": "meh"}', (2, 2, 2)),
        ('noise {"a": 1} then {"realism": 5, "coherence": 5, "evaluability": 5}', (5, 5, 5)),
        ('<think>maybe {"realism": 1}</think>{"realism": 3, "coherence": 4, "evaluability": 5}', (3, 4, 5)),
    ],
)
def test_verdicts_are_parsed_robustly(text: str, scores: tuple[int, int, int]) -> None:
    parsed, _ = parse_verdict(text)
    assert tuple(parsed.values()) == scores


@pytest.mark.parametrize(
    "text", ["", "five, five, five", '{"realism": 6, "coherence": 5, "evaluability": 5}']
)
def test_bad_verdicts_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_verdict(text)


def test_a_malformed_verdict_is_asked_again_then_unjudged(server: ScriptedServer, composed: Task) -> None:
    _say(server, "Looks great to me!", _verdict(5, 5, 5))
    verdict, answers = judge_task(composed, _chat(server))
    assert verdict.status == "judged" and len(answers) == 2
    assert server.requests[1].body["messages"][-1]["role"] == "user"  # the retry says what went wrong
    _say(server, "Looks great!", "{ realism: five }")
    verdict, _ = judge_task(composed, _chat(server))
    assert verdict.status == "unjudged" and verdict.error


def test_refine_filters_low_scores_and_counts_everything(server: ScriptedServer, composed: Task) -> None:
    tasks = [composed.model_copy(update={"id": f"t{i}"}) for i in range(4)]
    _say(
        server,
        _rewrite_reply(_natural(composed)),  # t0: rewritten
        _verdict(5, 4, 5),
        _rewrite_reply(composed.instruction),  # t1: unchanged
        _verdict(2, 4, 5),  # filtered
        "",  # t2: an empty reply, no rewrite
        "bad",
        "still bad",  # unjudged (kept)
        _rewrite_reply(_natural(composed)),  # t3
        _verdict(3, 3, 3),
    )
    kept, report = refine_tasks(tasks, _chat(server), RefineOptions(rewrite=True, judge=True))
    assert [t.id for t in kept] == ["t0", "t2", "t3"]
    assert (report.rewritten, report.kept) == (2, {"no_rewrite": 1, "unchanged": 1})
    assert (report.judged, report.unjudged, report.filtered, report.errors) == (3, 1, 1, 0)
    assert report.calls == 9 and report.tokens_in > 0
    judge = kept[0].metadata.judge
    assert judge is not None and judge["realism"] == 5 and judge["passed"] is True
    assert (kept[1].metadata.judge or {})["status"] == "unjudged"


def test_an_unreachable_endpoint_is_one_clear_error(composed: Task, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEVICESWORLD_BASE_URL", raising=False)
    chat = open_endpoint("m", "http://127.0.0.1:9/v1", max_retries=0, timeout_s=5)
    with pytest.raises(EndpointError, match="Connection"):
        refine_tasks([composed], chat, RefineOptions(judge=True))


def test_workers_keep_the_input_order(server: ScriptedServer, composed: Task) -> None:
    tasks = [composed.model_copy(update={"id": f"t{i}"}) for i in range(5)]
    # no canned replies: the server's policy answers both roles with JSON neither stage can use
    kept, report = refine_tasks(tasks, _chat(server), RefineOptions(rewrite=True, judge=True, workers=3))
    assert [t.id for t in kept] == [t.id for t in tasks]
    assert report.kept == {"no_rewrite": 5} and report.unjudged == 5 and report.calls == 15
    assert [r.task_id for r in report.records] == [t.id for t in tasks]
