"""Each limit of the ``llm`` agents' prompts says what it cut and how to get the rest.

One test per limit: a device's observation (6,000 chars: element lines, dialogs / focused window /
changed elements first, the indices left out and ``list_elements``), the previous action's
feedback (3,000 chars), a history line (300 chars); the system prompt and docs/agents.md state
them all; and a four-device prompt without images stays under 12 KB.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from devicesworld.agents.llm.observe import OBSERVATION_CHARS, render_device
from devicesworld.agents.llm.prompts import (
    FEEDBACK_CHARS,
    HISTORY_CHARS,
    StepLog,
    action_rules,
    format_history,
    format_observations,
    format_previous,
)
from devicesworld.devices.listing import CUT_PREFIX, LIST_PAGE, READ_CHUNK

ROOT = Path(__file__).resolve().parents[3]


def _desktop(n: int, dialog_at: int | None = None, focused: str = "Editor") -> dict[str, Any]:
    els: list[dict[str, Any]] = []
    for i in range(n):
        window = "Save As" if dialog_at is not None and i >= dialog_at else ("Editor" if i % 2 else "Panel")
        role = "dialog" if i == dialog_at else "push button"
        els.append(
            {
                "index": i,
                "role": role,
                "name": f"Button number {i}",
                "states": [],
                "box": [i, i, 10, 10],
                "window": window,
            }
        )
    return {"kind": "x", "focused_window": {"title": focused}, "windows": [], "elements": els}


def _shown_indices(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"^\[(\d+)\] ", text, re.M)]


def _ranges(note: str) -> set[int]:
    out: set[int] = set()
    for a, b in re.findall(r"\[(\d+)\](?:-\[(\d+)\])?", note.split("not shown:", 1)[1].split(";", 1)[0]):
        out.update(range(int(a), int(b or a) + 1))
    return out


def test_a_cut_observation_names_every_element_left_out_and_list_elements() -> None:
    text = render_device("d_0", _desktop(400))
    assert len(text) <= OBSERVATION_CHARS
    shown = _shown_indices(text)
    note = text.splitlines()[-1]
    assert note.startswith(CUT_PREFIX) and "list_elements" in note and "d_0" in note
    left_out = int(re.search(r"(\d+) elements not shown", note).group(1))  # type: ignore[union-attr]
    assert len(shown) + left_out == 400 and len(set(shown)) == len(shown)
    assert not set(shown) & _ranges(note)
    start = int(re.search(r'"start": (\d+)', note).group(1))  # type: ignore[union-attr]
    assert start == min(set(range(400)) - set(shown))


def test_dialogs_then_the_focused_window_then_changes_come_first() -> None:
    view = _desktop(400, dialog_at=390)
    text = render_device("d_0", view)
    shown = _shown_indices(text)
    assert shown[:10] == list(range(390, 400))  # the dialog at the end of the tree is listed first
    assert "(dialog 'Save As')" in text and "(focused window 'Editor')" in text
    assert all(i % 2 for i in shown[10:60])  # then the focused window's elements (nothing changed)
    before = _desktop(20)
    after = _desktop(20)
    after["elements"][8]["name"] = "Saved!"
    changed = render_device("d_0", after, previous=before)
    assert "(changed since your last look)" in changed
    lines = changed.splitlines()
    at = lines.index("(changed since your last look)")
    # the changed element's window is named, as is each window change outside a window's group
    assert lines[at + 1 : at + 3] == ["(window 'Panel')", "[8] push button 'Saved!' @8,8,10,10"]
    assert lines[at + 3] == "(focused window 'Editor')"


def test_a_long_phone_screen_is_cut_at_a_line_with_the_same_note() -> None:
    screen = "Phone · 9:00 · app\n" + "\n".join(
        f"[{i}] TextView 'Message number {i} with some words'" for i in range(400)
    )
    text = format_observations({"p_0": {"screen_text": screen, "ui_elements": [{}] * 400}})
    note = text.splitlines()[-1]
    assert note.startswith(CUT_PREFIX) and 'p_0 list_elements {"start": ' in note
    assert set(_shown_indices(text)) | _ranges(note) == set(range(400))


def test_an_observation_without_elements_is_clipped_with_a_note() -> None:
    text = render_device("d_0", {"files": [f"file-{i}.txt" for i in range(2000)]})
    assert len(text) <= OBSERVATION_CHARS and CUT_PREFIX in text and "pages" in text


def _step(data: Any) -> StepLog:
    return StepLog(step=4, device="h_0", action="list_things", args={}, ok=True, message="listed", data=data)


def test_a_cut_feedback_says_how_much_and_how_to_ask_for_less() -> None:
    text = format_previous(_step([{"id": f"thing_{i}", "name": f"Thing {i}"} for i in range(400)]))
    outcome = text.split("\n-> ", 1)[1]
    assert len(outcome) <= FEEDBACK_CHARS
    assert CUT_PREFIX in outcome and "chars not shown" in outcome and "start/offset" in outcome


def test_a_cut_history_line_says_where_it_was_shown_whole() -> None:
    line = format_history([_step("x" * 2000)], 10)
    outcome = line.split(" -> ", 1)[1]
    assert len(outcome) <= HISTORY_CHARS and CUT_PREFIX in outcome and "step 5" in outcome


def test_steps_older_than_the_history_are_named_not_dropped() -> None:
    history = [_step(f"value {i}").model_copy(update={"step": i}) for i in range(1, 16)]
    text = format_history(history, 10)
    first = text.splitlines()[0]
    assert first.startswith(CUT_PREFIX) and "steps 1-5 not shown" in first and "last 10 steps" in first
    assert [int(m) for m in re.findall(r"^step (\d+):", text, re.M)] == list(range(6, 16))
    assert format_history(history[:10], 10).count(CUT_PREFIX) == 0


def test_an_unusable_reply_quoted_back_says_it_was_cut() -> None:
    from devicesworld.agents.llm.parsing import REPLY_CHARS, decode_action
    from devicesworld.agents.llm.tools import ReplyError, ToolBook
    from devicesworld.llmclient import CallRecord, ChatReply

    record = CallRecord(role="actor", model="m", latency_s=0.0, tokens_in=0, tokens_out=0)
    reply = ChatReply(content="I think " + "very " * 200 + "carefully.", record=record)
    with pytest.raises(ReplyError) as err:
        decode_action(reply, ToolBook())
    quoted = str(err.value).split("The reply was: ", 1)[1]
    assert len(quoted) <= REPLY_CHARS and CUT_PREFIX in quoted and "chars not shown" in quoted


def test_demonstrations_left_out_are_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    from devicesworld.agents.llm import demos

    class _Demo:
        def __init__(self, task_id: str, size: int) -> None:
            self.task_id, self.size = task_id, size

    shown = {"a": "Task: a " + "x" * 100, "b": "Task: b " + "y" * 5000, "c": "Task: c " + "z" * 100}
    monkeypatch.setattr(demos, "format_demo", lambda d: shown[d.task_id])
    text = demos.few_shot([_Demo("a", 0), _Demo("b", 0), _Demo("c", 0)], "c", 1000)  # type: ignore[list-item]
    assert "Task: c" in text and "Task: a" in text and "Task: b" not in text
    assert text.splitlines()[-1].startswith(CUT_PREFIX) and "1 of 3 demonstrations not shown" in text
    assert "demo_chars" in text


def test_the_system_prompt_states_every_limit() -> None:
    rules = action_rules(7)
    for figure in (f"{OBSERVATION_CHARS:,}", f"{FEEDBACK_CHARS:,}", f"{HISTORY_CHARS:,}", f"{READ_CHUNK:,}"):
        assert figure in rules, figure
    assert CUT_PREFIX in rules and "read_element" in rules and "list_elements" in rules
    assert "the last 7 steps" in rules and "Screenshots are whole" in rules


def test_docs_agents_lists_every_observation_limit() -> None:
    from devicesworld.agents.llm.parsing import REPLY_CHARS

    doc = (ROOT / "docs" / "agents.md").read_text("utf-8")
    section = doc.split("## Observation limits", 1)[1].split("\n## ", 1)[0]
    for figure in (
        f"{OBSERVATION_CHARS:,}",
        f"{FEEDBACK_CHARS:,}",
        f"{HISTORY_CHARS:,}",
        f"{READ_CHUNK:,}",
        f"{LIST_PAGE}",
        "300",
        "8,000",
        "25",
        "64 KiB",
        "last 10 steps",
        "Screenshot",
        f"{REPLY_CHARS}",
        "demo_chars",
    ):
        assert figure in section, figure


def test_a_four_device_first_request_stays_under_12k_chars_in_both_protocols() -> None:
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from llm_prompt_size import DEFAULT_TASKS, measure  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    from devicesworld.tasks.suites import load_suite

    tasks = {t.id: t for t in load_suite("test") if t.id in DEFAULT_TASKS}
    if not tasks:
        pytest.skip("the benchmark's tasks are not in this test suite")
    for task in tasks.values():
        sizes = measure(task)
        assert len(task.devices) == 4 and sizes["text"]["total"] < 12_000, (task.id, sizes)
        assert sizes["tools"]["request"] < 12_000, (task.id, sizes)  # messages + tool JSON
