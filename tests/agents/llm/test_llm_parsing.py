from __future__ import annotations

import pytest

from devicesworld.agents.llm.parsing import NoAction, decode_action
from devicesworld.agents.llm.tools import ReplyError, ToolBook, object_schema
from devicesworld.jsontext import json_objects
from devicesworld.llmclient import CallRecord, ChatReply
from devicesworld.spec.models import Step
from tests.agents.llm.llm_helpers import episode_info, smoke_task

_REC = CallRecord(role="actor", model="m", latency_s=0.0, tokens_in=0, tokens_out=0)


def _reply(
    content: str | None = None, calls: list[tuple[str, str]] | None = None, refusal: str | None = None
) -> ChatReply:
    tool_calls = [{"id": f"c{i}", "name": n, "arguments": a} for i, (n, a) in enumerate(calls or [])]
    return ChatReply(content=content, refusal=refusal, tool_calls=tool_calls, record=_REC)


@pytest.fixture
def book() -> ToolBook:
    b = ToolBook.build(episode_info(smoke_task()))
    b.add_plain_tool("record_fact", "", object_schema({"name": {"type": "string"}}, ["name"]))
    return b


def test_json_objects_prefers_fenced_blocks() -> None:
    text = 'I will {not json} do:\n```json\n{"action": "finish"}\n```\n{"other": 1}'
    assert json_objects(text) == [{"action": "finish"}]
    assert json_objects('a {"x": {"y": 2}} b {"z": 3}') == [{"x": {"y": 2}}, {"z": 3}]
    assert json_objects("nothing here") == []


def test_a_tool_call_is_the_action(book: ToolBook) -> None:
    reply = _reply(calls=[("smarthome__list_rooms", '{"device": "smarthome_0", "args": {}}')])
    step, internal = decode_action(reply, book)
    assert step == Step(device="smarthome_0", action="list_rooms") and internal == []


def test_only_the_first_action_is_used_and_state_calls_ride_along(book: ToolBook) -> None:
    reply = _reply(
        calls=[
            ("record_fact", '{"name": "room"}'),
            ("finish", "{}"),
            ("smarthome__list_rooms", '{"device": "smarthome_0", "args": {}}'),
        ]
    )
    step, internal = decode_action(reply, book)
    assert step.action == "finish" and [c.name for c in internal] == ["record_fact"]


def test_json_in_text_is_the_fallback(book: ToolBook) -> None:
    reply = _reply(
        content='Sure.\n{"device": "smarthome_0", "action": "list_devices", "args": {"room": "Hall"}}'
    )
    step, _ = decode_action(reply, book)
    assert step == Step(device="smarthome_0", action="list_devices", args={"room": "Hall"})
    text = '{"action": "record_fact", "args": {"name": "n"}} then {"action": "finish"}'
    step, internal = decode_action(_reply(content=text), book)
    assert step.action == "finish" and internal[0].args == {"name": "n"}


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (_reply(content="I think I will turn it on"), "no action found"),
        (_reply(content=None), "(empty reply)"),
        (_reply(refusal="I can't help"), "refused"),
        (_reply(calls=[("finish", "{not json")]), "not valid JSON"),
        (_reply(calls=[("smarthome__teleport", "{}")]), "unknown tool"),
        (_reply(content='{"device": "smarthome_0", "args": {}}'), "no action found"),
        (_reply(content='{"action": "x", "args": [1]}'), '"args" must be a JSON object'),
    ],
)
def test_unusable_replies_raise_a_readable_error(book: ToolBook, reply: ChatReply, message: str) -> None:
    with pytest.raises(ReplyError) as err:
        decode_action(reply, book)
    assert message in str(err.value)


def test_state_calls_alone_are_no_action(book: ToolBook) -> None:
    with pytest.raises(NoAction) as err:
        decode_action(_reply(calls=[("record_fact", '{"name": "n"}')]), book)
    assert err.value.calls[0].name == "record_fact"


def test_a_tool_name_in_json_text_means_its_action(book: ToolBook) -> None:
    step, _ = decode_action(_reply(content='{"action": "smarthome__list_rooms", "args": {}}'), book)
    assert step == Step(device="smarthome_0", action="list_rooms")
