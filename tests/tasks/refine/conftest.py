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
    """A two-device transfer: a temperature read in the smart home, written to a note on the phone."""
    from devicesworld.tasks.build import default_composer
    from devicesworld.tasks.composition.patterns import build_pattern_task

    # the first seed whose transfer reads the smart home (the typed composition decides
    # which shapes fit, so the seed is searched rather than fixed)
    composer = default_composer()
    for seed in range(1, 200):
        task = build_pattern_task(composer, "direct_information_transfer", seed, "x")
        if task.metadata.sources and any(d.kind == "smarthome" for d in task.devices):
            return task
    raise AssertionError("no direct transfer over the smart home in 200 seeds")
