"""A scripted OpenAI-compatible server and one small composed task for the LLM-stage tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from devicesworld.agents.llm.testserver import ScriptedServer
from devicesworld.spec.models import Task


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedServer]:
    for var in ("OPENAI_API_KEY", "DEVICESWORLD_API_KEY", "DEVICESWORLD_MODEL", "DEVICESWORLD_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    srv = ScriptedServer(delay_s=0.6).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def composed() -> Task:
    """A two-device transfer of the frozen ``full-v1``: a value read in the smart home, written elsewhere."""
    from devicesworld.tasks.refine.guards import literals
    from tests.tasks.frozen import of_pattern

    for task in of_pattern("direct_information_transfer"):
        home = any(d.kind == "smarthome" for d in task.devices)
        if task.metadata.sources and home and literals(task.instruction):
            return task
    raise AssertionError("full-v1 has no direct transfer over the smart home")
