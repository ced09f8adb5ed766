"""A scripted OpenAI-compatible server on 127.0.0.1 for every LLM-agent test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devicesworld.agents.llm.testserver import ScriptedServer
from tests.agents.llm.llm_helpers import LATE_S


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedServer]:
    for var in ("OPENAI_API_KEY", "DEVICESWORLD_API_KEY", "DEVICESWORLD_MODEL", "DEVICESWORLD_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    srv = ScriptedServer(delay_s=LATE_S).start()
    try:
        yield srv
    finally:
        srv.stop()
